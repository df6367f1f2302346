// RawWebSocketTransport over a real socket pair, the test playing the client: masked frames
// read, unmasked ones refused with 1002, pings answered unless the receiver refuses them (over
// the frame budget), only solicited pongs heard, the close
// handshake echoed, output bounded (4010), reading paused and resumed, and the bytes that came
// with the upgrade request read first.

// C++
#include <memory>
// System
#include <sys/socket.h>
#include <unistd.h>

// Qt
#include <QTemporaryFile>
#include <QTest>
#include <QTimer>

// Presence
#include "server-mock/transport/RawWebSocketTransport.h"
#include "server-mock/transport/SocketPoller.h"
#include "server-mock/transport/WriteBatch.h"
#include "server-mock/websocket/WebSocketFrameWriter.h"
#include "tests/gateway/unit/RecordingReceiver.h"

using namespace Presence::Server;
using namespace Qt::StringLiterals;

namespace {

// A client frame (RFC 6455 §5.2): FIN, the opcode, masked unless told otherwise.
QByteArray clientFrame(quint8 opcode, QByteArrayView payload, bool masked = true)
{
    QByteArray frame;
    frame.append(char(0x80 | opcode));
    const quint8 maskBit = masked ? 0x80 : 0;
    Q_ASSERT(payload.size() < 126);
    frame.append(char(maskBit | quint8(payload.size())));
    if (!masked)
        return frame + payload.toByteArray();
    const char mask[4] = { 0x0a, 0x1b, 0x2c, 0x3d };
    frame.append(mask, 4);
    for (qsizetype i = 0; i < payload.size(); ++i)
        frame.append(char(payload[i] ^ mask[i % 4]));
    return frame;
}

QByteArray closePayload(quint16 code)
{
    QByteArray payload;
    payload.append(char(code >> 8));
    payload.append(char(code & 0xFF));
    return payload;
}

} // namespace

class TestRawWebSocketTransport : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void maskedTextIsRead();
    void earlyBytesAreReadFirst();
    void unmaskedFrameClosesWith1002();
    void pingIsAnswered();
    void onlyASolicitedPongIsHeard();
    void peerCloseIsEchoedThenEnds();
    void outputIsBounded();
    void theKernelHoldsNoMoreThanItsFixedBuffer();
    void pausedReadingWaitsInTheKernel();
    void outputWaitingForTheKernelLeavesAsItDrains();
    void hangUpWhilePausedEndsWhenReadingResumes();
    void brokenPeerEndsAPausedConnectionWaitingToWrite();
    void aDescriptorThePollerRefusesEndsAt1006();
    void theEndIsToldAfterTheCallThatCausedIt();
    void noEndIsToldOnceTheTransportIsGone();

private:
    void start(const QByteArray &early = {});
    void sendFromClient(const QByteArray &bytes);
    // Everything the client end can read until `expected` bytes arrived or 5 s passed.
    QByteArray readFromServer(qsizetype expected);

    TransportLimits m_limits;
    QByteArray m_readBuffer { 4096, Qt::Uninitialized };
    RecordingReceiver m_receiver;
    std::unique_ptr<SocketPoller> m_poller;
    std::unique_ptr<WriteBatch> m_batch;
    std::unique_ptr<RawWebSocketTransport> m_transport;
    int m_client = -1;
};

void TestRawWebSocketTransport::init()
{
    m_limits = {};
    m_receiver = {};
    m_poller = std::make_unique<SocketPoller>();
    m_batch = std::make_unique<WriteBatch>();
}

void TestRawWebSocketTransport::cleanup()
{
    m_transport.reset();
    m_batch.reset();
    m_poller.reset();
    if (m_client >= 0)
        ::close(m_client);
    m_client = -1;
}

void TestRawWebSocketTransport::start(const QByteArray &early)
{
    int descriptors[2];
    QVERIFY(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, descriptors) == 0);
    m_client = descriptors[1];
    m_transport = std::make_unique<RawWebSocketTransport>(
        descriptors[0], early, m_limits, &m_readBuffer, m_poller.get(), m_batch.get());
    m_transport->setReceiver(&m_receiver);
}

void TestRawWebSocketTransport::sendFromClient(const QByteArray &bytes)
{
    QCOMPARE(::send(m_client, bytes.constData(), size_t(bytes.size()), MSG_NOSIGNAL),
        ssize_t(bytes.size()));
}

QByteArray TestRawWebSocketTransport::readFromServer(qsizetype expected)
{
    QByteArray bytes;
    QByteArray chunk(4096, Qt::Uninitialized);
    // The caller compares what arrived: a timeout shows as a difference there.
    (void)QTest::qWaitFor(
        [&] {
            const ssize_t got = ::recv(m_client, chunk.data(), size_t(chunk.size()), MSG_DONTWAIT);
            if (got > 0)
                bytes.append(chunk.constData(), qsizetype(got));
            return bytes.size() >= expected;
        },
        5000);
    return bytes;
}

void TestRawWebSocketTransport::maskedTextIsRead()
{
    start();
    const QStringList &texts = m_receiver.texts;
    sendFromClient(clientFrame(0x1, "hello") + clientFrame(0x1, "again"));
    QTRY_COMPARE(texts.size(), 2);
    QCOMPARE(texts.at(0), u"hello"_s);
    QCOMPARE(texts.at(1), u"again"_s);
}

void TestRawWebSocketTransport::earlyBytesAreReadFirst()
{
    start(clientFrame(0x1, "early"));
    const QStringList &texts = m_receiver.texts;
    sendFromClient(clientFrame(0x1, "later"));
    QTRY_COMPARE(texts.size(), 2);
    QCOMPARE(texts.at(0), u"early"_s);
    QCOMPARE(texts.at(1), u"later"_s);
}

void TestRawWebSocketTransport::unmaskedFrameClosesWith1002()
{
    start();
    const QStringList &texts = m_receiver.texts;
    const QList<quint16> &ended = m_receiver.closed;
    sendFromClient(clientFrame(0x1, "bare", false));
    QTRY_COMPARE(ended.size(), 1);
    QCOMPARE(ended.at(0), quint16(1002));
    QCOMPARE(texts.size(), 0);
    const QByteArray reply = readFromServer(4);
    QCOMPARE(quint8(reply.at(0)), quint8(0x88)); // a close frame
    QCOMPARE(reply.mid(2, 2), closePayload(1002));
    QVERIFY(!m_transport->isOpen());
}

void TestRawWebSocketTransport::pingIsAnswered()
{
    start();
    sendFromClient(clientFrame(0x9, "are you there"));
    QCOMPARE(readFromServer(15), WebSocketFrameWriter::pong("are you there"));
    QCOMPARE(m_receiver.pings, 1);

    // A ping the receiver refuses (over the frame budget) goes unanswered: the next thing the
    // client reads is the answer to the ping after it.
    m_receiver.answerPings = false;
    sendFromClient(clientFrame(0x9, "dropped"));
    QTRY_COMPARE(m_receiver.pings, 2);
    m_receiver.answerPings = true;
    sendFromClient(clientFrame(0x9, "answered"));
    QCOMPARE(readFromServer(10), WebSocketFrameWriter::pong("answered"));
    QCOMPARE(m_receiver.pings, 3);
}

void TestRawWebSocketTransport::onlyASolicitedPongIsHeard()
{
    start();
    const int &pongs = m_receiver.pongs;
    const QStringList &texts = m_receiver.texts;
    sendFromClient(clientFrame(0xA, {}) + clientFrame(0x1, "marker"));
    QTRY_COMPARE(texts.size(), 1); // read past the pong
    QCOMPARE(pongs, 0);

    m_transport->ping();
    QCOMPARE(readFromServer(2), WebSocketFrameWriter::ping({}));
    sendFromClient(clientFrame(0xA, {}) + clientFrame(0xA, {}));
    QTRY_COMPARE(pongs, 1);
    sendFromClient(clientFrame(0x1, "marker"));
    QTRY_COMPARE(texts.size(), 2);
    QCOMPARE(pongs, 1); // the second pong answered nothing
}

void TestRawWebSocketTransport::peerCloseIsEchoedThenEnds()
{
    start();
    const QList<quint16> &ended = m_receiver.closed;
    sendFromClient(clientFrame(0x8, closePayload(1000)));
    QTRY_COMPARE(ended.size(), 1);
    QCOMPARE(ended.at(0), quint16(1000));
    QCOMPARE(readFromServer(4), WebSocketFrameWriter::close(1000, {}));
}

void TestRawWebSocketTransport::outputIsBounded()
{
    m_limits.maxQueuedBytes = 64 * 1024;
    start();
    const QList<quint16> &ended = m_receiver.closed;
    // The client never reads: the kernel's buffers fill, then our bound is reached.
    const QByteArray frame(1000, 'x');
    for (int i = 0; i < 10'000 && ended.isEmpty(); ++i) {
        m_transport->sendText(frame);
        QVERIFY(m_transport->bytesToWrite() <= m_limits.maxQueuedBytes);
        if (i % 16 == 0)
            QCoreApplication::processEvents(); // iterations end: batches flush
    }
    QTRY_COMPARE(ended.size(), 1);
    QCOMPARE(ended.at(0), quint16(4010));
    QCOMPARE(m_transport->bytesToWrite(), qint64(0)); // given back
}

// What a peer that stops reading may leave unread: our bound plus the kernel's fixed buffer
// (doubled by Linux), not whatever the kernel's own default or autotuning would allow.
void TestRawWebSocketTransport::theKernelHoldsNoMoreThanItsFixedBuffer()
{
    m_limits.maxQueuedBytes = 64 * 1024;
    m_limits.kernelSendBufferBytes = 16 * 1024;
    start();
    const QList<quint16> &ended = m_receiver.closed;
    const QByteArray frame(1000, 'x');
    qint64 accepted = 0;
    for (int i = 0; i < 10'000 && ended.isEmpty(); ++i) {
        m_transport->sendText(frame);
        if (ended.isEmpty())
            accepted += frame.size();
        if (i % 16 == 0)
            QCoreApplication::processEvents(); // iterations end: batches flush
    }
    QTRY_COMPARE(ended.size(), 1);
    QCOMPARE(ended.at(0), quint16(4010));
    // The kernel takes one more write once its (doubled) buffer is full: up to 3× the setting.
    // Its default here is over 200 KiB.
    const qint64 slack = 4096; // the frame that did not fit, and headers
    QVERIFY2(accepted <= m_limits.maxQueuedBytes + 3 * m_limits.kernelSendBufferBytes + slack,
        qPrintable(u"%1 bytes taken before the drop"_s.arg(accepted)));
}

void TestRawWebSocketTransport::pausedReadingWaitsInTheKernel()
{
    start();
    const QStringList &texts = m_receiver.texts;
    const int &resumed = m_receiver.resumed;
    m_transport->setReadingPaused(true);
    sendFromClient(clientFrame(0x1, "waits"));
    // Given the chance to read, it does not: the loop runs until a later timer fires.
    bool later = false;
    QTimer::singleShot(50, [&] { later = true; });
    QTRY_VERIFY(later);
    QCOMPARE(texts.size(), 0);
    m_transport->setReadingPaused(false);
    QCOMPARE(resumed, 1);
    QTRY_COMPARE(texts.size(), 1);
}

void TestRawWebSocketTransport::outputWaitingForTheKernelLeavesAsItDrains()
{
    start();
    // More than the socket pair's buffers hold, less than the output bound.
    const QByteArray frame(1000, 'y');
    constexpr int kFrames = 600;
    for (int i = 0; i < kFrames; ++i)
        m_transport->sendText(frame);
    QCoreApplication::processEvents(); // the iteration ends: the batch flushes what fits
    QVERIFY(m_transport->bytesToWrite() > 0);
    const qsizetype frameBytes = 4 + frame.size(); // 126-length form: 2 + 2 bytes of header
    const QByteArray received = readFromServer(kFrames * frameBytes);
    QCOMPARE(received.size(), kFrames * frameBytes);
    QTRY_COMPARE(m_transport->bytesToWrite(), qint64(0));
    QVERIFY(m_transport->isOpen());
}

void TestRawWebSocketTransport::hangUpWhilePausedEndsWhenReadingResumes()
{
    start();
    const QList<quint16> &ended = m_receiver.closed;
    m_transport->setReadingPaused(true);
    ::close(m_client);
    m_client = -1;
    // Paused, nothing is read, the end included; the loop keeps running meanwhile.
    bool later = false;
    QTimer::singleShot(50, [&] { later = true; });
    QTRY_VERIFY(later);
    QCOMPARE(ended.size(), 0);
    m_transport->setReadingPaused(false);
    QTRY_COMPARE(ended.size(), 1);
    QCOMPARE(ended.at(0), quint16(1006));
}

void TestRawWebSocketTransport::brokenPeerEndsAPausedConnectionWaitingToWrite()
{
    start();
    const QList<quint16> &ended = m_receiver.closed;
    m_transport->setReadingPaused(true);
    const QByteArray frame(1000, 'z');
    for (int i = 0; i < 600; ++i)
        m_transport->sendText(frame);
    QCoreApplication::processEvents();
    QVERIFY(m_transport->bytesToWrite() > 0); // waiting for the kernel
    ::close(m_client); // unread data: the peer's end resets
    m_client = -1;
    QTRY_COMPARE(ended.size(), 1);
    QCOMPARE(ended.at(0), quint16(1006));
}

void TestRawWebSocketTransport::aDescriptorThePollerRefusesEndsAt1006()
{
    // epoll refuses a regular file (EPERM) as it would any descriptor it cannot take.
    QTemporaryFile file;
    QVERIFY(file.open());
    const int descriptor = ::dup(int(file.handle()));
    QVERIFY(descriptor >= 0);
    m_transport = std::make_unique<RawWebSocketTransport>(
        descriptor, QByteArray(), m_limits, &m_readBuffer, m_poller.get(), m_batch.get());
    m_transport->setReceiver(&m_receiver); // told after this, not from inside the constructor
    QVERIFY(!m_transport->isOpen());
    QTRY_COMPARE(m_receiver.closed, QList<quint16> { 1006 });
}

void TestRawWebSocketTransport::theEndIsToldAfterTheCallThatCausedIt()
{
    // The receiver may be the one aborting: it hears of the end at the iteration's end, with
    // the write batch, and once.
    start();
    m_transport->abort();
    QVERIFY(m_receiver.closed.isEmpty());
    QCOMPARE(m_batch->size(), std::size_t(1));
    m_batch->flush();
    QCOMPARE(m_receiver.closed, QList<quint16> { 1006 });
    m_transport->abort();
    QCOMPARE(m_batch->size(), std::size_t(0));
}

void TestRawWebSocketTransport::noEndIsToldOnceTheTransportIsGone()
{
    start();
    m_transport->abort();
    m_transport.reset();
    QCOMPARE(m_batch->size(), std::size_t(0));
    m_batch->flush(); // nothing to touch
    QVERIFY(m_receiver.closed.isEmpty());
}

QTEST_GUILESS_MAIN(TestRawWebSocketTransport)
#include "tst_raw_websocket_transport.moc"
