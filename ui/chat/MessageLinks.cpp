#include "ui/chat/MessageLinks.h"

// C++
#include <optional>

// Qt
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Presence::Ui {

namespace {

// Trailing characters that end a sentence rather than a URL: "see https://a.org/x." or
// "(https://a.org)". A closing bracket stays when the link opened one itself, as in
// Wikipedia's "https://en.wikipedia.org/wiki/Pascal_(unit)".
int trimmedLength(const QString &text, int start, int length)
{
    while (length > 0) {
        const QChar last = text.at(start + length - 1);
        if (u".,;:!?'\""_s.contains(last)) {
            --length;
            continue;
        }
        if (last == u')' || last == u']' || last == u'}') {
            const QChar open = last == u')' ? u'(' : last == u']' ? u'[' : u'{';
            const QStringView link = QStringView(text).mid(start, length);
            if (link.count(open) < link.count(last)) {
                --length;
                continue;
            }
        }
        break;
    }
    return length;
}

} // namespace

QList<MessageLinks::Link> MessageLinks::find(const QString &text)
{
    // Unicode white space ends a link too: the bubble shows a line break as U+2028, which
    // plain \s does not match.
    static const QRegularExpression pattern(u"\\bhttps?://[^\\s<>\"]+"_s,
        QRegularExpression::CaseInsensitiveOption | QRegularExpression::UseUnicodePropertiesOption);
    QList<Link> links;
    for (auto it = pattern.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        const int start = int(match.capturedStart());
        const int length = trimmedLength(text, start, int(match.capturedLength()));
        const QUrl url(text.mid(start, length), QUrl::StrictMode);
        if (url.isValid() && !url.host().isEmpty())
            links.append({ start, length, url });
    }
    return links;
}

std::optional<QUrl> MessageLinks::at(const QList<Link> &links, int position)
{
    for (const Link &link : links) {
        if (position >= link.start && position < link.start + link.length)
            return link.url;
    }
    return std::nullopt;
}

} // namespace Presence::Ui
