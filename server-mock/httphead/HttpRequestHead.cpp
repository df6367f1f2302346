#include "server-mock/httphead/HttpRequestHead.h"

// C++
#include <algorithm>
#include <optional>

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

using Verdict = HttpRequestHead::Verdict;

// Enough for any length worth reading; more digits could overflow qint64.
constexpr qsizetype kMaxLengthDigits = 15;

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

HttpRequestHead refused(Verdict verdict, QString problem)
{
    HttpRequestHead head;
    head.verdict = verdict;
    head.problem = std::move(problem);
    return head;
}

// method SP request-target SP HTTP-version; empty when fine, otherwise what is wrong.
QString requestLineProblem(QByteArrayView line)
{
    const qsizetype first = line.indexOf(' ');
    const qsizetype second = first < 0 ? -1 : line.indexOf(' ', first + 1);
    if (second < 0 || line.indexOf(' ', second + 1) >= 0)
        return u"the request line must be 'METHOD /path HTTP/1.1'"_s;
    if (!isToken(line.first(first)) || second == first + 1)
        return u"the request line must be 'METHOD /path HTTP/1.1'"_s;
    const QByteArrayView version = line.sliced(second + 1);
    if (version != "HTTP/1.1" && version != "HTTP/1.0")
        return u"only HTTP/1.1 and HTTP/1.0 are spoken here"_s;
    return {};
}

} // namespace

HttpRequestHead HttpRequestHead::read(QByteArrayView buffered, const HttpLimits &limits)
{
    HttpRequestHead head;
    qsizetype pos = 0;
    // RFC 9112 §2.2: empty lines before the request line are ignored (within the limit).
    while (pos < buffered.size() && (buffered[pos] == '\r' || buffered[pos] == '\n'))
        ++pos;

    bool requestLine = true;
    int fields = 0;
    bool chunked = false;
    std::optional<qint64> length;
    for (;;) {
        const qsizetype newline = buffered.indexOf('\n', pos);
        const qsizetype end = newline < 0 ? buffered.size() : newline + 1;
        if (end > limits.maxHeadBytes)
            return refused(Verdict::TooLarge,
                u"the request line and headers are larger than %1 bytes"_s.arg(
                    limits.maxHeadBytes));
        if (newline < 0)
            return head; // Incomplete
        QByteArrayView line = buffered.sliced(pos, newline - pos);
        if (line.endsWith('\r'))
            line.chop(1);
        pos = end;
        if (hasControlCharacter(line))
            return refused(Verdict::Malformed, u"the request head holds a control character"_s);

        if (requestLine) {
            if (QString problem = requestLineProblem(line); !problem.isEmpty())
                return refused(Verdict::Malformed, problem);
            requestLine = false;
            continue;
        }
        if (line.isEmpty())
            break;
        if (++fields > limits.maxHeaderFields)
            return refused(
                Verdict::TooLarge, u"more than %1 header fields"_s.arg(limits.maxHeaderFields));
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0 || !isToken(line.first(colon)))
            return refused(
                Verdict::Malformed, u"a header line must be 'Name: value' (no line folding)"_s);
        const QByteArrayView name = line.first(colon);
        const QByteArrayView value = line.sliced(colon + 1).trimmed();

        if (name.compare("Content-Length", Qt::CaseInsensitive) == 0) {
            const bool digits = !value.isEmpty() && value.size() <= kMaxLengthDigits
                && std::all_of(
                    value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
            if (!digits)
                return refused(Verdict::Malformed, u"Content-Length must be a number of bytes"_s);
            const qint64 number = value.toLongLong();
            if (length && *length != number)
                return refused(Verdict::Malformed, u"two different Content-Length headers"_s);
            length = number;
        } else if (name.compare("Transfer-Encoding", Qt::CaseInsensitive) == 0) {
            chunked = true;
        } else if (name.compare("Expect", Qt::CaseInsensitive) == 0) {
            head.expectsContinue = value.compare("100-continue", Qt::CaseInsensitive) == 0;
        }
    }
    if (chunked)
        return refused(Verdict::ChunkedBody,
            u"send the body with a Content-Length (Transfer-Encoding is not accepted)"_s);
    head.verdict = Verdict::Complete;
    head.size = pos;
    head.contentLength = length.value_or(0);
    return head;
}

} // namespace Presence::Server
