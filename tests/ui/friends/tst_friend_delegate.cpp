// FriendDelegate: the tooltip and accessible text of a row (PresenceText's words,
// tst_presence_text), a uniform row height, and the pixels a QListView paints: the presence mark's
// colour and shape per state in a light and a dark palette at device pixel ratios 1 and 2
// (QT_SCALE_FACTOR=2 runs it all at 2), dimmed stale rows, selection colours, the avatar colour and
// its initials' contrast, and right-to-left mirroring. The unread badge: its fill and place in both
// palettes and directions, the room the name makes for it, and "99+". The name line: a long name is
// elided before its handle is dropped, and friends who share a name keep their handles down to the
// narrowest row. C++
// C++
#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <utility>

// Qt
#include <QApplication>
#include <QHelpEvent>
#include <QIdentityProxyModel>
#include <QListView>
#include <QPainter>
#include <QSet>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QStyleFactory>
#include <QTest>
#include <QTimeZone>
#include <QToolTip>

// Presence
#include "models/FriendListModel.h"
#include "models/PresenceState.h"
#include "tests/support/PaletteProbe.h"
#include "ui/PresenceText.h"
#include "ui/friends/FriendDelegate.h"
#include "ui/friends/FriendListPane.h"

using namespace Qt::StringLiterals;
using Presence::Models::FriendListModel;
using Presence::Models::PresenceState;
using Presence::Ui::FriendDelegate;
using Presence::Ui::FriendPresence;
using Presence::Ui::PresenceText;

namespace {

const QDateTime kNow(QDate(2024, 3, 20), QTime(12, 0), QTimeZone::utc());

qint64 msBefore(const QDateTime &now, qint64 seconds)
{
    return now.toMSecsSinceEpoch() - seconds * 1000;
}

// The rows of the fixture list, one per case the delegate draws differently.
enum FixtureRow {
    OnlineRow,
    AwayRow,
    OfflineSeenRow, // offline, last seen 5 minutes before kNow
    UnknownRow,
    OfflineNeverRow, // offline, never seen
    StaleOnlineRow, // online, then no longer watched
    LongNameRow,
    FixtureRowCount
};

constexpr double kBackgroundDistance = 48;

// What a sampled pixel looks like, for readable comparisons.
QString toneOf(const QColor &pixel, const QColor &background)
{
    if (colorDistance(pixel, background) < kBackgroundDistance)
        return u"bg"_s;
    const int saturation = pixel.hsvSaturation();
    const int hue = pixel.hsvHue();
    if (saturation < 40)
        return u"gray"_s;
    if (hue >= 90 && hue <= 160)
        return u"green"_s;
    if (hue >= 25 && hue <= 55)
        return u"amber"_s;
    return u"other(h%1 s%2)"_s.arg(hue).arg(saturation);
}

// A painted view: its image at some device pixel ratio, sampled in logical coordinates.
struct Capture {
    QImage image;
    qreal dpr = 1;

    [[nodiscard]] QColor at(QPointF logical) const
    {
        const QPoint p(int(std::floor(logical.x() * dpr)), int(std::floor(logical.y() * dpr)));
        return image.pixelColor(p);
    }
};

// The friend list of FixtureRow in a shown QListView with the delegate, "now" = kNow.
class Fixture {
public:
    explicit Fixture(const QPalette &palette, Qt::LayoutDirection direction = Qt::LeftToRight)
    {
        model.setFriends({
            { u"alice"_s, u"Alice Smith"_s },
            { u"bob"_s, u"Bob Jones"_s },
            { u"carol"_s, u"Carol"_s },
            { u"dave"_s, u"Dave"_s },
            { u"erin"_s, u"Erin"_s },
            { u"frank"_s, u"Frank"_s },
            { u"grace"_s,
                u"GRACE BREWSTER MURRAY HOPPER, REAR ADMIRAL OF THE UNITED STATES NAVY"_s },
        });
        model.updatePresence(u"alice"_s, PresenceState::Online, std::nullopt);
        model.updatePresence(u"bob"_s, PresenceState::Away, std::nullopt);
        model.updatePresence(u"carol"_s, PresenceState::Offline, msBefore(kNow, 5 * 60));
        model.updatePresence(u"erin"_s, PresenceState::Offline, std::nullopt);
        model.updatePresence(u"frank"_s, PresenceState::Online, std::nullopt);
        model.markStale({ u"frank"_s });
        model.updatePresence(u"grace"_s, PresenceState::Online, std::nullopt);
        model.flush();

        delegate.setNowFunction([] { return kNow; });
        view.setItemDelegate(&delegate);
        view.setModel(&model);
        view.setUniformItemSizes(true);
        view.setPalette(palette);
        view.setLayoutDirection(direction);
        view.setFocusPolicy(Qt::NoFocus); // no focus frame over the sampled pixels
        view.resize(300, 400);
        view.show();
    }

    [[nodiscard]] bool exposed() { return QTest::qWaitForWindowExposed(&view); }

    [[nodiscard]] QStyleOptionViewItem optionFor(int row) const
    {
        QStyleOptionViewItem option;
        option.initFrom(&view);
        option.font = view.font();
        option.direction = view.layoutDirection();
        option.rect = view.visualRect(model.index(row));
        return option;
    }

    [[nodiscard]] FriendDelegate::RowLayout layoutOf(int row) const
    {
        return FriendDelegate::layout(optionFor(row));
    }

    [[nodiscard]] Capture capture(const QString &how) const
    {
        if (how == u"grab"_s) { // at the widget's device pixel ratio: 1 on offscreen
            QImage image = view.viewport()->grab().toImage();
            const qreal dpr = image.devicePixelRatio();
            return { std::move(image), dpr };
        }
        const qreal dpr = how == u"render@2"_s ? 2 : 1;
        QImage image(view.viewport()->size() * dpr, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(dpr);
        image.fill(Qt::magenta); // anything the view does not paint shows up
        view.viewport()->render(&image);
        return { image, dpr };
    }

    // An empty spot of the row's status line at its trailing end: the row's background.
    [[nodiscard]] QColor backgroundOf(const Capture &capture, int row) const
    {
        const QRect status = layoutOf(row).status;
        const int x
            = view.layoutDirection() == Qt::LeftToRight ? status.right() - 4 : status.left() + 4;
        return capture.at(QPointF(x + 0.5, status.center().y() + 0.5));
    }

    FriendListModel model;
    FriendDelegate delegate;
    QListView view;
};

// The mark's tones at its centre, in the gap of the offline ring, in the bite of the away
// mark, and on the ring: offsets in units of the mark's radius.
struct Probe {
    const char *name;
    QPointF offset;
};
constexpr Probe kProbes[] = {
    { "centre", { 0, 0 } },
    { "gap", { -0.52, 0 } },
    { "bite", { 0.6, -0.6 } },
    { "ring", { -0.85, 0 } },
};

QString probeMark(const Fixture &f, const Capture &capture, int row)
{
    const QRectF dot(f.layoutOf(row).dot);
    const qreal r = dot.width() / 2;
    const QColor background = f.backgroundOf(capture, row);
    QStringList tones;
    for (const Probe &probe : kProbes) {
        const QColor pixel = capture.at(dot.center() + probe.offset * r);
        tones.append(QLatin1String(probe.name) + u'=' + toneOf(pixel, background));
    }
    return tones.join(u' ');
}

// Which physical pixels of the mark differ from the background.
QList<bool> coverageOf(const Fixture &f, const Capture &capture, int row)
{
    const QRect dot = f.layoutOf(row).dot;
    const QColor background = f.backgroundOf(capture, row);
    QList<bool> mask;
    const int size = int(dot.width() * capture.dpr);
    for (int y = 0; y < size; ++y) {
        for (int x = 0; x < size; ++x) {
            const QColor pixel = capture.image.pixelColor(
                int(dot.x() * capture.dpr) + x, int(dot.y() * capture.dpr) + y);
            mask.append(colorDistance(pixel, background) >= kBackgroundDistance);
        }
    }
    return mask;
}

// How many pixels of `rect` (logical, at ratio 1) are within `tolerance` of `color`.
int countNear(const Capture &capture, const QRect &rect, const QColor &color, double tolerance)
{
    int count = 0;
    for (int y = rect.top(); y <= rect.bottom(); ++y) {
        for (int x = rect.left(); x <= rect.right(); ++x)
            count += colorDistance(capture.at(QPointF(x + 0.5, y + 0.5)), color) < tolerance;
    }
    return count;
}

// The columns of `rect` that hold pixels of the name text (close to `text`), first and last;
// nullopt when there are none.
std::optional<std::pair<int, int>> textColumns(
    const Capture &capture, const QRect &rect, const QColor &text)
{
    std::optional<std::pair<int, int>> columns;
    for (int x = rect.left(); x <= rect.right(); ++x) {
        for (int y = rect.top(); y <= rect.bottom(); ++y) {
            if (colorDistance(capture.at(QPointF(x + 0.5, y + 0.5)), text) < 120) {
                if (!columns)
                    columns = std::pair(x, x);
                columns->second = x;
                break;
            }
        }
    }
    return columns;
}

} // namespace

class TestFriendDelegate : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();

    void presenceFromIndex();
    void summaryAndAccessibleText();
    void handleTellsSameNamesApart();
    void nameGivesWayBeforeTheHandle();
    void sharedNameNeverDropsTheHandle();
    void nowIsInjectable();

    void sizeHintIsUniform();
    void layoutStaysInsideTheRow();

    void presenceMark_data();
    void presenceMark();
    void marksDifferInShape();
    void marksContrastWithTheBase_data();
    void marksContrastWithTheBase();
    void staleStatusIsDimmed();
    void selectedRowUsesHighlightColours();
    void nothingPaintsOutsideItsParts();
    void longNameIsElided();
    void longNameKeepsItsHandle_data();
    void longNameKeepsItsHandle();
    void sameNamesShowTheirHandles();

    void avatarColourIsStable();
    void avatarPaintsTheIdColour();
    void initials_data();
    void initials();
    void initialsContrastWithTheAvatar();
    void rightToLeftMirrorsTheRow_data();
    void rightToLeftMirrorsTheRow();

    void tooltipShowsTheSummary();
    void modelTooltipWins();

    void unreadBadgeFillsWithHighlight_data();
    void unreadBadgeFillsWithHighlight();
    void unreadBadgeOnASelectedRow();
    void nameMakesRoomForTheBadge_data();
    void nameMakesRoomForTheBadge();
    void unreadOver99ShowsAs99Plus();
};

void TestFriendDelegate::initTestCase()
{
    QApplication::setStyle(QStyleFactory::create(u"Fusion"_s));
    QVERIFY(QApplication::style());
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedKingdom));
}

void TestFriendDelegate::cleanup()
{
    QToolTip::hideText();
}

void TestFriendDelegate::presenceFromIndex()
{
    Fixture f(lightPalette());
    const auto presenceAt = [&f](int row) { return FriendPresence::fromIndex(f.model.index(row)); };

    const FriendPresence carol = presenceAt(OfflineSeenRow);
    QCOMPARE(carol.id, u"carol"_s);
    QCOMPARE(carol.name, u"Carol"_s);
    QCOMPARE(carol.state, PresenceState::Offline);
    QCOMPARE(carol.lastSeen, std::optional(msBefore(kNow, 5 * 60)));
    QVERIFY(carol.fresh);

    const FriendPresence dave = presenceAt(UnknownRow);
    QCOMPARE(dave.state, PresenceState::Unknown);
    QVERIFY(!dave.lastSeen);
    QVERIFY(!dave.fresh);

    QCOMPARE(presenceAt(OnlineRow).state, PresenceState::Online);
    QCOMPARE(presenceAt(AwayRow).state, PresenceState::Away);
    QVERIFY(!presenceAt(OfflineNeverRow).lastSeen);
    QCOMPARE(presenceAt(StaleOnlineRow).state, PresenceState::Online);
    QVERIFY(!presenceAt(StaleOnlineRow).fresh);

    // Through a proxy too, and nothing from an invalid index.
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&f.model);
    QCOMPARE(FriendPresence::fromIndex(proxy.index(AwayRow, 0)).id, u"bob"_s);
    QCOMPARE(FriendPresence::fromIndex(proxy.index(AwayRow, 0)).state, PresenceState::Away);
    QCOMPARE(FriendPresence::fromIndex({}).state, PresenceState::Unknown);
    QVERIFY(FriendPresence::fromIndex({}).id.isEmpty());

    // A nameless friend is called by the id.
    FriendListModel nameless;
    nameless.setFriends({ { u"zed"_s, QString() } });
    QCOMPARE(FriendPresence::fromIndex(nameless.index(0)).name, u"zed"_s);

    // Whether another friend has the same name, through a proxy too.
    QVERIFY(!carol.nameShared);
    FriendListModel namesakes;
    namesakes.setFriends({ { u"user17"_s, u"Elena Haddad"_s }, { u"user42"_s, u"Elena Haddad"_s },
        { u"user5"_s, u"Elena Hadid"_s } });
    QSortFilterProxyModel namesakesProxy;
    namesakesProxy.setSourceModel(&namesakes);
    QVERIFY(FriendPresence::fromIndex(namesakesProxy.index(1, 0)).nameShared);
    QVERIFY(!FriendPresence::fromIndex(namesakesProxy.index(2, 0)).nameShared);
}

void TestFriendDelegate::summaryAndAccessibleText()
{
    Fixture f(lightPalette());
    const QStringList expected = {
        u"Alice Smith (@alice) — online"_s,
        u"Bob Jones (@bob) — away"_s,
        u"Carol (@carol) — last seen 5 min ago"_s,
        u"Dave (@dave) — status unknown"_s,
        u"Erin (@erin) — offline"_s,
        u"Frank (@frank) — online moments ago"_s,
    };
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&f.model);
    for (int row = 0; row < expected.size(); ++row) {
        QCOMPARE(PresenceText::summary(f.model.index(row), kNow), expected.at(row));
        QCOMPARE(FriendDelegate::accessibleText(f.model.index(row), kNow), expected.at(row));
        QCOMPARE(FriendDelegate::accessibleText(proxy.index(row, 0), kNow), expected.at(row));
    }
    QCOMPARE(FriendDelegate::accessibleText(f.model.index(OfflineSeenRow), kNow.addSecs(3600)),
        u"Carol (@carol) — last seen 1 h ago"_s);
    QVERIFY(FriendDelegate::accessibleText({}, kNow).isEmpty());
}

void TestFriendDelegate::handleTellsSameNamesApart()
{
    // Two friends called Ada: the rows differ after the name, where "@ada1" and "@ada2" are
    // painted, and not in the name itself.
    FriendListModel model;
    model.setFriends({ { u"ada1"_s, u"Ada"_s }, { u"ada2"_s, u"Ada"_s } });
    FriendDelegate delegate;
    delegate.setNowFunction([] { return kNow; });
    const QFont font;
    const auto paintRow = [&](int row, int width) {
        QStyleOptionViewItem option;
        option.palette = lightPalette();
        option.font = font;
        option.fontMetrics = QFontMetrics(font);
        option.direction = Qt::LeftToRight;
        option.rect = QRect(QPoint(0, 0), QSize(width, delegate.sizeHint(option, {}).height()));
        QImage image(option.rect.size(), QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter painter(&image);
        delegate.paint(&painter, option, model.index(row));
        return std::pair(image, FriendDelegate::layout(option).name);
    };
    const auto [first, name] = paintRow(0, 300);
    const auto [second, sameName] = paintRow(1, 300);
    QCOMPARE(name, sameName);
    const int nameWidth = QFontMetrics(font).horizontalAdvance(u"Ada"_s) + 2;
    const QRect nameArea(name.left(), name.top(), nameWidth, name.height());
    const QRect afterName(
        name.left() + nameWidth, name.top(), name.width() - nameWidth, name.height());
    QCOMPARE(first.copy(nameArea), second.copy(nameArea));
    QVERIFY(first.copy(afterName) != second.copy(afterName));

    // Beside its handle a name is whole or elided, never clipped: at every width and font
    // size, a name the line shows whole has the pixels of the name alone, and one that gives
    // way ends in "…" with the handle still after it.
    int whole = 0;
    int elided = 0;
    for (const QString &who : { u"Amelia Brooks"_s, u"Chloé Martin"_s, u"Tomás Varga"_s }) {
        model.setFriends({ { u"someone"_s, who } });
        for (const qreal points : { 8.0, 9.0, 10.0, 10.5, 11.0, 12.0 }) {
            QFont sized = font;
            sized.setPointSizeF(points);
            QFont bold = sized;
            bold.setWeight(QFont::DemiBold);
            const int fullName = QFontMetrics(bold).horizontalAdvance(who);
            const auto paintSized = [&](int width) {
                QStyleOptionViewItem option;
                option.palette = lightPalette();
                option.font = sized;
                option.fontMetrics = QFontMetrics(sized);
                option.direction = Qt::LeftToRight;
                option.rect
                    = QRect(QPoint(0, 0), QSize(width, delegate.sizeHint(option, {}).height()));
                QImage image(option.rect.size(), QImage::Format_ARGB32_Premultiplied);
                image.fill(Qt::white);
                QPainter painter(&image);
                delegate.paint(&painter, option, model.index(0));
                return std::pair(image, FriendDelegate::layout(option).name);
            };
            const auto [wide, wideName] = paintSized(400);
            const QRect wholeName(wideName.left(), wideName.top(), fullName, wideName.height());
            for (int width = 120; width <= 340; ++width) {
                const auto [image, area] = paintSized(width);
                const FriendDelegate::NameLine line = FriendDelegate::nameLine(
                    FriendPresence::fromIndex(model.index(0)), sized, area.width());
                const QString where = u"%1 at %2 px, %3 pt"_s.arg(who).arg(width).arg(points);
                if (line.name == who) {
                    ++whole;
                    QVERIFY2(image.copy(wholeName) == wide.copy(wholeName), qPrintable(where));
                } else if (!line.handle.isEmpty()) {
                    ++elided;
                    QVERIFY2(line.name.endsWith(u'…'), qPrintable(where));
                    QCOMPARE(line.handle, u"@someone"_s);
                }
            }
        }
    }
    QVERIFY(whole > 100); // the widths tried show both cases
    QVERIFY(elided > 100);
}

void TestFriendDelegate::nameGivesWayBeforeTheHandle()
{
    // As the line narrows, "Nikolai Lindqvist-Okafor  @user12345" elides the name first and
    // keeps the handle whole until the name is down to a few characters; only then is the
    // handle dropped, and it does not come back at a narrower width.
    const QFont font;
    QFont bold = font;
    bold.setWeight(QFont::DemiBold);
    const QFontMetrics nameMetrics(bold);
    const QFontMetrics handleMetrics(font);
    FriendPresence presence;
    presence.id = u"user12345"_s;
    presence.name = u"Nikolai Lindqvist-Okafor"_s;
    const QString handle = u"@user12345"_s;
    const int handleWidth = handleMetrics.horizontalAdvance(handle);
    const int fullName = nameMetrics.horizontalAdvance(presence.name);
    const int roomy = fullName + 1 + handleMetrics.horizontalAdvance(u"  "_s) + handleWidth;

    FriendDelegate::NameLine line = FriendDelegate::nameLine(presence, font, roomy);
    QCOMPARE(line.name, presence.name);
    QCOMPARE(line.handle, handle);
    QVERIFY(line.nameWidth > fullName);
    QVERIFY(line.handleStart > line.nameWidth);
    QVERIFY(line.handleStart + handleWidth <= roomy);

    std::optional<int> droppedAt;
    for (int width = roomy; width >= 0; --width) {
        line = FriendDelegate::nameLine(presence, font, width);
        const QString where = u"at %1 px: \"%2\" \"%3\""_s.arg(width).arg(line.name, line.handle);
        QVERIFY2(line.nameWidth <= width, qPrintable(where));
        QVERIFY2(nameMetrics.horizontalAdvance(line.name) <= line.nameWidth, qPrintable(where));
        if (width < roomy)
            QVERIFY2(line.name.endsWith(u'…') || line.name.isEmpty(), qPrintable(where));
        if (line.handle.isEmpty()) {
            droppedAt = droppedAt.value_or(width);
            continue;
        }
        QVERIFY2(!droppedAt, qPrintable(where)); // not back once dropped
        QCOMPARE(line.handle, handle); // whole
        QVERIFY2(line.handleStart > line.nameWidth, qPrintable(where));
        QVERIFY2(line.handleStart + handleWidth <= width, qPrintable(where));
    }
    QVERIFY(droppedAt);
    // The handle stays as long as the name keeps "Nikolai Lind…" beside it.
    const int enough = nameMetrics.horizontalAdvance(u"Nikolai Lind…"_s) + 1
        + handleMetrics.horizontalAdvance(u"  "_s) + handleWidth + 1;
    QVERIFY2(*droppedAt < enough, qPrintable(u"%1 >= %2"_s.arg(*droppedAt).arg(enough)));
    line = FriendDelegate::nameLine(presence, font, enough);
    QVERIFY2(line.name.startsWith(u"Nikolai Lind"_s), qPrintable(line.name));
    QCOMPARE(line.handle, handle);
    // Below that the name alone is elided to the whole line.
    line = FriendDelegate::nameLine(presence, font, *droppedAt);
    QCOMPARE(line.nameWidth, *droppedAt);
    QVERIFY(line.name.startsWith(u"Nik"_s));
}

void TestFriendDelegate::sharedNameNeverDropsTheHandle()
{
    // Two Elena Haddads: at every width a row can have, down to the narrowest (sizeHint's),
    // their name lines differ, because each keeps a handle with its own end.
    const QFont font;
    const QFontMetrics handleMetrics(font);
    QStyleOptionViewItem option;
    option.font = font;
    option.direction = Qt::LeftToRight;
    FriendDelegate delegate;
    option.rect = QRect(QPoint(0, 0), delegate.sizeHint(option, {}));
    const int narrowest = FriendDelegate::layout(option).name.width();
    QVERIFY(narrowest > 0);

    FriendPresence first;
    first.id = u"user17"_s;
    first.name = u"Elena Haddad"_s;
    first.nameShared = true;
    FriendPresence second = first;
    second.id = u"user42"_s;
    for (int width = narrowest; width <= 400; ++width) {
        const FriendDelegate::NameLine a = FriendDelegate::nameLine(first, font, width);
        const FriendDelegate::NameLine b = FriendDelegate::nameLine(second, font, width);
        const QString where
            = u"at %1 px: \"%2\" \"%3\" / \"%4\""_s.arg(width).arg(a.name, a.handle, b.handle);
        QVERIFY2(a.handle.startsWith(u'@') && a.handle.endsWith(u'7'), qPrintable(where));
        QVERIFY2(b.handle.startsWith(u'@') && b.handle.endsWith(u'2'), qPrintable(where));
        QVERIFY2(a.name.startsWith(u'E'), qPrintable(where)); // still some of the name
        QVERIFY2(a.handleStart > a.nameWidth, qPrintable(where));
        QVERIFY2(
            a.handleStart + handleMetrics.horizontalAdvance(a.handle) <= width, qPrintable(where));
    }
    // Where both fit, both are whole.
    const FriendDelegate::NameLine roomy = FriendDelegate::nameLine(first, font, 400);
    QCOMPARE(roomy.name, first.name);
    QCOMPARE(roomy.handle, u"@user17"_s);

    // A name nobody shares gives its handle up at that width.
    first.nameShared = false;
    QVERIFY(FriendDelegate::nameLine(first, font, narrowest).handle.isEmpty());
}

void TestFriendDelegate::nowIsInjectable()
{
    FriendDelegate delegate;
    const QDateTime before = QDateTime::currentDateTime();
    const QDateTime defaultNow = delegate.now();
    QVERIFY(qAbs(before.msecsTo(defaultNow)) < 5000);

    QDateTime injected = kNow;
    delegate.setNowFunction([&injected] { return injected; });
    QCOMPARE(delegate.now(), kNow);
    injected = kNow.addSecs(90);
    QCOMPARE(delegate.now(), kNow.addSecs(90));

    delegate.setNowFunction({});
    QVERIFY(qAbs(QDateTime::currentDateTime().msecsTo(delegate.now())) < 5000);
}

void TestFriendDelegate::sizeHintIsUniform()
{
    Fixture f(lightPalette());
    QVERIFY(f.exposed());
    const QStyleOptionViewItem option = f.optionFor(0);
    const QSize hint = f.delegate.sizeHint(option, f.model.index(0));
    const QFontMetrics fm(option.font);

    QCOMPARE(hint.height(), FriendDelegate::rowHeight(option.font));
    QVERIFY2(hint.height() >= 2 * fm.height(), qPrintable(QString::number(hint.height())));
    for (int row = 0; row < FixtureRowCount; ++row) {
        QCOMPARE(f.delegate.sizeHint(option, f.model.index(row)), hint);
        QCOMPARE(f.view.visualRect(f.model.index(row)).height(), hint.height());
        // The avatar fits with room to spare, and the two text lines fit.
        const FriendDelegate::RowLayout parts = f.layoutOf(row);
        QVERIFY(parts.avatar.height() < hint.height());
        QCOMPARE(parts.avatar.width(), parts.avatar.height());
        QVERIFY(parts.avatar.height() >= 32);
        QCOMPARE(parts.name.height(), fm.height());
        QVERIFY(parts.status.top() > parts.name.bottom());
    }

    // It follows the font, so a bigger font makes taller rows.
    QStyleOptionViewItem bigger = option;
    if (option.font.pointSizeF() > 0)
        bigger.font.setPointSizeF(option.font.pointSizeF() * 2.5);
    else
        bigger.font.setPixelSize(option.font.pixelSize() * 5 / 2);
    QVERIFY(f.delegate.sizeHint(bigger, f.model.index(0)).height() > hint.height());
}

void TestFriendDelegate::layoutStaysInsideTheRow()
{
    Fixture f(lightPalette());
    QVERIFY(f.exposed());
    for (int row = 0; row < FixtureRowCount; ++row) {
        const QRect rect = f.view.visualRect(f.model.index(row));
        const FriendDelegate::RowLayout parts = f.layoutOf(row);
        for (const QRect &part : { parts.avatar, parts.name, parts.dot, parts.status })
            QVERIFY(rect.contains(part));
        // Left to right: avatar, then the text column; the mark leads the status line.
        QVERIFY(parts.avatar.right() < parts.name.left());
        QCOMPARE(parts.dot.left(), parts.name.left());
        QVERIFY(parts.dot.right() < parts.status.left());
        QVERIFY(!parts.name.intersects(parts.status));
        QVERIFY(!parts.dot.intersects(parts.avatar));
        QCOMPARE(parts.dot.width() % 2, 0);
    }
}

void TestFriendDelegate::presenceMark_data()
{
    QTest::addColumn<QString>("palette");
    QTest::addColumn<QString>("capture");
    QTest::addColumn<int>("row");
    QTest::addColumn<QString>("expected");

    const struct {
        const char *state;
        int row;
        QString tones;
    } marks[] = {
        { "online", OnlineRow, u"centre=green gap=green bite=green ring=green"_s },
        { "away", AwayRow, u"centre=amber gap=amber bite=bg ring=amber"_s },
        { "offline", OfflineSeenRow, u"centre=gray gap=bg bite=gray ring=gray"_s },
        { "offline never seen", OfflineNeverRow, u"centre=gray gap=bg bite=gray ring=gray"_s },
        { "unknown", UnknownRow, u"centre=bg gap=bg bite=gray ring=gray"_s },
    };
    for (const char *palette : { "light", "dark" }) {
        for (const char *capture : { "grab", "render@2" }) {
            for (const auto &mark : marks) {
                QTest::addRow("%s %s %s", palette, capture, mark.state) << QString::fromLatin1(
                    palette) << QString::fromLatin1(capture) << mark.row << mark.tones;
            }
        }
    }
}

void TestFriendDelegate::presenceMark()
{
    QFETCH(QString, palette);
    QFETCH(QString, capture);
    QFETCH(int, row);
    QFETCH(QString, expected);

    Fixture f(paletteNamed(palette));
    QVERIFY(f.exposed());
    const Capture image = f.capture(capture);
    QCOMPARE(image.image.devicePixelRatio(), image.dpr);
    QCOMPARE(image.image.width(), int(f.view.viewport()->width() * image.dpr));
    // The row background is the palette's base, so the samples compare against the right thing.
    QVERIFY(colorDistance(f.backgroundOf(image, row), f.view.palette().color(QPalette::Base)) < 8);
    QCOMPARE(probeMark(f, image, row), expected);
}

void TestFriendDelegate::marksDifferInShape()
{
    // Colour aside: which pixels each mark covers, at both ratios and in both palettes.
    for (const QString &palette : { u"light"_s, u"dark"_s }) {
        for (const QString &how : { u"grab"_s, u"render@2"_s }) {
            Fixture f(paletteNamed(palette));
            QVERIFY(f.exposed());
            const Capture image = f.capture(how);
            const int rows[] = { OnlineRow, AwayRow, OfflineSeenRow, UnknownRow };
            QList<QList<bool>> masks;
            for (const int row : rows)
                masks.append(coverageOf(f, image, row));
            for (qsizetype a = 0; a < masks.size(); ++a) {
                for (qsizetype b = a + 1; b < masks.size(); ++b) {
                    qsizetype differing = 0;
                    for (qsizetype i = 0; i < masks[a].size(); ++i)
                        differing += masks[a][i] != masks[b][i];
                    const double share = double(differing) / double(masks[a].size());
                    QVERIFY2(share > 0.08,
                        qPrintable(
                            u"%1 %2: rows %3 and %4 differ in %5 of the mark"_s.arg(palette, how)
                                .arg(rows[a])
                                .arg(rows[b])
                                .arg(share)));
                }
            }
        }
    }
}

void TestFriendDelegate::marksContrastWithTheBase_data()
{
    QTest::addColumn<QString>("palette");
    QTest::newRow("light") << u"light"_s;
    QTest::newRow("dark") << u"dark"_s;
}

void TestFriendDelegate::marksContrastWithTheBase()
{
    // WCAG asks 3:1 of graphics that carry meaning: the marks must adapt to a dark base.
    QFETCH(QString, palette);
    Fixture f(paletteNamed(palette));
    QVERIFY(f.exposed());
    const Capture image = f.capture(u"render@2"_s);
    for (const int row : { OnlineRow, AwayRow, OfflineSeenRow, UnknownRow }) {
        const QRectF dot(f.layoutOf(row).dot);
        const QPointF onMark = row == UnknownRow
            ? dot.center() + QPointF(-0.85, 0) * (dot.width() / 2)
            : dot.center();
        const QColor mark = image.at(onMark);
        const QColor background = f.backgroundOf(image, row);
        QVERIFY2(contrast(mark, background) >= 3.0,
            qPrintable(u"row %1: %2 on %3 has contrast %4"_s.arg(row)
                           .arg(mark.name(), background.name())
                           .arg(contrast(mark, background))));
    }
    // The same colour would not do for both: the online green is tuned per palette.
    QVERIFY(FriendDelegate::presenceColor(PresenceState::Online, lightPalette())
        != FriendDelegate::presenceColor(PresenceState::Online, darkPalette()));
}

void TestFriendDelegate::staleStatusIsDimmed()
{
    for (const QString &palette : { u"light"_s, u"dark"_s }) {
        Fixture f(paletteNamed(palette));
        QVERIFY(f.exposed());
        const Capture image = f.capture(u"grab"_s);
        const QColor background = f.backgroundOf(image, OnlineRow);
        const QColor fresh = image.at(QRectF(f.layoutOf(OnlineRow).dot).center());
        const QColor stale = image.at(QRectF(f.layoutOf(StaleOnlineRow).dot).center());
        // Still the online mark, but closer to the background.
        QCOMPARE(
            probeMark(f, image, StaleOnlineRow), u"centre=green gap=green bite=green ring=green"_s);
        QVERIFY2(colorDistance(stale, background) < 0.75 * colorDistance(fresh, background),
            qPrintable(u"%1: fresh %2 stale %3 on %4"_s.arg(
                palette, fresh.name(), stale.name(), background.name())));
    }
}

void TestFriendDelegate::selectedRowUsesHighlightColours()
{
    Fixture f(lightPalette());
    QVERIFY(f.exposed());
    const QPalette palette = f.view.palette();
    const QColor text = palette.color(QPalette::Text);
    const QColor highlightedText = palette.color(QPalette::HighlightedText);
    QVERIFY(colorDistance(text, highlightedText) > 200);

    // Pixels of the name in the text colour and in the highlighted-text colour.
    const auto namePixels = [&f](const Capture &image, const QColor &color) {
        const QRect name = f.layoutOf(OnlineRow).name;
        int count = 0;
        for (int y = name.top(); y <= name.bottom(); ++y)
            for (int x = name.left(); x <= name.right(); ++x)
                count += colorDistance(image.at(QPointF(x, y)), color) < 40;
        return count;
    };
    const auto isBackground
        = [](const QColor &a, const QColor &b) { return colorDistance(a, b) < 8; };

    Capture image = f.capture(u"grab"_s);
    QVERIFY(namePixels(image, text) > 10);
    QVERIFY(isBackground(f.backgroundOf(image, OnlineRow), palette.color(QPalette::Base)));

    f.view.selectionModel()->select(f.model.index(OnlineRow), QItemSelectionModel::ClearAndSelect);
    image = f.capture(u"grab"_s);
    QVERIFY(!isBackground(f.backgroundOf(image, OnlineRow), palette.color(QPalette::Base)));
    QCOMPARE(namePixels(image, text), 0);
    QVERIFY(namePixels(image, highlightedText) > 10);
    // The mark stays what it is on the highlight.
    QCOMPARE(probeMark(f, image, OnlineRow).section(u' ', 0, 0), u"centre=green"_s);
}

void TestFriendDelegate::nothingPaintsOutsideItsParts()
{
    // Whatever a row paints, even with a name far too long for it, lies inside the avatar,
    // the name, the mark or the status words.
    for (const auto direction : { Qt::LeftToRight, Qt::RightToLeft }) {
        Fixture f(lightPalette(), direction);
        QVERIFY(f.exposed());
        const Capture image = f.capture(u"grab"_s);
        const QRect rect = f.view.visualRect(f.model.index(LongNameRow));
        const FriendDelegate::RowLayout parts = f.layoutOf(LongNameRow);
        const QColor background = f.backgroundOf(image, LongNameRow);
        int painted = 0;
        for (int y = rect.top(); y <= rect.bottom(); ++y) {
            for (int x = rect.left(); x <= rect.right(); ++x) {
                const QPoint p(x, y);
                const bool inPart = parts.avatar.contains(p) || parts.name.contains(p)
                    || parts.dot.contains(p) || parts.status.contains(p);
                const bool drawn = colorDistance(image.at(p), background) >= kBackgroundDistance;
                painted += drawn && inPart;
                QVERIFY2(!drawn || inPart,
                    qPrintable(u"pixel %1,%2 painted outside the parts"_s.arg(x).arg(y)));
            }
        }
        QVERIFY(painted > 100);
    }
}

void TestFriendDelegate::longNameIsElided()
{
    // The name is in capitals, so a name cut off (clipped) would end in a tall stroke; an
    // elided one ends in an ellipsis, which is all low dots. The name is left-to-right text,
    // so its ellipsis is on the right in a right-to-left view too, with the text against
    // the right (leading) edge.
    for (const auto direction : { Qt::LeftToRight, Qt::RightToLeft }) {
        Fixture f(lightPalette(), direction);
        QVERIFY(f.exposed());
        const Capture image = f.capture(u"grab"_s);
        // The name's own part of the line: its handle follows it.
        const QRect line = f.layoutOf(LongNameRow).name;
        const FriendDelegate::NameLine parts = FriendDelegate::nameLine(
            FriendPresence::fromIndex(f.model.index(LongNameRow)), f.view.font(), line.width());
        const QRect name = QStyle::visualRect(
            direction, line, QRect(line.left(), line.top(), parts.nameWidth, line.height()));
        const QColor background = f.backgroundOf(image, LongNameRow);
        const auto drawn = [&](int x, int y) {
            return colorDistance(image.at(QPoint(x, y)), background) >= kBackgroundDistance;
        };
        int left = name.right();
        int right = name.left();
        int top = name.bottom();
        int bottom = name.top();
        for (int y = name.top(); y <= name.bottom(); ++y) {
            for (int x = name.left(); x <= name.right(); ++x) {
                if (drawn(x, y)) {
                    left = std::min(left, x);
                    right = std::max(right, x);
                    top = std::min(top, y);
                    bottom = std::max(bottom, y);
                }
            }
        }
        QVERIFY(bottom - top >= 6);
        // It fills its rectangle: it was too long.
        QVERIFY2(right - left > name.width() * 3 / 4, qPrintable(QString::number(right - left)));
        if (direction == Qt::LeftToRight)
            QVERIFY(left - name.left() <= 2);
        else
            QVERIFY(name.right() - right <= 2);

        const int ellipsisWidth = QFontMetrics(f.view.font()).horizontalAdvance(u"…"_s) * 3 / 4;
        QVERIFY(ellipsisWidth >= 4);
        int dotPixels = 0;
        for (int x = right - ellipsisWidth + 1; x <= right; ++x) {
            for (int y = top; y <= bottom; ++y) {
                if (!drawn(x, y))
                    continue;
                ++dotPixels;
                QVERIFY2(y >= top + (bottom - top) * 6 / 10,
                    qPrintable(u"a tall stroke at %1,%2: not an ellipsis"_s.arg(x).arg(y)));
            }
        }
        QVERIFY(dotPixels > 0);
    }
}

void TestFriendDelegate::longNameKeepsItsHandle_data()
{
    QTest::addColumn<Qt::LayoutDirection>("direction");
    QTest::newRow("left to right") << Qt::LeftToRight;
    QTest::newRow("right to left") << Qt::RightToLeft;
}

void TestFriendDelegate::longNameKeepsItsHandle()
{
    // At the list's default width a name far too long for its line gives way to "@grace":
    // the name's letters stay in the name's part of the line, and the handle is painted,
    // fainter, in its own part after it.
    QFETCH(Qt::LayoutDirection, direction);
    Fixture f(lightPalette(), direction);
    QVERIFY(f.exposed());
    const QRect area = f.layoutOf(LongNameRow).name;
    const FriendDelegate::NameLine line = FriendDelegate::nameLine(
        FriendPresence::fromIndex(f.model.index(LongNameRow)), f.view.font(), area.width());
    QCOMPARE(line.handle, u"@grace"_s);
    QVERIFY2(
        line.name.startsWith(u"GRACE BREW"_s) && line.name.endsWith(u'…'), qPrintable(line.name));
    const int handleWidth = QFontMetrics(f.view.font()).horizontalAdvance(line.handle);
    const QRect namePart = QStyle::visualRect(
        direction, area, QRect(area.left(), area.top(), line.nameWidth, area.height()));
    const QRect handlePart = QStyle::visualRect(direction, area,
        QRect(area.left() + line.handleStart, area.top(), handleWidth, area.height()));
    QVERIFY(area.contains(handlePart));

    const Capture image = f.capture(u"grab"_s);
    const QColor text = f.view.palette().color(QPalette::Text);
    const QColor background = f.backgroundOf(image, LongNameRow);
    const auto nameColumns = textColumns(image, area, text);
    QVERIFY(nameColumns);
    QVERIFY2(nameColumns->first >= namePart.left() && nameColumns->second <= namePart.right(),
        qPrintable(u"name painted over %1..%2"_s.arg(nameColumns->first).arg(nameColumns->second)));
    QCOMPARE(countNear(image, handlePart, text, 120), 0);
    int handlePixels = 0;
    for (int y = handlePart.top(); y <= handlePart.bottom(); ++y) {
        for (int x = handlePart.left(); x <= handlePart.right(); ++x)
            handlePixels
                += colorDistance(image.at(QPoint(x, y)), background) >= kBackgroundDistance;
    }
    QVERIFY2(handlePixels > 20, qPrintable(QString::number(handlePixels)));
}

void TestFriendDelegate::sameNamesShowTheirHandles()
{
    // Two Elena Haddads in a list, from its default width down to its narrowest: their rows
    // never look alike, as each shows its own handle ("@user17", "@user42") on screen.
    FriendListModel model;
    model.setFriends({ { u"user17"_s, u"Elena Haddad"_s }, { u"user42"_s, u"Elena Haddad"_s } });
    FriendDelegate delegate;
    delegate.setNowFunction([] { return kNow; });
    QListView view;
    view.setItemDelegate(&delegate);
    view.setModel(&model);
    view.setUniformItemSizes(true);
    view.setPalette(lightPalette());
    view.setFocusPolicy(Qt::NoFocus);
    view.resize(300, 200);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));

    QStyleOptionViewItem option;
    option.initFrom(&view);
    option.font = view.font();
    const int frame = view.width() - view.viewport()->width();
    const int narrowest = delegate.sizeHint(option, model.index(0)).width() + frame;
    QVERIFY(narrowest < 300);
    for (const int width : { 300, 260, 220, 190, 160, narrowest }) {
        view.resize(std::max(width, narrowest), 200);
        QTRY_COMPARE(view.visualRect(model.index(0)).width(), view.viewport()->width());
        const QImage image = view.viewport()->grab().toImage();
        const qreal dpr = image.devicePixelRatio();
        const auto pixelsOf = [&](const QRect &logical) {
            return image.copy(QRectF(QRectF(logical).topLeft() * dpr, QSizeF(logical.size()) * dpr)
                                  .toAlignedRect());
        };
        QList<QRect> areas;
        for (int row = 0; row < 2; ++row) {
            option.rect = view.visualRect(model.index(row));
            areas.append(FriendDelegate::layout(option).name);
        }
        QVERIFY2(pixelsOf(areas.at(0)) != pixelsOf(areas.at(1)),
            qPrintable(u"alike at %1 px"_s.arg(width)));

        // What differs is the handle: the names look the same.
        for (int row = 0; row < 2; ++row) {
            const FriendDelegate::NameLine line = FriendDelegate::nameLine(
                FriendPresence::fromIndex(model.index(row)), view.font(), areas.at(row).width());
            QVERIFY2(line.handle.endsWith(row == 0 ? u'7' : u'2'),
                qPrintable(u"row %1 at %2 px: \"%3\""_s.arg(row).arg(width).arg(line.handle)));
        }
        const FriendDelegate::NameLine first = FriendDelegate::nameLine(
            FriendPresence::fromIndex(model.index(0)), view.font(), areas.at(0).width());
        const auto namePart = [&](int row) {
            const QRect &area = areas.at(row);
            return pixelsOf(QRect(area.left(), area.top(), first.nameWidth, area.height()));
        };
        QCOMPARE(namePart(0), namePart(1));
    }
}

void TestFriendDelegate::avatarColourIsStable()
{
    // Fixed values: a per-process seeded hash (qHash) would fail this in the next run.
    QCOMPARE(FriendDelegate::avatarColor(u"alice"_s),
        FriendDelegate::avatarColor(QString(u"ali"_s + u"ce"_s)));
    QCOMPARE(FriendDelegate::avatarColor(u"alice"_s).name(), u"#2f31a3"_s);
    QCOMPARE(FriendDelegate::avatarColor(u"bob"_s).name(), u"#842fa3"_s);

    // Ids spread over the hues.
    QSet<int> hues;
    for (int i = 0; i < 200; ++i)
        hues.insert(FriendDelegate::avatarColor(u"user%1"_s.arg(i)).hslHue() / 10);
    QVERIFY2(hues.size() >= 30, qPrintable(QString::number(hues.size())));
}

void TestFriendDelegate::avatarPaintsTheIdColour()
{
    Fixture f(lightPalette());
    QVERIFY(f.exposed());
    const Capture image = f.capture(u"render@2"_s);
    for (const int row : { OnlineRow, AwayRow, UnknownRow }) {
        const QRect avatar = f.layoutOf(row).avatar;
        // Inside the circle, above the initials.
        const QColor painted = image.at(QPointF(avatar.center().x() + 0.5, avatar.top() + 3.5));
        const QColor expected = FriendDelegate::avatarColor(
            f.model.index(row).data(FriendListModel::IdRole).toString());
        QVERIFY2(colorDistance(painted, expected) < 6,
            qPrintable(painted.name() + u" vs "_s + expected.name()));
        // A circle: the corner of its square is background.
        QVERIFY(colorDistance(image.at(QPointF(avatar.left() + 1.5, avatar.top() + 1.5)),
                    f.backgroundOf(image, row))
            < kBackgroundDistance);
    }
}

void TestFriendDelegate::initials_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("expected");
    QTest::addRow("two words") << u"Alice Smith"_s << u"AS"_s;
    QTest::addRow("one word, lower case") << u"bob"_s << u"B"_s;
    QTest::addRow("first and last of three") << u"Mary Ann Lee"_s << u"ML"_s;
    QTest::addRow("extra spaces") << u"  jean-luc   picard "_s << u"JP"_s;
    QTest::addRow("punctuation skipped") << u"(Bob) \"Ace\""_s << u"BA"_s;
    QTest::addRow("accents") << u"élodie Ørsted"_s << u"ÉØ"_s;
    QTest::addRow("cjk") << u"李小龍"_s << u"李"_s;
    QTest::addRow("emoji kept whole") << u"😀 smile"_s << u"😀S"_s;
    QTest::addRow("digits") << u"2pac"_s << u"2"_s;
    QTest::addRow("empty") << QString() << QString();
    QTest::addRow("nothing usable") << u"-- ..."_s << QString();
}

void TestFriendDelegate::initials()
{
    QFETCH(QString, name);
    QFETCH(QString, expected);
    QCOMPARE(FriendDelegate::initials(name), expected);
}

void TestFriendDelegate::initialsContrastWithTheAvatar()
{
    // WCAG AA for text: 4.5:1, whatever colour the id gives.
    double worst = 100;
    for (int i = 0; i < 2000; ++i) {
        const QColor background = FriendDelegate::avatarColor(u"user.%1"_s.arg(i));
        worst = std::min(worst, contrast(FriendDelegate::avatarTextColor(background), background));
    }
    QVERIFY2(worst >= 4.5, qPrintable(QString::number(worst)));
    // And the choice is the better one on light and dark fills.
    QCOMPARE(FriendDelegate::avatarTextColor(QColor(0xff, 0xeb, 0x3b)), QColor(Qt::black));
    QCOMPARE(FriendDelegate::avatarTextColor(QColor(0x1a, 0x23, 0x7e)), QColor(Qt::white));
}

void TestFriendDelegate::rightToLeftMirrorsTheRow_data()
{
    QTest::addColumn<Qt::LayoutDirection>("direction");
    QTest::newRow("left to right") << Qt::LeftToRight;
    QTest::newRow("right to left") << Qt::RightToLeft;
}

void TestFriendDelegate::rightToLeftMirrorsTheRow()
{
    QFETCH(Qt::LayoutDirection, direction);
    Fixture f(lightPalette(), direction);
    QVERIFY(f.exposed());
    const QRect rect = f.view.visualRect(f.model.index(OnlineRow));
    const FriendDelegate::RowLayout parts = f.layoutOf(OnlineRow);
    const bool ltr = direction == Qt::LeftToRight;

    // The avatar sits at the leading edge, the text column after it.
    QCOMPARE(parts.avatar.center().x() < rect.center().x(), ltr);
    QCOMPARE(parts.name.center().x() > parts.avatar.center().x(), ltr);
    QCOMPARE(parts.status.center().x() > parts.dot.center().x(), ltr);
    const int leadingGap
        = ltr ? parts.avatar.left() - rect.left() : rect.right() - parts.avatar.right();
    QVERIFY(leadingGap >= 0 && leadingGap < 20);

    // And that is where the pixels are.
    const Capture image = f.capture(u"grab"_s);
    const QColor background = f.backgroundOf(image, OnlineRow);
    const QColor avatarPixel
        = image.at(QPointF(parts.avatar.center().x() + 0.5, parts.avatar.top() + 3.5));
    QVERIFY(colorDistance(avatarPixel, FriendDelegate::avatarColor(u"alice"_s)) < 6);
    const QRect mirroredAvatar = QStyle::visualRect(Qt::RightToLeft, rect, parts.avatar);
    QVERIFY(colorDistance(
                image.at(QPointF(mirroredAvatar.center().x() + 0.5, mirroredAvatar.top() + 3.5)),
                background)
        < kBackgroundDistance);
    QCOMPARE(probeMark(f, image, OnlineRow), u"centre=green gap=green bite=green ring=green"_s);
}

void TestFriendDelegate::tooltipShowsTheSummary()
{
    Fixture f(lightPalette());
    QVERIFY(f.exposed());
    QDateTime now = kNow;
    f.delegate.setNowFunction([&now] { return now; });

    const auto tooltipAt = [&f](int row) {
        const QPoint pos = f.view.visualRect(f.model.index(row)).center();
        QHelpEvent event(QEvent::ToolTip, pos, f.view.viewport()->mapToGlobal(pos));
        QApplication::sendEvent(f.view.viewport(), &event);
        return event.isAccepted();
    };

    const QStringList expected = {
        u"Alice Smith (@alice) — online"_s,
        u"Bob Jones (@bob) — away"_s,
        u"Carol (@carol) — last seen 5 min ago"_s,
        u"Dave (@dave) — status unknown"_s,
        u"Erin (@erin) — offline"_s,
        u"Frank (@frank) — online moments ago"_s,
    };
    for (int row = 0; row < expected.size(); ++row) {
        QVERIFY(tooltipAt(row));
        QTRY_COMPARE(QToolTip::text(), expected.at(row));
        QVERIFY(QToolTip::isVisible());
    }

    // The injected clock moves the words on.
    now = kNow.addSecs(60);
    QVERIFY(tooltipAt(OfflineSeenRow));
    QTRY_COMPARE(QToolTip::text(), u"Carol (@carol) — last seen 6 min ago"_s);
}

namespace {
class ToolTipProxy : public QIdentityProxyModel {
public:
    using QIdentityProxyModel::QIdentityProxyModel;
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role == Qt::ToolTipRole)
            return u"from the model: %1"_s.arg(index.row());
        return QIdentityProxyModel::data(index, role);
    }
};
} // namespace

void TestFriendDelegate::modelTooltipWins()
{
    Fixture f(lightPalette());
    ToolTipProxy proxy;
    proxy.setSourceModel(&f.model);
    f.view.setModel(&proxy);
    QVERIFY(f.exposed());
    const QPoint pos = f.view.visualRect(proxy.index(AwayRow, 0)).center();
    QHelpEvent event(QEvent::ToolTip, pos, f.view.viewport()->mapToGlobal(pos));
    QApplication::sendEvent(f.view.viewport(), &event);
    QTRY_COMPARE(QToolTip::text(), u"from the model: %1"_s.arg(int(AwayRow)));
}

void TestFriendDelegate::unreadBadgeFillsWithHighlight_data()
{
    QTest::addColumn<QString>("palette");
    QTest::addColumn<Qt::LayoutDirection>("direction");
    for (const char *palette : { "light", "dark" }) {
        QTest::addRow("%s, left to right", palette)
            << QString::fromLatin1(palette) << Qt::LeftToRight;
        QTest::addRow("%s, right to left", palette)
            << QString::fromLatin1(palette) << Qt::RightToLeft;
    }
}

void TestFriendDelegate::unreadBadgeFillsWithHighlight()
{
    QFETCH(QString, palette);
    QFETCH(Qt::LayoutDirection, direction);
    Fixture f(paletteNamed(palette), direction);
    QVERIFY(f.exposed());
    const QPalette colors = f.view.palette();
    const QColor highlight = colors.color(QPalette::Highlight);
    const QColor highlightedText = colors.color(QPalette::HighlightedText);
    const QColor base = colors.color(QPalette::Base);
    const bool ltr = direction == Qt::LeftToRight;
    const QRect row = f.view.visualRect(f.model.index(OnlineRow));
    const QRect name = f.layoutOf(OnlineRow).name;

    QVERIFY(FriendDelegate::unreadBadgeRect(f.optionFor(OnlineRow), 0).isEmpty());
    const QRect badge = FriendDelegate::unreadBadgeRect(f.optionFor(OnlineRow), 3);
    QVERIFY(!badge.isEmpty());
    // On the name line, at its trailing end: the right in left-to-right, the left otherwise.
    QVERIFY(name.contains(badge));
    if (ltr)
        QCOMPARE(badge.right(), name.right());
    else
        QCOMPARE(badge.left(), name.left());
    QCOMPARE(badge.center().x() > row.center().x(), ltr);
    const int area = badge.width() * badge.height();

    // No unread messages: no badge, the spot is the base.
    Capture image = f.capture(u"grab"_s);
    QCOMPARE(countNear(image, row, highlight, 24), 0);
    QCOMPARE(countNear(image, badge, base, 8), area);

    // Three: a good part of the badge (a pill, minus its corners and digits) is the highlight,
    // the digits are in the highlighted-text colour, and nowhere else on the row is highlighted.
    f.model.setUnreadCount(u"alice"_s, 3);
    image = f.capture(u"grab"_s);
    const int filled = countNear(image, badge, highlight, 24);
    QVERIFY2(filled * 3 > area, qPrintable(u"%1 of %2 pixels"_s.arg(filled).arg(area)));
    QVERIFY(countNear(image, badge, highlightedText, 60) >= 3);
    QCOMPARE(countNear(image, row, highlight, 24), countNear(image, badge, highlight, 24));
    // The same spot at the leading end of the name line holds no badge.
    const QRect leading = QStyle::visualRect(Qt::RightToLeft, name, badge);
    QCOMPARE(leading.top(), badge.top());
    QCOMPARE(ltr ? leading.left() : leading.right(), ltr ? name.left() : name.right());
    QCOMPARE(countNear(image, leading, highlight, 24), 0);

    // And it goes again with the last unread message.
    f.model.setUnreadCount(u"alice"_s, 0);
    image = f.capture(u"grab"_s);
    QCOMPARE(countNear(image, row, highlight, 24), 0);
    QCOMPARE(countNear(image, badge, base, 8), area);
}

void TestFriendDelegate::unreadBadgeOnASelectedRow()
{
    // The row's background is the highlight there: the badge takes the highlighted-text
    // colour instead, so it stays visible.
    for (const QString &palette : { u"light"_s, u"dark"_s }) {
        Fixture f(paletteNamed(palette));
        f.model.setUnreadCount(u"alice"_s, 4);
        f.view.selectionModel()->select(
            f.model.index(OnlineRow), QItemSelectionModel::ClearAndSelect);
        QVERIFY(f.exposed());
        const QColor highlightedText = f.view.palette().color(QPalette::HighlightedText);
        const QRect badge = FriendDelegate::unreadBadgeRect(f.optionFor(OnlineRow), 4);
        const int area = badge.width() * badge.height();
        const Capture image = f.capture(u"grab"_s);
        const int filled = countNear(image, badge, highlightedText, 24);
        QVERIFY2(filled * 3 > area,
            qPrintable(u"%1: %2 of %3 pixels"_s.arg(palette).arg(filled).arg(area)));
        // The digits are in the row's background colour, so they are not all badge fill.
        QVERIFY(filled < area - 3);
    }
}

void TestFriendDelegate::nameMakesRoomForTheBadge_data()
{
    QTest::addColumn<Qt::LayoutDirection>("direction");
    QTest::newRow("left to right") << Qt::LeftToRight;
    QTest::newRow("right to left") << Qt::RightToLeft;
}

void TestFriendDelegate::nameMakesRoomForTheBadge()
{
    // A name too long for its line is elided before the badge: its letters keep clear of it.
    QFETCH(Qt::LayoutDirection, direction);
    const bool ltr = direction == Qt::LeftToRight;
    Fixture f(lightPalette(), direction);
    QVERIFY(f.exposed());
    const QColor text = f.view.palette().color(QPalette::Text);
    const QRect name = f.layoutOf(LongNameRow).name;
    const QRect badge = FriendDelegate::unreadBadgeRect(f.optionFor(LongNameRow), 12);
    QVERIFY(name.contains(badge));

    // Without a badge the line (the name, then its handle) runs over the place the badge
    // takes.
    Capture image = f.capture(u"grab"_s);
    const QColor background = f.backgroundOf(image, LongNameRow);
    int under = 0;
    for (int y = badge.top(); y <= badge.bottom(); ++y) {
        for (int x = badge.left(); x <= badge.right(); ++x)
            under += colorDistance(image.at(QPoint(x, y)), background) >= kBackgroundDistance;
    }
    QVERIFY(under > 0);

    f.model.setUnreadCount(u"grace"_s, 12);
    image = f.capture(u"grab"_s);
    QCOMPARE(countNear(image, badge, text, 120), 0);
    const auto beside = textColumns(image, name, text);
    QVERIFY(beside);
    // Clear of the badge, with a gap, and still filling its part of the rest of the line
    // (elided, not dropped), the handle after it.
    const int room = FriendDelegate::nameLine(FriendPresence::fromIndex(f.model.index(LongNameRow)),
        f.view.font(), name.width() - badge.width())
                         .nameWidth;
    if (ltr) {
        QVERIFY2(beside->second < badge.left() - 2, qPrintable(QString::number(beside->second)));
        QVERIFY(beside->second - name.left() > room * 3 / 4);
    } else {
        QVERIFY2(beside->first > badge.right() + 2, qPrintable(QString::number(beside->first)));
        QVERIFY(name.right() - beside->first > room * 3 / 4);
    }
}

void TestFriendDelegate::unreadOver99ShowsAs99Plus()
{
    QCOMPARE(FriendDelegate::unreadBadgeText(1), u"1"_s);
    QCOMPARE(FriendDelegate::unreadBadgeText(42), u"42"_s);
    QCOMPARE(FriendDelegate::unreadBadgeText(99), u"99"_s);
    QCOMPARE(FriendDelegate::unreadBadgeText(100), u"99+"_s);
    QCOMPARE(FriendDelegate::unreadBadgeText(150), u"99+"_s);

    Fixture f(lightPalette());
    QVERIFY(f.exposed());
    const QStyleOptionViewItem option = f.optionFor(OnlineRow);
    const QRect one = FriendDelegate::unreadBadgeRect(option, 1);
    const QRect many = FriendDelegate::unreadBadgeRect(option, 150);
    // "99+" takes a wider pill than one digit, the same for any count over 99.
    QVERIFY(one.width() >= one.height());
    QVERIFY(many.width() > one.width());
    QCOMPARE(many.height(), one.height());
    QCOMPARE(FriendDelegate::unreadBadgeRect(option, 100000), many);
    QVERIFY(FriendDelegate::unreadBadgeRect(option, -2).isEmpty());

    // What is painted for 150 is what is painted for 1000 ("99+"), and not what 99 shows.
    const auto badgePixels = [&](int unread) {
        f.model.setUnreadCount(u"alice"_s, unread);
        const Capture image = f.capture(u"grab"_s);
        return image.image.copy(
            QRectF(QRectF(many).topLeft() * image.dpr, QRectF(many).size() * image.dpr)
                .toAlignedRect());
    };
    const QImage at150 = badgePixels(150);
    QCOMPARE(badgePixels(1000), at150);
    QVERIFY(badgePixels(99) != at150);
    // And it is a badge: filled with the highlight.
    f.model.setUnreadCount(u"alice"_s, 150);
    const Capture image = f.capture(u"grab"_s);
    const int filled = countNear(image, many, f.view.palette().color(QPalette::Highlight), 24);
    QVERIFY2(filled * 3 > many.width() * many.height(), qPrintable(QString::number(filled)));
}

QTEST_MAIN(TestFriendDelegate)
#include "tst_friend_delegate.moc"
