#include "app/Translations.h"

// Qt
#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QLoggingCategory>

using namespace Qt::StringLiterals;

namespace Presence::App {

namespace {
Q_LOGGING_CATEGORY(lcTranslations, "presence.translations", QtInfoMsg)
} // namespace

Translations::~Translations()
{
    uninstall();
}

bool Translations::install(const QLocale &locale)
{
    uninstall();
    // QTranslator::load walks locale.uiLanguages() in order ("de-DE", then "de", …) and takes
    // the first catalogue that exists.
    m_applicationInstalled = m_application.load(locale, QString::fromLatin1(kCatalogueName), u"_"_s,
                                 QString::fromLatin1(kResourceDirectory))
        && QCoreApplication::installTranslator(&m_application);
    if (!m_applicationInstalled) {
        qCDebug(lcTranslations).noquote()
            << "no catalogue for" << locale.uiLanguages().join(u", "_s) << "- staying English";
        return false;
    }
    // Qt's own words in the same language as ours, and only then: an English window with
    // German "Abbrechen" buttons (or, for LANGUAGE=fr:de, French ones in a German window)
    // would be worse than either.
    const QString qtDirectory = QLibraryInfo::path(QLibraryInfo::TranslationsPath);
    m_qtInstalled = m_qt.load(QLocale(m_application.language()), u"qtbase"_s, u"_"_s, qtDirectory)
        && QCoreApplication::installTranslator(&m_qt);
    qCDebug(lcTranslations).noquote()
        << "interface language" << m_application.language() << "- Qt's own translations"
        << (m_qtInstalled ? u"from"_s : u"not found in"_s) << qtDirectory;
    return true;
}

QString Translations::language() const
{
    return m_applicationInstalled ? m_application.language() : QString();
}

QStringList Translations::availableLanguages()
{
    const QString prefix = QString::fromLatin1(kCatalogueName) + u'_';
    QStringList languages;
    const QStringList files = QDir(QString::fromLatin1(kResourceDirectory))
                                  .entryList({ prefix + u"*.qm"_s }, QDir::Files, QDir::Name);
    for (const QString &file : files)
        languages.append(file.sliced(prefix.size()).chopped(3)); // "presence-chat_de.qm" -> "de"
    return languages;
}

void Translations::uninstall()
{
    if (m_qtInstalled)
        QCoreApplication::removeTranslator(&m_qt);
    if (m_applicationInstalled)
        QCoreApplication::removeTranslator(&m_application);
    m_qtInstalled = false;
    m_applicationInstalled = false;
}

} // namespace Presence::App
