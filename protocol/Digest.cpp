#include "protocol/Digest.h"

// C++
#include <algorithm>
#include <charconv>
#include <vector>

using namespace Qt::StringLiterals;

namespace Presence::Protocol {

namespace {

// FNV-1a 64 fed line by line, straight from the strings: a digest round over 19,000
// connections of 50 users each must not format a million lines first.
class Fnv1a64 {
public:
    void add(char byte)
    {
        m_hash ^= quint8(byte);
        m_hash *= 1099511628211ULL;
    }
    void add(QStringView text)
    {
        for (const QChar c : text) {
            if (c.unicode() >= 0x80) { // ids are ASCII, but any text hashes as UTF-8
                addUtf8(text);
                return;
            }
        }
        for (const QChar c : text)
            add(char(c.unicode()));
    }
    void add(qint64 number)
    {
        char digits[20];
        const auto end = std::to_chars(std::begin(digits), std::end(digits), number).ptr;
        std::for_each(std::begin(digits), end, [this](char byte) { add(byte); });
    }
    [[nodiscard]] QString hex() const { return u"%1"_s.arg(m_hash, 16, 16, QLatin1Char('0')); }

private:
    void addUtf8(QStringView text)
    {
        for (const char byte : text.toUtf8())
            add(byte);
    }

    quint64 m_hash = 14695981039346656037ULL;
};

} // namespace

QString watchedDigest(QList<UserPresence> users)
{
    std::sort(users.begin(), users.end(),
        [](const UserPresence &a, const UserPresence &b) { return a.id < b.id; });
    Fnv1a64 hash;
    for (const UserPresence &user : users) {
        hash.add(user.id);
        hash.add(' ');
        hash.add(toString(user.status));
        hash.add(' ');
        hash.add(user.seq);
        hash.add('\n');
    }
    return hash.hex();
}

QString availabilityDigest(const QHash<QString, PresenceStatus> &available)
{
    std::vector<std::pair<QStringView, PresenceStatus>> lines;
    lines.reserve(size_t(available.size()));
    for (auto it = available.cbegin(); it != available.cend(); ++it) {
        if (it.value() != PresenceStatus::Offline)
            lines.emplace_back(it.key(), it.value());
    }
    // Ids are ASCII: UTF-16 order is byte order.
    std::sort(lines.begin(), lines.end());
    Fnv1a64 hash;
    for (const auto &[id, status] : lines) {
        hash.add(id);
        hash.add(' ');
        hash.add(toString(status));
        hash.add('\n');
    }
    return hash.hex();
}

} // namespace Presence::Protocol
