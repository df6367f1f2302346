// bench_model_load: what loading a large friend list costs.
//
// For N friends (default 100,000) it times FriendListModel::setFriends on an empty model and
// again with the same list (which must be a no-op), reads the resident memory the model holds
// (VmRSS from /proc/self/status, before and after, with the input list freed), then times a
// FriendSortFilterProxy attaching to the model (it sorts on attach), re-sorting by name and
// back, a QListView showing the proxy up to its first paint, and a reload of a different list
// while the proxy and the view are attached. Each run builds everything afresh; the figures
// are the median, min and max over the runs.
//
// Run: QT_QPA_PLATFORM=offscreen ./bench_model_load [--rows N] [--runs R] [--seed S]

// C++
#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <random>
#include <vector>
// System
#include <malloc.h>

// Qt
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QListView>
#include <QWindow>

// Presence
#include "Summary.h"
#include "models/FriendListModel.h"
#include "models/FriendSortFilterProxy.h"

using namespace Qt::StringLiterals;
using Presence::Models::FriendListModel;
using Presence::Models::FriendRecord;
using Presence::Models::FriendSortFilterProxy;

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

    view.reset();
    proxy.reset();
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
    if (parser.isSet(rowsOption))
        options.rows = std::max(1, parser.value(rowsOption).toInt());
    if (parser.isSet(runsOption))
        options.runs = std::max(1, parser.value(runsOption).toInt());
    if (parser.isSet(seedOption))
        options.seed = parser.value(seedOption).toUInt();

    std::printf("bench_model_load: Qt %s, platform %s\n", qVersion(),
        qPrintable(QGuiApplication::platformName()));
    std::printf("method: per run, build %d friends (ids u0000001.., random names), then time\n"
                "  setFriends on an empty model; setFriends with an equal list (no-op);\n"
                "  FriendSortFilterProxy::setSourceModel (Availability sort on attach);\n"
                "  setSortMode(Name) and back (the call, and the call + rowCount(), in case the\n"
                "  proxy sorts lazily); QListView 300x400 setModel+show to first paint, default\n"
                "  and with uniformItemSizes(true);\n"
                "  setFriends of a different list with proxy+view attached, to the repaint.\n"
                "  Memory: VmRSS after malloc_trim, before the list is built and after the\n"
                "  model holds it (input lists freed); then again with proxy+view.\n"
                "  %d runs, seed %u; median / min / max over runs.\n\n",
        options.rows, options.runs, options.seed);

    std::vector<RunResult> results;
    for (int run = 0; run < options.runs; ++run) {
        results.push_back(runOnce(options, run));
        const RunResult &r = results.back();
        std::printf("run %d: setFriends %.1f ms, same list %.3f ms, model %.0f KiB, proxy attach "
                    "%.1f ms, view first paint %.1f ms, reload attached %.1f ms\n",
            run + 1, r.setFriendsMs, r.setSameFriendsMs, r.modelKiB, r.proxyAttachMs,
            r.viewFirstPaintMs, r.reloadAttachedMs);
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
    printRow("reload other list, proxy+view attached", collect(&RunResult::reloadAttachedMs), "ms");
    printRow("RSS delta: model (rows, id hash, strings)", collect(&RunResult::modelKiB, 1.0 / 1024),
        "MiB");
    printRow("  per row", collect(&RunResult::modelKiB, perRow), "bytes");
    printRow(
        "RSS delta: proxy + view on top", collect(&RunResult::proxyViewKiB, 1.0 / 1024), "MiB");
    printRow("  per row", collect(&RunResult::proxyViewKiB, perRow), "bytes");
    return 0;
}
