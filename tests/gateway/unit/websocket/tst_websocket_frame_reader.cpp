// WebSocketFrameReader: every rule of RFC 6455 §5 a client's frames must follow, the close codes
// of §7.4 and UTF-8 across fragments; each input fed whole, a byte at a time and cut at every
// position (where an attacker would cut it), with the same events out.

// C++
#include <span>

// Qt
#include <QTest>
#include <QtEndian>

// Presence
#include "server-mock/websocket/WebSocketFrameReader.h"

using Presence::Server::WebSocketFrameReader;
using Event = WebSocketFrameReader::Event;
using namespace Qt::StringLiterals;

class TestWebSocketFrameReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void events_data();
    void events();
    void closeCodes_data();
    void closeCodes();
    void rfcMaskedHello();
    void largeMessagesAndLengthForms_data();
    void largeMessagesAndLengthForms();
    void tooBigIsRefusedFromTheHeader();
    void wholeFrameIsReadInPlace();
    void keepsOnlyTheUnfinishedFrame();
    void feedStopsAtMaxEvents();
};

namespace {

constexpr quint8 kFin = 0x80;
constexpr quint8 kText = 0x1;
constexpr quint8 kBinary = 0x2;
constexpr quint8 kClose = 0x8;
constexpr quint8 kPing = 0x9;
constexpr quint8 kPong = 0xA;
constexpr qsizetype kLimit = 1 << 20;

enum class Length { Minimal, Bits16, Bits64 };

// A frame as a client sends it: masked (unless told), the length in the form asked for.
QByteArray frame(quint8 first, const QByteArray &payload, Length form = Length::Minimal,
    bool masked = true, QByteArray mask = QByteArray("\x37\xfa\x21\x3d", 4))
{
    QByteArray bytes;
    bytes.append(char(first));
    const quint8 maskBit = masked ? 0x80 : 0;
    const qsizetype size = payload.size();
    if (form == Length::Minimal && size < 126) {
        bytes.append(char(maskBit | size));
    } else if (form != Length::Bits64 && size < 65536) {
        bytes.append(char(maskBit | 126));
        char length[2];
        qToBigEndian(quint16(size), length);
        bytes.append(length, 2);
    } else {
        bytes.append(char(maskBit | 127));
        char length[8];
        qToBigEndian(quint64(size), length);
        bytes.append(length, 8);
    }
    if (!masked)
        return bytes + payload;
    bytes.append(mask);
    for (qsizetype i = 0; i < size; ++i)
        bytes.append(char(payload[i] ^ mask[i % 4]));
    return bytes;
}

QByteArray closePayload(quint16 code, const QByteArray &reason = {})
{
    char bytes[2];
    qToBigEndian(code, bytes);
    return QByteArray(bytes, 2) + reason;
}

// An event as text, taken before the next call invalidates its views.
QString describe(const Event &event)
{
    const auto text = [](QByteArrayView bytes) { return QString::fromUtf8(bytes); };
    switch (event.kind) {
    case Event::Text:
        return u"text "_s + text(event.payload);
    case Event::Binary:
        return u"binary "_s + QString::fromLatin1(event.payload.toByteArray().toHex());
    case Event::Ping:
        return u"ping "_s + text(event.payload);
    case Event::Pong:
        return u"pong "_s + text(event.payload);
    case Event::Close:
        return u"close %1 %2"_s.arg(event.code).arg(text(event.reason));
    case Event::Failure:
        return u"failure %1"_s.arg(event.code);
    }
    return u"?"_s;
}

// Feeds `input` in pieces cut at `cuts` (ascending offsets), each piece its own buffer as reads
// would bring them; returns the events.
QStringList read(const QByteArray &input, const QList<qsizetype> &cuts, qsizetype limit = kLimit)
{
    WebSocketFrameReader reader(limit);
    QStringList events;
    qsizetype from = 0;
    QList<qsizetype> ends = cuts;
    ends.append(input.size());
    for (const qsizetype to : std::as_const(ends)) {
        QByteArray piece = input.mid(from, to - from);
        from = to;
        std::span<char> bytes(piece.data(), size_t(piece.size()));
        while (!bytes.empty()) {
            if (const std::optional<Event> event = reader.next(bytes))
                events.append(describe(*event));
        }
    }
    // An empty frame completed by the last piece: nothing left to read gives no more events.
    std::span<char> none;
    if (const std::optional<Event> event = reader.next(none))
        events.append(describe(*event));
    return events;
}

QList<qsizetype> everyByte(qsizetype size)
{
    QList<qsizetype> cuts;
    for (qsizetype i = 1; i < size; ++i)
        cuts.append(i);
    return cuts;
}

// Whole, a byte at a time, and in two and three pieces cut everywhere.
void compareAllCuts(const QByteArray &input, const QStringList &expected, qsizetype limit)
{
    QCOMPARE(read(input, {}, limit), expected);
    QCOMPARE(read(input, everyByte(input.size()), limit), expected);
    for (qsizetype cut = 0; cut <= input.size(); ++cut) {
        const QStringList got = read(input, { cut }, limit);
        QVERIFY2(got == expected, qPrintable(u"cut at %1: %2"_s.arg(cut).arg(got.join(u'|'))));
    }
    if (input.size() > 64)
        return;
    for (qsizetype first = 1; first < input.size(); ++first) {
        for (qsizetype second = first; second < input.size(); ++second) {
            const QStringList got = read(input, { first, second }, limit);
            QVERIFY2(got == expected,
                qPrintable(u"cut at %1 and %2: %3"_s.arg(first).arg(second).arg(got.join(u'|'))));
        }
    }
}

} // namespace

void TestWebSocketFrameReader::events_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<qsizetype>("limit");
    QTest::addColumn<QStringList>("expected");

    const auto row = [](const char *name, const QByteArray &input, const QStringList &expected,
                         qsizetype limit = kLimit) {
        QTest::addRow("%s", name) << input << limit << expected;
    };
    const QStringList protocolError { u"failure 1002"_s };
    const QStringList invalidText { u"failure 1007"_s };
    const QStringList tooBig { u"failure 1009"_s };

    // Messages.
    row("text", frame(kFin | kText, "Hello"), { u"text Hello"_s });
    row("empty text", frame(kFin | kText, {}), { u"text "_s });
    row("binary", frame(kFin | kBinary, "\x00\xff"_ba), { u"binary 00ff"_s });
    row("two messages", frame(kFin | kText, "one") + frame(kFin | kText, "two"),
        { u"text one"_s, u"text two"_s });
    row("fragmented", frame(kText, "Hel") + frame(0, "l") + frame(kFin, "o"), { u"text Hello"_s });
    row("fragmented binary", frame(kBinary, "\x01"_ba) + frame(kFin, "\x02"_ba),
        { u"binary 0102"_s });
    row("empty fragments", frame(kText, {}) + frame(0, "Hi") + frame(kFin, {}), { u"text Hi"_s });
    row("ping between fragments",
        frame(kText, "Hel") + frame(kFin | kPing, "p") + frame(0, "l") + frame(kFin | kPong, "q")
            + frame(kFin, "o"),
        { u"ping p"_s, u"pong q"_s, u"text Hello"_s });
    row("close between fragments", frame(kText, "Hel") + frame(kFin | kClose, closePayload(1000)),
        { u"close 1000 "_s });
    row("any mask",
        frame(
            kFin | kText, "masked with another key", Length::Minimal, true, "\x01\x80\xff\x7f"_ba),
        { u"text masked with another key"_s });
    row("zero mask", frame(kFin | kText, "plain", Length::Minimal, true, QByteArray(4, '\0')),
        { u"text plain"_s });

    // Lengths: a receiver takes longer forms than needed (§5.2 asks minimal only of senders).
    row("16-bit length for 5 bytes", frame(kFin | kText, "Hello", Length::Bits16),
        { u"text Hello"_s });
    row("64-bit length for 5 bytes", frame(kFin | kText, "Hello", Length::Bits64),
        { u"text Hello"_s });
    row("64-bit length with the top bit", "\x81\xff\x80\x00\x00\x00\x00\x00\x00\x05"_ba,
        protocolError);
    row("126 bytes", frame(kFin | kText, QByteArray(126, 'a')),
        { u"text "_s + QString(126, u'a') });

    // Masking, RSV bits, opcodes.
    row("unmasked", frame(kFin | kText, "Hello", Length::Minimal, false), protocolError);
    row("unmasked ping", frame(kFin | kPing, "x", Length::Minimal, false), protocolError);
    row("RFC 5.7 unmasked fragment", "\x01\x03Hel"_ba, protocolError);
    row("RSV1", frame(kFin | 0x40 | kText, "x"), protocolError);
    row("RSV2", frame(kFin | 0x20 | kText, "x"), protocolError);
    row("RSV3", frame(kFin | 0x10 | kText, "x"), protocolError);
    for (const quint8 opcode : { 0x3, 0x4, 0x5, 0x6, 0x7, 0xB, 0xC, 0xD, 0xE, 0xF }) {
        QTest::addRow("reserved opcode %x", opcode)
            << frame(kFin | opcode, "x") << kLimit << protocolError;
    }

    // Fragmentation.
    row("continuation without a message", frame(kFin, "x"), protocolError);
    row("continuation after a whole message", frame(kFin | kText, "a") + frame(kFin, "b"),
        { u"text a"_s, u"failure 1002"_s });
    row("text inside a message", frame(kText, "a") + frame(kFin | kText, "b"), protocolError);
    row("binary inside a message", frame(kText, "a") + frame(kFin | kBinary, "b"), protocolError);

    // Control frames.
    row("ping", frame(kFin | kPing, "Hello"), { u"ping Hello"_s });
    row("empty ping", frame(kFin | kPing, {}), { u"ping "_s });
    row("unsolicited pong", frame(kFin | kPong, "Hello"), { u"pong Hello"_s });
    row("ping of 125 bytes", frame(kFin | kPing, QByteArray(125, 'p')),
        { u"ping "_s + QString(125, u'p') });
    row("ping of 126 bytes", frame(kFin | kPing, QByteArray(126, 'p')), protocolError);
    row("ping with a 16-bit length", frame(kFin | kPing, "p", Length::Bits16), protocolError);
    row("fragmented ping", frame(kPing, "p"), protocolError);
    row("fragmented close", frame(kClose, closePayload(1000)), protocolError);

    // Close.
    row("close", frame(kFin | kClose, closePayload(1000, "bye")), { u"close 1000 bye"_s });
    row("close without a code", frame(kFin | kClose, {}), { u"close 0 "_s });
    row("close of 1 byte", frame(kFin | kClose, "\x03"), protocolError);
    row("close reason in UTF-8", frame(kFin | kClose, closePayload(4000, "\xe2\x82\xac")),
        { u"close 4000 \u20ac"_s });
    row("close reason not UTF-8", frame(kFin | kClose, closePayload(1000, "\xff")), invalidText);
    row("close reason cut in a character", frame(kFin | kClose, closePayload(1000, "\xe2\x82")),
        invalidText);
    row("close of 125 bytes", frame(kFin | kClose, closePayload(1001, QByteArray(123, 'r'))),
        { u"close 1001 "_s + QString(123, u'r') });
    row("nothing read after close",
        frame(kFin | kClose, closePayload(1000)) + frame(kFin | kText, "late") + "\xff\xff"_ba,
        { u"close 1000 "_s });
    row("nothing read after a failure",
        frame(kFin | kText, "x", Length::Minimal, false) + frame(kFin | kText, "late"),
        protocolError);

    // UTF-8.
    row("text in UTF-8", frame(kFin | kText, "\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5"),
        { u"text \u03ba\u1f79\u03c3\u03bc\u03b5"_s });
    row("character across fragments", frame(kText, "\xe2\x82") + frame(kFin, "\xac"),
        { u"text \u20ac"_s });
    row("character across fragments and a ping",
        frame(kText, "\xf0\x9d") + frame(kFin | kPing, {}) + frame(0, "\x84") + frame(kFin, "\x9e"),
        { u"ping "_s, u"text \U0001d11e"_s });
    row("invalid text", frame(kFin | kText, "a\xff"), invalidText);
    row("surrogate", frame(kFin | kText, "\xed\xa0\x80"), invalidText);
    row("overlong", frame(kFin | kText, "\xc0\xaf"), invalidText);
    row("above U+10FFFF", frame(kFin | kText, "\xf4\x90\x80\x80"), invalidText);
    row("cut character at the end", frame(kFin | kText, "abc\xe2\x82"), invalidText);
    row("cut character at the end of fragments", frame(kText, "abc") + frame(kFin, "\xe2\x82"),
        invalidText);
    // Fail fast: refused in the first fragment, before the message ends...
    row("invalid first fragment", frame(kText, "\xff"), invalidText);
    // ...and inside a frame, before the rest of it arrives.
    row("invalid start of a frame", frame(kFin | kText, "\xc0" + QByteArray(200, 'a')).first(9),
        invalidText);
    row("binary is not UTF-8 checked", frame(kFin | kBinary, "\xff"), { u"binary ff"_s });

    // Size limits, from the headers.
    row("at the limit", frame(kFin | kText, "0123456789"), { u"text 0123456789"_s }, 10);
    row("over the limit", frame(kFin | kText, "0123456789a"), tooBig, 10);
    row("fragments at the limit", frame(kText, "01234") + frame(kFin, "56789"),
        { u"text 0123456789"_s }, 10);
    row("fragments over the limit", frame(kText, "012345") + frame(kFin, "6789a"), tooBig, 10);
    row("control frames are not counted", frame(kFin | kPing, "0123456789a"),
        { u"ping 0123456789a"_s }, 10);
}

void TestWebSocketFrameReader::events()
{
    QFETCH(QByteArray, input);
    QFETCH(qsizetype, limit);
    QFETCH(QStringList, expected);

    compareAllCuts(input, expected, limit);
}

void TestWebSocketFrameReader::closeCodes_data()
{
    QTest::addColumn<int>("code");
    QTest::addColumn<bool>("valid");

    // RFC 6455 §7.4: defined and registered codes, and the ranges of libraries and applications.
    for (const int code : { 1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014,
             3000, 3999, 4000, 4010, 4999 })
        QTest::addRow("%d", code) << code << true;
    // Reserved, only reported locally, unassigned, or out of range.
    for (const int code :
        { 0, 1, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535 })
        QTest::addRow("%d", code) << code << false;
}

void TestWebSocketFrameReader::closeCodes()
{
    QFETCH(int, code);
    QFETCH(bool, valid);

    const QStringList expected { valid ? u"close %1 why"_s.arg(code) : u"failure 1002"_s };
    compareAllCuts(frame(kFin | kClose, closePayload(quint16(code), "why")), expected, kLimit);
}

void TestWebSocketFrameReader::rfcMaskedHello()
{
    // RFC 6455 §5.7: "A single-frame masked text message".
    QByteArray input("\x81\x85\x37\xfa\x21\x3d\x7f\x9f\x4d\x51\x58");
    QCOMPARE(frame(kFin | kText, "Hello"), input);
    WebSocketFrameReader reader(kLimit);
    std::span<char> bytes(input.data(), size_t(input.size()));
    const std::optional<Event> event = reader.next(bytes);
    QVERIFY(event);
    QCOMPARE(event->kind, Event::Text);
    QCOMPARE(event->payload, "Hello");
    QVERIFY(bytes.empty());
}

void TestWebSocketFrameReader::largeMessagesAndLengthForms_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<bool>("pingBetween");

    // Every byte value, so that a mask applied at the wrong offset shows.
    QByteArray message;
    for (int i = 0; i < 70'000; ++i)
        message.append(char((i * 7 + i / 256) & 0xff));
    const QByteArray medium = message.first(300);
    QTest::addRow("16-bit length") << frame(kFin | kBinary, medium) << medium << false;
    QTest::addRow("64-bit length") << frame(kFin | kBinary, message) << message << false;
    QTest::addRow("64 KiB in fragments with pings") << frame(kBinary, message.first(65'535))
            + frame(kFin | kPing, "x") + frame(kFin, message.sliced(65'535))
                                                    << message << true;
}

void TestWebSocketFrameReader::largeMessagesAndLengthForms()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, message);
    QFETCH(bool, pingBetween);

    const QString binary = u"binary "_s + QString::fromLatin1(message.toHex());
    const QStringList expected
        = pingBetween ? QStringList { u"ping x"_s, binary } : QStringList { binary };
    QCOMPARE(read(input, {}), expected);
    QCOMPARE(read(input, everyByte(input.size())), expected);
    for (const qsizetype cut : { 1, 2, 3, 4, 5, 7, 9, 13, 14, 15, 100, 4097, 65'000 }) {
        if (cut < input.size())
            QCOMPARE(read(input, { cut }), expected);
    }
}

void TestWebSocketFrameReader::tooBigIsRefusedFromTheHeader()
{
    // A header announcing 2^40 bytes: refused before any payload exists, and nothing buffered.
    WebSocketFrameReader reader(65'536);
    QByteArray header("\x82\xff\x00\x00\x01\x00\x00\x00\x00\x00", 10);
    std::span<char> bytes(header.data(), size_t(header.size()));
    const std::optional<Event> event = reader.next(bytes);
    QVERIFY(event);
    QCOMPARE(event->kind, Event::Failure);
    QCOMPARE(event->code, quint16(1009));
    QCOMPARE(reader.bufferedBytes(), 0);
    QVERIFY(reader.isFinished());
}

void TestWebSocketFrameReader::wholeFrameIsReadInPlace()
{
    // A frame that arrived whole is unmasked where it lies: no copy, nothing kept.
    QByteArray input = frame(kFin | kText, "in place") + frame(kFin | kPing, "ping");
    WebSocketFrameReader reader(kLimit);
    std::span<char> bytes(input.data(), size_t(input.size()));
    std::optional<Event> event = reader.next(bytes);
    QVERIFY(event);
    QCOMPARE(event->payload, "in place");
    QCOMPARE(event->payload.data(), input.constData() + 6);
    event = reader.next(bytes);
    QVERIFY(event);
    QCOMPARE(event->kind, Event::Ping);
    QCOMPARE(event->payload.data(), input.constData() + input.size() - 4);
    QCOMPARE(reader.bufferedBytes(), 0);
}

void TestWebSocketFrameReader::keepsOnlyTheUnfinishedFrame()
{
    const QByteArray message(1000, 'm');
    QByteArray input = frame(kFin | kText, message);
    WebSocketFrameReader reader(kLimit);

    // Half a header: those bytes only.
    QByteArray head = input.first(3);
    std::span<char> bytes(head.data(), size_t(head.size()));
    QVERIFY(!reader.next(bytes));
    QCOMPARE(reader.bufferedBytes(), 3);

    // The rest of the header and some payload: the payload so far, not the announced length.
    QByteArray part = input.sliced(3, 100);
    bytes = std::span<char>(part.data(), size_t(part.size()));
    QVERIFY(!reader.next(bytes));
    QVERIFY(reader.bufferedBytes() >= 100 - 5);
    QVERIFY(reader.bufferedBytes() < 1000);

    QByteArray rest = input.sliced(103);
    bytes = std::span<char>(rest.data(), size_t(rest.size()));
    const std::optional<Event> event = reader.next(bytes);
    QVERIFY(event);
    QCOMPARE(event->payload, message);

    // Once the message is handed over, the next read lets it go.
    std::span<char> none;
    QVERIFY(!reader.next(none));
    QCOMPARE(reader.bufferedBytes(), 0);
}

void TestWebSocketFrameReader::feedStopsAtMaxEvents()
{
    const QByteArray first = frame(kFin | kText, "one");
    QByteArray input = first + frame(kFin | kPing, "two") + frame(kFin | kText, "three");
    WebSocketFrameReader reader(kLimit);
    std::vector<Event> events;
    std::span<char> bytes(input.data(), size_t(input.size()));
    QCOMPARE(reader.feed(bytes, events, 1), first.size());
    QCOMPARE(events.size(), size_t(1));
    QCOMPARE(events[0].payload, "one");

    events.clear();
    QCOMPARE(reader.feed(bytes.subspan(size_t(first.size())), events), input.size() - first.size());
    QCOMPARE(events.size(), size_t(2));
    QCOMPARE(events[0].kind, Event::Ping);
    QCOMPARE(events[1].payload, "three");
}

QTEST_APPLESS_MAIN(TestWebSocketFrameReader)
#include "tst_websocket_frame_reader.moc"
