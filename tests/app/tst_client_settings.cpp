// ClientSettings over real files: what is saved comes back (owner-only file), and files that
// are corrupt, binary junk or hand-edited load the defaults, each bad key named in a warning
// with the file, and can be saved over. Certificates trusted per server come back, replaced
// or forgotten one server at a time, and a pin that does not read back trusts nothing. The
// sign-in dialog over these settings: tst_sign_in_dialog.

// C++
#include <memory>

// Qt
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

// Presence
#include "app/ClientSettings.h"

using namespace Qt::StringLiterals;
using Presence::App::ClientSettings;

namespace {

constexpr auto kGroupAndOthers = QFileDevice::ReadGroup | QFileDevice::WriteGroup
    | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::WriteOther
    | QFileDevice::ExeOther;

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && file.write(bytes) == bytes.size();
}

// What settings hold when their file gave nothing usable.
void verifyDefaults(const ClientSettings &settings)
{
    QCOMPARE(settings.gatewayUrl(), ClientSettings::defaultGatewayUrl());
    QVERIFY(settings.token().isEmpty());
    QVERIFY(!settings.rememberToken());
    QCOMPARE(settings.sortMode(), ClientSettings::kDefaultSortMode);
    QVERIFY(settings.windowGeometry().isEmpty());
    QVERIFY(settings.splitterState().isEmpty());
    QCOMPARE(settings.autoAwayMinutes(), 5);
    QVERIFY(!settings.trayNotifications());
}

// A value saved over a bad file is in the file afterwards.
void verifySavedOver(ClientSettings &settings, int minutes)
{
    settings.setAutoAwayMinutes(minutes);
    settings.sync();
    QCOMPARE(
        QSettings(settings.fileName(), QSettings::IniFormat).value(u"presence/autoAwayMinutes"_s),
        QVariant(QString::number(minutes)));
}

} // namespace

class TestClientSettings : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();

    void settingsRoundTrip();
    void corruptSettingsLoadDefaults_data();
    void corruptSettingsLoadDefaults();
    void garbageSettingsFileLoadsDefaults();
    void storedTokenIsChecked();
    void trustedCertificatesPerServer();
    void badTrustedCertificatesAreIgnored_data();
    void badTrustedCertificatesAreIgnored();

private:
    [[nodiscard]] QString settingsPath() const { return m_dir->filePath(u"presence.ini"_s); }

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestClientSettings::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void TestClientSettings::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestClientSettings::settingsRoundTrip()
{
    QTest::failOnWarning(QRegularExpression(u".*"_s));
    const QByteArray geometry("\x01\xd9\xd0\xcb\x00\x03\x00\x00geometry", 16);
    const QByteArray splitter("\x00\xff\x00\x01splitter", 12);
    {
        ClientSettings settings(settingsPath());
        settings.setGatewayUrl(QUrl(u"wss://gw.example.org/presence"_s));
        settings.setToken(u"  tok-en.1  "_s, true);
        settings.setSortMode(1);
        settings.setWindowGeometry(geometry);
        settings.setSplitterState(splitter);
        settings.setAutoAwayMinutes(240);
        settings.setTrayNotifications(true);
    }
    ClientSettings settings(settingsPath());
    QCOMPARE(settings.gatewayUrl(), QUrl(u"wss://gw.example.org/presence"_s));
    QCOMPARE(settings.token(), u"tok-en.1"_s);
    QVERIFY(settings.rememberToken());
    QCOMPARE(settings.sortMode(), 1);
    QCOMPARE(settings.windowGeometry(), geometry);
    QCOMPARE(settings.splitterState(), splitter);
    QCOMPARE(settings.autoAwayMinutes(), 240);
    QVERIFY(settings.trayNotifications());
    QCOMPARE(QFileInfo(settingsPath()).permissions() & kGroupAndOthers, QFileDevice::Permissions());

    // Out-of-range idle minutes are clamped when set.
    settings.setAutoAwayMinutes(0);
    QCOMPARE(settings.autoAwayMinutes(), 1);
    settings.setAutoAwayMinutes(100000);
    QCOMPARE(settings.autoAwayMinutes(), 240);

    // Over a QSettings the caller owns, too.
    QSettings raw(settingsPath(), QSettings::IniFormat);
    const ClientSettings borrowed(&raw);
    QCOMPARE(borrowed.fileName(), settingsPath());
    QCOMPARE(borrowed.autoAwayMinutes(), 240);
    QCOMPARE(borrowed.token(), u"tok-en.1"_s);
}

void TestClientSettings::corruptSettingsLoadDefaults_data()
{
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<QStringList>("badKeys"); // each must be named in a warning

    QTest::addRow("ftp url") << QByteArray("[gateway]\nurl=ftp://example.com/\n")
                             << QStringList { u"gateway/url"_s };
    QTest::addRow("http url") << QByteArray("[gateway]\nurl=http://example.com:8765/\n")
                              << QStringList { u"gateway/url"_s };
    QTest::addRow("url without host")
        << QByteArray("[gateway]\nurl=ws:///x\n") << QStringList { u"gateway/url"_s };
    QTest::addRow("url not a url")
        << QByteArray("[gateway]\nurl=not a url\n") << QStringList { u"gateway/url"_s };
    QTest::addRow("url is a list")
        << QByteArray("[gateway]\nurl=ws://a, ws://b\n") << QStringList { u"gateway/url"_s };
    QTest::addRow("idle minutes text") << QByteArray("[presence]\nautoAwayMinutes=five\n")
                                       << QStringList { u"presence/autoAwayMinutes"_s };
    QTest::addRow("idle minutes zero") << QByteArray("[presence]\nautoAwayMinutes=0\n")
                                       << QStringList { u"presence/autoAwayMinutes"_s };
    QTest::addRow("idle minutes 241") << QByteArray("[presence]\nautoAwayMinutes=241\n")
                                      << QStringList { u"presence/autoAwayMinutes"_s };
    QTest::addRow("idle minutes negative") << QByteArray("[presence]\nautoAwayMinutes=-3\n")
                                           << QStringList { u"presence/autoAwayMinutes"_s };
    QTest::addRow("idle minutes fraction") << QByteArray("[presence]\nautoAwayMinutes=2.5\n")
                                           << QStringList { u"presence/autoAwayMinutes"_s };
    QTest::addRow("idle minutes huge")
        << QByteArray("[presence]\nautoAwayMinutes=99999999999999999999\n")
        << QStringList { u"presence/autoAwayMinutes"_s };
    QTest::addRow("sort mode unknown")
        << QByteArray("[view]\nsortMode=7\n") << QStringList { u"view/sortMode"_s };
    QTest::addRow("tray not a bool")
        << QByteArray("[notifications]\ntray=maybe\n") << QStringList { u"notifications/tray"_s };
    QTest::addRow("remember not a bool")
        << QByteArray("[gateway]\nrememberToken=yes please\ntoken=abc\n")
        << QStringList { u"gateway/rememberToken"_s, u"gateway/token"_s };
    QTest::addRow("geometry as text")
        << QByteArray("[window]\ngeometry=hello\n") << QStringList { u"window/geometry"_s };
    QTest::addRow("splitter too big")
        << QByteArray("[window]\nsplitterState=@ByteArray(" + QByteArray(70000, 'x') + ")\n")
        << QStringList { u"window/splitterState"_s };
    QTest::addRow("everything wrong at once")
        << QByteArray("[gateway]\nurl=ftp://x/\n[presence]\nautoAwayMinutes=lots\n"
                      "[view]\nsortMode=-1\n[notifications]\ntray=2\n[window]\ngeometry=12\n")
        << QStringList { u"gateway/url"_s, u"presence/autoAwayMinutes"_s, u"view/sortMode"_s,
               u"notifications/tray"_s, u"window/geometry"_s };
}

void TestClientSettings::corruptSettingsLoadDefaults()
{
    QFETCH(QByteArray, contents);
    QFETCH(QStringList, badKeys);

    QVERIFY(writeFile(settingsPath(), contents));
    for (const QString &key : std::as_const(badKeys)) {
        QTest::ignoreMessage(QtWarningMsg,
            QRegularExpression(QRegularExpression::escape(key) + u".* "_s
                + QRegularExpression::escape(settingsPath())));
    }
    // The bad keys' warnings and nothing else.
    QTest::failOnWarning(QRegularExpression(u".*"_s));

    ClientSettings settings(settingsPath());
    verifyDefaults(settings);
    if (QTest::currentTestFailed())
        return;

    // Saving over the bad file works.
    verifySavedOver(settings, 30);
}

void TestClientSettings::garbageSettingsFileLoadsDefaults()
{
    // Binary junk, stray brackets and escapes: whatever QSettings makes of it, nothing that
    // comes out may be junk. (Which warnings appear depends on what the parser salvages.)
    QByteArray garbage;
    for (int i = 0; i < 4096; ++i)
        garbage.append(char((i * 7919 + 13) % 256));
    garbage += "\n[gateway\nurl\n=\n[presence]]\nautoAwayMinutes=\\x\\0@Variant(\\xff)\n"
               "[view]\nsortMode=@Variant(\\0\\0\\0\\x7f\\0\\0\\0\\xffjunk)\n"
               "[window]\ngeometry=@ByteArray(\\0\\x\n";
    garbage.append("\0\0", 2);
    QVERIFY(writeFile(settingsPath(), garbage));

    ClientSettings settings(settingsPath());
    verifyDefaults(settings);
    if (QTest::currentTestFailed())
        return;

    // And the file can be saved over.
    verifySavedOver(settings, 42);
}

void TestClientSettings::storedTokenIsChecked()
{
    QVERIFY(
        writeFile(settingsPath(), "[gateway]\nurl=ws://chat.example.com/\ntoken=sneaky-secret\n"));
    QTest::ignoreMessage(QtWarningMsg,
        QRegularExpression(u"removing gateway/token from .*rememberToken is not set"_s));
    const ClientSettings settings(settingsPath());
    QVERIFY(settings.token().isEmpty());
    QCOMPARE(settings.gatewayUrl(), QUrl(u"ws://chat.example.com/"_s));
    QVERIFY(!readAll(settingsPath()).contains("sneaky-secret"));

    // Remembered but not a token: the box stays ticked, the junk is not offered as a token.
    QVERIFY(writeFile(settingsPath(), "[gateway]\nrememberToken=true\ntoken=a b c\n"));
    QTest::ignoreMessage(
        QtWarningMsg, QRegularExpression(u"ignoring gateway/token in .*: expected a token"_s));
    const ClientSettings junk(settingsPath());
    QVERIFY(junk.rememberToken());
    QVERIFY(junk.token().isEmpty());
}

void TestClientSettings::trustedCertificatesPerServer()
{
    QTest::failOnWarning(QRegularExpression(u".*"_s));
    const QByteArray first = QByteArray::fromHex("00112233445566778899aabbccddeeff"
                                                 "00112233445566778899aabbccddeeff");
    const QByteArray second(32, '\x7f');
    const QByteArray third(32, '\xa5');
    {
        ClientSettings settings(settingsPath());
        QVERIFY(settings.trustedCertificates().isEmpty());
        settings.trustCertificate(u"127.0.0.1:8765"_s, first);
        settings.trustCertificate(u"chat.example.org:443"_s, second);
        settings.trustCertificate(u"[::1]:8765"_s, first);
        QCOMPARE(settings.trustedCertificates().size(), 3);
        // Written at once, before any sync of the caller's.
        QVERIFY(readAll(settingsPath()).contains(first.toHex()));
    }
    {
        ClientSettings settings(settingsPath());
        const QHash<QString, QByteArray> expected { { u"127.0.0.1:8765"_s, first },
            { u"chat.example.org:443"_s, second }, { u"[::1]:8765"_s, first } };
        QCOMPARE(settings.trustedCertificates(), expected);
        // Replacing one server's leaves the others.
        settings.trustCertificate(u"127.0.0.1:8765"_s, third);
        settings.forgetCertificate(u"chat.example.org:443"_s);
    }
    ClientSettings settings(settingsPath());
    const QHash<QString, QByteArray> expected { { u"127.0.0.1:8765"_s, third },
        { u"[::1]:8765"_s, first } };
    QCOMPARE(settings.trustedCertificates(), expected);
    // Kept as the user can read it, under its own group.
    const QByteArray file = readAll(settingsPath());
    QVERIFY2(file.contains("[trustedCertificates]"), file.constData());
    QVERIFY(file.contains(third.toHex()));
    QVERIFY(!file.contains(second.toHex()));

    // What cannot be a pin is refused when set, with a warning.
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"not trusting a certificate"_s));
    settings.trustCertificate(u"127.0.0.1:8765"_s, QByteArray(20, 'x'));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"not trusting a certificate"_s));
    settings.trustCertificate(u"not a server"_s, first);
    QCOMPARE(settings.trustedCertificates(), expected);
}

void TestClientSettings::badTrustedCertificatesAreIgnored_data()
{
    QTest::addColumn<QByteArray>("line"); // in [trustedCertificates]
    QTest::addColumn<QString>("key");
    const QByteArray hex = QByteArray("0123456789abcdef").repeated(4);
    QTest::addRow("63 digits") << QByteArray("a.example:443=" + hex.chopped(1))
                               << u"trustedCertificates/a.example:443"_s;
    QTest::addRow("not hex") << QByteArray("a.example:443=" + hex.chopped(1) + "z")
                             << u"trustedCertificates/a.example:443"_s;
    QTest::addRow("colon pairs") << QByteArray(
        "a.example:443=" + QByteArray::fromHex(hex).toHex(':'))
                                 << u"trustedCertificates/a.example:443"_s;
    QTest::addRow("empty") << QByteArray("a.example:443=")
                           << u"trustedCertificates/a.example:443"_s;
    QTest::addRow("bytes") << QByteArray("a.example:443=@ByteArray(" + hex + ")")
                           << u"trustedCertificates/a.example:443"_s;
    QTest::addRow("a list") << QByteArray("a.example:443=" + hex + ", " + hex)
                            << u"trustedCertificates/a.example:443"_s;
    QTest::addRow("server without port")
        << QByteArray("a.example=" + hex) << u"trustedCertificates/a.example"_s;
    QTest::addRow("server in capitals")
        << QByteArray("A.Example:443=" + hex) << u"trustedCertificates/A.Example:443"_s;
    QTest::addRow("server with a port too big")
        << QByteArray("a.example:70000=" + hex) << u"trustedCertificates/a.example:70000"_s;
}

void TestClientSettings::badTrustedCertificatesAreIgnored()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, key);
    // One good pin beside the bad one, which stays trusted.
    const QByteArray good = QByteArray("fedcba9876543210").repeated(4);
    QVERIFY(writeFile(
        settingsPath(), "[trustedCertificates]\n" + line + "\nb.example%3A8765=" + good + "\n"));
    QTest::ignoreMessage(QtWarningMsg,
        QRegularExpression(u"^ignoring "_s + QRegularExpression::escape(key) + u" in "_s
            + QRegularExpression::escape(settingsPath())
            + u": expected .*; no certificate is trusted for that server$"_s));
    QTest::failOnWarning(QRegularExpression(u".*"_s));
    const ClientSettings settings(settingsPath());
    const QHash<QString, QByteArray> expected { { u"b.example:8765"_s,
        QByteArray::fromHex(good) } };
    QCOMPARE(settings.trustedCertificates(), expected);
}

QTEST_GUILESS_MAIN(TestClientSettings)
#include "tst_client_settings.moc"
