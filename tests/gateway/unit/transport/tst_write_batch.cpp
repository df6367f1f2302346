// WriteBatch: frames sent to a connection during one event-loop iteration leave together at
// its end, in one send(); a transport that goes away before the flush, or a batch that goes
// away before its transports, is harmless. Over a real socket pair, read from the other end.

// C++
#include <memory>
// System
#include <sys/socket.h>
#include <unistd.h>

// Qt
#include <QTest>

// Presence
#include "server-mock/transport/RawWebSocketTransport.h"
#include "server-mock/transport/SocketPoller.h"
#include "server-mock/transport/WriteBatch.h"
#include "server-mock/websocket/WebSocketFrameWriter.h"

using namespace Presence::Server;
using namespace Qt::StringLiterals;

namespace {

// What the peer's end holds now, without waiting.
QByteArray readNow(int descriptor)
{
    QByteArray bytes(1 << 16, Qt::Uninitialized);
    const ssize_t got = ::recv(descriptor, bytes.data(), size_t(bytes.size()), MSG_DONTWAIT);
    bytes.resize(got > 0 ? qsizetype(got) : 0);
    return bytes;
}

struct Pair {
    int server = -1;
    int client = -1;
    Pair()
    {
        int descriptors[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, descriptors)
            == 0) {
            server = descriptors[0];
            client = descriptors[1];
        }
    }
    ~Pair() { ::close(client); } // the server end belongs to its transport
    Pair(const Pair &) = delete;
    Pair &operator=(const Pair &) = delete;
};

} // namespace

class TestWriteBatch : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void framesOfOneIterationLeaveTogetherAtItsEnd();
    void eachTransportIsFlushedOnce();
    void transportGoneBeforeTheFlush();
    void batchGoneBeforeItsTransports();
    void writtenDuringAFlushJoinsTheNextBatch();

private:
    TransportLimits m_limits;
    QByteArray m_readBuffer { 4096, Qt::Uninitialized };
    SocketPoller m_poller;
};

void TestWriteBatch::framesOfOneIterationLeaveTogetherAtItsEnd()
{
    Pair pair;
    QVERIFY(pair.server >= 0);
    WriteBatch batch;
    RawWebSocketTransport transport(pair.server, {}, m_limits, &m_readBuffer, &m_poller, &batch);
    transport.sendText("one"_ba);
    transport.sendText("two"_ba);
    transport.sendText("three"_ba);
    // Nothing has left yet: the iteration is not over.
    QCOMPARE(readNow(pair.client), QByteArray());
    QCOMPARE(transport.bytesToWrite(), qint64(5 + 5 + 7));
    QCOMPARE(batch.size(), std::size_t(1));

    QTRY_COMPARE(batch.size(), std::size_t(0)); // the posted flush ran
    QCOMPARE(readNow(pair.client),
        WebSocketFrameWriter::text("one") + WebSocketFrameWriter::text("two")
            + WebSocketFrameWriter::text("three"));
    QCOMPARE(transport.bytesToWrite(), qint64(0));
}

void TestWriteBatch::eachTransportIsFlushedOnce()
{
    Pair first, second;
    WriteBatch batch;
    RawWebSocketTransport a(first.server, {}, m_limits, &m_readBuffer, &m_poller, &batch);
    RawWebSocketTransport b(second.server, {}, m_limits, &m_readBuffer, &m_poller, &batch);
    for (int i = 0; i < 10; ++i) {
        a.sendText("a"_ba);
        b.sendText("b"_ba);
    }
    QCOMPARE(batch.size(), std::size_t(2)); // one entry each, however many frames
    batch.flush();
    QCOMPARE(readNow(first.client).size(), 10 * 3);
    QCOMPARE(readNow(second.client).size(), 10 * 3);
}

void TestWriteBatch::transportGoneBeforeTheFlush()
{
    Pair pair;
    WriteBatch batch;
    auto transport = std::make_unique<RawWebSocketTransport>(
        pair.server, QByteArray(), m_limits, &m_readBuffer, &m_poller, &batch);
    transport->sendText("never sent"_ba);
    transport.reset();
    QCOMPARE(batch.size(), std::size_t(0));
    batch.flush(); // nothing to touch
    QCOMPARE(readNow(pair.client), QByteArray());
}

void TestWriteBatch::batchGoneBeforeItsTransports()
{
    Pair pair;
    auto batch = std::make_unique<WriteBatch>();
    RawWebSocketTransport transport(
        pair.server, {}, m_limits, &m_readBuffer, &m_poller, batch.get());
    transport.sendText("pending"_ba);
    batch.reset(); // as when a gateway's members go before its connections
    // The frame is still the transport's to send, nothing lost, and the connection open; its
    // destructor must not reach the dead batch (ASan, in the sanitized stage, would say so).
    QVERIFY(transport.isOpen());
    QCOMPARE(transport.bytesToWrite(), qint64(WebSocketFrameWriter::text("pending").size()));
    QCOMPARE(readNow(pair.client), QByteArray());
}

void TestWriteBatch::writtenDuringAFlushJoinsTheNextBatch()
{
    Pair pair;
    WriteBatch batch;
    RawWebSocketTransport transport(pair.server, {}, m_limits, &m_readBuffer, &m_poller, &batch);
    transport.sendText("first"_ba);
    batch.flush();
    QCOMPARE(readNow(pair.client), WebSocketFrameWriter::text("first"));
    transport.sendText("second"_ba);
    QCOMPARE(batch.size(), std::size_t(1));
    QTRY_COMPARE(batch.size(), std::size_t(0));
    QCOMPARE(readNow(pair.client), WebSocketFrameWriter::text("second"));
}

QTEST_GUILESS_MAIN(TestWriteBatch)
#include "tst_write_batch.moc"
