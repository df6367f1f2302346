#pragma once

// Qt
#include <QByteArray>
#include <QString>
#include <QStringView>

namespace Presence::Server {

// The token of an "Authorization: Bearer <token>" header (RFC 6750 §2.1). The token is taken
// as it is: 1-512 visible ASCII characters, no spaces (what a users file's tokens must be to be
// usable over HTTP at all).
struct BearerToken {
    enum class Status {
        Missing, // no Authorization header, or another scheme (Basic…)
        Malformed, // "Bearer" without a usable token
        Present,
    };

    Status status = Status::Missing;
    QString token;

    [[nodiscard]] static BearerToken fromHeader(const QByteArray &authorization);
};

// Whether two secrets are equal, in a time that depends on neither where they differ nor their
// lengths (both are hashed first), so that a wrong guess teaches nothing about the right one.
[[nodiscard]] bool secretsEqual(QStringView a, QStringView b);

} // namespace Presence::Server
