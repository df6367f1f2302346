#pragma once

// C++
#include <optional>

// Qt
#include <QString>
#include <QStringView>

namespace Presence::Server {

// Where the gateway's Redis is: redis://HOST[:PORT][/DB], HOST being a name, an IPv4 address
// or an IPv6 address in brackets. It names a server and a database, nothing more: no user,
// password, TLS (rediss://) or ?options, so a URL can be logged as it is.
struct RedisUrl {
    static constexpr quint16 kDefaultPort = 6379;
    // Redis's stock configuration has 16 databases; gateways that share one tell their keys
    // apart with a prefix, not with more databases.
    static constexpr int kMaxDb = 15;

    QString host; // without the brackets of an IPv6 address
    quint16 port = kDefaultPort;
    int db = 0;

    // The URL, or nullopt with *error saying what is wrong in words meant to follow the name
    // of a command-line option, e.g. `port must be a number from 1 to 65535 (got "0")`.
    [[nodiscard]] static std::optional<RedisUrl> parse(QStringView text, QString *error);

    // redis://HOST:PORT/DB, brackets restored around an IPv6 address.
    [[nodiscard]] QString toString() const;

    friend bool operator==(const RedisUrl &, const RedisUrl &) = default;
};

} // namespace Presence::Server
