// ConversationListModel: the order (unread first, then last activity), live moves instead of
// resets, the friend list's names and presence, unread totals, and the model tester throughout.
// Qt
#include <QAbstractItemModelTester>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>

// Presence
#include "models/ConversationListModel.h"
#include "models/FriendListModel.h"
#include "models/PresenceState.h"

using namespace Qt::StringLiterals;
using Presence::Models::ChatMessageRecord;
using Presence::Models::ConversationListModel;
using Presence::Models::FriendListModel;
using Presence::Models::PresenceState;

namespace {

ChatMessageRecord message(
    const QString &id, const QString &from, qint64 ts, const QString &text = u"hi"_s)
{
    ChatMessageRecord record;
    record.id = id;
    record.from = from;
    record.text = text;
    record.ts = ts;
    return record;
}

QStringList order(const ConversationListModel &model)
{
    QStringList ids;
    for (int row = 0; row < model.rowCount(); ++row)
        ids.append(model.index(row).data(ConversationListModel::FriendIdRole).toString());
    return ids;
}

struct Scene {
    Scene()
        : model(&friends)
        , tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal)
    {
        friends.setFriends({ { u"ada"_s, u"Ada Lovelace"_s }, { u"bob"_s, u"Bob Dylan"_s },
            { u"cy"_s, u"Cy Twombly"_s }, { u"dee"_s, u"Dee Dee"_s } });
        model.setSelfId(u"me"_s);
    }
    FriendListModel friends;
    ConversationListModel model;
    QAbstractItemModelTester tester;
};

} // namespace

class TestConversationListModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    void rolesStartAfterUserRole()
    {
        QCOMPARE(int(ConversationListModel::FriendIdRole), Qt::UserRole + 1);
        Scene scene;
        scene.model.setConversations(
            { { u"ada"_s, message(u"m1"_s, u"me"_s, 100, u"see you"_s), 0 } });
        const QModelIndex row = scene.model.index(0);
        QCOMPARE(row.data(ConversationListModel::FriendIdRole).toString(), u"ada"_s);
        QCOMPARE(row.data(ConversationListModel::NameRole).toString(), u"Ada Lovelace"_s);
        QCOMPARE(row.data(Qt::DisplayRole).toString(), u"Ada Lovelace"_s);
        QCOMPARE(row.data(ConversationListModel::LastTextRole).toString(), u"see you"_s);
        QCOMPARE(row.data(ConversationListModel::LastIdRole).toString(), u"m1"_s);
        QCOMPARE(row.data(ConversationListModel::LastFromSelfRole).toBool(), true);
        QCOMPARE(row.data(ConversationListModel::LastTimestampRole).toLongLong(), 100);
        QCOMPARE(row.data(ConversationListModel::UnreadRole).toInt(), 0);
        QCOMPARE(
            row.data(ConversationListModel::PresenceRole).toInt(), int(PresenceState::Unknown));
        QVERIFY(!row.data(Qt::UserRole + 100).isValid());
    }

    void unreadFirstThenNewestActivity()
    {
        Scene scene;
        scene.model.setConversations({
            { u"ada"_s, message(u"a"_s, u"ada"_s, 400), 0 },
            { u"bob"_s, message(u"b"_s, u"bob"_s, 100), 2 },
            { u"cy"_s, message(u"c"_s, u"me"_s, 300), 0 },
            { u"dee"_s, message(u"d"_s, u"dee"_s, 200), 1 },
        });
        QCOMPARE(order(scene.model), (QStringList { u"dee"_s, u"bob"_s, u"ada"_s, u"cy"_s }));
        QCOMPARE(scene.model.totalUnread(), 3);
    }

    void newMessageMovesTheRowUpWithoutAReset()
    {
        Scene scene;
        scene.model.setConversations({
            { u"ada"_s, message(u"a"_s, u"ada"_s, 400), 0 },
            { u"bob"_s, message(u"b"_s, u"bob"_s, 300), 0 },
            { u"cy"_s, message(u"c"_s, u"cy"_s, 200), 0 },
        });
        QSignalSpy resets(&scene.model, &QAbstractItemModel::modelReset);
        QSignalSpy moves(&scene.model, &QAbstractItemModel::rowsMoved);
        QVERIFY(moves.isValid());
        scene.model.noteMessage(u"cy"_s, message(u"c2"_s, u"me"_s, 500, u"hello"_s));
        QCOMPARE(order(scene.model), (QStringList { u"cy"_s, u"ada"_s, u"bob"_s }));
        QCOMPARE(moves.size(), 1);
        QCOMPARE(resets.size(), 0);
        QCOMPARE(
            scene.model.index(0).data(ConversationListModel::LastTextRole).toString(), u"hello"_s);
        // An older message (a late history page) is no news.
        scene.model.noteMessage(u"cy"_s, message(u"c1"_s, u"cy"_s, 250, u"old"_s));
        QCOMPARE(
            scene.model.index(0).data(ConversationListModel::LastTextRole).toString(), u"hello"_s);
        // A new conversation goes in where it belongs.
        scene.model.noteMessage(u"dee"_s, message(u"d1"_s, u"dee"_s, 350));
        QCOMPARE(order(scene.model), (QStringList { u"cy"_s, u"ada"_s, u"dee"_s, u"bob"_s }));
        QCOMPARE(resets.size(), 0);
    }

    void theSameMillisecondGoesByWhatCameInLater()
    {
        // Times are whole milliseconds: two messages in one still came one after the other,
        // and the later one's chat goes above, live as in the gateway's list.
        Scene scene;
        scene.model.noteMessage(u"bob"_s, message(u"b1"_s, u"bob"_s, 1000));
        scene.model.noteMessage(u"dee"_s, message(u"d1"_s, u"dee"_s, 1000));
        QCOMPARE(order(scene.model), (QStringList { u"dee"_s, u"bob"_s }));
        scene.model.noteMessage(u"ada"_s, message(u"a1"_s, u"ada"_s, 1000));
        QCOMPARE(order(scene.model), (QStringList { u"ada"_s, u"dee"_s, u"bob"_s }));
        scene.model.noteMessage(u"bob"_s, message(u"b2"_s, u"bob"_s, 1000));
        QCOMPARE(order(scene.model), (QStringList { u"bob"_s, u"ada"_s, u"dee"_s }));
        // An unread count is no news: read again, Dee goes back below the others.
        scene.model.setUnread(u"dee"_s, 1);
        QCOMPARE(order(scene.model), (QStringList { u"dee"_s, u"bob"_s, u"ada"_s }));
        scene.model.setUnread(u"dee"_s, 0);
        QCOMPARE(order(scene.model), (QStringList { u"bob"_s, u"ada"_s, u"dee"_s }));

        // The gateway lists the newest activity first: that order stands for equal times.
        scene.model.setConversations({
            { u"cy"_s, message(u"c1"_s, u"cy"_s, 1000), 0 },
            { u"dee"_s, message(u"d1"_s, u"dee"_s, 1000), 0 },
            { u"ada"_s, message(u"a1"_s, u"ada"_s, 1000), 0 },
        });
        QCOMPARE(order(scene.model), (QStringList { u"cy"_s, u"dee"_s, u"ada"_s }));
        scene.model.noteMessage(u"ada"_s, message(u"a2"_s, u"me"_s, 1000));
        QCOMPARE(order(scene.model), (QStringList { u"ada"_s, u"cy"_s, u"dee"_s }));
    }

    void unreadMovesTheRowAndCountsInTheTotal()
    {
        Scene scene;
        scene.model.setConversations({
            { u"ada"_s, message(u"a"_s, u"ada"_s, 400), 0 },
            { u"bob"_s, message(u"b"_s, u"bob"_s, 300), 0 },
        });
        QSignalSpy total(&scene.model, &ConversationListModel::totalUnreadChanged);
        scene.model.setUnread(u"bob"_s, 4);
        QCOMPARE(order(scene.model), (QStringList { u"bob"_s, u"ada"_s }));
        QCOMPARE(total.size(), 1);
        QCOMPARE(total.at(0).at(0).toInt(), 4);
        scene.model.setUnread(u"bob"_s, 4); // unchanged: nothing said
        QCOMPARE(total.size(), 1);
        scene.model.setUnread(u"bob"_s, 0);
        QCOMPARE(order(scene.model), (QStringList { u"ada"_s, u"bob"_s }));
        QCOMPARE(scene.model.totalUnread(), 0);
        scene.model.setUnread(u"nobody"_s, 3); // no conversation, no row
        QCOMPARE(scene.model.rowCount(), 2);
        QCOMPARE(scene.model.totalUnread(), 0);
    }

    void presenceAndNamesFollowTheFriendList()
    {
        Scene scene;
        scene.model.setConversations({ { u"bob"_s, message(u"b"_s, u"bob"_s, 300), 0 },
            { u"zed"_s, message(u"z"_s, u"zed"_s, 200), 0 } });
        QSignalSpy changed(&scene.model, &QAbstractItemModel::dataChanged);
        scene.friends.updatePresence(u"bob"_s, PresenceState::Away, std::nullopt);
        scene.friends.flush();
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.at(0).at(0).toModelIndex().row(), 0);
        QVERIFY(
            changed.at(0).at(2).value<QList<int>>().contains(ConversationListModel::PresenceRole));
        QCOMPARE(scene.model.index(0).data(ConversationListModel::PresenceRole).toInt(),
            int(PresenceState::Away));
        QVERIFY(scene.model.index(0).data(ConversationListModel::FreshRole).toBool());
        // Someone no longer in the friend list: their id, presence unknown.
        QCOMPARE(scene.model.index(1).data(ConversationListModel::NameRole).toString(), u"zed"_s);
        QCOMPARE(scene.model.index(1).data(ConversationListModel::PresenceRole).toInt(),
            int(PresenceState::Unknown));
    }

    void randomTrafficKeepsTheOrder()
    {
        Scene scene;
        const QStringList ids { u"ada"_s, u"bob"_s, u"cy"_s, u"dee"_s, u"eve"_s, u"fay"_s };
        QRandomGenerator random(7);
        qint64 ts = 1000;
        for (int step = 0; step < 500; ++step) {
            const QString &id = ids.at(random.bounded(int(ids.size())));
            if (random.bounded(3) == 0)
                scene.model.setUnread(id, random.bounded(4));
            else
                scene.model.noteMessage(
                    id, message(u"m%1"_s.arg(step), id, ts += random.bounded(3)));
            for (int row = 1; row < scene.model.rowCount(); ++row)
                QVERIFY2(!ConversationListModel::goesBefore(
                             scene.model.at(row), scene.model.at(row - 1)),
                    qPrintable(order(scene.model).join(u' ')));
            for (int row = 0; row < scene.model.rowCount(); ++row)
                QCOMPARE(*scene.model.rowOf(scene.model.at(row).friendId), row);
        }
    }
};

QTEST_MAIN(TestConversationListModel)
#include "tst_conversation_list_model.moc"
