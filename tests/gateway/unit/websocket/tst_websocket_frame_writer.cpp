// WebSocketFrameWriter: the bytes of every frame the server sends (RFC 6455 §5.2, §5.7), the
// length forms at their edges, control frames kept within 125 bytes, and what it writes read
// back by WebSocketFrameReader once masked as a client would.

// C++
#include <span>

// Qt
#include <QTest>

// Presence
#include "server-mock/websocket/WebSocketFrameReader.h"
#include "server-mock/websocket/WebSocketFrameWriter.h"

using Presence::Server::WebSocketFrameReader;
using Presence::Server::WebSocketFrameWriter;
using Opcode = WebSocketFrameWriter::Opcode;
using namespace Qt::StringLiterals;

class TestWebSocketFrameWriter : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rfcExamples();
    void lengthForms_data();
    void lengthForms();
    void appendsToWhatIsThere();
    void controlFramesStayWithin125Bytes();
    void closeReasonIsCutOnACharacter_data();
    void closeReasonIsCutOnACharacter();
    void readBack_data();
    void readBack();
};

namespace {

// The frame as a client would send it: mask bit set, a mask key, the payload masked.
QByteArray maskedLikeAClient(const QByteArray &serverFrame)
{
    const QByteArray mask("\x12\x34\x56\x78", 4);
    const quint8 length7 = quint8(serverFrame[1]) & 0x7f;
    const qsizetype headerBytes = length7 == 126 ? 4 : length7 == 127 ? 10 : 2;
    QByteArray client = serverFrame.first(headerBytes);
    client[1] = char(quint8(client[1]) | 0x80);
    client.append(mask);
    for (qsizetype i = headerBytes; i < serverFrame.size(); ++i)
        client.append(char(serverFrame[i] ^ mask[(i - headerBytes) % 4]));
    return client;
}

} // namespace

void TestWebSocketFrameWriter::rfcExamples()
{
    // RFC 6455 §5.7, the unmasked (server) examples.
    QCOMPARE(WebSocketFrameWriter::text("Hello"), "\x81\x05Hello"_ba);
    QCOMPARE(WebSocketFrameWriter::ping("Hello"), "\x89\x05Hello"_ba);
    QCOMPARE(WebSocketFrameWriter::pong("Hello"), "\x8a\x05Hello"_ba);
    const QByteArray bytes256(256, 'b');
    QCOMPARE(
        WebSocketFrameWriter::frame(Opcode::Binary, bytes256), "\x82\x7e\x01\x00"_ba + bytes256);
    const QByteArray bytes64k(65'536, 'b');
    QCOMPARE(WebSocketFrameWriter::frame(Opcode::Binary, bytes64k),
        "\x82\x7f\x00\x00\x00\x00\x00\x01\x00\x00"_ba + bytes64k);
    QCOMPARE(WebSocketFrameWriter::close(1000, "bye"),
        "\x88\x05\x03\xe8"
        "bye"_ba);
    QCOMPARE(WebSocketFrameWriter::close(0, "ignored"), "\x88\x00"_ba);
}

void TestWebSocketFrameWriter::lengthForms_data()
{
    QTest::addColumn<qsizetype>("size");
    QTest::addColumn<QByteArray>("header");

    QTest::addRow("0") << qsizetype(0) << "\x81\x00"_ba;
    QTest::addRow("125") << qsizetype(125) << "\x81\x7d"_ba;
    QTest::addRow("126") << qsizetype(126) << "\x81\x7e\x00\x7e"_ba;
    QTest::addRow("65535") << qsizetype(65'535) << "\x81\x7e\xff\xff"_ba;
    QTest::addRow("65536") << qsizetype(65'536) << "\x81\x7f\x00\x00\x00\x00\x00\x01\x00\x00"_ba;
    QTest::addRow("70000") << qsizetype(70'000) << "\x81\x7f\x00\x00\x00\x00\x00\x01\x11\x70"_ba;
}

void TestWebSocketFrameWriter::lengthForms()
{
    QFETCH(qsizetype, size);
    QFETCH(QByteArray, header);

    const QByteArray payload(size, 't');
    const QByteArray frame = WebSocketFrameWriter::text(payload);
    QCOMPARE(WebSocketFrameWriter::headerSize(size), header.size());
    QCOMPARE(frame.first(header.size()), header);
    QCOMPARE(frame.sliced(header.size()), payload);
    // Encoded once into one buffer, no slack to carry for every connection that shares it.
    QCOMPARE(frame.capacity(), frame.size());
}

void TestWebSocketFrameWriter::appendsToWhatIsThere()
{
    QByteArray out("queued");
    WebSocketFrameWriter::appendText(out, "a");
    WebSocketFrameWriter::appendPing(out, {});
    WebSocketFrameWriter::appendPong(out, "p");
    WebSocketFrameWriter::appendClose(out, 4010, "slow");
    QCOMPARE(out,
        "queued\x81\x01"
        "a\x89\x00\x8a\x01p\x88\x06\x0f\xaaslow"_ba);
}

void TestWebSocketFrameWriter::controlFramesStayWithin125Bytes()
{
    const QByteArray large(200, 'x');
    QCOMPARE(WebSocketFrameWriter::ping(large), "\x89\x7d"_ba + large.first(125));
    QCOMPARE(WebSocketFrameWriter::pong(large), "\x8a\x7d"_ba + large.first(125));
    const QByteArray close = WebSocketFrameWriter::close(1000, large);
    QCOMPARE(close.size(), 2 + 125);
    QCOMPARE(close.sliced(4), large.first(123));
}

void TestWebSocketFrameWriter::closeReasonIsCutOnACharacter_data()
{
    QTest::addColumn<QByteArray>("reason");
    QTest::addColumn<qsizetype>("kept");

    const QByteArray euro("\xe2\x82\xac");
    QTest::addRow("fits") << QByteArray(123, 'a') << qsizetype(123);
    QTest::addRow("ascii cut") << QByteArray(130, 'a') << qsizetype(123);
    QTest::addRow("euro ends at 123") << QByteArray(120, 'a') + euro + "b" << qsizetype(123);
    QTest::addRow("euro across 123") << QByteArray(121, 'a') + euro << qsizetype(121);
    QTest::addRow("euro after its lead at 123") << QByteArray(122, 'a') + euro << qsizetype(122);
    QTest::addRow("euro starts at 124") << QByteArray(123, 'a') + euro << qsizetype(123);
}

void TestWebSocketFrameWriter::closeReasonIsCutOnACharacter()
{
    QFETCH(QByteArray, reason);
    QFETCH(qsizetype, kept);

    QCOMPARE(WebSocketFrameWriter::closeReason(reason), reason.first(kept));
    // The reader, which refuses a reason that is not UTF-8, takes it.
    QByteArray client = maskedLikeAClient(WebSocketFrameWriter::close(1000, reason));
    WebSocketFrameReader reader(1024);
    std::span<char> bytes(client.data(), size_t(client.size()));
    const auto event = reader.next(bytes);
    QVERIFY(event);
    QCOMPARE(event->kind, WebSocketFrameReader::Event::Close);
    QCOMPARE(event->reason, reason.first(kept));
}

void TestWebSocketFrameWriter::readBack_data()
{
    QTest::addColumn<QByteArray>("frame");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QByteArray>("payload");

    for (const qsizetype size : { 0, 1, 125, 126, 127, 65'535, 65'536, 70'000 }) {
        QByteArray text;
        for (qsizetype i = 0; i < size; ++i)
            text.append(char('a' + i % 26));
        QTest::addRow("text %lld", qlonglong(size))
            << WebSocketFrameWriter::text(text) << int(WebSocketFrameReader::Event::Text) << text;
    }
    QTest::addRow("ping") << WebSocketFrameWriter::ping("p")
                          << int(WebSocketFrameReader::Event::Ping) << "p"_ba;
    QTest::addRow("pong") << WebSocketFrameWriter::pong("q")
                          << int(WebSocketFrameReader::Event::Pong) << "q"_ba;
}

void TestWebSocketFrameWriter::readBack()
{
    QFETCH(QByteArray, frame);
    QFETCH(int, kind);
    QFETCH(QByteArray, payload);

    QByteArray client = maskedLikeAClient(frame);
    WebSocketFrameReader reader(1 << 20);
    std::span<char> bytes(client.data(), size_t(client.size()));
    const auto event = reader.next(bytes);
    QVERIFY(event);
    QCOMPARE(int(event->kind), kind);
    QCOMPARE(event->payload, payload);
    QVERIFY(bytes.empty());
}

QTEST_APPLESS_MAIN(TestWebSocketFrameWriter)
#include "tst_websocket_frame_writer.moc"
