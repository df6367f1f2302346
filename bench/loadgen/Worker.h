#pragma once

// C++
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>
// System
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address_v4.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

namespace LoadGen {

class Connection;
struct RunContext;

// One thread with its own event loop and its share of the connections. It sets them up, at
// most `concurrency` at a time, then makes its share of the status changes: at its rate, each
// from the next of its connections (round robin) whose previous change has reached every
// watcher.
class Worker {
public:
    Worker(RunContext &context, const boost::asio::ip::tcp::endpoint &gateway, int concurrency);
    ~Worker();
    Worker(const Worker &) = delete;
    Worker &operator=(const Worker &) = delete;

    // Before start(): one more connection, as `user`, from `source`; a slow reader makes no
    // changes.
    void add(int user, const boost::asio::ip::address_v4 &source, bool slowReader = false);
    // Starts the thread and the set-up of the connections.
    void start();
    // Makes `changesPerSecond` changes from now on, until stopChanges(), which returns once the
    // worker has made its last one.
    void startChanges(double changesPerSecond);
    void stopChanges();
    // Stops the thread; the connections are closed with the worker.
    void stop();

    // Once stopped: the latencies the worker's connections measured (µs), and the changes it
    // could not make because every connection's previous change was still on its way.
    [[nodiscard]] const std::vector<std::uint32_t> &latencies() const { return m_latencies; }
    [[nodiscard]] std::uint64_t skipped() const { return m_skipped; }

private:
    void setUpMore();
    void onSetUp(bool ok);
    void scheduleTick();
    void onTick();
    void changeOne();

    boost::asio::io_context m_io;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> m_work;
    boost::asio::steady_timer m_tick;
    RunContext &m_context;
    const boost::asio::ip::tcp::endpoint m_gateway;
    const int m_concurrency;
    std::vector<std::unique_ptr<Connection>> m_connections;
    std::vector<Connection *> m_ready;
    std::vector<std::uint32_t> m_latencies;
    size_t m_nextToSetUp = 0;
    int m_settingUp = 0;
    bool m_changing = false;
    double m_rate = 0;
    std::int64_t m_changesStart = 0;
    std::uint64_t m_made = 0;
    std::uint64_t m_skipped = 0;
    size_t m_cursor = 0;
    std::thread m_thread;
};

} // namespace LoadGen
