#include "server-mock/qa/FaultSpec.h"

// C++
#include <array>
#include <cmath>

// Qt
#include <QJsonValue>
#include <QStringList>

// Presence
#include "protocol/FieldReader.h"

using namespace Qt::StringLiterals;
using Presence::Protocol::FieldReader;
using Presence::Protocol::Need;

namespace Presence::Server {

namespace {

constexpr std::array kKinds { FaultKind::Drop, FaultKind::Close, FaultKind::Delay, FaultKind::Stall,
    FaultKind::Duplicate, FaultKind::Reorder, FaultKind::Lose, FaultKind::Refuse,
    FaultKind::Crash };

QString kindNames()
{
    QStringList names;
    for (const FaultKind kind : kKinds)
        names.append(toString(kind));
    return names.join(u", "_s);
}

} // namespace

QString toString(FaultKind kind)
{
    switch (kind) {
    case FaultKind::Drop:
        return u"drop"_s;
    case FaultKind::Close:
        return u"close"_s;
    case FaultKind::Delay:
        return u"delay"_s;
    case FaultKind::Stall:
        return u"stall"_s;
    case FaultKind::Duplicate:
        return u"duplicate"_s;
    case FaultKind::Lose:
        return u"lose"_s;
    case FaultKind::Reorder:
        return u"reorder"_s;
    case FaultKind::Refuse:
        return u"refuse"_s;
    case FaultKind::Crash:
        return u"crash"_s;
    }
    return {};
}

std::optional<FaultKind> faultKindFromString(QStringView text)
{
    for (const FaultKind kind : kKinds) {
        if (text == toString(kind))
            return kind;
    }
    return std::nullopt;
}

bool FaultSpec::isSendableCloseCode(qint64 code)
{
    // 1004-1006 and 1015 are reserved for reporting, never sent; 1012-1014 are not ours
    // to use; 1016-2999 are unassigned or reserved for extensions.
    return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1011)
        || (code >= 3000 && code <= 4999);
}

std::optional<FaultSpec> FaultSpec::fromJson(const QJsonObject &json, QString *error)
{
    FieldReader read(json);
    FaultSpec spec;
    const auto kindValue = read.value("kind"_L1, Need::Required);
    const auto kind = faultKindFromString(kindValue ? kindValue->toString() : QString());
    if (kindValue && !kind)
        read.failField("kind"_L1, u"must be one of %1"_s.arg(kindNames()));
    if (kind) {
        spec.kind = *kind;
        const QString owner = u"a %1 fault"_s.arg(toString(*kind));
        switch (*kind) {
        case FaultKind::Drop:
            if (read.allowOnly({ "kind"_L1, "user"_L1 }, owner))
                spec.user = read.id("user"_L1, Need::Optional);
            break;
        case FaultKind::Close:
            if (read.allowOnly({ "kind"_L1, "user"_L1, "code"_L1, "reason"_L1 }, owner)) {
                spec.user = read.id("user"_L1, Need::Optional);
                if (const auto code = read.value("code"_L1, Need::Required)) {
                    const double number = code->toDouble(-1);
                    // Range first: a huge double does not convert to an integer.
                    if (!code->isDouble() || std::trunc(number) != number || number < 1000
                        || number > 4999 || !isSendableCloseCode(qint64(number)))
                        read.failField("code"_L1,
                            u"must be a close code a server may send: 1000-1003, 1007-1011 or "
                            "3000-4999"_s);
                    else
                        spec.code = quint16(number);
                }
                spec.reason = read.string("reason"_L1, Need::Optional);
                const qsizetype bytes = spec.reason.toUtf8().size();
                if (bytes > kMaxReasonBytes)
                    read.failField("reason"_L1,
                        u"must be at most %1 bytes in UTF-8 (it has %2)"_s.arg(kMaxReasonBytes)
                            .arg(bytes));
            }
            break;
        case FaultKind::Delay:
            if (read.allowOnly({ "kind"_L1, "user"_L1, "ms"_L1 }, owner)) {
                spec.user = read.id("user"_L1, Need::Optional);
                if (const auto ms = read.integer("ms"_L1, 1, kMaxDelayMs, Need::Required))
                    spec.delay = std::chrono::milliseconds(*ms);
            }
            break;
        case FaultKind::Stall:
        case FaultKind::Duplicate:
        case FaultKind::Reorder:
        case FaultKind::Lose:
            if (read.allowOnly({ "kind"_L1, "user"_L1 }, owner))
                spec.user = read.id("user"_L1, Need::Required);
            break;
        case FaultKind::Refuse:
            if (read.allowOnly({ "kind"_L1, "seconds"_L1 }, owner)) {
                if (const auto seconds = read.value("seconds"_L1, Need::Required)) {
                    const double number = seconds->toDouble(-1);
                    if (!seconds->isDouble() || !(number > 0) || number > kMaxRefuseSeconds)
                        read.failField("seconds"_L1,
                            u"must be a number of seconds above 0 and at most %1"_s.arg(
                                kMaxRefuseSeconds));
                    else
                        spec.refuseFor = std::chrono::duration<double>(number);
                }
            }
            break;
        case FaultKind::Crash:
            read.allowOnly({ "kind"_L1 }, owner);
            break;
        }
    }
    if (read.failed()) {
        if (error)
            *error = read.problem();
        return std::nullopt;
    }
    return spec;
}

QJsonObject FaultSpec::toJson() const
{
    QJsonObject json { { "kind"_L1, toString(kind) } };
    switch (kind) {
    case FaultKind::Drop:
    case FaultKind::Close:
    case FaultKind::Delay:
    case FaultKind::Stall:
    case FaultKind::Duplicate:
    case FaultKind::Reorder:
    case FaultKind::Lose:
        if (!user.isEmpty())
            json.insert("user"_L1, user);
        break;
    case FaultKind::Refuse:
    case FaultKind::Crash:
        break;
    }
    switch (kind) {
    case FaultKind::Close:
        json.insert("code"_L1, int(code));
        if (!reason.isEmpty())
            json.insert("reason"_L1, reason);
        break;
    case FaultKind::Delay:
        json.insert("ms"_L1, qint64(delay.count()));
        break;
    case FaultKind::Refuse:
        json.insert("seconds"_L1, refuseFor.count());
        break;
    case FaultKind::Drop:
    case FaultKind::Stall:
    case FaultKind::Duplicate:
    case FaultKind::Reorder:
    case FaultKind::Lose:
    case FaultKind::Crash:
        break;
    }
    return json;
}

} // namespace Presence::Server
