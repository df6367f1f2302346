// Tests for TokenExpiry: a JSON Web Token's own `exp`, read without its signature (whole and
// fractional seconds, any key or algorithm), and nothing read from what is no JSON Web Token
// or names no end; hasPassed() compares it with a clock.

// C++
#include <chrono>

// Qt
#include <QTest>

// Presence
#include "JwtMinter.h"
#include "session/TokenExpiry.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Session::TokenExpiry;
using Presence::TestSupport::JwtMinter;

class TestTokenExpiry : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void readsExp();
    void noEndWithoutAJwtOrExp_data();
    void noEndWithoutAJwtOrExp();
    void hasPassed();
};

namespace {

// The end a token names, in ms since the epoch; -1 for none.
qint64 endOf(const QString &token)
{
    return TokenExpiry::of(token).value_or(-1ms).count();
}

} // namespace

void TestTokenExpiry::readsExp()
{
    const QJsonObject claims { { "sub"_L1, "alice"_L1 }, { "exp"_L1, 1'700'000'000 } };
    QCOMPARE(endOf(JwtMinter::hs256("a secret of 32 bytes or more, sure"_ba).mint(claims)),
        1'700'000'000'000);
    // Whoever signed it: the signature is not read at all.
    QCOMPARE(
        endOf(JwtMinter::assemble({ { "alg"_L1, "none"_L1 } }, claims, {})), 1'700'000'000'000);
    QCOMPARE(endOf(JwtMinter::assemble(
                 {}, { { "sub"_L1, "alice"_L1 }, { "exp"_L1, 1'700'000'000.25 } }, "sig"_ba)),
        1'700'000'000'250);
}

void TestTokenExpiry::noEndWithoutAJwtOrExp_data()
{
    QTest::addColumn<QString>("token");
    QTest::addRow("users-file token") << u"alice-secret"_s;
    QTest::addRow("two parts") << u"eyJhIjoxfQ.eyJleHAiOjF9"_s;
    QTest::addRow("four parts") << u"a.eyJleHAiOjF9.b.c"_s;
    QTest::addRow("payload not base64url") << u"a.e*J.b"_s;
    QTest::addRow("payload not JSON") << u"a.bm90IGpzb24.b"_s;
    QTest::addRow("no exp") << JwtMinter::assemble({}, { { "sub"_L1, "alice"_L1 } }, {});
    QTest::addRow("exp a string") << JwtMinter::assemble({}, { { "exp"_L1, "1700000000"_L1 } }, {});
    QTest::addRow("exp absurd") << JwtMinter::assemble({}, { { "exp"_L1, 1e300 } }, {});
}

void TestTokenExpiry::noEndWithoutAJwtOrExp()
{
    QFETCH(QString, token);
    QCOMPARE(endOf(token), -1);
    QVERIFY(!TokenExpiry::hasPassed(token));
}

void TestTokenExpiry::hasPassed()
{
    const QString token = JwtMinter::assemble({}, { { "exp"_L1, 1000 } }, {});
    QVERIFY(!TokenExpiry::hasPassed(token, 999'999ms));
    QVERIFY(TokenExpiry::hasPassed(token, 1'000'000ms));
    // By the system clock: a minute ago has passed, a minute ahead has not.
    QVERIFY(TokenExpiry::hasPassed(JwtMinter::assemble({}, JwtMinter::claims(u"a"_s, -60), {})));
    QVERIFY(!TokenExpiry::hasPassed(JwtMinter::assemble({}, JwtMinter::claims(u"a"_s, 60), {})));
}

QTEST_APPLESS_MAIN(TestTokenExpiry)
#include "tst_token_expiry.moc"
