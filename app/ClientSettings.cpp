#include "app/ClientSettings.h"

// C++
#include <algorithm>

// Qt
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QMetaEnum>
#include <QSettings>
#include <QVariant>

// Presence
#include "models/FriendSortFilterProxy.h"
#include "protocol/Identifiers.h"
#include "session/CertificatePin.h"

using namespace Qt::StringLiterals;
using Presence::Session::CertificatePin;

namespace {

Q_LOGGING_CATEGORY(lcSettings, "presence.settings")

const QString kUrlKey = u"gateway/url"_s;
const QString kTokenKey = u"gateway/token"_s;
const QString kRememberKey = u"gateway/rememberToken"_s;
const QString kSortModeKey = u"view/sortMode"_s;
const QString kGeometryKey = u"window/geometry"_s;
const QString kSplitterKey = u"window/splitterState"_s;
const QString kAutoAwayKey = u"presence/autoAwayMinutes"_s;
const QString kTrayKey = u"notifications/tray"_s;
const QString kMessagesKey = u"notifications/messages"_s;
const QString kTrustedGroup = u"trustedCertificates"_s;

constexpr auto kOwnerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;

bool isPlausibleToken(const QString &token)
{
    if (token.isEmpty() || token.size() > Presence::Protocol::kMaxTokenLength)
        return false;
    return std::none_of(token.cbegin(), token.cend(),
        [](QChar c) { return c.isSpace() || c.category() == QChar::Other_Control; });
}

// A hand-edited value as it may appear in a log line: short, one line, no control characters.
QString printable(const QString &text)
{
    QString shown = text.left(80);
    std::replace_if(
        shown.begin(), shown.end(), [](QChar c) { return !c.isPrint(); }, u'?');
    return shown;
}

// "host:port" as CertificatePin::serverOf writes it, so that a session finds it.
bool isServer(const QString &server)
{
    const QUrl url(u"wss://"_s + server, QUrl::StrictMode);
    return url.isValid() && CertificatePin::serverOf(url) == server;
}

bool isValidSortMode(int mode)
{
    const QMetaEnum modes
        = QMetaEnum::fromType<Presence::Models::FriendSortFilterProxy::SortMode>();
    return modes.valueToKey(mode) != nullptr;
}

} // namespace

namespace Presence::App {

ClientSettings::ClientSettings(QSettings *settings)
    : m_settings(settings)
{
    Q_ASSERT(m_settings);
    load();
}

ClientSettings::ClientSettings(const QString &filePath)
    : m_owned(std::make_unique<QSettings>(filePath, QSettings::IniFormat))
    , m_settings(m_owned.get())
{
    load();
}

ClientSettings::~ClientSettings()
{
    sync();
}

QUrl ClientSettings::defaultGatewayUrl()
{
    return QUrl(u"ws://127.0.0.1:8765/"_s);
}

bool ClientSettings::isUsableGatewayUrl(const QUrl &url)
{
    return url.isValid() && (url.scheme() == "ws"_L1 || url.scheme() == "wss"_L1)
        && !url.host().isEmpty();
}

QString ClientSettings::fileName() const
{
    return m_settings->fileName();
}

void ClientSettings::reload()
{
    m_settings->sync(); // picks up changes made to the file since
    load();
}

void ClientSettings::load()
{
    if (m_settings->status() == QSettings::FormatError)
        qCWarning(lcSettings).noquote()
            << "the settings file" << fileName() << "has parts it cannot read: they are ignored";

    m_gatewayUrl = defaultGatewayUrl();
    if (const auto text = readString(kUrlKey)) {
        const QUrl url(text->trimmed(), QUrl::StrictMode);
        if (isUsableGatewayUrl(url))
            m_gatewayUrl = url;
        else
            warnInvalid(kUrlKey, *text, "a ws:// or wss:// URL with a host");
    }

    m_rememberToken = readBool(kRememberKey).value_or(false);
    m_token.clear();
    if (m_settings->contains(kTokenKey)) {
        if (!m_rememberToken) {
            // Stored by someone else, or left over: a token is kept only when asked to.
            qCWarning(lcSettings).noquote() << "removing" << kTokenKey << "from" << fileName()
                                            << "because" << kRememberKey << "is not set";
            m_settings->remove(kTokenKey);
            m_settings->sync();
        } else if (const auto token = readString(kTokenKey)) {
            if (isPlausibleToken(*token))
                m_token = *token;
            else
                warnInvalid(kTokenKey, {}, "a token of 1 to 4096 characters without spaces");
        }
    }

    m_sortMode = kDefaultSortMode;
    if (const auto mode = readInt(kSortModeKey)) {
        if (isValidSortMode(*mode))
            m_sortMode = *mode;
        else
            warnInvalid(kSortModeKey, *mode, "a known sort mode");
    }

    m_windowGeometry = readBytes(kGeometryKey).value_or(QByteArray());
    m_splitterState = readBytes(kSplitterKey).value_or(QByteArray());

    m_autoAwayMinutes = kDefaultAutoAwayMinutes;
    if (const auto minutes = readInt(kAutoAwayKey)) {
        if (*minutes >= kMinAutoAwayMinutes && *minutes <= kMaxAutoAwayMinutes)
            m_autoAwayMinutes = *minutes;
        else
            warnInvalid(kAutoAwayKey, *minutes, "a number of minutes from 1 to 240");
    }

    m_trayNotifications = readBool(kTrayKey).value_or(false);
    m_messageNotifications = readBool(kMessagesKey).value_or(true);
    loadTrustedCertificates();
}

void ClientSettings::loadTrustedCertificates()
{
    m_trustedCertificates.clear();
    m_settings->beginGroup(kTrustedGroup);
    const QStringList servers = m_settings->childKeys();
    m_settings->endGroup();
    // A pin that does not read back exactly trusts nothing: the user is asked again.
    const char *instead = "no certificate is trusted for that server";
    for (const QString &server : servers) {
        const QString key = kTrustedGroup + u'/' + server;
        const QVariant value = m_settings->value(key);
        if (!isServer(server)) {
            warnInvalid(key, {}, "a server written host:port (the host in lower case)", instead);
            continue;
        }
        const auto digest = value.typeId() == QMetaType::QString
            ? CertificatePin::fromHex(value.toString().trimmed())
            : std::nullopt;
        if (!digest) {
            warnInvalid(
                key, value, "the SHA-256 fingerprint of a certificate, 64 hex digits", instead);
            continue;
        }
        m_trustedCertificates.insert(server, *digest);
    }
}

void ClientSettings::warnInvalid(
    const QString &key, const QVariant &value, const char *expected, const char *instead) const
{
    // Values are shown only when harmless: a token must never reach a log.
    QString found;
    if (value.typeId() == QMetaType::QString || value.typeId() == QMetaType::Int)
        found = u" but found \"%1\""_s.arg(printable(value.toString()));
    else if (value.isValid())
        found = u" but found a value of type %1"_s.arg(QString::fromLatin1(value.typeName()));
    qCWarning(lcSettings).noquote().nospace()
        << "ignoring " << key << " in " << fileName() << ": expected "
        << QString::fromLatin1(expected) << found << "; " << QString::fromLatin1(instead);
}

std::optional<int> ClientSettings::readInt(const QString &key) const
{
    const QVariant value = m_settings->value(key);
    if (!value.isValid())
        return std::nullopt;
    bool ok = false;
    int number = 0;
    switch (value.typeId()) {
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
        number = value.toInt(&ok);
        break;
    case QMetaType::QString:
        number = value.toString().trimmed().toInt(&ok);
        break;
    default:
        break;
    }
    if (!ok) {
        warnInvalid(key, value, "a whole number");
        return std::nullopt;
    }
    return number;
}

std::optional<bool> ClientSettings::readBool(const QString &key) const
{
    const QVariant value = m_settings->value(key);
    if (!value.isValid())
        return std::nullopt;
    if (value.typeId() == QMetaType::Bool)
        return value.toBool();
    if (value.typeId() == QMetaType::QString) {
        // QVariant::toBool() takes any other text for true; a typo must not switch things on.
        const QString text = value.toString().trimmed().toLower();
        if (text == "true"_L1 || text == "1"_L1)
            return true;
        if (text == "false"_L1 || text == "0"_L1)
            return false;
    }
    warnInvalid(key, value, "true or false");
    return std::nullopt;
}

std::optional<QString> ClientSettings::readString(const QString &key) const
{
    const QVariant value = m_settings->value(key);
    if (!value.isValid())
        return std::nullopt;
    if (value.typeId() == QMetaType::QString)
        return value.toString();
    if (value.typeId() == QMetaType::QUrl)
        return value.toUrl().toString();
    warnInvalid(key, key == kTokenKey ? QVariant() : value, "text");
    return std::nullopt;
}

std::optional<QByteArray> ClientSettings::readBytes(const QString &key) const
{
    const QVariant value = m_settings->value(key);
    if (!value.isValid())
        return std::nullopt;
    if (value.typeId() != QMetaType::QByteArray) {
        warnInvalid(key, value, "saved window state");
        return std::nullopt;
    }
    QByteArray bytes = value.toByteArray();
    if (bytes.size() > kMaxStateBytes) {
        warnInvalid(key, {}, "saved window state of at most 64 KiB");
        return std::nullopt;
    }
    return bytes;
}

void ClientSettings::sync()
{
    m_settings->sync();
    if (m_settings->status() == QSettings::AccessError)
        qCWarning(lcSettings).noquote() << "cannot write the settings file" << fileName();
    if (!m_token.isEmpty())
        restrictPermissions();
}

void ClientSettings::restrictPermissions() const
{
    const QString path = fileName();
    if (path.isEmpty())
        return;
    if (!QFileInfo::exists(path)) {
        // Create it owner-only before the token goes in, so it is never readable by others.
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly)) {
            qCWarning(lcSettings).noquote() << "cannot create the settings file" << path;
            return;
        }
    }
    if (!QFile::setPermissions(path, kOwnerOnly))
        qCWarning(lcSettings).noquote()
            << "cannot make the settings file" << path << "private to its owner";
}

void ClientSettings::setGatewayUrl(const QUrl &url)
{
    if (!isUsableGatewayUrl(url)) {
        qCWarning(lcSettings) << "not saving an unusable gateway URL" << url.toDisplayString();
        return;
    }
    m_gatewayUrl = url;
    m_settings->setValue(kUrlKey, url.toString());
}

void ClientSettings::setToken(const QString &token, bool remember)
{
    const QString cleaned = token.trimmed();
    m_rememberToken = remember;
    m_settings->setValue(kRememberKey, remember);
    if (remember && isPlausibleToken(cleaned)) {
        m_token = cleaned;
        // Tighten before writing: QSettings rewrites the file keeping its permissions.
        restrictPermissions();
        m_settings->setValue(kTokenKey, m_token);
    } else {
        m_token.clear();
        m_settings->remove(kTokenKey);
    }
    sync();
}

void ClientSettings::setSortMode(int mode)
{
    if (!isValidSortMode(mode)) {
        qCWarning(lcSettings) << "not saving an unknown sort mode" << mode;
        return;
    }
    m_sortMode = mode;
    m_settings->setValue(kSortModeKey, mode);
}

void ClientSettings::setWindowGeometry(const QByteArray &geometry)
{
    m_windowGeometry = geometry.size() <= kMaxStateBytes ? geometry : QByteArray();
    m_settings->setValue(kGeometryKey, m_windowGeometry);
}

void ClientSettings::setSplitterState(const QByteArray &state)
{
    m_splitterState = state.size() <= kMaxStateBytes ? state : QByteArray();
    m_settings->setValue(kSplitterKey, m_splitterState);
}

void ClientSettings::setAutoAwayMinutes(int minutes)
{
    m_autoAwayMinutes = std::clamp(minutes, kMinAutoAwayMinutes, kMaxAutoAwayMinutes);
    m_settings->setValue(kAutoAwayKey, m_autoAwayMinutes);
}

void ClientSettings::setTrayNotifications(bool enabled)
{
    m_trayNotifications = enabled;
    m_settings->setValue(kTrayKey, enabled);
}

void ClientSettings::setMessageNotifications(bool enabled)
{
    m_messageNotifications = enabled;
    m_settings->setValue(kMessagesKey, enabled);
}

void ClientSettings::trustCertificate(const QString &server, const QByteArray &digest)
{
    if (!isServer(server) || !CertificatePin::fromHex(CertificatePin::toHex(digest))) {
        qCWarning(lcSettings) << "not trusting a certificate for" << server
                              << "without a server and a SHA-256 digest";
        return;
    }
    m_trustedCertificates.insert(server, digest);
    m_settings->setValue(kTrustedGroup + u'/' + server, CertificatePin::toHex(digest));
    sync();
}

void ClientSettings::forgetCertificate(const QString &server)
{
    m_trustedCertificates.remove(server);
    m_settings->remove(kTrustedGroup + u'/' + server);
    sync();
}

} // namespace Presence::App
