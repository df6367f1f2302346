#pragma once

// C++
#include <optional>

// Qt
#include <QByteArray>
#include <QList>
#include <QString>

struct redisReader;
struct redisReply;

namespace Presence::Server {

// One Redis reply as a plain value. It is copied out of hiredis as soon as hiredis hands it
// over, so no hiredis pointer ever outlives the callback that delivered it.
struct RedisReply {
    enum class Type { Nil, Status, Error, Integer, String, Array };

    // What a reply may hold before it is refused. Beyond these a reply becomes an Error
    // instead of a deep recursion or a huge copy: a misbehaving server costs one failed
    // command, not the gateway.
    struct Limits {
        // Nesting levels, the reply itself being level 1.
        int maxDepth = 8;
        // Array elements in the whole reply, at every level.
        qsizetype maxElements = 1'000'000;
    };

    // Errors the client makes itself, in `bytes`.
    static constexpr char kConnectionLost[] = "connection lost";
    static constexpr char kNotConnected[] = "not connected";
    static constexpr char kClosed[] = "closed";
    static constexpr char kTooDeep[] = "reply nested too deep";
    static constexpr char kTooLarge[] = "reply has too many elements";

    Type type = Type::Nil;
    qint64 integer = 0; // Integer
    QByteArray bytes; // String, Status, and the message of an Error
    QList<RedisReply> elements; // Array

    [[nodiscard]] static RedisReply fromHiredis(const redisReply *reply, const Limits &limits);
    [[nodiscard]] static RedisReply error(const QByteArray &message);
    // hiredis allocates an array reply's table of elements from the length the server declares,
    // before any element arrives: "*1444444444" alone asks for 11 GB (found by fuzzing). This
    // makes `reader` refuse a declared length over Limits{}.maxElements instead; hiredis then
    // fails the reply and the connection, which it reports as "Out of memory".
    static void refuseHugeArrays(redisReader *reader);

    [[nodiscard]] bool isNil() const { return type == Type::Nil; }
    [[nodiscard]] bool isError() const { return type == Type::Error; }
    [[nodiscard]] bool isArray() const { return type == Type::Array; }
    // The +OK status most writes answer with.
    [[nodiscard]] bool isOk() const { return type == Type::Status && bytes == "OK"; }
    // An error of the connection rather than of the command: lost, not connected, or closed.
    [[nodiscard]] bool isConnectionError() const;

    // An Integer, or a String holding a decimal integer (GET of a counter).
    [[nodiscard]] std::optional<qint64> toInteger() const;
    // The payload of a String or a Status.
    [[nodiscard]] std::optional<QByteArray> toBytes() const;
    // For logs: the message of an Error, else empty.
    [[nodiscard]] QString errorMessage() const;
};

} // namespace Presence::Server
