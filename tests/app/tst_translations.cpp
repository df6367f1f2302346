// The interface languages: the German catalogue is compiled in and installed through the same
// Translations object main() uses; real widgets then speak German, an English or unsupported
// locale leaves them English, Qt's own words follow ours, and the catalogue itself is complete
// (every string translated, placeholders, plural forms and accelerators kept).

// C++
#include <memory>

// Qt
#include <QCheckBox>
#include <QCoreApplication>
#include <QFile>
#include <QLibraryInfo>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

// Presence
#include "app/ClientSettings.h"
#include "app/SignInDialog.h"
#include "app/Translations.h"
#include "session/GatewaySession.h"
#include "ui/shell/ConnectionStatusText.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::App::ClientSettings;
using Presence::App::SignInDialog;
using Presence::App::Translations;
using Presence::Session::GatewaySession;

namespace {

// One <message> of the .ts file.
struct CatalogueEntry {
    QString context;
    QString source;
    bool numerus = false;
    QString type; // "unfinished", "vanished", "obsolete" or empty (finished)
    QStringList translations; // one, or one per plural form
};

QList<CatalogueEntry> readCatalogue(const QString &path, QString *language, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = u"cannot open "_s + path;
        return {};
    }
    QList<CatalogueEntry> entries;
    QString context;
    QXmlStreamReader xml(&file);
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        const auto name = xml.name();
        if (name == u"TS") {
            *language = xml.attributes().value(u"language"_s).toString();
        } else if (name == u"name") {
            context = xml.readElementText();
        } else if (name == u"message") {
            CatalogueEntry entry;
            entry.context = context;
            entry.numerus = xml.attributes().value(u"numerus"_s) == u"yes";
            entries.append(entry);
        } else if (name == u"source" && !entries.isEmpty()) {
            entries.last().source = xml.readElementText();
        } else if (name == u"translation" && !entries.isEmpty()) {
            entries.last().type = xml.attributes().value(u"type"_s).toString();
            if (!entries.last().numerus)
                entries.last().translations.append(xml.readElementText());
        } else if (name == u"numerusform" && !entries.isEmpty()) {
            entries.last().translations.append(xml.readElementText());
        }
    }
    if (xml.hasError())
        *error = path + u": "_s + xml.errorString();
    return entries;
}

// "%1", "%2", "%n": what the code fills in, sorted, each once per occurrence.
QStringList placeholders(const QString &text)
{
    static const QRegularExpression pattern(u"%(\\d+|n)"_s);
    QStringList found;
    for (const auto &match : pattern.globalMatch(text))
        found.append(match.captured());
    found.sort();
    return found;
}

// The keyboard accelerators: single '&' (a literal ampersand is written "&&").
int accelerators(const QString &text)
{
    return int(text.count(u'&')) - 2 * int(text.count(u"&&"_s));
}

QString catalogueSourcePath()
{
    return QFINDTESTDATA("../resources/translations/presence-chat_de.ts");
}

QString translated(const char *context, const char *source, int n = -1)
{
    return QCoreApplication::translate(context, source, nullptr, n);
}

} // namespace

class TestTranslations : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void germanCatalogueIsCompiledIn();
    void localeChoosesTheLanguage_data();
    void localeChoosesTheLanguage();
    void signInDialogSpeaksGerman();
    void unsupportedLocaleStaysEnglish_data();
    void unsupportedLocaleStaysEnglish();
    void qtOwnWordsFollowOurs();
    void connectionWordsAreGerman();
    void translatorsLeaveWithTheObject();

    void catalogueIsComplete();
    void samplesAreTranslated_data();
    void samplesAreTranslated();
    void pluralFormsFollowTheCount_data();
    void pluralFormsFollowTheCount();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestTranslations::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    // Nothing installed before the tests install it: the widgets start in English.
    QCOMPARE(translated("Presence::App::SignInDialog", "&Sign in"), u"&Sign in"_s);
}

void TestTranslations::germanCatalogueIsCompiledIn()
{
    QVERIFY(QFile::exists(u":/i18n/presence-chat_de.qm"_s));
    QVERIFY(Translations::availableLanguages().contains(u"de"_s));
}

void TestTranslations::localeChoosesTheLanguage_data()
{
    QTest::addColumn<QString>("locale");
    QTest::addColumn<bool>("found");
    QTest::addColumn<QString>("language");

    QTest::addRow("de_DE") << u"de_DE"_s << true << u"de"_s;
    QTest::addRow("de_AT") << u"de_AT"_s << true << u"de"_s;
    QTest::addRow("de_CH") << u"de_CH"_s << true << u"de"_s;
    QTest::addRow("de") << u"de"_s << true << u"de"_s;
    QTest::addRow("en_US") << u"en_US"_s << false << QString();
    QTest::addRow("en_GB") << u"en_GB"_s << false << QString();
    QTest::addRow("fr_FR") << u"fr_FR"_s << false << QString();
    QTest::addRow("C") << u"C"_s << false << QString();
}

void TestTranslations::localeChoosesTheLanguage()
{
    QFETCH(QString, locale);
    QFETCH(bool, found);
    QFETCH(QString, language);

    Translations translations;
    QCOMPARE(translations.install(QLocale(locale)), found);
    QCOMPARE(translations.language(), language);
    QCOMPARE(translated("Presence::Ui::SessionHeader", "Away"), found ? u"Abwesend"_s : u"Away"_s);
}

void TestTranslations::signInDialogSpeaksGerman()
{
    Translations translations;
    QVERIFY(translations.install(QLocale(u"de_DE"_s)));

    ClientSettings settings(m_dir->filePath(u"german.ini"_s));
    GatewaySession session;
    SignInDialog dialog(&session, &settings);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));

    QCOMPARE(dialog.windowTitle(), u"Bei Presence Chat anmelden"_s);
    auto *signIn = dialog.findChild<QPushButton *>(u"signIn"_s);
    auto *remember = dialog.findChild<QCheckBox *>(u"rememberToken"_s);
    auto *url = dialog.findChild<QLineEdit *>(u"gatewayUrl"_s);
    auto *token = dialog.findChild<QLineEdit *>(u"token"_s);
    QVERIFY(signIn && remember && url && token);
    QCOMPARE(signIn->text(), u"&Anmelden"_s);
    QCOMPARE(remember->text(), u"Token auf diesem Computer &merken"_s);
    QCOMPARE(url->accessibleName(), u"Gateway-Adresse"_s);

    // A message built at run time, with its placeholder filled in.
    url->setText(u"http://127.0.0.1:1/"_s);
    token->setText(u"some-token"_s);
    dialog.signIn();
    QCOMPARE(dialog.statusText(),
        u"Die Gateway-Adresse muss mit ws:// oder wss:// beginnen, nicht mit http://."_s);
    QCOMPARE(session.state(), GatewaySession::State::Disconnected);
}

void TestTranslations::unsupportedLocaleStaysEnglish_data()
{
    QTest::addColumn<QString>("locale");
    QTest::addRow("English") << u"en_US"_s;
    QTest::addRow("French (no catalogue)") << u"fr_FR"_s;
}

void TestTranslations::unsupportedLocaleStaysEnglish()
{
    QFETCH(QString, locale);
    Translations translations;
    QVERIFY(!translations.install(QLocale(locale)));

    ClientSettings settings(m_dir->filePath(u"english.ini"_s));
    GatewaySession session;
    SignInDialog dialog(&session, &settings);
    QCOMPARE(dialog.windowTitle(), u"Sign in to Presence Chat"_s);
    auto *signIn = dialog.findChild<QPushButton *>(u"signIn"_s);
    QVERIFY(signIn);
    QCOMPARE(signIn->text(), u"&Sign in"_s);
    auto *url = dialog.findChild<QLineEdit *>(u"gatewayUrl"_s);
    auto *token = dialog.findChild<QLineEdit *>(u"token"_s);
    QVERIFY(url && token);
    url->setText(u"http://127.0.0.1:1/"_s);
    token->setText(u"some-token"_s);
    dialog.signIn();
    QCOMPARE(dialog.statusText(),
        u"The gateway address must start with ws:// or wss://, not http://."_s);
}

void TestTranslations::qtOwnWordsFollowOurs()
{
    const QString qtDirectory = QLibraryInfo::path(QLibraryInfo::TranslationsPath);
    {
        // French has Qt translations but no catalogue of ours: no French buttons in an
        // English window.
        Translations translations;
        QVERIFY(!translations.install(QLocale(u"fr_FR"_s)));
        QVERIFY(!translations.hasQtTranslations());
        ClientSettings settings(m_dir->filePath(u"qt-fr.ini"_s));
        GatewaySession session;
        SignInDialog dialog(&session, &settings);
        auto *cancel = dialog.findChild<QPushButton *>(u"cancel"_s);
        QVERIFY(cancel);
        QCOMPARE(cancel->text().remove(u'&'), u"Cancel"_s);
    }
    if (!QFile::exists(qtDirectory + u"/qtbase_de.qm"_s))
        QSKIP("Qt's German translations are not installed (Debian: qt6-translations-l10n)");
    Translations translations;
    QVERIFY(translations.install(QLocale(u"de_DE"_s)));
    QVERIFY(translations.hasQtTranslations());
    ClientSettings settings(m_dir->filePath(u"qt-de.ini"_s));
    GatewaySession session;
    SignInDialog dialog(&session, &settings);
    auto *cancel = dialog.findChild<QPushButton *>(u"cancel"_s);
    QVERIFY(cancel);
    QCOMPARE(cancel->text().remove(u'&'), u"Abbrechen"_s);
}

void TestTranslations::connectionWordsAreGerman()
{
    using State = Presence::Ui::ConnectionState;
    Translations translations;
    QVERIFY(translations.install(QLocale(u"de_DE"_s)));

    QCOMPARE(Presence::Ui::connectionStatusText(State::Reconnecting, 4s, {}),
        u"neuer Verbindungsversuch in 4 s…"_s);
    // The connection's words, in a context of their own (ConnectionStatusText.cpp).
    QCOMPARE(Presence::Ui::connectionStatusText(State::Online, 0ms, {}), u"verbunden"_s);
}

void TestTranslations::translatorsLeaveWithTheObject()
{
    {
        Translations translations;
        QVERIFY(translations.install(QLocale(u"de_DE"_s)));
        QCOMPARE(translated("Presence::Ui::FriendListPane", "Online first"), u"Online zuerst"_s);
        // Installing again replaces the catalogue rather than stacking a second one.
        QVERIFY(!translations.install(QLocale(u"en_US"_s)));
        QCOMPARE(translated("Presence::Ui::FriendListPane", "Online first"), u"Online first"_s);
        QVERIFY(translations.install(QLocale(u"de_DE"_s)));
    }
    QCOMPARE(translated("Presence::Ui::FriendListPane", "Online first"), u"Online first"_s);
}

void TestTranslations::catalogueIsComplete()
{
    const QString path = catalogueSourcePath();
    QVERIFY2(!path.isEmpty(), "resources/translations/presence-chat_de.ts not found");
    QString language;
    QString error;
    const QList<CatalogueEntry> entries = readCatalogue(path, &language, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(language, u"de"_s);
    QVERIFY(entries.size() > 100);

    QStringList problems;
    for (const CatalogueEntry &entry : entries) {
        const QString where = entry.context + u": \""_s + entry.source + u"\": "_s;
        if (!entry.type.isEmpty()) {
            problems.append(where + entry.type);
            continue;
        }
        // German has two plural forms: one, other.
        if (entry.translations.size() != (entry.numerus ? 2 : 1)) {
            problems.append(where + u"%1 forms"_s.arg(entry.translations.size()));
            continue;
        }
        if (entry.numerus && !entry.source.contains(u"%n"_s))
            problems.append(where + u"plural without %n"_s);
        for (const QString &translation : entry.translations) {
            if (translation.trimmed().isEmpty())
                problems.append(where + u"empty"_s);
            if (placeholders(translation) != placeholders(entry.source))
                problems.append(where + u"placeholders differ in \""_s + translation + u'"');
            if (accelerators(translation) != accelerators(entry.source))
                problems.append(where + u"accelerator lost in \""_s + translation + u'"');
        }
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
}

void TestTranslations::samplesAreTranslated_data()
{
    QTest::addColumn<QString>("context");
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("german");

    QTest::addRow("presence online")
        << u"Presence::Ui::PresenceText"_s << u"online"_s << u"online"_s;
    QTest::addRow("presence away") << u"Presence::Ui::PresenceText"_s << u"away"_s << u"abwesend"_s;
    QTest::addRow("presence offline")
        << u"Presence::Ui::PresenceText"_s << u"offline"_s << u"offline"_s;
    QTest::addRow("presence unknown")
        << u"Presence::Ui::PresenceText"_s << u"status unknown"_s << u"Status unbekannt"_s;
    QTest::addRow("last seen") << u"Presence::Ui::PresenceText"_s << u"last seen %1 min ago"_s
                               << u"zuletzt gesehen vor %1 Min."_s;
    QTest::addRow("own status") << u"Presence::Ui::SessionHeader"_s << u"Invisible"_s
                                << u"Unsichtbar"_s;
    QTest::addRow("menu") << u"Presence::Ui::MainWindow"_s << u"&Quit"_s << u"&Beenden"_s;
    QTest::addRow("menu title") << u"Presence::Ui::MainWindow"_s << u"&Presence"_s
                                << u"&Programm"_s;
    QTest::addRow("status bar, reconnecting")
        << u"Presence::Ui::MainWindow"_s << u"%1 friends · status unknown while reconnecting"_s
        << u"%1 Freunde · Status unbekannt, bis die Verbindung wieder steht"_s;
    QTest::addRow("status bar") << u"Presence::Ui::MainWindow"_s << u"%1 friends · %2 online"_s
                                << u"%1 Freunde · %2 online"_s;
    QTest::addRow("chat") << u"Presence::Ui::ChatPane"_s << u"Send"_s << u"Senden"_s;
    QTest::addRow("message state")
        << u"Presence::Ui::ChatMessageDelegate"_s << u"%1 · not sent"_s << u"%1 · nicht gesendet"_s;
    QTest::addRow("session error")
        << u"Presence::Session::FailureWords"_s << u"The gateway did not accept the token."_s
        << u"Das Gateway hat das Token nicht angenommen."_s;
    QTest::addRow("chat error") << u"Presence::Session::ChatController"_s
                                << u"Type a message first."_s
                                << u"Schreib zuerst eine Nachricht."_s;
    QTest::addRow("tray") << u"main"_s << u"Presence Chat"_s << u"Presence Chat"_s;
}

void TestTranslations::samplesAreTranslated()
{
    QFETCH(QString, context);
    QFETCH(QString, source);
    QFETCH(QString, german);

    Translations translations;
    QVERIFY(translations.install(QLocale(u"de_DE"_s)));
    QCOMPARE(translated(context.toUtf8().constData(), source.toUtf8().constData()), german);
}

void TestTranslations::pluralFormsFollowTheCount_data()
{
    QTest::addColumn<QString>("context");
    QTest::addColumn<QString>("source");
    QTest::addColumn<int>("count");
    QTest::addColumn<QString>("german");

    const auto chip = u"Presence::Ui::MoreOnlineChip"_s;
    const auto more = u"%n more online ↑"_s;
    QTest::addRow("chip one") << chip << more << 1 << u"1 weiterer online ↑"_s;
    QTest::addRow("chip two") << chip << more << 2 << u"2 weitere online ↑"_s;
    QTest::addRow("chip many") << chip << more << 120 << u"120 weitere online ↑"_s;
    const auto notifier = u"Presence::App::FriendOnlineNotifier"_s;
    const auto others = u"%1, %2 and %n others are online"_s;
    QTest::addRow("notifier one") << notifier << others << 1
                                  << u"%1, %2 und 1 weiterer Freund sind online"_s;
    QTest::addRow("notifier many")
        << notifier << others << 3 << u"%1, %2 und 3 weitere Freunde sind online"_s;
}

void TestTranslations::pluralFormsFollowTheCount()
{
    QFETCH(QString, context);
    QFETCH(QString, source);
    QFETCH(int, count);
    QFETCH(QString, german);

    Translations translations;
    QVERIFY(translations.install(QLocale(u"de_DE"_s)));
    QCOMPARE(translated(context.toUtf8().constData(), source.toUtf8().constData(), count), german);
}

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
