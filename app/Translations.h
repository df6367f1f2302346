#pragma once

// Qt
#include <QLocale>
#include <QString>
#include <QTranslator>

namespace Presence::App {

// The user-interface languages: Presence Chat's own catalogue, compiled in (":/i18n/"), and
// Qt's own words (standard buttons, context menus) from the Qt installation when it ships
// them. English is the source language and needs no catalogue.
//
// Installs its translators into the running application; they are removed again when this
// object is destroyed, so it must outlive every widget that shows translated text.
class Translations {
public:
    // Where the compiled-in catalogues live, and the name they share before "_de.qm".
    static constexpr auto kResourceDirectory = ":/i18n";
    static constexpr auto kCatalogueName = "presence-chat";

    Translations() = default;
    ~Translations();
    Translations(const Translations &) = delete;
    Translations &operator=(const Translations &) = delete;

    // Installs the catalogues for the first of locale's UI languages that has one (so
    // LANGUAGE=fr:de gives German), replacing what an earlier call installed. Returns whether
    // Presence Chat's own catalogue was found: false for English and for languages without
    // a catalogue, which then stay English. Call after the QCoreApplication exists.
    bool install(const QLocale &locale);

    // The language of the installed catalogue ("de"), empty when the UI is English.
    [[nodiscard]] QString language() const;
    // Whether Qt's own translations for the locale were found and installed too.
    [[nodiscard]] bool hasQtTranslations() const { return m_qtInstalled; }

    // The catalogues compiled in, by language ("de"), sorted.
    [[nodiscard]] static QStringList availableLanguages();

private:
    void uninstall();

    QTranslator m_application;
    QTranslator m_qt;
    bool m_applicationInstalled = false;
    bool m_qtInstalled = false;
};

} // namespace Presence::App
