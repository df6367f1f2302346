// TokenOptions: the keys of JSON Web Tokens from the app's own backend, read from a real
// command line into one verifier that signs in with a token they signed; KID= names a key, a
// kid given twice and a key that does not load are refused.

// C++
#include <chrono>
#include <optional>

// Qt
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

// Presence
#include "JwtMinter.h"
#include "server-mock/app/ServerCommandLine.h"
#include "server-mock/app/TokenOptions.h"
#include "server-mock/identity/JwtVerifier.h"
#include "server-mock/server/GatewayConfig.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;
using Presence::TestSupport::JwtMinter;

namespace {

const QByteArray kSecret = "0123456789abcdef0123456789abcdef";

std::optional<GatewayConfig> read(const QStringList &args, QString *error)
{
    ServerCommandLine line;
    if (!line.parse(QStringList { u"presence-mock-server"_s } + args, error))
        return std::nullopt;
    GatewayConfig config;
    if (!TokenOptions::read(line, config, error))
        return std::nullopt;
    return config;
}

std::chrono::milliseconds now()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::system_clock::now().time_since_epoch());
}

} // namespace

class TestTokenOptions : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void noKeysNoVerifier();
    void theKeysSignUsersIn();
    void refusals_data();
    void refusals();

private:
    void write(const QString &name, const QByteArray &bytes);

    QTemporaryDir m_dir;
    JwtMinter m_es = JwtMinter::generate(JwtMinter::Algorithm::ES256);
};

void TestTokenOptions::write(const QString &name, const QByteArray &bytes)
{
    QFile file(m_dir.filePath(name));
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(bytes), bytes.size());
}

void TestTokenOptions::initTestCase()
{
    QVERIFY(m_dir.isValid());
    write(u"hs256.secret"_s, kSecret + '\n');
    write(u"es256.pem"_s, m_es.publicKeyPem());
    write(u"short.secret"_s, "too short\n");
}

void TestTokenOptions::noKeysNoVerifier()
{
    QString error;
    const auto config = read({}, &error);
    QVERIFY2(config, qPrintable(error));
    QVERIFY(!config->jwt);
}

void TestTokenOptions::theKeysSignUsersIn()
{
    QString error;
    const auto config
        = read({ u"--jwt-hs256-secret-file"_s, m_dir.filePath(u"hs256.secret"_s),
                   u"--jwt-public-key-file"_s, u"k2="_s + m_dir.filePath(u"es256.pem"_s) },
            &error);
    QVERIFY2(config, qPrintable(error));
    QVERIFY(config->jwt);
    const QString byHs = JwtMinter::hs256(kSecret).mint(JwtMinter::claims(u"alice"_s, 600));
    const auto hs = config->jwt->verify(byHs, now());
    QVERIFY2(hs.claims, qPrintable(hs.refusal));
    QCOMPARE(hs.claims->subject, u"alice"_s);
    const auto es = config->jwt->verify(m_es.mint(JwtMinter::claims(u"bob"_s, 600)), now());
    QVERIFY2(es.claims, qPrintable(es.refusal));
    QCOMPARE(es.claims->subject, u"bob"_s);
}

void TestTokenOptions::refusals_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    QTest::addRow("no file after the kid")
        << QStringList { u"--jwt-hs256-secret-file=k1="_s }
        << u"--jwt-hs256-secret-file needs a file (got \"k1=\")"_s;
    QTest::addRow("one kid twice") << QStringList { u"--jwt-hs256-secret-file=k1=hs256.secret"_s,
        u"--jwt-public-key-file=k1=es256.pem"_s }
                                   << u"--jwt-public-key-file: kid \"k1\" is given to two keys"_s;
    QTest::addRow("a short secret") << QStringList { u"--jwt-hs256-secret-file=short.secret"_s }
                                    << u"--jwt-hs256-secret-file "_s;
    QTest::addRow("a missing key")
        << QStringList { u"--jwt-public-key-file=missing.pem"_s } << u"--jwt-public-key-file "_s;
}

void TestTokenOptions::refusals()
{
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    // Relative paths are the folder's.
    for (QString &arg : args) {
        const qsizetype equals = arg.lastIndexOf(u'=');
        if (!arg.endsWith(u'='))
            arg = arg.left(equals + 1) + m_dir.filePath(arg.mid(equals + 1));
    }
    QString error;
    QVERIFY(!read(args, &error));
    QVERIFY2(error.contains(expected), qPrintable(error));
}

QTEST_MAIN(TestTokenOptions)
#include "tst_token_options.moc"
