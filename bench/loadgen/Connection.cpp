#include "bench/loadgen/Connection.h"

// C++
#include <algorithm>
#include <array>
#include <chrono>
#include <utility>
// System
#include <boost/asio/error.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/json.hpp>
#include <netinet/in.h>
#include <sys/socket.h>

// Presence
#include "bench/loadgen/ChangeLedger.h"
#include "bench/loadgen/LoadOptions.h"
#include "bench/loadgen/Population.h"
#include "bench/loadgen/RunContext.h"

namespace LoadGen {

namespace beast = boost::beast;
namespace json = boost::json;
namespace websocket = boost::beast::websocket;
using tcp = boost::asio::ip::tcp;
using namespace std::chrono_literals;

namespace {

// The gateway must take the TCP connection within this; the WebSocket handshake has as long.
constexpr auto kConnectTimeout = 30s;
// friends answers at most this many per page (docs/protocol.md §3).
constexpr std::int64_t kFriendsPage = 1000;
// A slow reader's requests: 40 a second stays under the gateway's rate limit (50 a second),
// so it is dropped for what it leaves unread, not for what it sends.
constexpr auto kFloodEvery = 25ms;
// Rows a scroll brings into view; the window moves on by half of it each time.
constexpr std::size_t kScrollWindow = 8;
// A slow reader's receive buffer: small, so that the gateway's own bound is what fills up.
constexpr int kSlowReceiveBuffer = 4096;

std::string_view stringOf(const json::object &object, std::string_view key)
{
    const json::value *value = object.if_contains(key);
    return value && value->is_string() ? std::string_view(value->get_string()) : std::string_view();
}

std::int64_t integerOf(const json::object &object, std::string_view key, std::int64_t fallback)
{
    const json::value *value = object.if_contains(key);
    return value && value->is_int64() ? value->get_int64() : fallback;
}

} // namespace

Connection::Connection(boost::asio::io_context &io, RunContext &context,
    const tcp::endpoint &gateway, int user, const boost::asio::ip::address_v4 &source,
    std::vector<std::uint32_t> &latencies, bool slowReader)
    : m_socket(io)
    , m_context(context)
    , m_gateway(gateway)
    , m_user(user)
    , m_source(source)
    , m_latencies(latencies)
    , m_slowReader(slowReader)
    , m_floodTimer(io)
    , m_scrollTimer(io)
{
}

void Connection::start(SetUpDone done)
{
    m_done = std::move(done);
    auto &stream = beast::get_lowest_layer(m_socket);
    auto &socket = stream.socket();
    beast::error_code error;
    socket.open(tcp::v4(), error);
    if (!error) {
        // The port is picked at connect time, per destination: each source address then
        // reaches far more than the 28,000 ephemeral ports one bind() could reserve.
        const int on = 1;
        ::setsockopt(socket.native_handle(), IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &on, sizeof on);
        socket.bind(tcp::endpoint(m_source, 0), error);
        if (m_slowReader) {
            // Before connecting: the window the gateway sees is sized from it.
            ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVBUF, &kSlowReceiveBuffer,
                sizeof kSlowReceiveBuffer);
        }
    }
    if (error) {
        fail("bind to " + m_source.to_string() + ": " + error.message());
        return;
    }
    stream.expires_after(kConnectTimeout);
    stream.async_connect(
        m_gateway, [this](beast::error_code connectError) { onConnected(connectError); });
}

void Connection::onConnected(beast::error_code error)
{
    if (error) {
        fail("connect: " + error.message());
        return;
    }
    auto &stream = beast::get_lowest_layer(m_socket);
    stream.socket().set_option(tcp::no_delay(true), error);
    // The WebSocket layer keeps its own time limits from here.
    stream.expires_never();
    websocket::stream_base::timeout timeouts {};
    timeouts.handshake_timeout = kConnectTimeout;
    timeouts.idle_timeout = websocket::stream_base::none();
    timeouts.keep_alive_pings = false;
    m_socket.set_option(timeouts);
    m_socket.text(true);
    m_state = State::Handshaking;
    const std::string host = m_context.options.host + ":" + std::to_string(m_context.options.port);
    m_socket.async_handshake(
        host, "/", [this](beast::error_code handshakeError) { onHandshake(handshakeError); });
}

void Connection::onHandshake(beast::error_code error)
{
    if (error) {
        fail("WebSocket handshake: " + error.message());
        return;
    }
    m_state = State::AwaitingWelcome;
    json::object hello;
    hello["type"] = "hello";
    hello["token"] = m_context.population.token(m_user);
    hello["protocol"] = 1;
    hello["client"] = "presence-loadgen/1";
    hello["ref"] = "h";
    if (m_context.options.presenceBatchMs > 0)
        hello["presence_batch_ms"] = m_context.options.presenceBatchMs;
    send(json::serialize(hello));
    readNext();
}

void Connection::readNext()
{
    m_socket.async_read(m_buffer, [this](beast::error_code error, std::size_t) { onRead(error); });
}

void Connection::onRead(beast::error_code error)
{
    if (error) {
        if (m_context.stopping.load() || m_state == State::Gone)
            return;
        if (m_stoppedReadingMicros >= 0) {
            onSlowReaderDropped();
            return;
        }
        if (m_state == State::Ready) {
            m_state = State::Gone;
            m_context.closed.fetch_add(1);
            m_context.noteError(
                "connection of " + m_context.population.id(m_user) + " lost: " + error.message());
        } else {
            fail("read: " + error.message());
        }
        return;
    }
    const auto data = m_buffer.cdata();
    handleFrame(std::string_view(static_cast<const char *>(data.data()), data.size()));
    m_buffer.consume(m_buffer.size());
    if (m_state != State::Gone && m_stoppedReadingMicros < 0)
        readNext();
}

void Connection::handleFrame(std::string_view text)
{
    // Most frames are small pushes: parse them without touching the heap.
    std::array<unsigned char, 4096> scratch;
    json::monotonic_resource memory(scratch.data(), scratch.size());
    beast::error_code error;
    const json::value value = json::parse(text, error, &memory);
    if (error || !value.is_object()) {
        m_context.noteError("not a JSON object: " + std::string(text.substr(0, 200)));
        return;
    }
    const json::object &frame = value.get_object();
    const std::string_view type = stringOf(frame, "type");
    if (type == "presence")
        onPresence(frame, m_context.nowMicros());
    else if (type == "presence_batch") {
        const std::int64_t now = m_context.nowMicros();
        const json::value *updates = frame.if_contains("updates");
        if (!updates || !updates->is_array()) {
            m_context.noteError("presence_batch without updates");
            return;
        }
        for (const json::value &update : updates->get_array()) {
            if (update.is_object())
                onPresence(update.get_object(), now);
        }
    } else if (type == "availability" && m_state == State::Subscribing && frame.contains("ref"))
        onAvailability(frame);
    else if (type == "welcome" && m_state == State::AwaitingWelcome)
        onWelcome(frame);
    else if (type == "friends" && m_state == State::AwaitingFriends)
        onFriends(frame);
    else if (type == "snapshot" && m_state == State::Subscribing && frame.contains("ref"))
        onSnapshot(frame);
    else if (type == "error") {
        const std::string what = "error from the gateway to " + m_context.population.id(m_user)
            + ": " + std::string(stringOf(frame, "code")) + ": "
            + std::string(stringOf(frame, "message"));
        if (m_state == State::Ready)
            m_context.noteError(what);
        else
            fail(what);
    }
    // ok (set_status), pong, digest and anything else: nothing to measure.
}

void Connection::onWelcome(const json::object &frame)
{
    if (const json::value *limits = frame.if_contains("limits"); limits && limits->is_object()) {
        m_maxIdsPerRequest = std::max<std::int64_t>(
            1, integerOf(limits->get_object(), "max_ids_per_request", m_maxIdsPerRequest));
        m_maxSubscriptions = std::max<std::int64_t>(
            0, integerOf(limits->get_object(), "max_subscriptions", m_maxSubscriptions));
    }
    if (m_slowReader) {
        setUp(true);
        floodLater();
        return;
    }
    if (!m_context.options.subscribe) {
        setUp(true);
        return;
    }
    m_state = State::AwaitingFriends;
    requestFriends(0);
}

void Connection::requestFriends(std::int64_t offset)
{
    send(R"({"type":"friends","offset":)" + std::to_string(offset) + R"(,"limit":)"
        + std::to_string(kFriendsPage) + R"(,"ref":"f"})");
}

void Connection::onFriends(const json::object &frame)
{
    const json::value *items = frame.if_contains("items");
    if (!items || !items->is_array()) {
        fail("friends without items");
        return;
    }
    for (const json::value &item : items->get_array()) {
        if (item.is_object())
            m_friends.emplace_back(stringOf(item.get_object(), "id"));
    }
    const std::int64_t total = integerOf(frame, "total", 0);
    if (!items->get_array().empty() && std::int64_t(m_friends.size()) < total) {
        requestFriends(std::int64_t(m_friends.size()));
        return;
    }
    if (m_context.options.presenceBatchMs > 0)
        watchAvailability();
    else
        subscribeAll();
}

void Connection::watchAvailability()
{
    if (m_friends.empty()) {
        setUp(true);
        return;
    }
    m_state = State::Subscribing;
    send(R"({"type":"watch_availability","ref":"a"})");
}

void Connection::onAvailability(const json::object &frame)
{
    // The set covers the first `covered` friends, in friends order.
    const std::int64_t covered = integerOf(frame, "covered", 0);
    for (std::int64_t i = 0; i < covered && i < std::int64_t(m_friends.size()); ++i) {
        const int watched = m_context.population.indexOf(m_friends[size_t(i)]);
        if (watched >= 0)
            m_context.ledger.addWatcher(watched);
    }
    m_friends = {};
    setUp(true);
}

void Connection::subscribeAll()
{
    // All friends, as far as max_subscriptions allows, max_ids_per_request at a time. The
    // batches (four at the default limits) stay far below the rate limit's burst.
    if (std::int64_t(m_friends.size()) > m_maxSubscriptions)
        m_friends.resize(size_t(m_maxSubscriptions));
    if (m_context.options.scrollSeconds > 0 && m_friends.size() > 1) {
        // The second half is watched through the scrolling window (within the same cap).
        const std::size_t kept = (m_friends.size() + 1) / 2;
        m_scrolled.assign(m_friends.begin() + std::ptrdiff_t(kept), m_friends.end());
        m_friends.resize(kept);
        for (const std::string &id : m_scrolled)
            m_scrolledUsers.push_back(m_context.population.indexOf(id));
        std::sort(m_scrolledUsers.begin(), m_scrolledUsers.end());
        // Connections scroll at different moments, not all in one burst.
        const auto period = std::chrono::duration<double>(m_context.options.scrollSeconds);
        scrollLater(std::chrono::duration_cast<std::chrono::microseconds>(
            period * (double(m_user % 97) / 97.0 + 1.0)));
    }
    if (m_friends.empty()) {
        setUp(true);
        return;
    }
    m_state = State::Subscribing;
    for (size_t first = 0; first < m_friends.size(); first += size_t(m_maxIdsPerRequest)) {
        const size_t last = std::min(m_friends.size(), first + size_t(m_maxIdsPerRequest));
        std::string frame = R"({"type":"subscribe","ref":"s","ids":[)";
        for (size_t i = first; i < last; ++i) {
            // Ids are of A-Z a-z 0-9 . _ - (docs/protocol.md §1): nothing to escape.
            frame += (i == first ? "\"" : ",\"") + m_friends[i] + '"';
        }
        frame += "]}";
        ++m_snapshotsAwaited;
        send(std::move(frame));
    }
    m_friends = {};
}

void Connection::onSnapshot(const json::object &frame)
{
    if (const json::value *users = frame.if_contains("users"); users && users->is_array()) {
        for (const json::value &entry : users->get_array()) {
            const int watched = entry.is_object()
                ? m_context.population.indexOf(stringOf(entry.get_object(), "id"))
                : -1;
            if (watched >= 0)
                m_context.ledger.addWatcher(watched);
        }
    }
    if (--m_snapshotsAwaited == 0)
        setUp(true);
}

void Connection::onPresence(const json::object &frame, std::int64_t now)
{
    if (!m_context.changing.load(std::memory_order_relaxed)) {
        m_context.setUpPushes.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    const int user = m_context.population.indexOf(stringOf(frame, "id"));
    if (m_context.isSlowReader(user))
        return; // it makes no changes, and goes offline once it is dropped
    if (user >= 0 && !m_context.isOwn(user))
        return; // changed by someone else than this run: not measured
    if (std::binary_search(m_scrolledUsers.begin(), m_scrolledUsers.end(), user))
        return; // watched now and then through the scrolling window: not measured
    const std::string_view status = stringOf(frame, "status");
    if (user < 0 || (status != "online" && status != "away")) {
        // An offline push while changing means a connection went away.
        m_context.noteError("unexpected push: " + json::serialize(frame));
        return;
    }
    const auto latency = m_context.ledger.recordPush(
        user, status == "online" ? ChangeLedger::Status::Online : ChangeLedger::Status::Away, now);
    if (latency)
        m_latencies.push_back(std::uint32_t(std::max<std::int64_t>(0, *latency)));
}

bool Connection::changeStatus()
{
    if (m_state != State::Ready)
        return false;
    m_away = !m_away;
    m_context.ledger.recordChange(m_user,
        m_away ? ChangeLedger::Status::Away : ChangeLedger::Status::Online, m_context.nowMicros());
    send(m_away ? R"({"type":"set_status","status":"away","ref":"c"})"
                : R"({"type":"set_status","status":"online","ref":"c"})");
    return true;
}

void Connection::scrollLater(std::chrono::microseconds delay)
{
    m_scrollTimer.expires_after(delay);
    m_scrollTimer.async_wait([this](beast::error_code error) {
        if (!error)
            scroll();
    });
}

void Connection::scroll()
{
    if (m_state == State::Gone || m_context.stopping.load())
        return;
    if (m_state == State::Ready) {
        // Ids are of A-Z a-z 0-9 . _ - (docs/protocol.md §1): nothing to escape.
        const auto window = [this](const char *type, const char *ref) {
            std::string frame
                = std::string(R"({"type":")") + type + R"(","ref":")" + ref + R"(","ids":[)";
            for (std::size_t i = 0; i < std::min(kScrollWindow, m_scrolled.size()); ++i) {
                frame += (i == 0 ? "\"" : ",\"")
                    + m_scrolled[(m_windowStart + i) % m_scrolled.size()] + '"';
            }
            return frame + "]}";
        };
        if (m_windowShown) {
            send(window("unsubscribe", "u"));
            m_windowStart = (m_windowStart + kScrollWindow / 2) % m_scrolled.size();
        }
        send(window("subscribe", "w")); // its snapshot is not measured either
        m_windowShown = true;
        m_context.scrolls.fetch_add(1, std::memory_order_relaxed);
    }
    scrollLater(std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::duration<double>(m_context.options.scrollSeconds)));
}

void Connection::floodLater()
{
    m_floodTimer.expires_after(kFloodEvery);
    m_floodTimer.async_wait([this](beast::error_code error) {
        if (!error)
            flood();
    });
}

void Connection::flood()
{
    if (m_state == State::Gone)
        return;
    if (!m_context.changing.load()) {
        floodLater();
        return;
    }
    if (m_stoppedReadingMicros < 0) {
        m_stoppedReadingMicros = m_context.nowMicros(); // the read in flight is its last
        // Ids no one has: each comes back in the answer's denied list. The same every time.
        const std::string prefix = "\"nobody-" + std::to_string(m_user) + '-';
        m_floodFrame = R"({"type":"subscribe","ref":"slow","ids":[)";
        for (std::int64_t i = 0; i < m_maxIdsPerRequest; ++i)
            m_floodFrame += (i == 0 ? "" : ",") + prefix + std::to_string(i) + '"';
        m_floodFrame += "]}";
    }
    send(m_floodFrame);
    floodLater();
}

void Connection::onSlowReaderDropped()
{
    if (m_state == State::Gone)
        return;
    m_state = State::Gone;
    m_context.noteSlowReaderDropped(double(m_context.nowMicros() - m_stoppedReadingMicros) / 1e6);
    m_floodTimer.cancel();
    beast::error_code ignored;
    beast::get_lowest_layer(m_socket).socket().close(ignored);
}

void Connection::send(std::string text)
{
    m_outbox.push_back(std::move(text));
    if (!m_writing)
        writeNext();
}

void Connection::writeNext()
{
    if (m_outbox.empty() || m_state == State::Gone) {
        m_writing = false;
        return;
    }
    m_writing = true;
    m_socket.async_write(
        boost::asio::buffer(m_outbox.front()), [this](beast::error_code error, std::size_t) {
            m_outbox.pop_front();
            if (error) {
                m_writing = false;
                // A slow reader reads nothing: its writes are what find the connection gone.
                if (m_stoppedReadingMicros >= 0)
                    onSlowReaderDropped();
                return; // otherwise the read side reports the loss
            }
            writeNext();
        });
}

void Connection::setUp(bool ok)
{
    if (ok) {
        m_state = State::Ready;
        m_context.ready.fetch_add(1);
        std::int64_t now = m_context.nowMicros();
        std::int64_t last = m_context.lastReadyMicros.load();
        while (now > last && !m_context.lastReadyMicros.compare_exchange_weak(last, now)) { }
    } else {
        m_state = State::Gone;
        m_context.failed.fetch_add(1);
    }
    if (auto done = std::exchange(m_done, nullptr))
        done(ok);
}

void Connection::fail(const std::string &what)
{
    if (m_state == State::Gone)
        return;
    m_context.noteError(m_context.population.id(m_user) + ": " + what);
    beast::error_code ignored;
    beast::get_lowest_layer(m_socket).socket().close(ignored);
    setUp(false);
}

} // namespace LoadGen
