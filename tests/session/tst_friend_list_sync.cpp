// The client's reading of its friend list on its own, without a gateway: page by page from
// offset 0, once per reading, ignoring pages of an earlier reading or connection.
// Qt
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

// Presence
#include "protocol/ClientMessages.h"
#include "protocol/Frame.h"
#include "session/FramePacer.h"
#include "session/FriendListSync.h"

using namespace Qt::StringLiterals;
using Presence::Protocol::FriendsPage;
using Presence::Protocol::UserInfo;
using Presence::Session::FramePacer;
using Presence::Session::FriendListSync;

namespace {

constexpr int kPageSize = 2;

// A reading over a pacer whose friends requests land in `offsets`.
struct Reading {
    Reading()
        : pacer([this](const QString &frame) {
            const auto envelope = Presence::Protocol::parseFrame(frame);
            QCOMPARE_EQ(envelope.value().type, u"friends"_s);
            QCOMPARE_EQ(envelope.value().body.value("limit"_L1).toInt(), kPageSize);
            offsets.append(envelope.value().body.value("offset"_L1).toInt());
        })
        , sync(&pacer, kPageSize)
        , loaded(&sync, &FriendListSync::loaded)
    {
    }

    FramePacer pacer;
    FriendListSync sync;
    QSignalSpy loaded;
    QList<int> offsets;
};

QList<UserInfo> users(std::initializer_list<const char16_t *> ids)
{
    QList<UserInfo> list;
    for (const char16_t *id : ids)
        list.append({ QString::fromUtf16(id), u"Name of "_s + QString::fromUtf16(id) });
    return list;
}

FriendsPage page(int offset, int total, std::initializer_list<const char16_t *> ids)
{
    FriendsPage page;
    page.offset = offset;
    page.total = total;
    page.items = users(ids);
    return page;
}

QStringList idsOf(const QList<UserInfo> &list)
{
    QStringList ids;
    for (const UserInfo &user : list)
        ids.append(user.id);
    return ids;
}

QStringList loadedIds(const QSignalSpy &spy, int index)
{
    return idsOf(spy.at(index).at(0).value<QList<UserInfo>>());
}

} // namespace

class TestFriendListSync : public QObject {
    Q_OBJECT

private slots:
    void readsEveryPageInOrder();
    void anEmptyListIsOnePage();
    void anEmptyPageEndsAShortList();
    void pagesOutOfOrderAreIgnored();
    void readingAgainStartsOver();
    void pagesAfterStopAreIgnored();
    void pagesAfterTheListIsReadAreIgnored();
};

void TestFriendListSync::readsEveryPageInOrder()
{
    Reading r;
    QVERIFY(!r.sync.isReading());
    r.sync.read();
    QVERIFY(r.sync.isReading());
    QCOMPARE(r.offsets, QList<int> { 0 });
    r.sync.onPage(page(0, 5, { u"a", u"b" }));
    r.sync.onPage(page(2, 5, { u"c", u"d" }));
    QCOMPARE(r.loaded.size(), 0);
    r.sync.onPage(page(4, 5, { u"e" }));
    QCOMPARE(r.offsets, (QList<int> { 0, 2, 4 }));
    QCOMPARE(r.loaded.size(), 1);
    QCOMPARE(loadedIds(r.loaded, 0), (QStringList { u"a"_s, u"b"_s, u"c"_s, u"d"_s, u"e"_s }));
    QCOMPARE(r.loaded.at(0).at(0).value<QList<UserInfo>>().at(4).name, u"Name of e"_s);
    QVERIFY(!r.sync.isReading());
}

void TestFriendListSync::anEmptyListIsOnePage()
{
    Reading r;
    r.sync.read();
    r.sync.onPage(page(0, 0, {}));
    QCOMPARE(r.offsets, QList<int> { 0 });
    QCOMPARE(r.loaded.size(), 1);
    QVERIFY(loadedIds(r.loaded, 0).isEmpty());
}

void TestFriendListSync::anEmptyPageEndsAShortList()
{
    // Friends removed while reading: the total promised more, but the pages ran out.
    Reading r;
    r.sync.read();
    r.sync.onPage(page(0, 6, { u"a", u"b" }));
    r.sync.onPage(page(2, 6, {}));
    QCOMPARE(r.offsets, (QList<int> { 0, 2 }));
    QCOMPARE(r.loaded.size(), 1);
    QCOMPARE(loadedIds(r.loaded, 0), (QStringList { u"a"_s, u"b"_s }));
}

void TestFriendListSync::pagesOutOfOrderAreIgnored()
{
    Reading r;
    r.sync.read();
    r.sync.onPage(page(2, 4, { u"c", u"d" })); // not the page asked for
    QCOMPARE(r.offsets, QList<int> { 0 });
    r.sync.onPage(page(0, 4, { u"a", u"b" }));
    r.sync.onPage(page(0, 4, { u"a", u"b" })); // a duplicate
    QCOMPARE(r.offsets, (QList<int> { 0, 2 }));
    r.sync.onPage(page(2, 4, { u"c", u"d" }));
    QCOMPARE(r.loaded.size(), 1);
    QCOMPARE(loadedIds(r.loaded, 0), (QStringList { u"a"_s, u"b"_s, u"c"_s, u"d"_s }));
}

void TestFriendListSync::readingAgainStartsOver()
{
    // The list changed while it was read: what was read of the old one is dropped.
    Reading r;
    r.sync.read();
    r.sync.onPage(page(0, 4, { u"a", u"b" }));
    r.sync.read();
    QCOMPARE(r.offsets, (QList<int> { 0, 2, 0 }));
    r.sync.onPage(page(2, 4, { u"c", u"d" })); // the old reading's next page
    QCOMPARE(r.loaded.size(), 0);
    r.sync.onPage(page(0, 1, { u"z" }));
    QCOMPARE(r.loaded.size(), 1);
    QCOMPARE(loadedIds(r.loaded, 0), QStringList { u"z"_s });
}

void TestFriendListSync::pagesAfterStopAreIgnored()
{
    Reading r;
    r.sync.read();
    r.sync.stop();
    QVERIFY(!r.sync.isReading());
    r.sync.onPage(page(0, 1, { u"a" }));
    QCOMPARE(r.loaded.size(), 0);
    QCOMPARE(r.offsets, QList<int> { 0 });
}

void TestFriendListSync::pagesAfterTheListIsReadAreIgnored()
{
    Reading r;
    r.sync.read();
    r.sync.onPage(page(0, 1, { u"a" }));
    QCOMPARE(r.loaded.size(), 1);
    // A stray first page later starts no reading of its own.
    r.sync.onPage(page(0, 1, { u"a" }));
    QCOMPARE(r.loaded.size(), 1);
    QCOMPARE(r.offsets, QList<int> { 0 });
}

QTEST_GUILESS_MAIN(TestFriendListSync)
#include "tst_friend_list_sync.moc"
