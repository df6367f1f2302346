// FriendshipRelay in an in-process gateway on loopback, with real WebSocket clients: a change
// of friendships reaches every connection of both users once, in one frame per user however
// many changes concern them; a new population closes the leavers; the friend source's users
// join the directory, are read again when the source says they changed, and stay out of a
// users-file diff.

// C++
#include <memory>
#include <optional>

// Qt
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QTest>
#include <QTimer>

// Presence
#include "GatewayFixture.h"
#include "PresenceFrames.h"
#include "TestClient.h"
#include "server-mock/directory/FriendSource.h"
#include "server-mock/server/FriendshipRelay.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;

namespace {

// The app's backend, played by the test: each user as it has them now, read from the event
// loop as a backend's answer comes, and how many reads were asked.
class BackendFriends : public FriendSource {
public:
    QHash<QString, Entry> users;
    int reads = 0;

    void read(const QString &userId, QObject *context, Read done) override
    {
        ++reads;
        const auto entry
            = users.contains(userId) ? std::optional<Entry>(users.value(userId)) : std::nullopt;
        QTimer::singleShot(0, context, [done = std::move(done), entry] { done(entry); });
    }
};

QStringList ids(const QJsonValue &users)
{
    QStringList out;
    for (const QJsonValue &user : users.toArray())
        out.append(user.isObject() ? user["id"_L1].toString() : user.toString());
    return out;
}

} // namespace

class TestFriendshipRelay : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void anEndedFriendshipIsToldToEveryDeviceOfBoth();
    void severalChangesReachAUserInOneFrame();
    void aChangeThatChangesNothingTellsNobody();
    void aNewPopulationClosesTheLeaversAndTellsTheirFriends();
    void theSourcesUsersJoinAndAreReadAgainWhenTheyChange();
    void aUsersFileDiffLeavesTheSourcesUsersAlone();

private:
    [[nodiscard]] std::unique_ptr<TestClient> login(const QString &id);
    [[nodiscard]] int indexOf(const QString &id) const
    {
        return *m_gateway->directory().indexOfId(id);
    }
    [[nodiscard]] FriendshipRelay &relay() { return m_gateway->friendships(); }
    // Whatever the gateway sent before the pong has arrived.
    static void roundTrip(TestClient &client);

    std::unique_ptr<Gateway> m_gateway;
};

void TestFriendshipRelay::initTestCase()
{
    QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);
}

void TestFriendshipRelay::init()
{
    m_gateway = startGateway(PresenceFrames::fivePeople());
    QVERIFY(m_gateway);
}

void TestFriendshipRelay::cleanup()
{
    m_gateway.reset();
}

std::unique_ptr<TestClient> TestFriendshipRelay::login(const QString &id)
{
    auto client = std::make_unique<TestClient>();
    if (client->login(m_gateway->url(), tokenOf(id)).isEmpty())
        return nullptr;
    return client;
}

void TestFriendshipRelay::roundTrip(TestClient &client)
{
    QCOMPARE(client.request({ { "type"_L1, "ping"_L1 } }).value("type"_L1).toString(), u"pong"_s);
}

void TestFriendshipRelay::anEndedFriendshipIsToldToEveryDeviceOfBoth()
{
    auto alicePhone = login(u"alice"_s);
    auto aliceLaptop = login(u"alice"_s);
    auto bob = login(u"bob"_s);
    QVERIFY(alicePhone && aliceLaptop && bob);

    QCOMPARE(relay().changeFriendships({ { indexOf(u"alice"_s), indexOf(u"bob"_s), false } }), 1);

    for (TestClient *alice : { alicePhone.get(), aliceLaptop.get() }) {
        const QJsonObject told = alice->waitFor(u"friends_changed"_s);
        QCOMPARE(ids(told["removed"_L1]), QStringList { u"bob"_s });
        QCOMPARE(told["total"_L1].toInt(), 2);
    }
    const QJsonObject told = bob->waitFor(u"friends_changed"_s);
    QCOMPARE(ids(told["removed"_L1]), QStringList { u"alice"_s });
    QCOMPARE(told["total"_L1].toInt(), 1);
    QVERIFY(!m_gateway->directory().areFriends(u"alice"_s, u"bob"_s));
}

void TestFriendshipRelay::severalChangesReachAUserInOneFrame()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);

    const int a = indexOf(u"alice"_s);
    QCOMPARE(relay().changeFriendships({ { a, indexOf(u"bob"_s), false },
                 { a, indexOf(u"dave"_s), true }, { a, indexOf(u"erin"_s), false } }),
        3);

    roundTrip(*alice);
    const QList<QJsonObject> told = alice->pending(u"friends_changed"_s);
    QCOMPARE(told.size(), 1);
    QCOMPARE(ids(told.constFirst()["added"_L1]), QStringList { u"dave"_s });
    QCOMPARE(ids(told.constFirst()["removed"_L1]), (QStringList { u"bob"_s, u"erin"_s }));
    QCOMPARE(told.constFirst()["total"_L1].toInt(), 2);
}

void TestFriendshipRelay::aChangeThatChangesNothingTellsNobody()
{
    auto alice = login(u"alice"_s);
    auto bob = login(u"bob"_s);
    QVERIFY(alice && bob);

    // Friends already, and strangers already.
    QCOMPARE(relay().changeFriendships({ { indexOf(u"alice"_s), indexOf(u"bob"_s), true },
                 { indexOf(u"bob"_s), indexOf(u"dave"_s), false } }),
        0);

    roundTrip(*alice);
    roundTrip(*bob);
    QVERIFY(alice->pending(u"friends_changed"_s).isEmpty());
    QVERIFY(bob->pending(u"friends_changed"_s).isEmpty());
}

void TestFriendshipRelay::aNewPopulationClosesTheLeaversAndTellsTheirFriends()
{
    auto carol = login(u"carol"_s);
    auto dave = login(u"dave"_s);
    QVERIFY(carol && dave);

    QList<TestUser> next = PresenceFrames::fivePeople();
    next[2].friends.clear(); // carol's friend dave
    next.removeAt(3); // dave
    relay().applyDirectoryDiff(relay().diffTo(makeDirectory(next)));

    QVERIFY(dave->waitDisconnected());
    QCOMPARE(dave->closeCode(), 4005);
    QCOMPARE(dave->closeReason(), u"the user was removed"_s);
    const QJsonObject told = carol->waitFor(u"friends_changed"_s);
    QCOMPARE(ids(told["removed"_L1]), QStringList { u"dave"_s });
    QVERIFY(!m_gateway->directory().indexOfId(u"dave"_s));
    QVERIFY(relay().diffTo(makeDirectory(next)).isEmpty());
}

void TestFriendshipRelay::theSourcesUsersJoinAndAreReadAgainWhenTheyChange()
{
    BackendFriends backend;
    relay().setFriendSource(&backend);
    QCOMPARE(relay().friendSource(), static_cast<FriendSource *>(&backend));
    auto alice = login(u"alice"_s);
    QVERIFY(alice);

    // zed, whom the users file does not have, is read at sign-in: here by hand.
    backend.users.insert(u"zed"_s, { u"Zed Z."_s, { { u"alice"_s, u"Alice"_s } } });
    QCOMPARE(relay().syncFromSource(u"zed"_s, backend.users.value(u"zed"_s)), 1);
    const auto zed = m_gateway->directory().indexOfId(u"zed"_s);
    QVERIFY(zed);
    QVERIFY(relay().isFromSource(*zed));
    QVERIFY(!relay().isFromSource(indexOf(u"alice"_s)));
    QCOMPARE(m_gateway->directory().user(*zed).name, u"Zed Z."_s);
    QJsonObject told = alice->waitFor(u"friends_changed"_s);
    QCOMPARE(told["added"_L1].toArray(),
        (QJsonArray { QJsonObject { { "id"_L1, "zed"_L1 }, { "name"_L1, "Zed Z."_L1 } } }));

    // The backend says zed's friends changed: read again, alice is told.
    backend.users[u"zed"_s].friends.clear();
    Q_EMIT backend.friendsChanged(u"zed"_s);
    told = alice->waitFor(u"friends_changed"_s);
    QCOMPARE(ids(told["removed"_L1]), QStringList { u"zed"_s });
    QCOMPARE(backend.reads, 1);

    // A user of the users file is not the source's to change: nothing is read.
    Q_EMIT backend.friendsChanged(u"alice"_s);
    roundTrip(*alice);
    QCOMPARE(backend.reads, 1);

    // Without a source, its word is no longer heard.
    relay().setFriendSource(nullptr);
    Q_EMIT backend.friendsChanged(u"zed"_s);
    roundTrip(*alice);
    QCOMPARE(backend.reads, 1);
}

void TestFriendshipRelay::aUsersFileDiffLeavesTheSourcesUsersAlone()
{
    BackendFriends backend;
    relay().setFriendSource(&backend);
    QCOMPARE(relay().syncFromSource(u"zed"_s, { u"Zed"_s, { { u"alice"_s, u"Alice"_s } } }), 1);

    // The same file again: zed, who is not in it, does not leave.
    const DirectoryDiff diff = relay().diffTo(makeDirectory(PresenceFrames::fivePeople()));
    QVERIFY2(diff.isEmpty(), qPrintable(diff.summary()));
    relay().applyDirectoryDiff(diff);
    QVERIFY(m_gateway->directory().areFriends(u"alice"_s, u"zed"_s));
}

QTEST_MAIN(TestFriendshipRelay)
#include "tst_friendship_relay.moc"
