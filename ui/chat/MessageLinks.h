#pragma once

// C++
#include <optional>

// Qt
#include <QList>
#include <QUrl>

namespace Presence::Ui {

// The web links in a message's text: what the chat bubble underlines and opens on a click.
// Only http and https: other schemes (file:, javascript:, custom handlers) could act on the
// reader's machine from a friend's words.
class MessageLinks {
public:
    struct Link {
        int start = 0; // in the text, in UTF-16 units
        int length = 0;
        QUrl url;
    };

    [[nodiscard]] static QList<Link> find(const QString &text);
    // The link covering text position `position`, if any.
    [[nodiscard]] static std::optional<QUrl> at(const QList<Link> &links, int position);
};

} // namespace Presence::Ui
