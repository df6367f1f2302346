// HttpRequestHead: the request head the admin API and the WebSocket upgrade both read, as raw
// bytes. Properties: a complete head lies within the bytes and within the limits, its fields
// point into it, and the same bytes cut one short of its end are not complete; every refusal
// says why.

// C++
#include <cstddef>
#include <cstdint>

// Qt
#include <QByteArray>

// Presence
#include "FuzzCheck.h"
#include "server-mock/httphead/HttpRequestHead.h"

using Presence::Server::HttpRequestHead;

namespace {

constexpr HttpRequestHead::Limits kLimits { .maxHeadBytes = 2048, .maxHeaderFields = 16 };

bool within(QByteArrayView part, QByteArrayView whole)
{
    return part.isEmpty()
        || (part.data() >= whole.data()
            && part.data() + part.size() <= whole.data() + whole.size());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const HttpRequestHead head = HttpRequestHead::read(bytes, kLimits);
    switch (head.verdict) {
    case HttpRequestHead::Verdict::Incomplete:
        fuzzCheck(bytes.size() <= kLimits.maxHeadBytes, "incomplete only within the limit");
        break;
    case HttpRequestHead::Verdict::Complete: {
        fuzzCheck(head.size > 0 && head.size <= bytes.size(), "the head is in the bytes");
        fuzzCheck(head.size <= kLimits.maxHeadBytes, "the head is within the limit");
        fuzzCheck(head.fields.size() <= kLimits.maxHeaderFields, "fields within the limit");
        fuzzCheck(head.hasRequestLine, "a complete head has a request line");
        const QByteArrayView inHead = bytes.first(head.size);
        fuzzCheck(within(head.method, inHead) && within(head.target, inHead)
                && within(head.version, inHead),
            "the request line points into the head");
        for (const HttpRequestHead::Field &field : head.fields) {
            fuzzCheck(within(field.name, inHead) && within(field.value, inHead),
                "fields point into the head");
        }
        const HttpRequestHead shorter = HttpRequestHead::read(bytes.first(head.size - 1), kLimits);
        fuzzCheck(shorter.verdict != HttpRequestHead::Verdict::Complete,
            "not complete before the blank line");
        break;
    }
    case HttpRequestHead::Verdict::TooLarge:
    case HttpRequestHead::Verdict::Malformed:
        fuzzCheck(!head.problem.isEmpty(), "a refusal says why");
        break;
    }
    // Any header field value holds one token or another; the list reader must never overrun.
    for (const HttpRequestHead::Field &field : head.fields)
        (void)HttpRequestHead::listHas(field.value, "upgrade");
    return 0;
}
