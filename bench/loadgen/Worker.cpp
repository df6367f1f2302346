#include "bench/loadgen/Worker.h"

// C++
#include <chrono>
#include <future>
// System
#include <boost/asio/post.hpp>

// Presence
#include "bench/loadgen/ChangeLedger.h"
#include "bench/loadgen/Connection.h"
#include "bench/loadgen/RunContext.h"

namespace LoadGen {

using namespace std::chrono_literals;

namespace {

// How often the change driver looks at the clock.
constexpr auto kTick = 1ms;

} // namespace

Worker::Worker(RunContext &context, const boost::asio::ip::tcp::endpoint &gateway, int concurrency)
    : m_work(boost::asio::make_work_guard(m_io))
    , m_tick(m_io)
    , m_context(context)
    , m_gateway(gateway)
    , m_concurrency(concurrency)
{
}

Worker::~Worker()
{
    stop();
    m_ready.clear();
    m_connections.clear();
}

void Worker::add(int user, const boost::asio::ip::address_v4 &source, bool slowReader)
{
    m_connections.push_back(std::make_unique<Connection>(
        m_io, m_context, m_gateway, user, source, m_latencies, slowReader));
}

void Worker::start()
{
    m_latencies.reserve(1 << 20);
    boost::asio::post(m_io, [this] { setUpMore(); });
    m_thread = std::thread([this] { m_io.run(); });
}

void Worker::setUpMore()
{
    while (m_settingUp < m_concurrency && m_nextToSetUp < m_connections.size()) {
        Connection *connection = m_connections[m_nextToSetUp++].get();
        ++m_settingUp;
        connection->start([this, connection](bool ok) {
            if (ok && !connection->isSlowReader())
                m_ready.push_back(connection);
            onSetUp(ok);
        });
    }
}

void Worker::onSetUp(bool)
{
    --m_settingUp;
    // Not from inside the connection's own handler: the next ones start on a clean stack.
    boost::asio::post(m_io, [this] { setUpMore(); });
}

void Worker::startChanges(double changesPerSecond)
{
    boost::asio::post(m_io, [this, changesPerSecond] {
        m_rate = changesPerSecond;
        m_changesStart = m_context.nowMicros();
        m_made = 0;
        m_changing = true;
        scheduleTick();
    });
}

void Worker::stopChanges()
{
    std::promise<void> stopped;
    boost::asio::post(m_io, [this, &stopped] {
        m_changing = false;
        m_tick.cancel();
        stopped.set_value();
    });
    stopped.get_future().wait();
}

void Worker::scheduleTick()
{
    m_tick.expires_after(kTick);
    m_tick.async_wait([this](boost::system::error_code error) {
        if (!error && m_changing)
            onTick();
    });
}

void Worker::onTick()
{
    // The changes due by now at the rate; a late tick catches up at once.
    const double elapsed = double(m_context.nowMicros() - m_changesStart) / 1e6;
    const auto due = static_cast<std::uint64_t>(elapsed * m_rate);
    while (m_made < due) {
        ++m_made;
        changeOne();
    }
    scheduleTick();
}

void Worker::changeOne()
{
    for (size_t tried = 0; tried < m_ready.size(); ++tried) {
        Connection *connection = m_ready[m_cursor];
        m_cursor = (m_cursor + 1) % m_ready.size();
        if (m_context.ledger.canChange(connection->user()) && connection->changeStatus())
            return;
    }
    ++m_skipped;
}

void Worker::stop()
{
    if (!m_thread.joinable())
        return;
    m_work.reset();
    m_io.stop();
    m_thread.join();
}

} // namespace LoadGen
