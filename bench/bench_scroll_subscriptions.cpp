// bench_scroll_subscriptions: what a fast scroll through a huge list asks of the gateway.
//
// N friends (default 100,000) in a FriendListModel shown by a 300x400 QListView, watched by
// ViewportSubscriptions with its default options (margin 1 page, settle 100 ms, linger 3 s,
// at most 2000). No gateway: wantedChanged goes to a counter of batches, ids added and
// removed, and the wanted size. A 16 ms timer moves the vertical scroll bar from the top to
// the bottom in 2 s, then the program waits out the linger (linger + 2 settle intervals).
//
// Every time wantedChanged fires, the wanted size is checked against a bound:
//   window now (visible rows + a page above + a page below, clipped to the list)
//   + linger tail: rows outside that window that were inside the window of a scroll
//     position the view held at any time in the last (linger + settle): the rows that passed
//     recently, with one settle interval of slack for the throttle.
// It also checks that every visible row is wanted, and, after the wait, that only the window
// is left (nothing still lingering).
//
// Run: QT_QPA_PLATFORM=offscreen ./bench_scroll_subscriptions [--rows N] [--runs R]
//      [--scroll-ms T] [--step-ms S] [--proxy] [--uniform]

// C++
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <vector>

// Qt
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QListView>
#include <QScrollBar>
#include <QTimer>
#include <QWindow>

// Presence
#include "IntegerOption.h"
#include "Summary.h"
#include "models/FriendListModel.h"
#include "models/FriendSortFilterProxy.h"
#include "ui/friends/ViewportSubscriptions.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Models::FriendListModel;
using Presence::Models::FriendRecord;
using Presence::Models::FriendSortFilterProxy;
using Presence::Ui::ViewportSubscriptionOptions;
using Presence::Ui::ViewportSubscriptions;

namespace {

struct Options {
    int rows = 100'000;
    int runs = 5;
    int scrollMs = 2000;
    int stepMs = 16;
    bool proxy = false;
    bool uniform = false;
};

QList<FriendRecord> makeFriends(int count)
{
    QList<FriendRecord> friends;
    friends.reserve(count);
    for (int i = 0; i < count; ++i)
        friends.append({ u"u%1"_s.arg(i + 1, 7, 10, QChar(u'0')), u"Friend %1"_s.arg(i + 1) });
    return friends;
}

bool waitExposed(QWidget &widget)
{
    QElapsedTimer timeout;
    timeout.start();
    while (!widget.windowHandle() || !widget.windowHandle()->isExposed()) {
        if (timeout.elapsed() > 10'000)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    }
    return true;
}

void processFor(std::chrono::milliseconds duration)
{
    QEventLoop loop;
    QTimer::singleShot(duration, &loop, &QEventLoop::quit);
    loop.exec();
}

// Rows [from, to] inclusive.
struct Interval {
    int from = 0;
    int to = -1;
    [[nodiscard]] int size() const { return std::max(0, to - from + 1); }
};

// The visible rows and the window around them, found the way ViewportSubscriptions does.
struct Position {
    qint64 sinceNs = 0; // when the view got here
    Interval visible;
    Interval window;
};

Position currentPosition(const QListView &view, int marginPages, qint64 nowNs)
{
    Position p;
    p.sinceNs = nowNs;
    const int rows = view.model()->rowCount();
    const QRect area = view.viewport()->rect();
    const QModelIndex top = view.indexAt(QPoint(area.left() + 1, area.top() + 1));
    const QModelIndex bottom = view.indexAt(QPoint(area.left() + 1, area.bottom() - 1));
    p.visible.from = top.isValid() ? top.row() : 0;
    p.visible.to = bottom.isValid() ? bottom.row() : rows - 1;
    const int page = std::max(1, p.visible.size());
    p.window.from = std::max(0, p.visible.from - page * marginPages);
    p.window.to = std::min(rows - 1, p.visible.to + page * marginPages);
    return p;
}

// Rows in the union of the windows, not in `exclude`.
int unionOutside(std::vector<Interval> windows, Interval exclude)
{
    std::sort(windows.begin(), windows.end(),
        [](const Interval &a, const Interval &b) { return a.from < b.from; });
    int count = 0;
    int coveredTo = -1;
    for (const Interval &w : windows) {
        const Interval fresh { std::max(w.from, coveredTo + 1), w.to };
        if (fresh.size() == 0)
            continue;
        const Interval overlap { std::max(fresh.from, exclude.from),
            std::min(fresh.to, exclude.to) };
        count += fresh.size() - overlap.size();
        coveredTo = std::max(coveredTo, w.to);
    }
    return count;
}

struct RunResult {
    double scrollMs = 0;
    int steps = 0;
    int changes = 0;
    int subscribeBatches = 0;
    int unsubscribeBatches = 0;
    int idsAdded = 0;
    int idsRemoved = 0;
    int maxWanted = 0;
    int boundAtMax = 0; // the bound (capped at max) when the wanted set was largest
    int uncappedBoundAtMax = 0;
    int subscribeBatchesWhileScrolling = 0;
    int unsubscribeBatchesWhileScrolling = 0;
    int minSlack = 0; // smallest bound - wanted over all checks
    int wantedAtScrollEnd = 0;
    int lingeringAtScrollEnd = 0;
    int finalWanted = 0;
    int finalWindow = 0;
    int finalLingering = 0;
    int visible = 0;
    double maxStallMs = 0;
    bool boundHeld = true;
    bool visibleWanted = true;
    bool countersAgree = true;
    bool settledToWindow = true;
};

RunResult runOnce(const Options &options, QAbstractItemModel *model)
{
    RunResult result;
    QListView view;
    view.setUniformItemSizes(options.uniform);
    view.setModel(model);
    view.setFixedSize(300, 400);
    const ViewportSubscriptionOptions subscriptionOptions; // the defaults under test
    ViewportSubscriptions subscriptions(&view, subscriptionOptions);
    view.show();
    if (!waitExposed(view))
        qFatal("the view was never exposed");
    processFor(subscriptionOptions.settle * 3); // the first window is subscribed

    const int initialSubscribeBatches = subscriptions.subscribeBatches();
    const int initialUnsubscribeBatches = subscriptions.unsubscribeBatches();
    QElapsedTimer clock;
    clock.start();
    const qint64 lingerNs
        = std::chrono::nanoseconds(subscriptionOptions.linger + subscriptionOptions.settle).count();
    std::vector<Position> positions { currentPosition(view, subscriptionOptions.marginPages, 0) };
    result.visible = positions.back().visible.size();
    result.minSlack = std::numeric_limits<int>::max();

    QObject::connect(&subscriptions, &ViewportSubscriptions::wantedChanged, &view,
        [&](const QSet<QString> &wanted, const QStringList &added, const QStringList &removed) {
            const qint64 now = clock.nsecsElapsed();
            ++result.changes;
            result.subscribeBatches += added.isEmpty() ? 0 : 1;
            result.unsubscribeBatches += removed.isEmpty() ? 0 : 1;
            result.idsAdded += int(added.size());
            result.idsRemoved += int(removed.size());

            const Position &here = positions.back();
            std::vector<Interval> recent;
            for (size_t i = 0; i < positions.size(); ++i) {
                const qint64 until = i + 1 < positions.size() ? positions[i + 1].sinceNs : now;
                if (until > now - lingerNs)
                    recent.push_back(positions[i].window);
            }
            const int uncapped = here.window.size() + unionOutside(recent, here.window);
            const int bound = std::min(subscriptionOptions.maxSubscriptions, uncapped);
            const int size = int(wanted.size());
            if (size > bound)
                result.boundHeld = false;
            result.minSlack = std::min(result.minSlack, bound - size);
            if (size > result.maxWanted) {
                result.maxWanted = size;
                result.boundAtMax = bound;
                result.uncappedBoundAtMax = uncapped;
            }
            for (int row = here.visible.from; row <= here.visible.to; ++row) {
                const QString id = model->index(row, 0).data(FriendListModel::IdRole).toString();
                if (!wanted.contains(id))
                    result.visibleWanted = false;
            }
        });

    // A heartbeat, to see whether anything here stalls the UI thread.
    QTimer heartbeat;
    heartbeat.setTimerType(Qt::PreciseTimer);
    heartbeat.setInterval(1ms);
    qint64 lastBeat = -1;
    QObject::connect(&heartbeat, &QTimer::timeout, &heartbeat, [&] {
        const qint64 now = clock.nsecsElapsed();
        if (lastBeat >= 0)
            result.maxStallMs = std::max(result.maxStallMs, double(now - lastBeat) / 1e6);
        lastBeat = now;
    });

    QScrollBar *bar = view.verticalScrollBar();
    QTimer stepper;
    stepper.setTimerType(Qt::PreciseTimer);
    stepper.setInterval(options.stepMs);
    QEventLoop scrolling;
    QElapsedTimer scrollClock;
    QObject::connect(&stepper, &QTimer::timeout, &stepper, [&] {
        const double fraction = std::min(1.0, double(scrollClock.elapsed()) / options.scrollMs);
        const int value
            = bar->minimum() + int(std::lround(fraction * (bar->maximum() - bar->minimum())));
        if (value != bar->value()) {
            bar->setValue(value);
            ++result.steps;
            positions.push_back(
                currentPosition(view, subscriptionOptions.marginPages, clock.nsecsElapsed()));
        }
        if (fraction >= 1.0)
            scrolling.quit();
    });
    heartbeat.start();
    scrollClock.start();
    stepper.start();
    scrolling.exec();
    stepper.stop();
    result.scrollMs = double(scrollClock.nsecsElapsed()) / 1e6;
    heartbeat.stop();
    result.subscribeBatchesWhileScrolling = result.subscribeBatches;
    result.unsubscribeBatchesWhileScrolling = result.unsubscribeBatches;
    // What is wanted once the throttle has caught up with the last position.
    processFor(subscriptionOptions.settle * 2);
    result.wantedAtScrollEnd = int(subscriptions.wanted().size());
    result.lingeringAtScrollEnd = subscriptions.lingeringCount();

    processFor(subscriptionOptions.linger + subscriptionOptions.settle * 2);
    result.finalWanted = int(subscriptions.wanted().size());
    result.finalLingering = subscriptions.lingeringCount();
    result.finalWindow = positions.back().window.size();
    result.settledToWindow = result.finalLingering == 0 && result.finalWanted == result.finalWindow;
    result.countersAgree
        = subscriptions.subscribeBatches() - initialSubscribeBatches == result.subscribeBatches
        && subscriptions.unsubscribeBatches() - initialUnsubscribeBatches
            == result.unsubscribeBatches;
    if (result.minSlack == std::numeric_limits<int>::max())
        result.minSlack = 0;
    return result;
}

const char *passFail(bool ok)
{
    return ok ? "PASS" : "FAIL";
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Scrolls a 100,000-row list top to bottom and counts ViewportSubscriptions' changes."_s);
    parser.addHelpOption();
    const QCommandLineOption rowsOption(u"rows"_s, u"Friends (default 100000)."_s, u"N"_s);
    const QCommandLineOption runsOption(u"runs"_s, u"Repetitions (default 5)."_s, u"R"_s);
    const QCommandLineOption scrollOption(
        u"scroll-ms"_s, u"Time for the whole scroll (default 2000)."_s, u"T"_s);
    const QCommandLineOption stepOption(
        u"step-ms"_s, u"Scroll bar step interval (default 16)."_s, u"S"_s);
    const QCommandLineOption proxyOption(
        u"proxy"_s, u"Put a FriendSortFilterProxy (Name sort) between model and view."_s);
    const QCommandLineOption uniformOption(
        u"uniform"_s, u"Give the view uniformItemSizes(true) (default off)."_s);
    parser.addOptions(
        { rowsOption, runsOption, scrollOption, stepOption, proxyOption, uniformOption });
    parser.process(app);

    Options options;
    options.rows = integerOption(parser, rowsOption, 1, 1'000'000, options.rows);
    options.runs = integerOption(parser, runsOption, 1, 100, options.runs);
    options.scrollMs = integerOption(parser, scrollOption, 1, 600'000, options.scrollMs);
    options.stepMs = integerOption(parser, stepOption, 1, 10'000, options.stepMs);
    options.proxy = parser.isSet(proxyOption);
    options.uniform = parser.isSet(uniformOption);

    const ViewportSubscriptionOptions defaults;
    std::printf("bench_scroll_subscriptions: Qt %s, platform %s\n", qVersion(),
        qPrintable(QGuiApplication::platformName()));
    std::printf("method: %d friends in a QListView 300x400 (%s, uniformItemSizes %s), watched by\n"
                "  ViewportSubscriptions with defaults: margin %d page(s), settle %lld ms, linger "
                "%lld ms,\n"
                "  max %d. wantedChanged counted, no gateway. A %d ms timer moves the scroll bar\n"
                "  top to bottom in %d ms, then the run waits linger + 2 settle. %d runs, each\n"
                "  with a fresh view and ViewportSubscriptions; median / min / max over runs.\n"
                "  Bound checked at every wantedChanged: window now (visible + 2 pages, clipped)\n"
                "  + rows outside it that were in the window of a scroll position held within the\n"
                "  last linger + settle; capped at max.\n",
        options.rows, options.proxy ? "through FriendSortFilterProxy" : "model directly",
        options.uniform ? "true" : "false", defaults.marginPages,
        qlonglong(defaults.settle.count()), qlonglong(defaults.linger.count()),
        defaults.maxSubscriptions, options.stepMs, options.scrollMs, options.runs);
    std::fflush(stdout);

    FriendListModel model;
    model.setFriends(makeFriends(options.rows));
    std::unique_ptr<FriendSortFilterProxy> proxy;
    QAbstractItemModel *viewModel = &model;
    if (options.proxy) {
        proxy = std::make_unique<FriendSortFilterProxy>();
        proxy->setSortMode(FriendSortFilterProxy::SortMode::Name);
        proxy->setSourceModel(&model);
        viewModel = proxy.get();
    }

    std::vector<RunResult> results;
    bool allPass = true;
    for (int run = 0; run < options.runs; ++run) {
        results.push_back(runOnce(options, viewModel));
        const RunResult &r = results.back();
        const bool pass = r.boundHeld && r.visibleWanted && r.settledToWindow && r.countersAgree;
        allPass = allPass && pass;
        std::printf(
            "run %d: scroll %.0f ms in %d steps; %d signals, %d subscribe / %d unsubscribe "
            "batches (%d / %d while scrolling); +%d / -%d ids; max wanted %d (bound then %d, "
            "%d without the cap; least slack %d); at "
            "scroll end %d wanted (%d lingering); after linger %d wanted of a %d-row "
            "window (%d lingering); max stall %.1f ms; bound %s, visible wanted %s, "
            "settles to window %s, counters agree %s\n",
            run + 1, r.scrollMs, r.steps, r.changes, r.subscribeBatches, r.unsubscribeBatches,
            r.subscribeBatchesWhileScrolling, r.unsubscribeBatchesWhileScrolling, r.idsAdded,
            r.idsRemoved, r.maxWanted, r.boundAtMax, r.uncappedBoundAtMax, r.minSlack,
            r.wantedAtScrollEnd, r.lingeringAtScrollEnd, r.finalWanted, r.finalWindow,
            r.finalLingering, r.maxStallMs, passFail(r.boundHeld), passFail(r.visibleWanted),
            passFail(r.settledToWindow), passFail(r.countersAgree));
        std::fflush(stdout);
    }

    const auto row = [&](const char *what, auto field) {
        std::vector<double> values;
        values.reserve(results.size());
        for (const RunResult &r : results)
            values.push_back(double(field(r)));
        const Summary s = summarize(values);
        std::printf("  %-46s %9.1f %9.1f %9.1f\n", what, s.median, s.min, s.max);
    };
    std::printf("\nresults, %d rows, %d runs (visible rows: %d):%14s %9s %9s\n", options.rows,
        options.runs, results.front().visible, "median", "min", "max");
    row("scroll duration (ms)", [](const RunResult &r) { return r.scrollMs; });
    row("scroll steps", [](const RunResult &r) { return r.steps; });
    row("wantedChanged signals", [](const RunResult &r) { return r.changes; });
    row("subscribe batches", [](const RunResult &r) { return r.subscribeBatches; });
    row("  of them while scrolling",
        [](const RunResult &r) { return r.subscribeBatchesWhileScrolling; });
    row("unsubscribe batches", [](const RunResult &r) { return r.unsubscribeBatches; });
    row("  of them while scrolling",
        [](const RunResult &r) { return r.unsubscribeBatchesWhileScrolling; });
    row("ids added (total)", [](const RunResult &r) { return r.idsAdded; });
    row("ids removed (total)", [](const RunResult &r) { return r.idsRemoved; });
    row("max wanted size", [](const RunResult &r) { return r.maxWanted; });
    row("  bound at that moment, capped at max", [](const RunResult &r) { return r.boundAtMax; });
    row("  bound at that moment, without the cap",
        [](const RunResult &r) { return r.uncappedBoundAtMax; });
    row("  least slack (bound - wanted) over checks",
        [](const RunResult &r) { return r.minSlack; });
    row("wanted at scroll end (+2 settle)", [](const RunResult &r) { return r.wantedAtScrollEnd; });
    row("  of which lingering", [](const RunResult &r) { return r.lingeringAtScrollEnd; });
    row("wanted after linger", [](const RunResult &r) { return r.finalWanted; });
    row("max main-thread stall while scrolling (ms)",
        [](const RunResult &r) { return r.maxStallMs; });
    std::printf("wanted <= visible + 2 pages + linger tail at every change: %s\n",
        passFail(std::all_of(
            results.cbegin(), results.cend(), [](const RunResult &r) { return r.boundHeld; })));
    std::printf("every visible row wanted at every change: %s\n",
        passFail(std::all_of(
            results.cbegin(), results.cend(), [](const RunResult &r) { return r.visibleWanted; })));
    std::printf("after linger only the window is wanted: %s\n",
        passFail(std::all_of(results.cbegin(), results.cend(),
            [](const RunResult &r) { return r.settledToWindow; })));
    std::printf("overall: %s\n", passFail(allPass));

    // What tools/bench.sh compares (medians over the runs): what the scroll asked of the
    // gateway, in requests and in ids.
    std::vector<double> batches;
    std::vector<double> ids;
    for (const RunResult &r : results) {
        batches.push_back(r.subscribeBatches + r.unsubscribeBatches);
        ids.push_back(r.idsAdded + r.idsRemoved);
    }
    std::printf("\nheadline: scroll_batches %.0f batches lower\n", summarize(batches).median);
    std::printf("headline: scroll_ids %.0f ids lower\n", summarize(ids).median);
    // A broken bound is a defect, not a figure: whoever runs this (tools/bench.sh) must see it.
    return allPass ? 0 : 1;
}
