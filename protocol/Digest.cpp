#include "protocol/Digest.h"

// C++
#include <algorithm>

// Qt
#include <QStringList>

using namespace Qt::StringLiterals;

namespace Presence::Protocol {

namespace {

QString fnv1a64(const QStringList &lines)
{
    quint64 hash = 14695981039346656037ULL;
    for (const QString &line : lines) {
        const QByteArray utf8 = line.toUtf8();
        for (const char byte : utf8) {
            hash ^= quint8(byte);
            hash *= 1099511628211ULL;
        }
    }
    return u"%1"_s.arg(hash, 16, 16, QLatin1Char('0'));
}

} // namespace

QString watchedDigest(QList<UserPresence> users)
{
    std::sort(users.begin(), users.end(),
        [](const UserPresence &a, const UserPresence &b) { return a.id < b.id; });
    QStringList lines;
    lines.reserve(users.size());
    for (const UserPresence &user : users)
        lines.append(u"%1 %2 %3\n"_s.arg(user.id, toString(user.status)).arg(user.seq));
    return fnv1a64(lines);
}

QString availabilityDigest(const QHash<QString, PresenceStatus> &available)
{
    QStringList lines;
    lines.reserve(available.size());
    for (auto it = available.cbegin(); it != available.cend(); ++it) {
        if (it.value() != PresenceStatus::Offline)
            lines.append(u"%1 %2\n"_s.arg(it.key(), toString(it.value())));
    }
    lines.sort(); // ids are ASCII: the same order as sorting by bytes
    return fnv1a64(lines);
}

} // namespace Presence::Protocol
