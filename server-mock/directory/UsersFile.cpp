#include "server-mock/directory/UsersFile.h"

// Qt
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

// Presence
#include "protocol/Identifiers.h"

using namespace Qt::StringLiterals;
using Presence::Protocol::isValidId;
using Presence::Protocol::kMaxDisplayNameLength;
using Presence::Protocol::kMaxTokenLength;

namespace Presence::Server {

namespace {

int lineOfOffset(const QByteArray &data, qsizetype offset)
{
    return int(QByteArrayView(data).first(std::min(offset, data.size())).count('\n')) + 1;
}

QString describeEntry(qsizetype index, const QString &id)
{
    return id.isEmpty() ? u"entry %1"_s.arg(index) : u"entry %1 (\"%2\")"_s.arg(index).arg(id);
}

// One pass over the entries; friend ids are resolved after every id is known.
class Parser {
public:
    explicit Parser(const QString &path)
        : m_path(path)
    {
    }

    std::optional<UserDirectory> run(const QByteArray &json, QString *error)
    {
        if (!parse(json)) {
            if (error)
                *error = u"users file '%1': %2"_s.arg(m_path, m_problem);
            return std::nullopt;
        }
        m_directory.finish();
        return std::move(m_directory);
    }

private:
    bool fail(const QString &problem)
    {
        m_problem = problem;
        return false;
    }

    bool parse(const QByteArray &json)
    {
        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
        if (parseError.error != QJsonParseError::NoError)
            return fail(u"not valid JSON: %1 (line %2)"_s.arg(parseError.errorString())
                            .arg(lineOfOffset(json, parseError.offset)));
        if (!document.isObject() || !document.object().value("users"_L1).isArray())
            return fail(u"expected an object with a \"users\" array"_s);
        const QJsonArray users = document.object().value("users"_L1).toArray();
        if (users.size() > UsersFile::kMaxUsers)
            return fail(u"%1 users is more than the limit of %2"_s.arg(users.size())
                            .arg(UsersFile::kMaxUsers));

        QList<QJsonArray> friendLists;
        friendLists.reserve(users.size());
        for (qsizetype i = 0; i < users.size(); ++i) {
            if (!addUser(i, users.at(i)))
                return false;
            friendLists.append(users.at(i).toObject().value("friends"_L1).toArray());
        }
        for (qsizetype i = 0; i < users.size(); ++i) {
            if (!addFriends(i, friendLists.at(i)))
                return false;
        }
        return true;
    }

    bool addUser(qsizetype index, const QJsonValue &value)
    {
        if (!value.isObject())
            return fail(u"entry %1: must be an object"_s.arg(index));
        const QJsonObject entry = value.toObject();
        const QJsonValue idValue = entry.value("id"_L1);
        const QString id = idValue.toString();
        if (!idValue.isString() || !isValidId(id))
            return fail(u"%1: \"id\" must be 1-64 characters of A-Z a-z 0-9 . _ -"_s.arg(
                describeEntry(index, {})));
        const QString where = describeEntry(index, id);
        if (const auto other = m_directory.indexOfId(id))
            return fail(u"%1: duplicate id (also entry %2)"_s.arg(where, QString::number(*other)));

        const QJsonValue nameValue = entry.value("name"_L1);
        QString name = nameValue.isUndefined() ? id : nameValue.toString();
        if (!nameValue.isUndefined()
            && (!nameValue.isString() || name.trimmed().isEmpty()
                || name.size() > kMaxDisplayNameLength))
            return fail(
                u"%1: \"name\" must be a non-blank string of at most %2 characters"_s.arg(where)
                    .arg(kMaxDisplayNameLength));

        const QJsonValue tokenValue = entry.value("token"_L1);
        const QString token = tokenValue.toString();
        if (!tokenValue.isString() || token.isEmpty() || token.size() > kMaxTokenLength)
            return fail(u"%1: \"token\" must be a string of 1-%2 characters"_s.arg(
                where, QString::number(kMaxTokenLength)));
        if (const auto other = m_directory.indexOfToken(token))
            // Never print the token itself: the file may be shared in a bug report.
            return fail(u"%1: duplicate token (also used by entry %2)"_s.arg(
                where, QString::number(*other)));

        const QJsonValue friends = entry.value("friends"_L1);
        if (!friends.isUndefined() && !friends.isArray())
            return fail(u"%1: \"friends\" must be an array of ids"_s.arg(where));

        m_directory.addUser(id, name, token);
        return true;
    }

    bool addFriends(qsizetype index, const QJsonArray &friends)
    {
        const QString where = describeEntry(index, m_directory.user(int(index)).id);
        for (const QJsonValue &value : friends) {
            const QString friendId = value.toString();
            if (!value.isString() || !isValidId(friendId))
                return fail(u"%1: \"friends\" holds something that is not an id"_s.arg(where));
            const auto other = m_directory.indexOfId(friendId);
            if (!other)
                return fail(u"%1: unknown friend id \"%2\""_s.arg(where, friendId));
            if (*other == index)
                return fail(u"%1: lists itself as a friend"_s.arg(where));
            m_directory.addFriendship(int(index), *other);
        }
        return true;
    }

    QString m_path;
    QString m_problem;
    UserDirectory m_directory;
};

} // namespace

std::optional<UserDirectory> UsersFile::load(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = u"users file '%1': cannot open: %2"_s.arg(path, file.errorString());
        return std::nullopt;
    }
    if (file.size() > kMaxFileBytes) {
        if (error)
            *error = u"users file '%1': larger than the limit of %2 MiB"_s.arg(
                path, QString::number(kMaxFileBytes / (1024 * 1024)));
        return std::nullopt;
    }
    return parse(file.readAll(), path, error);
}

std::optional<UserDirectory> UsersFile::parse(
    const QByteArray &json, const QString &path, QString *error)
{
    return Parser(path).run(json, error);
}

bool UsersFile::save(const UserDirectory &directory, const QString &path, QString *error)
{
    QJsonArray users;
    for (int i = 0; i < directory.size(); ++i) {
        const UserDirectory::User &user = directory.user(i);
        QJsonArray friends;
        for (const int f : user.friends)
            friends.append(directory.user(f).id);
        users.append(QJsonObject { { "id"_L1, user.id }, { "name"_L1, user.name },
            { "token"_L1, user.token }, { "friends"_L1, friends } });
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = u"cannot write '%1': %2"_s.arg(path, file.errorString());
        return false;
    }
    file.write(
        QJsonDocument(QJsonObject { { "users"_L1, users } }).toJson(QJsonDocument::Indented));
    if (!file.commit()) {
        if (error)
            *error = u"cannot write '%1': %2"_s.arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace Presence::Server
