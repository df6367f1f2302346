// ErrorCode: the wire name of every error code, and names that are none.

// Qt
#include <QTest>

// Presence
#include "tests/protocol/ProtocolSamples.h"

using namespace Qt::StringLiterals;
using namespace Presence::Protocol;
using namespace ProtocolSamples;

class TestErrorCode : public QObject {
    Q_OBJECT

private slots:
    void errorCodeNames_data();
    void errorCodeNames();
    void unknownErrorCodeNames_data();
    void unknownErrorCodeNames();
};

void TestErrorCode::errorCodeNames_data()
{
    QTest::addColumn<ErrorCode>("code");
    QTest::addColumn<QString>("name");

    QTest::addRow("bad_request") << ErrorCode::BadRequest << u"bad_request"_s;
    QTest::addRow("unknown_type") << ErrorCode::UnknownType << u"unknown_type"_s;
    QTest::addRow("unauthorized") << ErrorCode::Unauthorized << u"unauthorized"_s;
    QTest::addRow("unsupported_protocol")
        << ErrorCode::UnsupportedProtocol << u"unsupported_protocol"_s;
    QTest::addRow("forbidden") << ErrorCode::Forbidden << u"forbidden"_s;
    QTest::addRow("too_many_ids") << ErrorCode::TooManyIds << u"too_many_ids"_s;
    QTest::addRow("too_many_subscriptions")
        << ErrorCode::TooManySubscriptions << u"too_many_subscriptions"_s;
    QTest::addRow("rate_limited") << ErrorCode::RateLimited << u"rate_limited"_s;
    QTest::addRow("too_large") << ErrorCode::TooLarge << u"too_large"_s;
    QTest::addRow("unavailable") << ErrorCode::Unavailable << u"unavailable"_s;
    QTest::addRow("unknown") << ErrorCode::Unknown << u"unknown"_s;
}

void TestErrorCode::errorCodeNames()
{
    QFETCH(ErrorCode, code);
    QFETCH(QString, name);

    QCOMPARE(toString(code), name);
    QCOMPARE(int(errorCodeFromString(name)), int(code));
    QCOMPARE(int(errorCodeFromString(toString(code))), int(code));
    QCOMPARE(errorJson(ProtocolError { code, u"m"_s }).value("code"_L1).toString(), name);
}

void TestErrorCode::unknownErrorCodeNames_data()
{
    QTest::addColumn<QString>("name");

    QTest::addRow("empty") << QString();
    QTest::addRow("uppercase") << u"BAD_REQUEST"_s;
    QTest::addRow("trailing-space") << u"bad_request "_s;
    QTest::addRow("prefix") << u"bad_"_s;
    QTest::addRow("new-code") << u"quota_exceeded"_s;
}

void TestErrorCode::unknownErrorCodeNames()
{
    QFETCH(QString, name);
    QCOMPARE(int(errorCodeFromString(name)), int(ErrorCode::Unknown));
}

QTEST_GUILESS_MAIN(TestErrorCode)
#include "tst_error_code.moc"
