// CompactJsonWriter and the frames written with it: byte for byte what QJsonDocument writes for
// the same object, for snapshots, friend pages and presence batches of random content, strings
// included that need every kind of escape (quotes, backslashes, control characters, non-ASCII,
// characters outside the BMP, lone surrogates).

// Qt
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>

// Presence
#include "protocol/CompactJsonWriter.h"
#include "protocol/ServerMessages.h"

using namespace Presence::Protocol;
using namespace Qt::StringLiterals;

namespace {

QString randomText(QRandomGenerator &random)
{
    static const char16_t pool[]
        = { u'a', u'Z', u'7', u' ', u'"', u'\\', u'/', u'\b', u'\f', u'\n', u'\r', u'\t', 0x01,
              0x1f, 0x7f, 0xe9, 0x3b1, 0x4e2d, 0xfffd, 0xd83d, 0xde00, 0xdc00, 0xd800 };
    QString text;
    const int length = int(random.bounded(12));
    for (int i = 0; i < length; ++i)
        text.append(QChar(pool[random.bounded(int(std::size(pool)))]));
    return text;
}

std::optional<QString> randomRef(QRandomGenerator &random)
{
    if (random.bounded(3) == 0)
        return std::nullopt;
    return randomText(random);
}

QList<UserPresence> randomPresences(QRandomGenerator &random)
{
    QList<UserPresence> presences;
    const int count = int(random.bounded(6));
    for (int i = 0; i < count; ++i) {
        UserPresence presence;
        presence.id = randomText(random);
        presence.status = PresenceStatus(random.bounded(3));
        presence.seq = qint64(random.bounded(quint64(1) << 53));
        if (random.bounded(2) == 0)
            presence.lastSeen = qint64(random.bounded(quint64(1) << 53));
        presences.append(presence);
    }
    return presences;
}

} // namespace

class TestCompactJsonWriter : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void writesWhatQJsonDocumentWrites();
    void snapshotsAreTheSameBytes();
    void friendPagesAreTheSameBytes();
    void presenceBatchesAreTheSameBytes();
};

void TestCompactJsonWriter::writesWhatQJsonDocumentWrites()
{
    CompactJsonWriter out;
    out.beginObject();
    out.key("a"_L1);
    out.beginArray();
    out.endArray();
    out.key("b"_L1);
    out.beginArray();
    out.beginObject();
    out.endObject();
    out.value(qint64(-9007199254740991));
    out.value(u"x\"y\\z\u0001\u00e9\U0001F600"_s);
    out.endArray();
    out.key("c"_L1);
    out.value(qint64(0));
    out.endObject();
    const QJsonObject expected { { "a"_L1, QJsonArray {} },
        { "b"_L1,
            QJsonArray {
                QJsonObject {}, qint64(-9007199254740991), u"x\"y\\z\u0001\u00e9\U0001F600"_s } },
        { "c"_L1, 0 } };
    QCOMPARE(out.take(), QJsonDocument(expected).toJson(QJsonDocument::Compact));
}

void TestCompactJsonWriter::snapshotsAreTheSameBytes()
{
    QRandomGenerator random(11);
    for (int round = 0; round < 500; ++round) {
        Snapshot snapshot;
        snapshot.users = randomPresences(random);
        const int denied = int(random.bounded(3));
        for (int i = 0; i < denied; ++i)
            snapshot.denied.append(randomText(random));
        const std::optional<QString> ref = randomRef(random);
        QCOMPARE(serializeFrame(snapshot, ref), serializeFrame(toJson(snapshot), ref));
    }
}

void TestCompactJsonWriter::friendPagesAreTheSameBytes()
{
    QRandomGenerator random(12);
    for (int round = 0; round < 500; ++round) {
        FriendsPage page;
        page.offset = int(random.bounded(100000));
        page.total = int(random.bounded(100000));
        const int items = int(random.bounded(6));
        for (int i = 0; i < items; ++i)
            page.items.append({ randomText(random), randomText(random) });
        const std::optional<QString> ref = randomRef(random);
        QCOMPARE(serializeFrame(page, ref), serializeFrame(toJson(page), ref));
    }
}

void TestCompactJsonWriter::presenceBatchesAreTheSameBytes()
{
    QRandomGenerator random(13);
    for (int round = 0; round < 500; ++round) {
        const PresenceBatch batch { randomPresences(random) };
        QCOMPARE(serializeFrame(batch), serializeFrame(toJson(batch)));
    }
}

QTEST_GUILESS_MAIN(TestCompactJsonWriter)
#include "tst_compact_json_writer.moc"
