// Frame: what parsing a frame tolerates before any message is decoded: a huge unknown field,
// nesting within the limit.

// Qt
#include <QTest>

// Presence
#include "tests/protocol/ProtocolSamples.h"

using namespace Qt::StringLiterals;
using namespace Presence::Protocol;
using namespace ProtocolSamples;

class TestFrame : public QObject {
    Q_OBJECT

private slots:
    void hugeUnknownFieldIsHarmless();
    void nestingWithinLimitIsIgnored();
};

void TestFrame::hugeUnknownFieldIsHarmless()
{
    const QString huge(1 << 20, u'x');

    const Decoded<ClientMessage> ping
        = decodeClientFrame(frameOf({ { "type"_L1, "ping"_L1 }, { "junk"_L1, huge } }));
    QVERIFY2(ping.ok(), outcome(ping).constData());
    QVERIFY(std::holds_alternative<PingRequest>(ping.value()));

    const Decoded<ClientMessage> hello = decodeClientFrame(frameOf({ { "type"_L1, "hello"_L1 },
        { "token"_L1, u"t"_s }, { "protocol"_L1, 1 }, { "junk"_L1, huge } }));
    QVERIFY2(hello.ok(), outcome(hello).constData());
    QCOMPARE(std::get<Hello>(hello.value()).token, u"t"_s);

    const Decoded<ServerMessage> pong
        = decodeServerFrame(frameOf({ { "type"_L1, "pong"_L1 }, { "junk"_L1, huge } }));
    QVERIFY2(pong.ok(), outcome(pong).constData());
    QVERIFY(std::holds_alternative<Pong>(pong.value()));
}

void TestFrame::nestingWithinLimitIsIgnored()
{
    const QByteArray frame
        = R"({"type":"ping","x":)"_ba + QByteArray(100, '[') + QByteArray(100, ']') + "}"_ba;
    const Decoded<ClientMessage> decoded = decodeClientFrame(frame);
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    QVERIFY(std::holds_alternative<PingRequest>(decoded.value()));
}

QTEST_GUILESS_MAIN(TestFrame)
#include "tst_frame.moc"
