#pragma once

// C++
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>
// System
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address_v4.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket/stream.hpp>

namespace boost::json {
class object;
}

namespace LoadGen {

struct RunContext;

// One user's WebSocket connection to the gateway, as a client runs it: connect (from its own
// source address), hello, friends, subscribe to every friend in batches the gateway's limits
// allow (or watch them all through the availability set, in presence batches); then it
// receives pushes, and sends set_status when its worker tells it to. Lives on its worker's
// thread only.
//
// With --scroll, the second half of its friends is watched through a small window that moves
// on every few seconds, as a scrolled list's rows do; their pushes are not measured.
//
// A slow reader signs in and nothing more; once the changes start it stops reading and keeps
// asking for large answers, until it finds its connection dropped.
class Connection {
public:
    // Called once the connection is set up (true) or has failed to be (false).
    using SetUpDone = std::function<void(bool)>;

    Connection(boost::asio::io_context &io, RunContext &context,
        const boost::asio::ip::tcp::endpoint &gateway, int user,
        const boost::asio::ip::address_v4 &source, std::vector<std::uint32_t> &latencies,
        bool slowReader = false);
    Connection(const Connection &) = delete;
    Connection &operator=(const Connection &) = delete;

    void start(SetUpDone done);
    // Toggles this connection's status between online and away; false when it is not set up
    // (or lost).
    bool changeStatus();
    [[nodiscard]] int user() const { return m_user; }
    [[nodiscard]] bool isSlowReader() const { return m_slowReader; }

private:
    enum class State {
        Connecting,
        Handshaking,
        AwaitingWelcome,
        AwaitingFriends,
        Subscribing,
        Ready,
        Gone
    };

    void onConnected(boost::beast::error_code error);
    void onHandshake(boost::beast::error_code error);
    void readNext();
    void onRead(boost::beast::error_code error);
    void handleFrame(std::string_view text);
    void onWelcome(const boost::json::object &frame);
    void onFriends(const boost::json::object &frame);
    void onSnapshot(const boost::json::object &frame);
    void onAvailability(const boost::json::object &frame);
    // One presence: a push, or an entry of a presence_batch.
    void onPresence(const boost::json::object &presence, std::int64_t nowMicros);
    void watchAvailability();
    void requestFriends(std::int64_t offset);
    void subscribeAll();
    void scrollLater(std::chrono::microseconds delay);
    void scroll();
    void floodLater();
    void flood();
    void onSlowReaderDropped();
    void send(std::string text);
    void writeNext();
    void setUp(bool ok);
    void fail(const std::string &what);

    boost::beast::websocket::stream<boost::beast::tcp_stream> m_socket;
    boost::beast::flat_buffer m_buffer;
    RunContext &m_context;
    const boost::asio::ip::tcp::endpoint m_gateway;
    const int m_user;
    const boost::asio::ip::address_v4 m_source;
    std::vector<std::uint32_t> &m_latencies;
    const bool m_slowReader;
    boost::asio::steady_timer m_floodTimer;
    boost::asio::steady_timer m_scrollTimer;
    std::vector<std::string> m_scrolled; // the friends watched through the window
    std::vector<int> m_scrolledUsers; // their population indexes, sorted
    std::size_t m_windowStart = 0;
    bool m_windowShown = false;
    std::int64_t m_stoppedReadingMicros = -1; // a slow reader's, once it has
    std::string m_floodFrame; // what a slow reader keeps asking
    SetUpDone m_done;
    State m_state = State::Connecting;
    std::deque<std::string> m_outbox;
    bool m_writing = false;
    bool m_away = false;
    // From welcome's limits; the protocol's defaults until then.
    std::int64_t m_maxIdsPerRequest = 500;
    std::int64_t m_maxSubscriptions = 2000;
    std::vector<std::string> m_friends;
    int m_snapshotsAwaited = 0;
};

} // namespace LoadGen
