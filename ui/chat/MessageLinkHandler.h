#pragma once

// C++
#include <optional>

// Qt
#include <QObject>
#include <QPoint>
#include <QUrl>

class QListView;

namespace Presence::Ui {

class ChatMessageDelegate;

// Makes the links in a chat view's bubbles live: a pointing hand over a link, and a left
// click on it (press and release on the same link) reports linkActivated. Hit-testing is the
// delegate's, with the option the view paints the row with.
class MessageLinkHandler : public QObject {
    Q_OBJECT
public:
    MessageLinkHandler(QListView *view, ChatMessageDelegate *delegate);

    // The link at `pos`, in the view's viewport coordinates.
    [[nodiscard]] std::optional<QUrl> linkAt(const QPoint &pos) const;

Q_SIGNALS:
    void linkActivated(const QUrl &url);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void showCursorFor(const std::optional<QUrl> &link);

    QListView *m_view;
    // Compared with, never called: while the view is destroyed its viewport still sends events,
    // and asking the half-destroyed view for its viewport would be a call on a dead object.
    QObject *m_viewport;
    ChatMessageDelegate *m_delegate;
    std::optional<QUrl> m_pressed;
};

} // namespace Presence::Ui
