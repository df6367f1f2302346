// Tests for ConfigFile, the INI file of --config: its keys become command-line arguments where
// the command line does not give them, flags and lists and paths as documented, and every bad
// file or key is refused with a message naming the file.

// Qt
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

// Presence
#include "server-mock/app/ConfigFile.h"

using namespace Qt::StringLiterals;
using Presence::Server::ConfigFile;

namespace {

const QList<ConfigFile::Option> kOptions {
    { u"listen"_s },
    { u"users"_s, true, false, true },
    { u"allow-origin"_s, true, true, false },
    { u"jwt-public-key-file"_s, true, true, true },
    { u"admin-remote"_s, false },
};

} // namespace

class TestConfigFile : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void keysBecomeArguments();
    void theCommandLineWins();
    void flags_data();
    void flags();
    void refusals_data();
    void refusals();
    void aMissingFileIsNamed();

private:
    // Writes the file and reads it with nothing given on the command line.
    std::optional<QStringList> read(
        const QByteArray &contents, QString *error, const QStringList &given = {});

    QTemporaryDir m_dir;
};

std::optional<QStringList> TestConfigFile::read(
    const QByteArray &contents, QString *error, const QStringList &given)
{
    const QString path = m_dir.filePath(u"gateway.ini"_s);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(contents) < 0)
        qFatal("cannot write %s", qPrintable(path));
    file.close();
    return ConfigFile::arguments(
        path, kOptions, [&given](const QString &name) { return given.contains(name); }, error);
}

void TestConfigFile::keysBecomeArguments()
{
    QString error;
    const auto arguments = read("# the demo gateway\n"
                                "listen = 0.0.0.0:8765\n"
                                "users = users.json\n"
                                "allow-origin = https://a.example, https://b.example\n"
                                "jwt-public-key-file = 2026-12=keys/es.pem, /etc/old.pem\n"
                                "admin-remote = true\n",
        &error);
    QVERIFY2(arguments, qPrintable(error));
    const QString here = QDir(m_dir.path()).absolutePath();
    // Relative paths are the file's folder's; lists repeat the option; a flag set is given.
    QCOMPARE(QSet<QString>(arguments->cbegin(), arguments->cend()),
        (QSet<QString> { u"--listen=0.0.0.0:8765"_s, u"--users=%1/users.json"_s.arg(here),
            u"--allow-origin=https://a.example"_s, u"--allow-origin=https://b.example"_s,
            u"--jwt-public-key-file=2026-12=%1/keys/es.pem"_s.arg(here),
            u"--jwt-public-key-file=/etc/old.pem"_s, u"--admin-remote"_s }));
    QCOMPARE(arguments->size(), 7);
}

void TestConfigFile::theCommandLineWins()
{
    QString error;
    const auto arguments
        = read("listen = 0.0.0.0:8765\nusers = users.json\n", &error, { u"listen"_s });
    QVERIFY2(arguments, qPrintable(error));
    QCOMPARE(*arguments,
        QStringList { u"--users=%1/users.json"_s.arg(QDir(m_dir.path()).absolutePath()) });
}

void TestConfigFile::flags_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<bool>("set");
    for (const char *on : { "true", "True", "yes", "on", "1" })
        QTest::addRow("%s", on) << QByteArray(on) << true;
    for (const char *off : { "false", "no", "off", "0" })
        QTest::addRow("%s", off) << QByteArray(off) << false;
}

void TestConfigFile::flags()
{
    QFETCH(QByteArray, value);
    QFETCH(bool, set);
    QString error;
    const auto arguments = read("admin-remote = " + value + '\n', &error);
    QVERIFY2(arguments, qPrintable(error));
    QCOMPARE(arguments->contains(u"--admin-remote"_s), set);
}

void TestConfigFile::refusals_data()
{
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<QString>("problem");
    QTest::newRow("unknown key") << "listen = :1\nlisten-on = :2\n"_ba
                                 << u"unknown key 'listen-on' (the keys are the long options of "
                                    "--help, without their dashes)"_s;
    QTest::newRow("a section") << "[gateway]\nlisten = :1\n"_ba
                               << u"'gateway/listen' is in a section; options go at the top, "
                                  "before any [section]"_s;
    QTest::newRow("a flag with a value") << "admin-remote = maybe\n"_ba
                                         << u"'admin-remote' must be true or false (got "
                                            "\"maybe\")"_s;
    QTest::newRow("too large") << QByteArray(1024 * 1024 + 1, '#')
                               << u"larger than 1048576 bytes, not a config file"_s;
}

void TestConfigFile::refusals()
{
    QFETCH(QByteArray, contents);
    QFETCH(QString, problem);
    QString error;
    QVERIFY(!read(contents, &error));
    QCOMPARE(error, u"config file '%1': %2"_s.arg(m_dir.filePath(u"gateway.ini"_s), problem));
}

void TestConfigFile::aMissingFileIsNamed()
{
    const QString path = m_dir.filePath(u"missing.ini"_s);
    QString error;
    QVERIFY(!ConfigFile::arguments(
        path, kOptions, [](const QString &) { return false; }, &error));
    QCOMPARE(error, u"config file '%1': no such file"_s.arg(path));
    QVERIFY(!ConfigFile::arguments(
        m_dir.path(), kOptions, [](const QString &) { return false; }, &error));
    QCOMPARE(error, u"config file '%1': not a readable file"_s.arg(m_dir.path()));
}

QTEST_GUILESS_MAIN(TestConfigFile)
#include "tst_config_file.moc"
