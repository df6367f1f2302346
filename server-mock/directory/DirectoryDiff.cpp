#include "server-mock/directory/DirectoryDiff.h"

// C++
#include <algorithm>

// Qt
#include <QSet>

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

using Pair = DirectoryDiff::Pair;

Pair ordered(const QString &a, const QString &b)
{
    return a < b ? Pair { a, b } : Pair { b, a };
}

// Every friendship of a directory once, by ids, but those of `others`.
QSet<Pair> friendshipsOf(const UserDirectory &directory, const QSet<int> &others = {})
{
    QSet<Pair> pairs;
    for (int i = 0; i < directory.size(); ++i) {
        if (directory.isRemoved(i) || others.contains(i))
            continue;
        for (const int other : directory.user(i).friends) {
            if (other > i && !others.contains(other))
                pairs.insert(ordered(directory.user(i).id, directory.user(other).id));
        }
    }
    return pairs;
}

QList<Pair> sortedList(const QSet<Pair> &pairs)
{
    QList<Pair> list(pairs.cbegin(), pairs.cend());
    std::sort(list.begin(), list.end());
    return list;
}

} // namespace

QString DirectoryDiff::summary() const
{
    return u"%1 joined, %2 left, %3 new tokens, %4 renamed, %5 friendships made, %6 ended"_s
        .arg(joined.size())
        .arg(left.size())
        .arg(retokened.size())
        .arg(renamed.size())
        .arg(befriended.size())
        .arg(unfriended.size());
}

DirectoryDiff DirectoryDiff::between(
    const UserDirectory &current, const UserDirectory &next, const QSet<int> &others)
{
    DirectoryDiff diff;
    for (int i = 0; i < current.size(); ++i) {
        if (!current.isRemoved(i) && !others.contains(i) && !next.indexOfId(current.user(i).id))
            diff.left.append(current.user(i).id);
    }
    for (int i = 0; i < next.size(); ++i) {
        const UserDirectory::User &user = next.user(i);
        const auto before = current.indexOfId(user.id);
        if (!before) {
            diff.joined.append({ user.id, user.name, user.token });
            continue;
        }
        const UserDirectory::User &was = current.user(*before);
        if (was.token != user.token)
            diff.retokened.append({ user.id, user.name, user.token });
        if (was.name != user.name)
            diff.renamed.append({ user.id, user.name, user.token });
    }
    const QSet<Pair> was = friendshipsOf(current, others);
    const QSet<Pair> will = friendshipsOf(next);
    diff.befriended = sortedList(will - was);
    diff.unfriended = sortedList(was - will);
    return diff;
}

} // namespace Presence::Server
