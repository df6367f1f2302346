// ChatMessageDelegate over a ChatModel in a QListView set up as the chat pane sets it up
// (per-pixel scrolling, rows of their own heights, laid out again on resize): where bubbles go
// (ours on the trailing side, the friend's on the leading side, mirrored right to left), how
// long text wraps inside the view, the small line under each message for every delivery state
// against an injected "now", the accessible text, and the pixels: the highlight of our
// bubbles, the error-coloured outline of a refused message, the dashes and fainter colours of
// one not acknowledged yet, and text that contrasts with its bubble in a light and a dark
// palette.
// C++
#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

// Qt
#include <QApplication>
#include <QDebug>
#include <QHelpEvent>
#include <QListView>
#include <QPainter>
#include <QScrollBar>
#include <QStyle>
#include <QStyleFactory>
#include <QTest>
#include <QTextLayout>
#include <QTimeZone>
#include <QToolTip>

// Presence
#include "models/ChatModel.h"
#include "tests/support/PaletteProbe.h"
#include "ui/PaletteColors.h"
#include "ui/chat/ChatMessageDelegate.h"
#include "ui/chat/ChatRowContext.h"
#include "ui/chat/EmojiRuns.h"

using namespace Qt::StringLiterals;
using Presence::Models::ChatMessageRecord;
using Presence::Models::ChatModel;
using Presence::Models::Delivery;
using Presence::Ui::ChatMessageDelegate;
using Presence::Ui::ChatRowContext;
using Presence::Ui::PaletteColors;

namespace {

const QDateTime kNow(QDate(2024, 3, 20), QTime(12, 0), QTimeZone::utc());
const QString kFailure = u"The gateway refused the message."_s;

qint64 utcMs(QDate date, QTime time)
{
    return QDateTime(date, time, QTimeZone::utc()).toMSecsSinceEpoch();
}

qint64 todayAt(int hour, int minute)
{
    return utcMs(kNow.date(), QTime(hour, minute));
}

ChatMessageRecord delivered(const QString &id, const QString &from, const QString &text, qint64 ts)
{
    ChatMessageRecord record;
    record.id = id;
    record.from = from;
    record.text = text;
    record.ts = ts;
    return record;
}

// Further than this from the base is painted.
constexpr double kPainted = 12;

// The view's viewport painted into an image at device pixel ratio 1, so that pixels are
// logical coordinates whatever QT_SCALE_FACTOR says.
class Capture {
public:
    explicit Capture(QWidget *viewport)
        : m_image(viewport->size(), QImage::Format_ARGB32_Premultiplied)
    {
        m_image.fill(Qt::magenta); // anything the view does not paint shows up
        viewport->render(&m_image);
    }

    [[nodiscard]] QColor at(int x, int y) const { return m_image.pixelColor(x, y); }

    // Pixels of `rect` within `tolerance` of `color`.
    [[nodiscard]] int countNear(const QRect &rect, const QColor &color, double tolerance) const
    {
        int count = 0;
        forEach(rect, [&](int x, int y) { count += colorDistance(at(x, y), color) < tolerance; });
        return count;
    }

    // Pixels of `rect` that differ from `base`, and are not inside `except`.
    [[nodiscard]] int countPainted(
        const QRect &rect, const QColor &base, const QRect &except = {}) const
    {
        int count = 0;
        forEach(rect, [&](int x, int y) {
            count += !except.contains(x, y) && colorDistance(at(x, y), base) >= kPainted;
        });
        return count;
    }

    // The first and last columns of `rect` with a pixel further than `distance` from `from`.
    [[nodiscard]] std::optional<std::pair<int, int>> columnsAway(
        const QRect &rect, const QColor &from, double distance) const
    {
        std::optional<std::pair<int, int>> columns;
        forEach(rect, [&](int x, int y) {
            if (colorDistance(at(x, y), from) < distance)
                return;
            if (!columns)
                columns = std::pair(x, x);
            columns->first = std::min(columns->first, x);
            columns->second = std::max(columns->second, x);
        });
        return columns;
    }

    // The pixel of `rect` furthest from `from`: the core of the text drawn on it.
    [[nodiscard]] QColor furthestFrom(const QRect &rect, const QColor &from) const
    {
        QColor furthest = from;
        forEach(rect, [&](int x, int y) {
            if (colorDistance(at(x, y), from) > colorDistance(furthest, from))
                furthest = at(x, y);
        });
        return furthest;
    }

private:
    template <typename F> void forEach(const QRect &rect, F &&visit) const
    {
        const QRect inside = rect & m_image.rect();
        for (int y = inside.top(); y <= inside.bottom(); ++y) {
            for (int x = inside.left(); x <= inside.right(); ++x)
                visit(x, y);
        }
    }

    QImage m_image;
};

// The rows of the fixture conversation, in the model's order: delivered messages first, then
// ours in flight in the order they were typed.
enum ChatRow {
    TheirsRow,
    OursRow, // delivered
    UnconfirmedRow,
    QueuedRow,
    SendingRow,
    FailedRow,
    ChatRowCount
};

// A chat with "ada" seen by "me" in a shown QListView, configured like the chat pane's.
class ChatFixture {
public:
    explicit ChatFixture(const QPalette &palette, Qt::LayoutDirection direction = Qt::LeftToRight,
        QSize size = { 420, 560 })
    {
        delegate.setNowFunction([] { return kNow; });
        view.setItemDelegate(&delegate);
        view.setModel(&model);
        view.setUniformItemSizes(false);
        view.setResizeMode(QListView::Adjust);
        view.setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
        view.setPalette(palette);
        view.setLayoutDirection(direction);
        view.setFocusPolicy(Qt::NoFocus); // no focus frame over the sampled pixels
        view.resize(size);
        view.show();
    }

    // One row per ChatRow.
    void addConversation()
    {
        model.mergeHistory(
            { delivered(u"m1"_s, u"ada"_s, u"Are you coming tonight?"_s, todayAt(11, 5)),
                delivered(u"m2"_s, u"me"_s, u"Yes, at eight."_s, todayAt(11, 6)) },
            false, false);
        model.appendOwn(
            u"k-unconfirmed"_s, u"Shall I bring cake?"_s, todayAt(11, 7), Delivery::Sending);
        model.markSendingUnconfirmed(); // the connection dropped before the answer
        model.appendOwn(u"k-queued"_s, u"Or wine?"_s, todayAt(11, 8), Delivery::Queued);
        model.appendOwn(u"k-sending"_s, u"Both, then."_s, todayAt(11, 9), Delivery::Queued);
        model.setSending(u"k-sending"_s);
        model.appendOwn(u"k-failed"_s, u"See you!"_s, todayAt(11, 10), Delivery::Sending);
        model.fail(u"k-failed"_s, kFailure);
    }

    [[nodiscard]] bool exposed() { return QTest::qWaitForWindowExposed(&view); }

    [[nodiscard]] QStyleOptionViewItem optionFor(int row) const
    {
        QStyleOptionViewItem option;
        option.initFrom(&view);
        option.widget = &view;
        option.font = view.font();
        option.direction = view.layoutDirection();
        option.rect = view.visualRect(model.index(row));
        return option;
    }

    [[nodiscard]] ChatMessageDelegate::BubbleLayout layoutOf(int row) const
    {
        return delegate.layout(optionFor(row), model.index(row));
    }

    [[nodiscard]] QRect rowRect(int row) const { return view.visualRect(model.index(row)); }
    // The row from its bubble's top down: without the day separator or divider above it.
    [[nodiscard]] QRect bubbleBand(int row) const
    {
        QRect band = rowRect(row);
        band.setTop(layoutOf(row).bubble.top());
        return band;
    }

    // Empty when the view's rects of the rows tile the list, each starting where the one
    // before it ends; else which two overlap or leave a gap.
    [[nodiscard]] QString tilingProblem() const
    {
        for (int row = 1; row < model.rowCount(); ++row) {
            const QRect before = rowRect(row - 1);
            const QRect rect = rowRect(row);
            if (rect.top() != before.bottom() + 1) {
                return u"row %1 is %2, row %3 starts at y %4"_s.arg(row - 1)
                    .arg(QDebug::toString(before))
                    .arg(row)
                    .arg(rect.top());
            }
        }
        return {};
    }
    [[nodiscard]] Capture capture() const { return Capture(view.viewport()); }
    [[nodiscard]] QColor base() const { return view.palette().color(QPalette::Base); }

    // A spot inside the bubble's horizontal padding, clear of the text and the corners.
    [[nodiscard]] QColor fillOf(const Capture &image, int row) const
    {
        const QRect bubble = layoutOf(row).bubble;
        return image.at(bubble.left() + 4, bubble.center().y());
    }

    ChatModel model { u"me"_s, u"ada"_s };
    ChatMessageDelegate delegate;
    QListView view;
};

// A one-message model whose message is ours or theirs and stands at `delivery`, reached the way
// the chat controller gets there.
QModelIndex addMessage(ChatModel &model, bool ours, Delivery delivery, qint64 ts)
{
    const QString text = u"hello"_s;
    const QString key = u"k1"_s;
    if (!ours || delivery == Delivery::Delivered) {
        model.mergeHistory(
            { delivered(u"m1"_s, ours ? u"me"_s : u"ada"_s, text, ts) }, false, false);
        return model.index(0);
    }
    switch (delivery) {
    case Delivery::Queued:
        model.appendOwn(key, text, ts, Delivery::Queued);
        break;
    case Delivery::Sending:
        model.appendOwn(key, text, ts, Delivery::Queued);
        model.setSending(key);
        break;
    case Delivery::Unconfirmed:
        model.appendOwn(key, text, ts, Delivery::Sending);
        model.markSendingUnconfirmed();
        break;
    case Delivery::Failed:
        model.appendOwn(key, text, ts, Delivery::Sending);
        model.fail(key, kFailure);
        break;
    case Delivery::Delivered:
        break;
    }
    return model.index(model.rowCount() - 1);
}

// The time and state under a message are quieter than its text, but still readable.
bool checkMetaContrast(const Capture &image, const ChatMessageDelegate::BubbleLayout &parts,
    const QColor &fill, int row)
{
    const QColor metaInk = image.furthestFrom(parts.meta, fill);
    if (contrast(metaInk, fill) >= 2.0)
        return true;
    qWarning("row %d meta: %s on %s, contrast %f", row, qPrintable(metaInk.name()),
        qPrintable(fill.name()), contrast(metaInk, fill));
    return false;
}

} // namespace

class TestChatMessageDelegate : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();

    void bubblesSitOnTheirSides_data();
    void bubblesSitOnTheirSides();
    void metaLineFollowsTheBubble_data();
    void metaLineFollowsTheBubble();
    void longTextWrapsWithinTheView_data();
    void longTextWrapsWithinTheView();
    void rightToLeftTextStaysInItsBubble_data();
    void rightToLeftTextStaysInItsBubble();
    void lineBreaksStartNewLines_data();
    void lineBreaksStartNewLines();

    void metaText_data();
    void metaText();
    void timesHaveNoSecondsInAnyLocale_data();
    void timesHaveNoSecondsInAnyLocale();
    void accessibleText();
    void tooltipExplainsWhatIsPending();

    void failedRowHasAnErrorOutline_data();
    void failedRowHasAnErrorOutline();
    void pendingRowsAreDashedAndFainter_data();
    void pendingRowsAreDashedAndFainter();
    void textContrastsWithTheBubble_data();
    void textContrastsWithTheBubble();
    void ringContrastsWithEveryBubble_data();
    void ringContrastsWithEveryBubble();

    void daySeparatorsSayTodayYesterdayOrTheDate();
    void consecutiveMessagesGroup_data();
    void consecutiveMessagesGroup();
    void bubblesStayReadableInAWideView();
    void linkEndsAtALineBreak();
    void linkAtFindsTheLinkUnderThePoint();
    void linksAreUnderlined();
    void emojiAreInColour();
    void unreadDividerGoesAboveItsMessage();
    void selectedRowHasNoBand();
};

void TestChatMessageDelegate::initTestCase()
{
    QApplication::setStyle(QStyleFactory::create(u"Fusion"_s));
    QVERIFY(QApplication::style());
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedKingdom));
}

void TestChatMessageDelegate::cleanup()
{
    QToolTip::hideText();
}

void TestChatMessageDelegate::bubblesSitOnTheirSides_data()
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

void TestChatMessageDelegate::bubblesSitOnTheirSides()
{
    // Ours on the trailing side (the right, left to right), the friend's on the leading side.
    QFETCH(QString, palette);
    QFETCH(Qt::LayoutDirection, direction);
    const bool ltr = direction == Qt::LeftToRight;
    ChatFixture f(paletteNamed(palette), direction);
    f.addConversation();
    QVERIFY(f.exposed());
    QCOMPARE(f.model.rowCount(), int(ChatRowCount));
    const int width = f.view.viewport()->width();

    // Rows follow one another, as tall as the delegate asks, each holding its bubble.
    QVERIFY2(f.tilingProblem().isEmpty(), qPrintable(f.tilingProblem()));
    for (int row = 0; row < ChatRowCount; ++row) {
        const QModelIndex index = f.model.index(row);
        const QRect rect = f.rowRect(row);
        const ChatMessageDelegate::BubbleLayout parts = f.layoutOf(row);
        QCOMPARE(rect.height(), f.delegate.sizeHint(f.optionFor(row), index).height());
        QVERIFY(rect.width() <= width);
        QVERIFY2(rect.contains(parts.bubble),
            qPrintable(u"row %1: %2 outside %3"_s.arg(row).arg(
                QDebug::toString(parts.bubble), QDebug::toString(rect))));
        QVERIFY(parts.bubble.contains(parts.text.toAlignedRect()));
        // Inside a group only the last delivered message, and every one not delivered yet,
        // has its small line.
        // (Our delivered one is followed by our unconfirmed one a minute later: one group.)
        QCOMPARE(parts.meta.isEmpty(), row == OursRow);
        if (!parts.meta.isEmpty()) {
            QVERIFY(parts.bubble.contains(parts.meta));
            QVERIFY(parts.meta.top() >= parts.text.bottom());
        }

        const bool ours = row != TheirsRow;
        QCOMPARE(index.data(ChatModel::OutgoingRole).toBool(), ours);
        const bool onTheRight = ours == ltr;
        QCOMPARE(parts.bubble.center().x() > rect.center().x(), onTheRight);
        const int edgeGap
            = onTheRight ? rect.right() - parts.bubble.right() : parts.bubble.left() - rect.left();
        QVERIFY2(edgeGap >= 0 && edgeGap <= 16, qPrintable(QString::number(edgeGap)));
    }

    // And that is where the pixels are: our delivered bubble in the highlight on its side
    // only, the friend's in a tint of the base, never the highlight, on the other side.
    const Capture image = f.capture();
    const QColor highlight = f.view.palette().color(QPalette::Highlight);
    const auto halves = [&f](int row) {
        const QRect rect = f.bubbleBand(row); // under the day separator, if any
        QRect left = rect;
        left.setRight(rect.center().x());
        QRect right = rect;
        right.setLeft(rect.center().x() + 1);
        return std::pair(left, right);
    };
    {
        const auto [left, right] = halves(OursRow);
        const QRect mine = ltr ? right : left;
        const QRect other = ltr ? left : right;
        QVERIFY2(image.countNear(mine, highlight, 12) > 300,
            qPrintable(QString::number(image.countNear(mine, highlight, 12))));
        QCOMPARE(image.countNear(other, highlight, 40), 0);
        QCOMPARE(image.countPainted(other, f.base()), 0);
    }
    {
        const auto [left, right] = halves(TheirsRow);
        const QRect theirs = ltr ? left : right;
        const QRect other = ltr ? right : left;
        QCOMPARE(image.countNear(f.bubbleBand(TheirsRow), highlight, 40), 0);
        QVERIFY(image.countPainted(theirs, f.base()) > 300);
        QCOMPARE(image.countPainted(other, f.base()), 0);
    }
}

void TestChatMessageDelegate::metaLineFollowsTheBubble_data()
{
    QTest::addColumn<Qt::LayoutDirection>("direction");
    QTest::newRow("left to right") << Qt::LeftToRight;
    QTest::newRow("right to left") << Qt::RightToLeft;
}

void TestChatMessageDelegate::metaLineFollowsTheBubble()
{
    // The time under a message is against the bubble's outer edge: the trailing edge for
    // ours, the leading edge for theirs, mirrored with the rest of the row.
    QFETCH(Qt::LayoutDirection, direction);
    const bool ltr = direction == Qt::LeftToRight;
    ChatFixture f(lightPalette(), direction);
    f.model.mergeHistory(
        { delivered(u"m1"_s, u"ada"_s, u"A message much wider than its time"_s, todayAt(11, 5)),
            delivered(u"m2"_s, u"me"_s, u"And my answer, wider than its time"_s, todayAt(11, 6)) },
        false, false);
    QVERIFY(f.exposed());
    const Capture image = f.capture();
    for (const int row : { 0, 1 }) {
        const bool ours = row == 1;
        const ChatMessageDelegate::BubbleLayout parts = f.layoutOf(row);
        const QColor fill = f.fillOf(image, row);
        const auto meta = image.columnsAway(parts.meta, fill, 60);
        QVERIFY(meta);
        const int metaWidth = meta->second - meta->first + 1;
        QVERIFY2(metaWidth < parts.meta.width() * 3 / 4,
            qPrintable(
                u"the time fills the line: %1 of %2"_s.arg(metaWidth).arg(parts.meta.width())));
        const bool againstTheRight = ours == ltr;
        const QString where = u"row %1: time at %2..%3 in %4..%5"_s.arg(row)
                                  .arg(meta->first)
                                  .arg(meta->second)
                                  .arg(parts.meta.left())
                                  .arg(parts.meta.right());
        if (againstTheRight)
            QVERIFY2(parts.meta.right() - meta->second <= 3, qPrintable(where));
        else
            QVERIFY2(meta->first - parts.meta.left() <= 3, qPrintable(where));
    }
}

void TestChatMessageDelegate::longTextWrapsWithinTheView_data()
{
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("text");

    const QString words = u"The quick brown fox jumps over the lazy dog, "_s.repeated(8).trimmed();
    const QString word = u"Pneumonoultramicroscopicsilicovolcanoconiosis"_s.repeated(7);
    const QString url = u"https://example.org/"_s + u"a1b2c3d4e5/"_s.repeated(24);
    QTest::newRow("words, theirs") << u"ada"_s << words;
    QTest::newRow("words, ours") << u"me"_s << words;
    QTest::newRow("one long word, theirs") << u"ada"_s << word;
    QTest::newRow("one long word, ours") << u"me"_s << word;
    QTest::newRow("a long link, ours") << u"me"_s << url;
}

void TestChatMessageDelegate::longTextWrapsWithinTheView()
{
    QFETCH(QString, from);
    QFETCH(QString, text);
    ChatFixture f(lightPalette(), Qt::LeftToRight, { 380, 760 });
    f.model.mergeHistory({ delivered(u"m1"_s, from, u"Short."_s, todayAt(11, 5)),
                             delivered(u"m2"_s, from, text, todayAt(11, 6)) },
        false, false);
    QVERIFY(f.exposed());
    const QModelIndex shortIndex = f.model.index(0);
    const QModelIndex longIndex = f.model.index(1);

    const auto check = [&f, &shortIndex, &longIndex]() {
        const int width = f.view.viewport()->width();
        const QSize shortHint = f.delegate.sizeHint(f.optionFor(0), shortIndex);
        const QSize longHint = f.delegate.sizeHint(f.optionFor(1), longIndex);
        // Several lines, in a row as tall as they need.
        QVERIFY2(longHint.height() > 2 * shortHint.height(),
            qPrintable(u"%1 vs %2"_s.arg(longHint.height()).arg(shortHint.height())));
        QVERIFY2(f.tilingProblem().isEmpty(), qPrintable(f.tilingProblem()));
        QCOMPARE(f.rowRect(1).height(), longHint.height());
        QVERIFY(longHint.width() <= width);
        // Never wider than the view, so it never needs a horizontal scroll bar.
        const ChatMessageDelegate::BubbleLayout parts = f.layoutOf(1);
        QVERIFY2(parts.bubble.left() >= 0 && parts.bubble.right() < width,
            qPrintable(u"%1 in a view %2 wide"_s.arg(QDebug::toString(parts.bubble)).arg(width)));
        QVERIFY(parts.bubble.contains(parts.text.toAlignedRect()));
        QCOMPARE(f.view.horizontalScrollBar()->maximum(), 0);
        // Whatever the row paints is inside its bubble: no line runs out of it.
        const Capture image = f.capture();
        const QRect row = f.rowRect(1);
        QVERIFY(image.countPainted(parts.bubble, f.base()) > 500);
        QCOMPARE(image.countPainted(row, f.base(), parts.bubble), 0);
    };

    check();
    if (QTest::currentTestFailed())
        return;
    const int tall = f.rowRect(1).height();
    // Narrower: laid out again (resize mode Adjust), in more lines.
    f.view.resize(240, f.view.height());
    QTRY_VERIFY(f.rowRect(1).height() > tall);
    QTRY_COMPARE(f.rowRect(1).height(), f.delegate.sizeHint(f.optionFor(1), longIndex).height());
    check();
}

void TestChatMessageDelegate::lineBreaksStartNewLines_data()
{
    QTest::addColumn<QString>("from");
    QTest::newRow("theirs") << u"ada"_s;
    QTest::newRow("ours") << u"me"_s;
}

void TestChatMessageDelegate::lineBreaksStartNewLines()
{
    QFETCH(QString, from);
    // Shift+Enter puts '\n' in the text, for the sender and (through the gateway) the receiver.
    ChatFixture f(lightPalette(), Qt::LeftToRight, { 420, 560 });
    f.model.mergeHistory({ delivered(u"m1"_s, from, u"one two three"_s, todayAt(11, 5)),
                             delivered(u"m2"_s, from, u"one\ntwo\r\nthree"_s, todayAt(11, 6)) },
        false, false);
    QVERIFY(f.exposed());
    const ChatMessageDelegate::BubbleLayout flat = f.layoutOf(0);
    const ChatMessageDelegate::BubbleLayout broken = f.layoutOf(1);
    const qreal line = QFontMetricsF(f.view.font()).lineSpacing();
    // Three lines where the same words fit on one, and narrower for it.
    QVERIFY2(broken.text.height() >= 3 * line - 1 && flat.text.height() < 2 * line,
        qPrintable(
            u"%1 vs %2, line %3"_s.arg(broken.text.height()).arg(flat.text.height()).arg(line)));
    QVERIFY(broken.text.width() < flat.text.width());
}

void TestChatMessageDelegate::rightToLeftTextStaysInItsBubble_data()
{
    QTest::addColumn<Qt::LayoutDirection>("direction");
    QTest::addColumn<QString>("from");
    QTest::newRow("left-to-right view, theirs") << Qt::LeftToRight << u"ada"_s;
    QTest::newRow("left-to-right view, ours") << Qt::LeftToRight << u"me"_s;
    QTest::newRow("right-to-left view, theirs") << Qt::RightToLeft << u"ada"_s;
    QTest::newRow("right-to-left view, ours") << Qt::RightToLeft << u"me"_s;
}

void TestChatMessageDelegate::rightToLeftTextStaysInItsBubble()
{
    // A message in Hebrew or Arabic is laid out right to left whatever the view's direction;
    // a short one still sits inside its (short) bubble.
    QFETCH(Qt::LayoutDirection, direction);
    QFETCH(QString, from);
    ChatFixture f(lightPalette(), direction);
    f.model.mergeHistory({ delivered(u"m1"_s, from, u"שלום, מה שלומך?"_s, todayAt(11, 5)),
                             delivered(u"m2"_s, from, u"مرحبا"_s, todayAt(11, 6)) },
        false, false);
    QVERIFY(f.exposed());
    QVERIFY2(f.tilingProblem().isEmpty(), qPrintable(f.tilingProblem()));
    const Capture image = f.capture();
    for (const int row : { 0, 1 }) {
        const ChatMessageDelegate::BubbleLayout parts = f.layoutOf(row);
        QVERIFY(parts.bubble.width() < f.view.viewport()->width() / 2);
        const int inside = image.countPainted(parts.bubble, f.base());
        const int outside = image.countPainted(f.bubbleBand(row), f.base(), parts.bubble);
        QVERIFY2(outside == 0,
            qPrintable(
                u"row %1: %2 pixels painted outside the bubble %3"_s.arg(row).arg(outside).arg(
                    QDebug::toString(parts.bubble))));
        QVERIFY(inside > 100);
        // The text itself is inside: something other than fill in the text rect.
        const QColor fill = f.fillOf(image, row);
        QVERIFY(image.columnsAway(parts.text.toAlignedRect(), fill, 100));
    }
}

void TestChatMessageDelegate::metaText_data()
{
    QTest::addColumn<bool>("ours");
    QTest::addColumn<Delivery>("delivery");
    QTest::addColumn<qint64>("ts");
    QTest::addColumn<QDateTime>("now");
    QTest::addColumn<QString>("expected");

    const qint64 today = todayAt(11, 5);
    const qint64 yesterday = utcMs(QDate(2024, 3, 19), QTime(11, 5));
    QTest::newRow("theirs, today") << false << Delivery::Delivered << today << kNow << u"11:05"_s;
    // The day is the separator's: the line under a message says the time only, without
    // seconds.
    QTest::newRow("theirs, yesterday")
        << false << Delivery::Delivered << yesterday << kNow << u"11:05"_s;
    QTest::newRow("theirs, last year")
        << false << Delivery::Delivered << utcMs(QDate(2023, 12, 25), QTime(18, 0)) << kNow
        << u"18:00"_s;
    QTest::newRow("no seconds") << false << Delivery::Delivered
                                << utcMs(kNow.date(), QTime(9, 7, 42)) << kNow << u"09:07"_s;
    QTest::newRow("ours, delivered")
        << true << Delivery::Delivered << today << kNow << u"11:05 · sent"_s;
    QTest::newRow("ours, queued") << true << Delivery::Queued << today << kNow
                                  << u"11:05 · waiting for connection"_s;
    QTest::newRow("ours, sending")
        << true << Delivery::Sending << today << kNow << u"11:05 · sending…"_s;
    QTest::newRow("ours, unconfirmed")
        << true << Delivery::Unconfirmed << today << kNow << u"11:05 · not confirmed yet"_s;
    QTest::newRow("ours, failed") << true << Delivery::Failed << today << kNow
                                  << u"11:05 · not sent"_s;
    QTest::newRow("ours, delivered yesterday")
        << true << Delivery::Delivered << yesterday << kNow << u"11:05 · sent"_s;
    QTest::newRow("ours, queued yesterday")
        << true << Delivery::Queued << yesterday << kNow << u"11:05 · waiting for connection"_s;

    // The calendar of now: 23:30 UTC on the 19th is 09:30 on the 20th at UTC+10.
    const qint64 lateUtc = utcMs(QDate(2024, 3, 19), QTime(23, 30));
    QTest::newRow("the day before, in UTC")
        << false << Delivery::Delivered << lateUtc << kNow << u"23:30"_s;
    QTest::newRow("the same day, at UTC+10") << false << Delivery::Delivered << lateUtc
                                             << kNow.toTimeZone(QTimeZone(10 * 3600)) << u"09:30"_s;
    // Just after midnight where now is.
    QTest::newRow("midnight") << false << Delivery::Delivered << utcMs(kNow.date(), QTime(0, 0))
                              << kNow << u"00:00"_s;
}

void TestChatMessageDelegate::metaText()
{
    QFETCH(bool, ours);
    QFETCH(Delivery, delivery);
    QFETCH(qint64, ts);
    QFETCH(QDateTime, now);
    QFETCH(QString, expected);

    ChatModel model(u"me"_s, u"ada"_s);
    const QModelIndex index = addMessage(model, ours, delivery, ts);
    QVERIFY(index.isValid());
    QCOMPARE(index.data(ChatModel::OutgoingRole).toBool(), ours);
    QCOMPARE(Delivery(index.data(ChatModel::DeliveryRole).toInt()), delivery);
    QCOMPARE(ChatMessageDelegate::metaText(index, now), expected);
}

void TestChatMessageDelegate::timesHaveNoSecondsInAnyLocale_data()
{
    QTest::addColumn<QLocale>("locale");
    QTest::addColumn<QString>("expected");
    // C (LANG=C.UTF-8) has seconds in its short format; the others show what they add.
    QTest::newRow("C") << QLocale::c() << u"09:07"_s;
    QTest::newRow("en_US") << QLocale(QLocale::English, QLocale::UnitedStates) << u"9:07"_s;
    QTest::newRow("de_DE") << QLocale(QLocale::German, QLocale::Germany) << u"09:07"_s;
    QTest::newRow("fr_FR") << QLocale(QLocale::French, QLocale::France) << u"09:07"_s;
}

void TestChatMessageDelegate::timesHaveNoSecondsInAnyLocale()
{
    QFETCH(QLocale, locale);
    QFETCH(QString, expected);
    QLocale::setDefault(locale);
    ChatModel model(u"me"_s, u"ada"_s);
    const QModelIndex index
        = addMessage(model, true, Delivery::Delivered, utcMs(kNow.date(), QTime(9, 7, 42)));
    const QString meta = ChatMessageDelegate::metaText(index, kNow);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedKingdom));
    QVERIFY2(meta.startsWith(expected), qPrintable(meta));
    QVERIFY2(!meta.contains(u"42"_s), qPrintable(meta));
}

void TestChatMessageDelegate::accessibleText()
{
    ChatFixture f(lightPalette());
    f.addConversation();
    const QString ada = u"Ada Lovelace"_s;
    const auto spoken = [&](int row) {
        return ChatMessageDelegate::accessibleText(f.model.index(row), ada, kNow);
    };

    QCOMPARE(spoken(TheirsRow), u"Ada Lovelace, 11:05: Are you coming tonight?"_s);
    QCOMPARE(spoken(OursRow), u"You, 11:06 · sent: Yes, at eight."_s);
    for (int row = OursRow; row < ChatRowCount; ++row)
        QVERIFY2(spoken(row).startsWith(u"You, "_s), qPrintable(spoken(row)));
    QVERIFY(spoken(QueuedRow).contains(u"waiting for connection"_s));
    QVERIFY(spoken(UnconfirmedRow).contains(u"not confirmed yet"_s));
    QVERIFY(spoken(SendingRow).contains(u"sending…"_s));

    // A refused message says so, and why.
    const QString failed = spoken(FailedRow);
    QVERIFY2(failed.startsWith(u"You, 11:10 · not sent: See you!"_s), qPrintable(failed));
    QVERIFY2(failed.contains(kFailure), qPrintable(failed));
    QVERIFY(!spoken(OursRow).contains(kFailure));

    // The friend's name is the caller's; the clock decides the date.
    QVERIFY(ChatMessageDelegate::accessibleText(f.model.index(TheirsRow), u"ada"_s, kNow)
                .startsWith(u"ada, 11:05: "_s));
    QCOMPARE(ChatMessageDelegate::accessibleText(f.model.index(OursRow), ada, kNow.addDays(1)),
        u"You, 20/03/2024, 11:06 · sent: Yes, at eight."_s);
    QVERIFY(ChatMessageDelegate::accessibleText({}, ada, kNow).isEmpty());
}

void TestChatMessageDelegate::tooltipExplainsWhatIsPending()
{
    ChatFixture f(lightPalette());
    f.addConversation();
    QVERIFY(f.exposed());
    const auto tooltipAt = [&f](int row) {
        const QRect bubble = f.layoutOf(row).bubble;
        const QPoint pos = bubble.center();
        QHelpEvent event(QEvent::ToolTip, pos, f.view.viewport()->mapToGlobal(pos));
        QApplication::sendEvent(f.view.viewport(), &event);
        return event.isAccepted();
    };
    QVERIFY(tooltipAt(FailedRow));
    QTRY_VERIFY(QToolTip::text().startsWith(kFailure));
    QVERIFY(tooltipAt(QueuedRow));
    QTRY_COMPARE(QToolTip::text(), u"Goes out as soon as the connection is back."_s);
    QVERIFY(tooltipAt(UnconfirmedRow));
    QTRY_VERIFY(QToolTip::text().contains(u"confirmed"_s));
}

void TestChatMessageDelegate::failedRowHasAnErrorOutline_data()
{
    QTest::addColumn<QString>("palette");
    QTest::newRow("light") << u"light"_s;
    QTest::newRow("dark") << u"dark"_s;
}

void TestChatMessageDelegate::failedRowHasAnErrorOutline()
{
    QFETCH(QString, palette);
    ChatFixture f(paletteNamed(palette));
    f.addConversation();
    QVERIFY(f.exposed());
    const Capture image = f.capture();
    const QColor error = PaletteColors::errorColor(f.view.palette());
    QVERIFY(colorDistance(error, f.base()) > 100);

    // Along the straight parts of the bubble's four edges (the corners are round), how many
    // positions have an error-coloured pixel in the edge's outer two pixels.
    const auto edgeHits = [&image, &error](const QRect &bubble) {
        constexpr int kCorner = 12;
        int hits = 0;
        int positions = 0;
        const auto near = [&](int x, int y) { return colorDistance(image.at(x, y), error) < 70; };
        for (int x = bubble.left() + kCorner; x <= bubble.right() - kCorner; ++x) {
            hits += near(x, bubble.top()) || near(x, bubble.top() + 1);
            hits += near(x, bubble.bottom()) || near(x, bubble.bottom() - 1);
            positions += 2;
        }
        for (int y = bubble.top() + kCorner; y <= bubble.bottom() - kCorner; ++y) {
            hits += near(bubble.left(), y) || near(bubble.left() + 1, y);
            hits += near(bubble.right(), y) || near(bubble.right() - 1, y);
            positions += 2;
        }
        return std::pair(hits, positions);
    };

    const auto [hits, positions] = edgeHits(f.layoutOf(FailedRow).bubble);
    QVERIFY(positions > 100);
    QVERIFY2(hits * 10 >= positions * 9, qPrintable(u"%1 of %2"_s.arg(hits).arg(positions)));
    // No other row has it.
    for (int row = 0; row < FailedRow; ++row) {
        QCOMPARE(edgeHits(f.layoutOf(row).bubble).first, 0);
        QCOMPARE(image.countNear(f.rowRect(row), error, 40), 0);
    }
}

void TestChatMessageDelegate::pendingRowsAreDashedAndFainter_data()
{
    QTest::addColumn<QString>("palette");
    QTest::newRow("light") << u"light"_s;
    QTest::newRow("dark") << u"dark"_s;
}

void TestChatMessageDelegate::pendingRowsAreDashedAndFainter()
{
    QFETCH(QString, palette);
    ChatFixture f(paletteNamed(palette));
    f.addConversation();
    QVERIFY(f.exposed());
    const Capture image = f.capture();

    // How often the bubble's top edge changes along its straight part: a solid edge never, a
    // dashed one at every dash.
    const auto edgeChanges = [&image](const QRect &bubble) {
        constexpr int kCorner = 12;
        int changes = 0;
        for (int x = bubble.left() + kCorner + 1; x <= bubble.right() - kCorner; ++x)
            changes += colorDistance(image.at(x, bubble.top()), image.at(x - 1, bubble.top())) > 20;
        return changes;
    };

    const QColor delivered = f.fillOf(image, OursRow);
    QCOMPARE(delivered, f.view.palette().color(QPalette::Highlight));
    QVERIFY2(edgeChanges(f.layoutOf(OursRow).bubble) <= 1,
        qPrintable(QString::number(edgeChanges(f.layoutOf(OursRow).bubble))));
    for (const int row : { UnconfirmedRow, QueuedRow, SendingRow }) {
        // Fainter: between the delivered highlight and the base, but still a bubble.
        const QColor pending = f.fillOf(image, row);
        QVERIFY2(colorDistance(pending, f.base()) < 0.8 * colorDistance(delivered, f.base()),
            qPrintable(u"row %1: %2 vs %3 on %4"_s.arg(row).arg(
                pending.name(), delivered.name(), f.base().name())));
        QVERIFY(colorDistance(pending, f.base()) > 30);
        // Dashed.
        const int changes = edgeChanges(f.layoutOf(row).bubble);
        QVERIFY2(changes >= 6, qPrintable(u"row %1: %2 changes"_s.arg(row).arg(changes)));
    }
}

void TestChatMessageDelegate::textContrastsWithTheBubble_data()
{
    QTest::addColumn<QString>("palette");
    QTest::newRow("light") << u"light"_s;
    QTest::newRow("dark") << u"dark"_s;
}

void TestChatMessageDelegate::textContrastsWithTheBubble()
{
    QFETCH(QString, palette);
    const bool dark = palette == u"dark"_s;
    ChatFixture f(paletteNamed(palette));
    f.addConversation();
    QVERIFY(f.exposed());
    const Capture image = f.capture();

    for (const int row : { TheirsRow, OursRow, FailedRow }) {
        const ChatMessageDelegate::BubbleLayout parts = f.layoutOf(row);
        const QColor fill = f.fillOf(image, row);
        const QColor ink = image.furthestFrom(parts.text.toAlignedRect(), fill);
        const QString what = u"row %1: %2 on %3, contrast %4"_s.arg(row)
                                 .arg(ink.name(), fill.name())
                                 .arg(contrast(ink, fill));
        QVERIFY2(contrast(ink, fill) >= 3.0, qPrintable(what));
        // The time and state under it are quieter, but still readable.
        if (row != OursRow) // inside a group: no small line (checked alone below)
            QVERIFY(checkMetaContrast(image, parts, fill, row));
        // The friend's bubble and a refused one follow the palette: dark ones on a dark
        // base with light text, light ones with dark text.
        if (row != OursRow) {
            QCOMPARE(luminance(fill) < 0.2, dark);
            QCOMPARE(luminance(ink) > luminance(fill), dark);
        }
    }

    // Our delivered message on its own, with its "sent" line.
    ChatFixture alone(paletteNamed(palette));
    alone.model.mergeHistory(
        { delivered(u"m1"_s, u"me"_s, u"Yes, at eight."_s, todayAt(11, 6)) }, false, false);
    QVERIFY(alone.exposed());
    const Capture aloneImage = alone.capture();
    const ChatMessageDelegate::BubbleLayout parts = alone.layoutOf(0);
    QVERIFY(!parts.meta.isEmpty());
    QVERIFY(checkMetaContrast(aloneImage, parts, alone.fillOf(aloneImage, 0), 0));
}

void TestChatMessageDelegate::ringContrastsWithEveryBubble_data()
{
    QTest::addColumn<QString>("palette");
    QTest::newRow("light") << u"light"_s;
    QTest::newRow("dark") << u"dark"_s;
}

void TestChatMessageDelegate::ringContrastsWithEveryBubble()
{
    // V6: the ring on the message Ctrl+C copies was drawn in the highlight colour, which is
    // the fill of our own bubbles: on them it could not be seen. It must stand out from the
    // bubble it is on, ours and the friend's, in light and dark palettes (3:1, as WCAG asks
    // of a focus indicator).
    QFETCH(QString, palette);
    ChatFixture f(paletteNamed(palette));
    f.addConversation();
    QVERIFY(f.exposed());
    const Capture image = f.capture();
    for (const int row : { TheirsRow, OursRow }) {
        const QColor fill = f.fillOf(image, row);
        const auto paintRow = [&](bool current) {
            QStyleOptionViewItem option = f.optionFor(row);
            option.rect.moveTopLeft({ 0, 0 });
            if (current)
                option.state |= QStyle::State_HasFocus;
            QImage out(option.rect.size(), QImage::Format_ARGB32_Premultiplied);
            out.fill(f.base());
            QPainter painter(&out);
            f.delegate.paint(&painter, option, f.model.index(row));
            return out;
        };
        const QImage plain = paintRow(false);
        const QImage ringed = paintRow(true);
        // The ring: what the current state adds. Its strongest pixel is its colour.
        QColor ring = fill;
        int pixels = 0;
        for (int y = 0; y < plain.height(); ++y) {
            for (int x = 0; x < plain.width(); ++x) {
                const QColor now = ringed.pixelColor(x, y);
                if (colorDistance(now, plain.pixelColor(x, y)) < 30)
                    continue;
                ++pixels;
                if (colorDistance(now, fill) > colorDistance(ring, fill))
                    ring = now;
            }
        }
        const QString what = u"row %1: ring %2 on %3, contrast %4, %5 pixels"_s.arg(row)
                                 .arg(ring.name(), fill.name())
                                 .arg(contrast(ring, fill))
                                 .arg(pixels);
        QVERIFY2(pixels > 40, qPrintable(what));
        QVERIFY2(contrast(ring, fill) >= 3.0, qPrintable(what));
    }
}

void TestChatMessageDelegate::daySeparatorsSayTodayYesterdayOrTheDate()
{
    ChatFixture f(lightPalette(), Qt::LeftToRight, { 420, 700 });
    f.model.mergeHistory(
        {
            delivered(u"m1"_s, u"ada"_s, u"Last week"_s, utcMs(QDate(2024, 3, 11), QTime(9, 0))),
            delivered(
                u"m2"_s, u"ada"_s, u"Yesterday morning"_s, utcMs(QDate(2024, 3, 19), QTime(9, 0))),
            delivered(
                u"m3"_s, u"me"_s, u"Yesterday night"_s, utcMs(QDate(2024, 3, 19), QTime(23, 59))),
            delivered(u"m4"_s, u"me"_s, u"Just after midnight"_s, todayAt(0, 1)),
            delivered(u"m5"_s, u"ada"_s, u"Noon"_s, todayAt(11, 55)),
        },
        false, false);
    QVERIFY(f.exposed());
    const QStringList expected { QLocale().toString(QDate(2024, 3, 11), QLocale::LongFormat),
        u"Yesterday"_s, QString(), u"Today"_s, QString() };
    QCOMPARE(expected.first(), u"Monday, 11 March 2024"_s);
    const Capture image = f.capture();
    const int middle = f.view.viewport()->width() / 2;
    for (int row = 0; row < f.model.rowCount(); ++row) {
        const ChatMessageDelegate::BubbleLayout parts = f.layoutOf(row);
        QCOMPARE(parts.dayText, expected.at(row));
        QCOMPARE(parts.daySeparator.isEmpty(), expected.at(row).isEmpty());
        if (parts.daySeparator.isEmpty())
            continue;
        // A chip centred over the row's bubble, inside the row, with the words painted.
        QVERIFY(f.rowRect(row).contains(parts.daySeparator));
        QVERIFY(parts.daySeparator.bottom() < parts.bubble.top());
        QVERIFY2(qAbs(parts.daySeparator.center().x() - middle) <= 1,
            qPrintable(QDebug::toString(parts.daySeparator)));
        QVERIFY(QFontMetrics(f.view.font()).horizontalAdvance(parts.dayText) / 2
            < parts.daySeparator.width());
        QVERIFY(image.countPainted(parts.daySeparator, f.base()) > 50);
    }
    QVERIFY2(f.tilingProblem().isEmpty(), qPrintable(f.tilingProblem()));
    // Midnight divides a group: the 23:59 and 00:01 messages are two minutes apart.
    QVERIFY(!f.layoutOf(3).context.joinsPrevious);
    QCOMPARE(ChatRowContext::dayText(QDate(2024, 3, 19), QDate(2024, 3, 20)), u"Yesterday"_s);
    QCOMPARE(ChatRowContext::dayText(QDate(2024, 3, 20), QDate(2024, 3, 20)), u"Today"_s);
}

void TestChatMessageDelegate::consecutiveMessagesGroup_data()
{
    QTest::addColumn<QString>("secondFrom");
    QTest::addColumn<int>("minutesApart");
    QTest::addColumn<bool>("grouped");
    QTest::newRow("theirs, a minute apart") << u"ada"_s << 1 << true;
    QTest::newRow("theirs, five minutes apart") << u"ada"_s << 5 << true;
    QTest::newRow("theirs, six minutes apart") << u"ada"_s << 6 << false;
    QTest::newRow("another sender, a minute apart") << u"me"_s << 1 << false;
}

void TestChatMessageDelegate::consecutiveMessagesGroup()
{
    QFETCH(QString, secondFrom);
    QFETCH(int, minutesApart);
    QFETCH(bool, grouped);
    ChatFixture f(lightPalette());
    f.model.mergeHistory({ delivered(u"m1"_s, u"ada"_s, u"First"_s, todayAt(10, 0)),
                             delivered(u"m2"_s, secondFrom, u"Second"_s, todayAt(10, minutesApart)),
                             delivered(u"m3"_s, u"me"_s, u"Apart"_s, todayAt(11, 30)) },
        false, false);
    QVERIFY(f.exposed());
    QVERIFY2(f.tilingProblem().isEmpty(), qPrintable(f.tilingProblem()));
    const ChatMessageDelegate::BubbleLayout first = f.layoutOf(0);
    const ChatMessageDelegate::BubbleLayout second = f.layoutOf(1);
    const ChatMessageDelegate::BubbleLayout third = f.layoutOf(2);
    QCOMPARE(second.context.joinsPrevious, grouped);
    QCOMPARE(first.context.joinsNext, grouped);
    // Bubbles of a group sit closer than bubbles of two groups.
    const int gap = second.bubble.top() - first.bubble.bottom() - 1;
    const int groupsGap = third.bubble.top() - second.bubble.bottom() - 1;
    QVERIFY(!third.context.joinsPrevious);
    if (grouped)
        QVERIFY2(gap <= 2 && gap < groupsGap, qPrintable(u"%1 vs %2"_s.arg(gap).arg(groupsGap)));
    else
        QCOMPARE(gap, groupsGap);
    // The time once per group: under its last message.
    QCOMPARE(first.meta.isEmpty(), grouped);
    QCOMPARE(first.metaText.isEmpty(), grouped);
    QVERIFY(!second.meta.isEmpty());
    QCOMPARE(second.metaText, ChatMessageDelegate::metaText(f.model.index(1), kNow));
    const Capture image = f.capture();
    QCOMPARE(image.countPainted(f.layoutOf(1).meta, f.fillOf(image, 1)) > 0, true);
}

void TestChatMessageDelegate::bubblesStayReadableInAWideView()
{
    const QString words = u"The quick brown fox jumps over the lazy dog, "_s.repeated(12).trimmed();
    ChatFixture f(lightPalette(), Qt::LeftToRight, { 1600, 500 });
    f.model.mergeHistory({ delivered(u"m1"_s, u"ada"_s, words, todayAt(11, 0)),
                             delivered(u"m2"_s, u"me"_s, words, todayAt(11, 30)) },
        false, false);
    QVERIFY(f.exposed());
    QVERIFY(f.view.viewport()->width() > 1500);
    const qreal line = QFontMetricsF(f.view.font()).lineSpacing();
    for (const int row : { 0, 1 }) {
        const ChatMessageDelegate::BubbleLayout parts = f.layoutOf(row);
        QVERIFY2(parts.bubble.width() <= ChatMessageDelegate::kMaxBubbleWidth,
            qPrintable(QDebug::toString(parts.bubble)));
        QVERIFY(parts.bubble.width() > ChatMessageDelegate::kMaxBubbleWidth - 60);
        QVERIFY2(
            parts.text.height() > 2.5 * line, qPrintable(QString::number(parts.text.height())));
        QVERIFY(parts.bubble.contains(parts.text.toAlignedRect()));
    }
    // Still on their sides.
    QVERIFY(f.layoutOf(0).bubble.left() < 20);
    QVERIFY(f.layoutOf(1).bubble.right() > f.view.viewport()->width() - 20);
}

void TestChatMessageDelegate::linkEndsAtALineBreak()
{
    // What the bubble underlines and opens: the link alone, not the next line's first word.
    ChatFixture f(lightPalette(), Qt::LeftToRight, { 420, 560 });
    const QString text = u"first https://a.example/?q=1\nthird line"_s;
    f.model.mergeHistory({ delivered(u"m1"_s, u"ada"_s, text, todayAt(11, 0)) }, false, false);
    QVERIFY(f.exposed());
    QTextLayout layout;
    const ChatMessageDelegate::BubbleLayout parts
        = f.delegate.layout(f.optionFor(0), f.model.index(0), &layout);
    QCOMPARE(parts.links.size(), 1);
    QCOMPARE(parts.links.first().url, QUrl(u"https://a.example/?q=1"_s));
    QCOMPARE(parts.links.first().length, int(u"https://a.example/?q=1"_s.size()));
}

void TestChatMessageDelegate::linkAtFindsTheLinkUnderThePoint()
{
    ChatFixture f(lightPalette(), Qt::LeftToRight, { 420, 560 });
    const QString text = u"Look at https://example.org/menu, or else\nhttp://b.example/x today"_s;
    f.model.mergeHistory({ delivered(u"m1"_s, u"ada"_s, text, todayAt(11, 0)) }, false, false);
    QVERIFY(f.exposed());
    const QStyleOptionViewItem option = f.optionFor(0);
    const QModelIndex index = f.model.index(0);
    QTextLayout layout;
    const ChatMessageDelegate::BubbleLayout parts = f.delegate.layout(option, index, &layout);
    QCOMPARE(parts.links.size(), 2);
    // The middle of a character, in the row's (the viewport's) coordinates.
    const auto pointAt = [&](int position) {
        for (int i = 0; i < layout.lineCount(); ++i) {
            const QTextLine line = layout.lineAt(i);
            if (position >= line.textStart() && position < line.textStart() + line.textLength()) {
                const qreal x = (line.cursorToX(position) + line.cursorToX(position + 1)) / 2;
                return parts.text.topLeft() + QPointF(x, line.y() + line.height() / 2);
            }
        }
        return QPointF(-1, -1);
    };
    const int first = int(text.indexOf(u"https"_s));
    const int second = int(text.indexOf(u"http://"_s));
    QCOMPARE(f.delegate.linkAt(option, index, pointAt(first + 3)),
        std::optional(QUrl(u"https://example.org/menu"_s)));
    QCOMPARE(f.delegate.linkAt(option, index, pointAt(first + 23)),
        std::optional(QUrl(u"https://example.org/menu"_s)));
    QCOMPARE(f.delegate.linkAt(option, index, pointAt(second + 2)),
        std::optional(QUrl(u"http://b.example/x"_s)));
    // Not on the words around them, the comma after, nor past the end of the line.
    QCOMPARE(f.delegate.linkAt(option, index, pointAt(1)), std::nullopt);
    QCOMPARE(f.delegate.linkAt(option, index, pointAt(first + 24)), std::nullopt); // ","
    QCOMPARE(f.delegate.linkAt(option, index, pointAt(int(text.size()) - 2)), std::nullopt);
    const QPointF pastTheEnd = pointAt(second + 2) + QPointF(parts.text.width(), 0);
    QCOMPARE(f.delegate.linkAt(option, index, pastTheEnd), std::nullopt);
    QCOMPARE(f.delegate.linkAt(option, index, QPointF(parts.bubble.topLeft()) - QPointF(2, 2)),
        std::nullopt);
}

void TestChatMessageDelegate::linksAreUnderlined()
{
    ChatFixture f(lightPalette(), Qt::LeftToRight, { 420, 560 });
    f.model.mergeHistory(
        { delivered(u"m1"_s, u"ada"_s, u"https://example.org/menu"_s, todayAt(11, 0)),
            delivered(u"m2"_s, u"ada"_s, u"just words, no link at all"_s, todayAt(11, 30)) },
        false, false);
    QVERIFY(f.exposed());
    const Capture image = f.capture();
    // The friend's links in the palette's link colour; plain words never.
    const QColor link = f.view.palette().color(QPalette::Link);
    QVERIFY(image.countNear(f.layoutOf(0).text.toAlignedRect(), link, 40) > 40);
    QCOMPARE(image.countNear(f.layoutOf(1).text.toAlignedRect(), link, 40), 0);
}

void TestChatMessageDelegate::emojiAreInColour()
{
    QVERIFY2(!Presence::Ui::EmojiRuns::colourFamily().isEmpty(),
        "no colour emoji font: the set-up installs fonts-noto-color-emoji");
    ChatFixture f(lightPalette(), Qt::LeftToRight, { 420, 560 });
    f.model.mergeHistory(
        { delivered(u"m1"_s, u"ada"_s, u"lunch? 😀🍕👍🏽"_s, todayAt(11, 0)),
            delivered(u"m2"_s, u"ada"_s, u"lunch? :-) pizza, thumbs up"_s, todayAt(11, 30)) },
        false, false);
    QVERIFY(f.exposed());
    const Capture image = f.capture();
    // Count strongly coloured pixels: text is drawn in one grey, emoji in their colours.
    const auto coloured = [&image](const QRect &rect) {
        int count = 0;
        for (int y = rect.top(); y <= rect.bottom(); ++y) {
            for (int x = rect.left(); x <= rect.right(); ++x) {
                const QColor c = image.at(x, y);
                count += c.hsvSaturation() > 120 && c.value() > 80;
            }
        }
        return count;
    };
    const int withEmoji = coloured(f.layoutOf(0).text.toAlignedRect());
    QVERIFY2(withEmoji > 100, qPrintable(QString::number(withEmoji)));
    QCOMPARE(coloured(f.layoutOf(1).text.toAlignedRect()), 0);
}

void TestChatMessageDelegate::unreadDividerGoesAboveItsMessage()
{
    ChatFixture f(lightPalette());
    f.model.mergeHistory({ delivered(u"m1"_s, u"ada"_s, u"Read"_s, todayAt(11, 0)),
                             delivered(u"m2"_s, u"ada"_s, u"Unread"_s, todayAt(11, 1)),
                             delivered(u"m3"_s, u"ada"_s, u"Unread too"_s, todayAt(11, 2)) },
        false, false);
    QVERIFY(f.exposed());
    QVERIFY(f.layoutOf(1).context.joinsPrevious);
    const int before = f.rowRect(1).height();
    f.delegate.setFirstUnreadId(u"m2"_s);
    f.view.doItemsLayout();
    const ChatMessageDelegate::BubbleLayout parts = f.layoutOf(1);
    QVERIFY(parts.context.unreadDivider);
    QVERIFY(!parts.context.joinsPrevious); // the divider ends the group
    QVERIFY(f.layoutOf(2).context.joinsPrevious);
    QVERIFY(!f.layoutOf(0).context.joinsNext);
    QVERIFY(f.layoutOf(0).unreadDivider.isEmpty());
    QVERIFY(f.layoutOf(2).unreadDivider.isEmpty());
    QVERIFY(f.rowRect(1).height() > before);
    QVERIFY2(f.tilingProblem().isEmpty(), qPrintable(f.tilingProblem()));
    QVERIFY(parts.unreadDivider.bottom() < parts.bubble.top());
    QVERIFY(parts.unreadDivider.width() > f.view.viewport()->width() / 2);
    const Capture image = f.capture();
    const QColor highlight = f.view.palette().color(QPalette::Highlight);
    QVERIFY(image.countNear(parts.unreadDivider, highlight, 60) > 100);
}

void TestChatMessageDelegate::selectedRowHasNoBand()
{
    // A selected or current row (a right-click selects in a plain QListView) is not painted
    // as a band across the view: only the bubble is the message.
    ChatFixture f(lightPalette());
    f.view.setFocusPolicy(Qt::StrongFocus);
    f.model.mergeHistory(
        { delivered(u"m1"_s, u"ada"_s, u"Select me"_s, todayAt(11, 0)) }, false, false);
    QVERIFY(f.exposed());
    f.view.setFocus();
    f.view.setCurrentIndex(f.model.index(0));
    f.view.selectionModel()->select(f.model.index(0), QItemSelectionModel::Select);
    QVERIFY(f.view.selectionModel()->isSelected(f.model.index(0)));
    const Capture image = f.capture();
    const ChatMessageDelegate::BubbleLayout parts = f.layoutOf(0);
    QCOMPARE(image.countPainted(f.bubbleBand(0), f.base(), parts.bubble), 0);
    // The current message has a ring in the highlight on its bubble (what Ctrl+C copies);
    // nothing in the highlight outside the bubble.
    const QColor highlight = f.view.palette().color(QPalette::Highlight);
    QVERIFY(image.countNear(parts.bubble, highlight, 40) > 20);
    QCOMPARE(
        image.countNear(f.rowRect(0), highlight, 40), image.countNear(parts.bubble, highlight, 40));
}

QTEST_MAIN(TestChatMessageDelegate)
#include "tst_chat_message_delegate.moc"
