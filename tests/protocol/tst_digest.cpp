// Digest: the digest of a presence set is FNV-1a 64 as docs/protocol.md defines it.

// Qt
#include <QTest>

// Presence
#include "protocol/Digest.h"
#include "tests/protocol/ProtocolSamples.h"

using namespace Qt::StringLiterals;
using namespace Presence::Protocol;
using namespace ProtocolSamples;

namespace {

// FNV-1a 64 written out again from its definition, to check Digest.cpp against.
quint64 fnv1a64(const QString &text)
{
    quint64 hash = 0xcbf29ce484222325ULL;
    for (const char byte : text.toUtf8()) {
        hash ^= quint8(byte);
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

} // namespace

class TestDigest : public QObject {
    Q_OBJECT

private slots:
    void digestsAreDocumentedFnv1a();
};

void TestDigest::digestsAreDocumentedFnv1a()
{
    // The rule docs/protocol.md gives, so another client can check its own implementation.
    QCOMPARE(watchedDigest({}), u"cbf29ce484222325"_s); // FNV-1a 64 of nothing
    const QList<UserPresence> users { { u"bob"_s, PresenceStatus::Online, 3, std::nullopt },
        { u"ada"_s, PresenceStatus::Offline, 7, qint64(5) } };
    const QString digest = watchedDigest(users);
    QCOMPARE(watchedDigest({ users.at(1), users.at(0) }), digest); // order-free
    QCOMPARE(
        digest, u"%1"_s.arg(fnv1a64(u"ada offline 7\nbob online 3\n"_s), 16, 16, QLatin1Char('0')));
    // Long seqs in decimal; text beyond ASCII as UTF-8.
    QCOMPARE(
        watchedDigest({ { u"z\u00e9"_s, PresenceStatus::Away, 9007199254740993, std::nullopt } }),
        u"%1"_s.arg(fnv1a64(u"z\u00e9 away 9007199254740993\n"_s), 16, 16, QLatin1Char('0')));
    QVERIFY(watchedDigest({ { u"bob"_s, PresenceStatus::Online, 4, std::nullopt } })
        != watchedDigest({ { u"bob"_s, PresenceStatus::Online, 3, std::nullopt } }));
    // Offline friends are left out of the availability digest.
    QCOMPARE(availabilityDigest(
                 { { u"a"_s, PresenceStatus::Away }, { u"b"_s, PresenceStatus::Offline } }),
        u"%1"_s.arg(fnv1a64(u"a away\n"_s), 16, 16, QLatin1Char('0')));
}

QTEST_GUILESS_MAIN(TestDigest)
#include "tst_digest.moc"
