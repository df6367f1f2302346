#pragma once

// C++
#include <functional>

// Qt
#include <QList>
#include <QStringList>

// Presence
#include "server-mock/transport/ClientTransport.h"

// What a transport told its receiver, in the order told: the tests' view of a connection.
struct RecordingReceiver : Presence::Server::ClientTransport::Receiver {
    QStringList texts;
    int binaries = 0;
    int pings = 0;
    bool answerPings = true; // what transportPing() says
    int pongs = 0;
    int resumed = 0;
    QList<quint16> closed; // close codes
    std::function<void(const QString &)> onText; // also told each text, when set

    void transportText(const QString &text) override
    {
        texts.append(text);
        if (onText)
            onText(text);
    }
    void transportBinary() override { ++binaries; }
    bool transportPing() override
    {
        ++pings;
        return answerPings;
    }
    void transportPong() override { ++pongs; }
    void transportReadingResumed() override { ++resumed; }
    void transportClosed(quint16 closeCode) override { closed.append(closeCode); }
};
