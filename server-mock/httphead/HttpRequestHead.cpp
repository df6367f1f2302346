#include "server-mock/httphead/HttpRequestHead.h"

// C++
#include <algorithm>

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

using Verdict = HttpRequestHead::Verdict;

// RFC 9110 §5.6.2.
bool isToken(QByteArrayView text)
{
    const auto tokenChar = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
            || QByteArrayView("!#$%&'*+-.^_`|~").contains(c);
    };
    return !text.isEmpty() && std::all_of(text.begin(), text.end(), tokenChar);
}

bool hasControlCharacter(QByteArrayView line)
{
    return std::any_of(line.begin(), line.end(),
        [](char c) { return (uchar(c) < 0x20 && c != '\t') || uchar(c) == 0x7f; });
}

// Optional whitespace (RFC 9110 §5.6.3) off both ends.
QByteArrayView withoutWhitespace(QByteArrayView text)
{
    while (!text.isEmpty() && (text.front() == ' ' || text.front() == '\t'))
        text = text.sliced(1);
    while (!text.isEmpty() && (text.back() == ' ' || text.back() == '\t'))
        text.chop(1);
    return text;
}

// Keeps what was read so far: a reader may judge it even though the head is refused.
HttpRequestHead refused(HttpRequestHead head, Verdict verdict, QString problem)
{
    head.verdict = verdict;
    head.problem = std::move(problem);
    return head;
}

// method SP request-target SP HTTP-version (RFC 9112 §3), into head; false when malformed.
bool readRequestLine(QByteArrayView line, HttpRequestHead &head)
{
    const qsizetype first = line.indexOf(' ');
    const qsizetype second = first < 0 ? -1 : line.indexOf(' ', first + 1);
    if (second < 0 || line.indexOf(' ', second + 1) >= 0 || second == first + 1
        || !isToken(line.first(first)))
        return false;
    head.hasRequestLine = true;
    head.method = line.first(first);
    head.target = line.sliced(first + 1, second - first - 1);
    head.version = line.sliced(second + 1);
    return true;
}

} // namespace

HttpRequestHead HttpRequestHead::read(QByteArrayView buffered, const Limits &limits)
{
    HttpRequestHead head;
    qsizetype pos = 0;
    // RFC 9112 §2.2: empty lines before the request line are ignored (within the limit).
    while (pos < buffered.size() && (buffered[pos] == '\r' || buffered[pos] == '\n'))
        ++pos;

    for (;;) {
        const qsizetype newline = buffered.indexOf('\n', pos);
        const qsizetype end = newline < 0 ? buffered.size() : newline + 1;
        // Checked before a line is whole, so a head that never ends (slowloris) is refused.
        if (end > limits.maxHeadBytes)
            return refused(std::move(head), Verdict::TooLarge,
                u"the request line and headers are larger than %1 bytes"_s.arg(
                    limits.maxHeadBytes));
        if (newline < 0)
            return head; // Incomplete
        QByteArrayView line = buffered.sliced(pos, newline - pos);
        if (line.endsWith('\r'))
            line.chop(1);
        pos = end;
        if (hasControlCharacter(line))
            return refused(std::move(head), Verdict::Malformed,
                u"the request head holds a control character"_s);

        if (!head.hasRequestLine) {
            if (!readRequestLine(line, head))
                return refused(std::move(head), Verdict::Malformed,
                    u"the request line must be 'METHOD /path HTTP/1.1'"_s);
            continue;
        }
        if (line.isEmpty())
            break;
        if (head.fields.size() >= limits.maxHeaderFields)
            return refused(std::move(head), Verdict::TooLarge,
                u"more than %1 header fields"_s.arg(limits.maxHeaderFields));
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0 || !isToken(line.first(colon)))
            return refused(std::move(head), Verdict::Malformed,
                u"a header line must be 'Name: value' (no line folding)"_s);
        head.fields.append({ line.first(colon), withoutWhitespace(line.sliced(colon + 1)) });
    }
    head.verdict = Verdict::Complete;
    head.size = pos;
    return head;
}

bool HttpRequestHead::listHas(QByteArrayView value, QByteArrayView token)
{
    while (!value.isEmpty()) {
        const qsizetype comma = value.indexOf(',');
        const QByteArrayView item = withoutWhitespace(comma < 0 ? value : value.first(comma));
        if (item.compare(token, Qt::CaseInsensitive) == 0)
            return true;
        value = comma < 0 ? QByteArrayView() : value.sliced(comma + 1);
    }
    return false;
}

} // namespace Presence::Server
