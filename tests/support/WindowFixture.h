#pragma once

// Qt
#include <QSize>
#include <QString>
#include <QTest>
#include <QUrl>

// Presence
#include "GatewayFixture.h"
#include "SessionFixture.h"
#include "app/SessionModelBridge.h"
#include "app/WindowWiring.h"
#include "models/FriendListModel.h"
#include "session/ChatController.h"
#include "session/GatewaySession.h"
#include "ui/shell/MainWindow.h"

// The client core wired as the application wires it (session, friend model, bridge, chat
// controller), without widgets. Header-only, like SessionFixture, so the support library
// stays free of client code.
struct ClientFixture {
    ClientFixture()
        : session(quickSessionOptions())
        , bridge(&session, &friends)
        , chat(&session, &friends)
    {
    }
    void signIn(const QUrl &url, const QString &user) { session.open(url, tokenOf(user)); }
    // Online with the friend list loaded (exactly `friendCount` rows, if given), within 5 s.
    [[nodiscard]] bool waitOnline(int friendCount = -1) const
    {
        return QTest::qWaitFor(
            [this, friendCount] {
                return session.state() == Presence::Session::GatewaySession::State::Online
                    && (friendCount < 0 ? friends.rowCount() > 0
                                        : friends.rowCount() == friendCount);
            },
            5000);
    }

    Presence::Session::GatewaySession session;
    Presence::Models::FriendListModel friends;
    Presence::App::SessionModelBridge bridge;
    Presence::Session::ChatController chat;
};

// The same with the main window, shown at `size`, then signed in as `user`.
struct WindowFixture : ClientFixture {
    WindowFixture(const QUrl &url, const QString &user, QSize size = QSize(700, 500))
        : window(&friends, &chat)
        , wiring(&session, &chat, &friends, &window)
    {
        window.resize(size);
        window.show();
        signIn(url, user);
    }

    Presence::Ui::MainWindow window;
    Presence::App::WindowWiring wiring;
};
