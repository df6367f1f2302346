// bench_model_load: what loading a large friend list costs.
//
// For N friends (default 100,000) it times FriendListModel::setFriends on an empty model and
// again with the same list (which must be a no-op), reads the resident memory the model holds
// (VmRSS from /proc/self/status, before and after, with the input list freed), then times a
// FriendSortFilterProxy attaching to the model (it sorts on attach), re-sorting by name and
// back, a QListView showing the proxy up to its first paint, and a reload of a different list
// while the proxy and that default view are attached.
//
// Then the reloads the client lives with (issue 46 §3), on a view configured as its friend
// list is (FriendListPane: uniform item sizes, batched layout of 2,000 rows), scrolled to the
// middle with a row selected before each, timed from setFriends to the view's repaint:
//   (a) every name changed, the same ids; (b) friends removed and added all over (every 7th
//   goes, a new one after every 5th); (c) one friend added, as when a friendship is made
//   while signed in; (d) one removed. Each checks the row count, and says whether the
//   selection and the scroll position stayed. Each run builds everything afresh; the figures
//   are the median, min and max over the runs, and the reloads' medians are printed as
//   `headline:` lines for tools/bench.sh.
//
// Run: QT_QPA_PLATFORM=offscreen ./bench_model_load [--rows N] [--runs R] [--seed S]

// C++
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <tuple>
#include <utility>
#include <vector>
// System
#include <malloc.h>

// Qt
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QItemSelectionModel>
#include <QListView>
#include <QScrollBar>
#include <QWindow>

// Presence
#include "IntegerOption.h"
#include "Summary.h"
#include "models/FriendListModel.h"
#include "models/FriendSortFilterProxy.h"
#include "ui/friends/FriendListPane.h"

using namespace Qt::StringLiterals;
using Presence::Models::FriendListModel;
using Presence::Models::FriendRecord;
using Presence::Models::FriendSortFilterProxy;
using Presence::Models::PresenceState;
using Presence::Ui::FriendListPane;

namespace {

struct Options {
    int rows = 100'000;
    int runs = 5;
    quint32 seed = 42;
};

// Resident set size of this process in KiB, or -1 if /proc is not there.
qint64 residentKiB()
{
    QFile status(u"/proc/self/status"_s);
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

// Gives freed heap back to the system, so the next RSS reading shows what is really held.
qint64 settledResidentKiB()
{
    malloc_trim(0);
    return residentKiB();
}

// Friends in users-file order (ids u0000001...), with realistic, unordered names such as
// "Maria Garcia 4821" so that sorting by name does real collation work.
QList<FriendRecord> makeFriends(int count, quint32 seed)
{
    static const std::array firstNames = { u"Maria"_s, u"José"_s, u"Anna"_s, u"Li"_s, u"Mohammed"_s,
        u"Olga"_s, u"Kenji"_s, u"Zoë"_s, u"Émile"_s, u"Fatima"_s, u"Noah"_s, u"Ingrid"_s };
    static const std::array lastNames = { u"Garcia"_s, u"Müller"_s, u"Nguyen"_s, u"Smith"_s,
        u"Kowalski"_s, u"Rossi"_s, u"Ivanova"_s, u"Tanaka"_s, u"O'Brien"_s, u"Dubois"_s };
    std::mt19937 random(seed);
    QList<FriendRecord> friends;
    friends.reserve(count);
    for (int i = 0; i < count; ++i) {
        const QString &first = firstNames[random() % firstNames.size()];
        const QString &last = lastNames[random() % lastNames.size()];
        friends.append({ u"u%1"_s.arg(i + 1, 7, 10, QChar(u'0')),
            u"%1 %2 %3"_s.arg(first, last).arg(random() % 100'000) });
    }
    return friends;
}

double msSince(const QElapsedTimer &timer)
{
    return double(timer.nsecsElapsed()) / 1e6;
}

// Notes when the watched widget gets its first paint event.
class PaintWatcher : public QObject {
public:
    bool painted = false;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint)
            painted = true;
        return QObject::eventFilter(watched, event);
    }
};

// Processes events until the view has been painted (after showing it or after a change).
bool waitPainted(PaintWatcher &watcher)
{
    QElapsedTimer timeout;
    timeout.start();
    while (!watcher.painted) {
        if (timeout.elapsed() > 60'000)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return true;
}

// Processes events until the view has neither been painted nor grown its scroll range for
// `quiet` ms (a batched layout paints and grows as its batches come in), at most 10 s: the
// next step starts from a view laid out and still. Returns when, on `since`, it last moved.
double waitQuiet(
    const QListView &view, PaintWatcher &watcher, const QElapsedTimer &since, qint64 quiet = 100)
{
    QElapsedTimer timeout;
    timeout.start();
    QElapsedTimer still;
    still.start();
    double lastMoved = msSince(since);
    int range = view.verticalScrollBar()->maximum();
    while (still.elapsed() < quiet && timeout.elapsed() < 10'000) {
        watcher.painted = false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        if (watcher.painted || view.verticalScrollBar()->maximum() != range) {
            range = view.verticalScrollBar()->maximum();
            lastMoved = msSince(since);
            still.start();
        }
    }
    return lastMoved;
}

// The friend list as the client shows it (ui/friends/FriendListPane.cpp).
void configureAsClient(QListView &view)
{
    view.setUniformItemSizes(true);
    view.setLayoutMode(QListView::Batched);
    view.setBatchSize(2000);
}

// Where the user was before a reload: the selected friend and the scroll position.
struct ViewPlace {
    QString selectedId;
    int top = 0; // the selected row's top in the viewport
};

// Scrolls to the middle and selects the row at the middle of the viewport, as a user reading
// the list would have it, and waits until the view is still.
ViewPlace placeInMiddle(QListView &view, PaintWatcher &watcher)
{
    QElapsedTimer clock;
    clock.start();
    waitQuiet(view, watcher, clock);
    QScrollBar *bar = view.verticalScrollBar();
    bar->setValue((bar->minimum() + bar->maximum()) / 2);
    waitQuiet(view, watcher, clock);
    const QModelIndex row = view.indexAt(view.viewport()->rect().center());
    if (!row.isValid())
        qFatal("no row at the middle of the view");
    view.selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect);
    waitQuiet(view, watcher, clock);
    return { row.data(FriendListModel::IdRole).toString(), view.visualRect(row).top() };
}

// Whether the friend selected before is the one selected now, and whether that friend's row
// is still where it was on screen, within a row: what the user was reading did not move.
std::pair<bool, bool> placeKept(const QListView &view, const ViewPlace &before)
{
    const QModelIndexList selected = view.selectionModel()->selectedIndexes();
    const bool selection = selected.size() == 1
        && selected.constFirst().data(FriendListModel::IdRole).toString() == before.selectedId;
    const QAbstractItemModel *model = view.model();
    const QModelIndexList found = model->match(
        model->index(0, 0), FriendListModel::IdRole, before.selectedId, 1, Qt::MatchExactly);
    const QRect now = found.isEmpty() ? QRect() : view.visualRect(found.constFirst());
    const bool place = now.isValid() && std::abs(now.top() - before.top) < now.height();
    return { selection, place };
}

// One reload on the client's view: from setFriends to the repaint, with its checks.
struct Reload {
    double ms = 0;
    double settledMs = 0; // to the last batch of the layout painted
    bool selectionKept = false;
    bool scrollKept = false;
    bool selectedStays = false; // the selected friend is in the new list: there is a place to keep
};

Reload timeReload(FriendListModel &model, const FriendSortFilterProxy &proxy, QListView &view,
    PaintWatcher &watcher, const QList<FriendRecord> &next, const char *what)
{
    const ViewPlace before = placeInMiddle(view, watcher);
    watcher.painted = false;
    QElapsedTimer timer;
    timer.start();
    model.setFriends(next);
    if (!waitPainted(watcher))
        qFatal("%s: the view was never repainted", what);
    Reload reload;
    reload.ms = msSince(timer);
    if (model.rowCount() != next.size() || proxy.rowCount() != next.size())
        qFatal("%s: the model has %d rows and the proxy %d, not %lld", what, model.rowCount(),
            proxy.rowCount(), qlonglong(next.size()));
    // The place is judged once the batched layout is done, where the user is left.
    reload.settledMs = waitQuiet(view, watcher, timer);
    std::tie(reload.selectionKept, reload.scrollKept) = placeKept(view, before);
    reload.selectedStays = std::any_of(next.cbegin(), next.cend(),
        [&before](const FriendRecord &f) { return f.id == before.selectedId; });
    return reload;
}

// The four kinds of reload, in the order they run.
enum ReloadKind { Renamed, Scattered, AddedOne, RemovedOne, kReloadKinds };
using Reloads = std::array<Reload, kReloadKinds>;

// The four reloads, one after the other, starting from `base` (what the model holds).
Reloads timeReloads(FriendListModel &model, const FriendSortFilterProxy &proxy, QListView &view,
    PaintWatcher &watcher, const QList<FriendRecord> &base, quint32 seed)
{
    Reloads reloads;
    std::mt19937 random(seed);
    // (a) Every name changed, the same ids.
    QList<FriendRecord> renamed = makeFriends(int(base.size()), seed);
    for (qsizetype i = 0; i < renamed.size(); ++i)
        renamed[i].id = base.at(i).id;
    reloads[Renamed] = timeReload(model, proxy, view, watcher, renamed, "renamed");

    // (b) Scattered: every 7th friend goes, a new one comes after every 5th.
    QList<FriendRecord> scattered;
    scattered.reserve(renamed.size() + renamed.size() / 5);
    for (qsizetype i = 0; i < renamed.size(); ++i) {
        if (i % 7 != 6)
            scattered.append(renamed.at(i));
        if (i % 5 == 4)
            scattered.append({ u"n%1"_s.arg(i, 7, 10, QChar(u'0')),
                u"New Friend %1"_s.arg(random() % 100'000) });
    }
    renamed = {};
    reloads[Scattered] = timeReload(model, proxy, view, watcher, scattered, "scattered");

    // (c) One friend added live, somewhere in the list; (d) one removed.
    QList<FriendRecord> plusOne = scattered;
    plusOne.insert(qsizetype(random() % quint32(plusOne.size() + 1)),
        { u"x0000001"_s, u"Added Friend %1"_s.arg(random() % 100'000) });
    reloads[AddedOne] = timeReload(model, proxy, view, watcher, plusOne, "add one");
    QList<FriendRecord> minusOne = plusOne;
    minusOne.removeAt(qsizetype(random() % quint32(minusOne.size())));
    reloads[RemovedOne] = timeReload(model, proxy, view, watcher, minusOne, "remove one");
    return reloads;
}

struct RunResult {
    double buildListMs = 0;
    double setFriendsMs = 0;
    double setSameFriendsMs = 0;
    double modelKiB = 0;
    double proxyAttachMs = 0;
    double resortNameCallMs = 0;
    double resortNameMs = 0;
    double resortAvailabilityCallMs = 0;
    double resortAvailabilityMs = 0;
    double viewFirstPaintMs = 0;
    double uniformViewFirstPaintMs = 0;
    double proxyViewKiB = 0;
    double reloadAttachedMs = 0;
    // On the client's view, scrolled to the middle with a row selected.
    Reloads view;
    // The same in FriendListPane, the client's own widget.
    Reloads pane;
};

RunResult runOnce(const Options &options, int run)
{
    RunResult result;
    const qint64 baseline = settledResidentKiB();
    auto model = std::make_unique<FriendListModel>();
    {
        QElapsedTimer timer;
        timer.start();
        QList<FriendRecord> friends = makeFriends(options.rows, options.seed + quint32(run));
        result.buildListMs = msSince(timer);

        timer.start();
        model->setFriends(friends);
        result.setFriendsMs = msSince(timer);
        if (model->rowCount() != options.rows)
            qFatal("setFriends kept %d of %d rows", model->rowCount(), options.rows);

        // The same content, another list object.
        // NOLINTNEXTLINE(performance-unnecessary-copy-initialization)
        const QList<FriendRecord> copy = friends;
        timer.start();
        model->setFriends(copy);
        result.setSameFriendsMs = msSince(timer);
    } // the input lists are gone: the strings now live in the model only
    result.modelKiB = double(settledResidentKiB() - baseline);

    QElapsedTimer timer;
    auto proxy = std::make_unique<FriendSortFilterProxy>();
    timer.start();
    proxy->setSourceModel(model.get()); // sorts (Availability) on attach
    result.proxyAttachMs = msSince(timer);

    // The call, and the call followed by rowCount(): the figure a view asking for rows would
    // wait for (the same unless the proxy defers work to the first access).
    timer.start();
    proxy->setSortMode(FriendSortFilterProxy::SortMode::Name);
    result.resortNameCallMs = msSince(timer);
    (void)proxy->rowCount();
    result.resortNameMs = msSince(timer);
    timer.start();
    proxy->setSortMode(FriendSortFilterProxy::SortMode::Availability);
    result.resortAvailabilityCallMs = msSince(timer);
    (void)proxy->rowCount();
    result.resortAvailabilityMs = msSince(timer);

    auto view = std::make_unique<QListView>();
    PaintWatcher watcher;
    view->viewport()->installEventFilter(&watcher);
    view->resize(300, 400);
    timer.start();
    view->setModel(proxy.get());
    view->show();
    if (!waitPainted(watcher))
        qFatal("the view was never painted");
    result.viewFirstPaintMs = msSince(timer);
    result.proxyViewKiB = double(settledResidentKiB() - baseline) - result.modelKiB;

    // The same with uniform item sizes: the view then skips asking every row for its size.
    {
        QListView uniform;
        PaintWatcher uniformWatcher;
        uniform.viewport()->installEventFilter(&uniformWatcher);
        uniform.setUniformItemSizes(true);
        uniform.resize(300, 400);
        timer.start();
        uniform.setModel(proxy.get());
        uniform.show();
        if (!waitPainted(uniformWatcher))
            qFatal("the uniform view was never painted");
        result.uniformViewFirstPaintMs = msSince(timer);
    }

    // A reload that differs (other names): reset, re-sort, relayout, repaint.
    const QList<FriendRecord> other = makeFriends(options.rows, options.seed + 1000 + quint32(run));
    watcher.painted = false;
    timer.start();
    model->setFriends(other);
    if (!waitPainted(watcher))
        qFatal("the view was never repainted");
    result.reloadAttachedMs = msSince(timer);
    if (model->rowCount() != options.rows)
        qFatal("reload other list: %d rows, not %d", model->rowCount(), options.rows);
    view.reset();

    // Some friends online or away (seeded), as the availability set would have it, so the
    // Availability sort has groups to keep.
    std::mt19937 random(options.seed + 3000 + quint32(run));
    QHash<QString, PresenceState> states;
    states.reserve(other.size());
    for (const FriendRecord &f : other) {
        const auto roll = random() % 10;
        states.insert(f.id,
            roll < 2       ? PresenceState::Online
                : roll < 3 ? PresenceState::Away
                           : PresenceState::Offline);
    }
    model->updateAvailability(states, true);
    model->flush();

    auto clientView = std::make_unique<QListView>();
    QListView &client = *clientView;
    configureAsClient(client);
    PaintWatcher clientWatcher;
    client.viewport()->installEventFilter(&clientWatcher);
    client.resize(300, 400);
    client.setModel(proxy.get());
    client.show();
    if (!waitPainted(clientWatcher))
        qFatal("the client's view was never painted");

    result.view = timeReloads(
        *model, *proxy, client, clientWatcher, other, options.seed + 2000 + quint32(run));
    clientView.reset();
    proxy.reset();

    // The same in the client's own widget: its proxy, its delegate, and the anchor it keeps
    // across changes. It starts from `other` again (untimed).
    model->setFriends(other);
    {
        FriendListPane pane(model.get());
        PaintWatcher paneWatcher;
        pane.view()->viewport()->installEventFilter(&paneWatcher);
        pane.resize(300, 460);
        pane.show();
        if (!waitPainted(paneWatcher))
            qFatal("the friend list pane was never painted");
        result.pane = timeReloads(*model, *pane.proxy(), *pane.view(), paneWatcher, other,
            options.seed + 4000 + quint32(run));
    }

    model.reset();
    return result;
}

void printRow(const char *what, const std::vector<double> &values, const char *unit)
{
    const Summary s = summarize(values);
    std::printf("  %-48s %10.1f %10.1f %10.1f  %s\n", what, s.median, s.min, s.max, unit);
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Times loading N friends into FriendListModel, FriendSortFilterProxy and a QListView."_s);
    parser.addHelpOption();
    const QCommandLineOption rowsOption(u"rows"_s, u"Friends to load (default 100000)."_s, u"N"_s);
    const QCommandLineOption runsOption(u"runs"_s, u"Repetitions (default 5)."_s, u"R"_s);
    const QCommandLineOption seedOption(
        u"seed"_s, u"Random seed for names (default 42)."_s, u"S"_s);
    parser.addOptions({ rowsOption, runsOption, seedOption });
    parser.process(app);

    Options options;
    options.rows = integerOption(parser, rowsOption, 100, 1'000'000, options.rows);
    options.runs = integerOption(parser, runsOption, 1, 1000, options.runs);
    options.seed = quint32(integerOption(parser, seedOption, 0, 1'000'000'000, int(options.seed)));
    if (!parser.positionalArguments().isEmpty()) {
        std::fprintf(stderr, "unexpected argument: %s\n",
            qPrintable(parser.positionalArguments().constFirst()));
        return 2;
    }

    std::printf("bench_model_load: Qt %s, platform %s\n", qVersion(),
        qPrintable(QGuiApplication::platformName()));
    std::printf("method: per run, build %d friends (ids u0000001.., random names), then time\n"
                "  setFriends on an empty model; setFriends with an equal list (no-op);\n"
                "  FriendSortFilterProxy::setSourceModel (Availability sort on attach);\n"
                "  setSortMode(Name) and back (the call, and the call + rowCount(), in case the\n"
                "  proxy sorts lazily); QListView 300x400 setModel+show to first paint, default\n"
                "  and with uniformItemSizes(true);\n"
                "  setFriends of a different list with proxy+view attached, to the repaint.\n"
                "  Then, on a view as the client's friend list (uniform item sizes, batched\n"
                "  layout of 2000 rows) behind the proxy (Availability; 20%% online, 10%% away),\n"
                "  scrolled to the middle with the middle row selected before each, setFriends\n"
                "  to the repaint: (a) every name changed, same ids; (b) every 7th friend gone\n"
                "  and a new one after every 5th; (c) one friend added; (d) one removed.\n"
                "  Memory: VmRSS after malloc_trim, before the list is built and after the\n"
                "  model holds it (input lists freed); then again with proxy+view.\n"
                "  %d runs, seed %u; median / min / max over runs.\n\n",
        options.rows, options.runs, options.seed);

    std::vector<RunResult> results;
    for (int run = 0; run < options.runs; ++run) {
        results.push_back(runOnce(options, run));
        const RunResult &r = results.back();
        std::printf("run %d: setFriends %.1f ms, same list %.3f ms, model %.0f KiB, proxy attach "
                    "%.1f ms, view first paint %.1f ms, reload attached %.1f ms; client's view: "
                    "renamed %.1f ms, scattered %.1f ms, add one %.1f ms, remove one %.1f ms\n",
            run + 1, r.setFriendsMs, r.setSameFriendsMs, r.modelKiB, r.proxyAttachMs,
            r.viewFirstPaintMs, r.reloadAttachedMs, r.view[Renamed].ms, r.view[Scattered].ms,
            r.view[AddedOne].ms, r.view[RemovedOne].ms);
        std::fflush(stdout);
    }

    const auto collect = [&](double RunResult::*field, double scale = 1) {
        std::vector<double> values;
        values.reserve(results.size());
        for (const RunResult &r : results)
            values.push_back(r.*field * scale);
        return values;
    };
    const double perRow = 1024.0 / options.rows;
    std::printf("\nresults for %d rows, %d runs:%37s %10s %10s\n", options.rows, options.runs,
        "median", "min", "max");
    printRow("build the input list (not the model's cost)", collect(&RunResult::buildListMs), "ms");
    printRow("setFriends, empty model", collect(&RunResult::setFriendsMs), "ms");
    printRow("setFriends, equal list (no reset)", collect(&RunResult::setSameFriendsMs), "ms");
    printRow(
        "proxy setSourceModel + sort (Availability)", collect(&RunResult::proxyAttachMs), "ms");
    printRow("setSortMode(Name): the call itself", collect(&RunResult::resortNameCallMs), "ms");
    printRow("setSortMode(Name) + rowCount() (mapping)", collect(&RunResult::resortNameMs), "ms");
    printRow("setSortMode(Availability): the call itself",
        collect(&RunResult::resortAvailabilityCallMs), "ms");
    printRow(
        "setSortMode(Availability) + rowCount()", collect(&RunResult::resortAvailabilityMs), "ms");
    printRow(
        "QListView setModel + show to first paint", collect(&RunResult::viewFirstPaintMs), "ms");
    printRow(
        "  the same, uniformItemSizes(true)", collect(&RunResult::uniformViewFirstPaintMs), "ms");
    printRow(
        "reload other list, proxy + default view", collect(&RunResult::reloadAttachedMs), "ms");
    printRow("RSS delta: model (rows, id hash, strings)", collect(&RunResult::modelKiB, 1.0 / 1024),
        "MiB");
    printRow("  per row", collect(&RunResult::modelKiB, perRow), "bytes");
    printRow(
        "RSS delta: proxy + view on top", collect(&RunResult::proxyViewKiB, 1.0 / 1024), "MiB");
    printRow("  per row", collect(&RunResult::proxyViewKiB, perRow), "bytes");

    // The reloads, to the repaint and to the layout's last batch, and whether the user's
    // place survived: the selected friend still selected, the scroll bar within a row.
    static constexpr std::array<const char *, kReloadKinds> kindNames = { "every name changed",
        "1/7 gone, 1/5 new, scattered", "one friend added", "one friend removed" };
    static constexpr std::array<const char *, kReloadKinds> headlines = { "reload_renamed_ms",
        "reload_scattered_ms", "reload_add_one_ms", "reload_remove_one_ms" };
    const auto reloads = [&](Reloads RunResult::*where, int kind, double Reload::*figure) {
        std::vector<double> values;
        values.reserve(results.size());
        for (const RunResult &r : results)
            values.push_back((r.*where)[size_t(kind)].*figure);
        return values;
    };
    const auto kept = [&](Reloads RunResult::*where, int kind, bool Reload::*flag) {
        return std::count_if(results.cbegin(), results.cend(),
            [&](const RunResult &r) { return (r.*where)[size_t(kind)].*flag; });
    };
    for (const auto &[where, title] :
        { std::pair { &RunResult::view, "QListView as the client's (uniform, batched 2000)" },
            std::pair { &RunResult::pane, "FriendListPane (the client's widget)" } }) {
        std::printf("\nreloads in %s, scrolled to the middle with a row selected:\n", title);
        for (int kind = 0; kind < kReloadKinds; ++kind) {
            const Summary repaint = summarize(reloads(where, kind, &Reload::ms));
            const Summary settled = summarize(reloads(where, kind, &Reload::settledMs));
            std::printf("  %-30s to repaint %7.1f ms (%.1f-%.1f), to last batch %7.1f ms; "
                        "kept selection %td, scroll %td of %td runs where the friend stays\n",
                kindNames[size_t(kind)], repaint.median, repaint.min, repaint.max, settled.median,
                kept(where, kind, &Reload::selectionKept), kept(where, kind, &Reload::scrollKept),
                kept(where, kind, &Reload::selectedStays));
        }
    }
    // What tools/bench.sh compares: the medians to the repaint on the configured QListView.
    std::printf("\n");
    for (int kind = 0; kind < kReloadKinds; ++kind)
        std::printf("headline: %s %.1f ms lower\n", headlines[size_t(kind)],
            summarize(reloads(&RunResult::view, kind, &Reload::ms)).median);
    return 0;
}
