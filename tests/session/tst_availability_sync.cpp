// The client's availability set on its own, without a gateway: when it asks for the set, which
// friends an answer covers, which changes it takes (only once its answer arrived, only while
// watching), and how it checks the gateway's digest and asks again.
// Qt
#include <QSignalSpy>
#include <QTest>

// Presence
#include "protocol/Digest.h"
#include "protocol/Frame.h"
#include "session/AvailabilitySync.h"
#include "session/FramePacer.h"

using namespace Qt::StringLiterals;
using Presence::Protocol::Availability;
using Presence::Protocol::Limits;
using Presence::Protocol::PresenceStatus;
using Presence::Protocol::UserPresence;
using Presence::Session::AvailabilitySync;
using Presence::Session::FramePacer;

namespace {

using Statuses = QHash<QString, PresenceStatus>;

// One request as the gateway would read it: its type and ref.
struct Request {
    QString type;
    QString ref;
    friend bool operator==(const Request &, const Request &) = default;
};

// A set over a pacer whose frames land in `sent`, with every signal it gives in `received`.
struct Sync {
    Sync()
        : pacer([this](const QString &frame) { sent.append(decode(frame)); })
        , sync(&pacer, [this] { return u"a%1"_s.arg(++refs); })
        , received(&sync, &AvailabilitySync::availabilityReceived)
    {
    }
    [[nodiscard]] static Request decode(const QString &frame)
    {
        const auto envelope = Presence::Protocol::parseFrame(frame);
        if (!envelope.ok())
            return { u"(bad)"_s, {} };
        return { envelope.value().type, envelope.value().ref.value_or(QString()) };
    }
    // Signed in with a gateway that offers the set, then the friend list read.
    void startWatching(const QStringList &friends)
    {
        Limits limits;
        limits.maxAvailabilityFriends = 3;
        sync.start(limits);
        sync.watch(friends);
    }
    [[nodiscard]] Statuses lastStatuses() const
    {
        return received.constLast().at(0).value<Statuses>();
    }
    [[nodiscard]] bool lastComplete() const { return received.constLast().at(1).toBool(); }

    QList<Request> sent;
    int refs = 0;
    FramePacer pacer;
    AvailabilitySync sync;
    QSignalSpy received;
};

const QStringList kFriends { u"ann"_s, u"bob"_s, u"cat"_s, u"dan"_s };

// The gateway's answer to the first watch: ann online, bob away, of the first three friends.
Availability firstAnswer()
{
    return { { u"ann"_s }, { u"bob"_s }, 3, 4 };
}

} // namespace

class TestAvailabilitySync : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void nothingIsAskedBeforeSignInOrOfAGatewayWithoutTheSet();
    void theAnswerCoversAPrefixOfTheListAndNoStranger();
    void onlyTheAnswerToOurWatchCounts();
    void changesApplyOnlyOnceTheAnswerArrived();
    void batchesApplyCoarsely();
    void unwatchIgnoresPushesUntilWatchedAgain();
    void aDigestMismatchAsksForTheSetAgain();
    void stopForgetsTheConnection();
};

void TestAvailabilitySync::nothingIsAskedBeforeSignInOrOfAGatewayWithoutTheSet()
{
    Sync s;
    s.sync.watch(kFriends);
    QVERIFY(s.sent.isEmpty()); // not signed in
    s.sync.start(Limits {}); // a gateway that predates the set offers 0 friends
    s.sync.watch(kFriends);
    QVERIFY(s.sent.isEmpty());
    s.startWatching({}); // nobody to watch
    QVERIFY(s.sent.isEmpty());
    s.startWatching(kFriends);
    QCOMPARE(s.sent, (QList<Request> { { u"watch_availability"_s, u"a1"_s } }));
    QVERIFY(s.sync.awaitsAnswer());
}

void TestAvailabilitySync::theAnswerCoversAPrefixOfTheListAndNoStranger()
{
    Sync s;
    s.startWatching(kFriends);
    // "zed" is no friend of ours (the list changed since we read it): it must not add a row,
    // and dan, past what is covered, is not reported at all.
    Availability answer = firstAnswer();
    answer.online.append(u"zed"_s);
    s.sync.onAvailability(answer, u"a1"_s);
    QCOMPARE(s.received.size(), 1);
    QCOMPARE(s.lastStatuses(),
        (Statuses { { u"ann"_s, PresenceStatus::Online }, { u"bob"_s, PresenceStatus::Away },
            { u"cat"_s, PresenceStatus::Offline } }));
    QVERIFY(s.lastComplete());
    QCOMPARE(s.sync.available(),
        (Statuses { { u"ann"_s, PresenceStatus::Online }, { u"bob"_s, PresenceStatus::Away } }));
    QVERIFY(!s.sync.awaitsAnswer());
}

void TestAvailabilitySync::onlyTheAnswerToOurWatchCounts()
{
    Sync s;
    s.startWatching(kFriends);
    s.sync.onAvailability(firstAnswer(), u"a7"_s); // another request's
    s.sync.onAvailability(firstAnswer(), {}); // a reset before we watch
    QCOMPARE(s.received.size(), 0);
    s.sync.onAvailability(firstAnswer(), u"a1"_s);
    QCOMPARE(s.received.size(), 1);
    // Once watching, the gateway's reset (no ref) replaces the set.
    s.sync.onAvailability({ { u"cat"_s }, {}, 3, 4 }, {});
    QCOMPARE(s.received.size(), 2);
    QVERIFY(s.lastComplete());
    QCOMPARE(s.sync.available(), (Statuses { { u"cat"_s, PresenceStatus::Online } }));
}

void TestAvailabilitySync::changesApplyOnlyOnceTheAnswerArrived()
{
    Sync s;
    s.startWatching(kFriends);
    s.sync.onAvailabilityChanged({ { u"cat"_s }, {}, {} });
    QCOMPARE(s.received.size(), 0); // the answer will hold it
    s.sync.onAvailability(firstAnswer(), u"a1"_s);
    s.sync.onAvailabilityChanged({ { u"cat"_s }, {}, { u"ann"_s } });
    QCOMPARE(s.received.size(), 2);
    QCOMPARE(s.lastStatuses(),
        (Statuses { { u"cat"_s, PresenceStatus::Online }, { u"ann"_s, PresenceStatus::Offline } }));
    QVERIFY(!s.lastComplete());
    QCOMPARE(s.sync.available(),
        (Statuses { { u"bob"_s, PresenceStatus::Away }, { u"cat"_s, PresenceStatus::Online } }));
    s.sync.onAvailabilityChanged({});
    QCOMPARE(s.received.size(), 2); // nothing changed: nothing said
}

void TestAvailabilitySync::batchesApplyCoarsely()
{
    Sync s;
    s.startWatching(kFriends);
    s.sync.onAvailability(firstAnswer(), u"a1"_s);
    s.sync.onPresenceBatch({ { UserPresence { u"bob"_s, PresenceStatus::Offline, 8, 1000 },
        UserPresence { u"cat"_s, PresenceStatus::Away, 9, std::nullopt } } });
    QCOMPARE(s.received.size(), 2);
    QCOMPARE(s.lastStatuses(),
        (Statuses { { u"bob"_s, PresenceStatus::Offline }, { u"cat"_s, PresenceStatus::Away } }));
    QCOMPARE(s.sync.available(),
        (Statuses { { u"ann"_s, PresenceStatus::Online }, { u"cat"_s, PresenceStatus::Away } }));
}

void TestAvailabilitySync::unwatchIgnoresPushesUntilWatchedAgain()
{
    Sync s;
    s.startWatching(kFriends);
    s.sync.onAvailability(firstAnswer(), u"a1"_s);
    s.sync.unwatch(); // the friend list changed: the gateway ended the watch
    s.sync.onAvailabilityChanged({ { u"cat"_s }, {}, {} });
    s.sync.onAvailability(firstAnswer(), {});
    QCOMPARE(s.received.size(), 1);
    s.sync.watch({ u"cat"_s, u"eve"_s }); // the list read again
    QCOMPARE(s.sent.constLast(), (Request { u"watch_availability"_s, u"a2"_s }));
    s.sync.onAvailability({ { u"eve"_s }, {}, 2, 2 }, u"a2"_s);
    QCOMPARE(s.lastStatuses(),
        (Statuses { { u"cat"_s, PresenceStatus::Offline }, { u"eve"_s, PresenceStatus::Online } }));
    QCOMPARE(s.sync.available(), (Statuses { { u"eve"_s, PresenceStatus::Online } }));
}

void TestAvailabilitySync::aDigestMismatchAsksForTheSetAgain()
{
    Sync s;
    s.startWatching(kFriends);
    const QString digest = Presence::Protocol::availabilityDigest(
        { { u"ann"_s, PresenceStatus::Online }, { u"bob"_s, PresenceStatus::Away } });
    QVERIFY(!s.sync.checkDigest(u"0000"_s)); // awaiting the answer: not comparable yet
    s.sync.onAvailability(firstAnswer(), u"a1"_s);
    QVERIFY(!s.sync.checkDigest(digest));
    QCOMPARE(s.sent.size(), 1);
    QVERIFY(s.sync.checkDigest(u"0000"_s));
    QCOMPARE(s.sent.constLast(), (Request { u"watch_availability"_s, u"a2"_s }));
    QVERIFY(s.sync.awaitsAnswer());
    QVERIFY(!s.sync.checkDigest(u"0000"_s)); // asked once, not again while it is on its way
    QCOMPARE(s.sent.size(), 2);
}

void TestAvailabilitySync::stopForgetsTheConnection()
{
    Sync s;
    s.startWatching(kFriends);
    s.sync.onAvailability(firstAnswer(), u"a1"_s);
    s.sync.stop();
    QVERIFY(!s.sync.isActive());
    QVERIFY(s.sync.available().isEmpty());
    s.sync.onAvailabilityChanged({ { u"cat"_s }, {}, {} });
    s.sync.onAvailability(firstAnswer(), {});
    QVERIFY(!s.sync.checkDigest(u"0000"_s));
    QCOMPARE(s.received.size(), 1);
    QCOMPARE(s.sent.size(), 1);
}

QTEST_GUILESS_MAIN(TestAvailabilitySync)
#include "tst_availability_sync.moc"
