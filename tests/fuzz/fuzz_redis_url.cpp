// RedisUrl: --redis from the command line or a config, as any text. Properties: a URL is read or
// refused with a reason; one that is read has a host, a port and a database within their
// ranges, and writes back (toString) to a URL that reads to the same.

// C++
#include <cstddef>
#include <cstdint>

// Qt
#include <QString>

// Presence
#include "FuzzCheck.h"
#include "server-mock/redis/client/RedisUrl.h"

using Presence::Server::RedisUrl;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    QString error;
    const std::optional<RedisUrl> url = RedisUrl::parse(text, &error);
    if (!url) {
        fuzzCheck(!error.isEmpty(), "a refusal says why");
        return 0;
    }
    fuzzCheck(!url->host.isEmpty(), "a URL has a host");
    fuzzCheck(url->port > 0, "a port from 1");
    fuzzCheck(url->db >= 0 && url->db <= RedisUrl::kMaxDb, "a database within the range");
    QString againError;
    const std::optional<RedisUrl> again = RedisUrl::parse(url->toString(), &againError);
    fuzzCheck(again.has_value(), "a URL read writes back to one that reads");
    fuzzCheck(*again == *url, "and to the same URL");
    return 0;
}
