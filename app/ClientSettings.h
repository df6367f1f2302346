#pragma once

// C++
#include <memory>
#include <optional>

// Qt
#include <QByteArray>
#include <QHash>
#include <QString>
#include <QUrl>

class QSettings;
class QVariant;

namespace Presence::App {

// What the client remembers between runs, over a QSettings it is given (never the global
// one). Every value is validated as it is read: a hand-edited or corrupt file yields the
// defaults (with a warning naming the key and the file), never junk. The token is kept only
// while "remember" is on, and a file holding a token is made readable by its owner only.
//
// Values are read once, at construction (or reload()); setters write through at once.
class ClientSettings {
public:
    static inline constexpr int kDefaultAutoAwayMinutes = 5;
    static inline constexpr int kMinAutoAwayMinutes = 1;
    static inline constexpr int kMaxAutoAwayMinutes = 240;
    static inline constexpr int kDefaultSortMode
        = 0; // FriendSortFilterProxy::SortMode::Availability
    // Window geometry and splitter state larger than this are junk, not state.
    static inline constexpr qsizetype kMaxStateBytes = qsizetype(64) * 1024;

    // Uses `settings` (not owned; it must outlive this object).
    explicit ClientSettings(QSettings *settings);
    // Owns an INI-format QSettings over `filePath`.
    explicit ClientSettings(const QString &filePath);
    ~ClientSettings();
    ClientSettings(const ClientSettings &) = delete;
    ClientSettings &operator=(const ClientSettings &) = delete;

    [[nodiscard]] static QUrl defaultGatewayUrl();
    // A ws:// or wss:// URL with a host: the only kind the client connects to.
    [[nodiscard]] static bool isUsableGatewayUrl(const QUrl &url);

    [[nodiscard]] QString fileName() const;
    // Reads every value from the file again (validated).
    void reload();
    // Writes pending changes to disk (the token setters do this themselves).
    void sync();

    [[nodiscard]] QUrl gatewayUrl() const { return m_gatewayUrl; }
    // Ignored (with a warning) unless usable.
    void setGatewayUrl(const QUrl &url);

    // The remembered token; empty unless rememberToken().
    [[nodiscard]] QString token() const { return m_token; }
    [[nodiscard]] bool rememberToken() const { return m_rememberToken; }
    // Stores the token only if `remember`; otherwise removes any stored token. Syncs at once,
    // and makes the file owner-only (read and write) whenever a token is in it.
    void setToken(const QString &token, bool remember);

    [[nodiscard]] int sortMode() const { return m_sortMode; }
    void setSortMode(int mode);

    [[nodiscard]] QByteArray windowGeometry() const { return m_windowGeometry; }
    void setWindowGeometry(const QByteArray &geometry);
    [[nodiscard]] QByteArray splitterState() const { return m_splitterState; }
    void setSplitterState(const QByteArray &state);

    [[nodiscard]] int autoAwayMinutes() const { return m_autoAwayMinutes; }
    // Clamped to [kMinAutoAwayMinutes, kMaxAutoAwayMinutes].
    void setAutoAwayMinutes(int minutes);

    [[nodiscard]] bool trayNotifications() const { return m_trayNotifications; }
    void setTrayNotifications(bool enabled);

    // "Notify on new messages": on unless turned off.
    [[nodiscard]] bool messageNotifications() const { return m_messageNotifications; }
    void setMessageNotifications(bool enabled);

    // Certificates the user trusted, besides the system's authorities: a server ("host:port",
    // Session::CertificatePin::serverOf) to the SHA-256 digest of the one certificate trusted
    // there, kept in the group [trustedCertificates] as 64 hex digits. What the session takes
    // as Options::pinnedCertificates.
    [[nodiscard]] const QHash<QString, QByteArray> &trustedCertificates() const
    {
        return m_trustedCertificates;
    }
    // Trusts the certificate with this SHA-256 digest (32 bytes) for `server`, instead of any
    // trusted there before. Syncs at once: a choice about security is not left to the exit.
    void trustCertificate(const QString &server, const QByteArray &digest);
    // No certificate is trusted for `server` any more (besides the system's authorities).
    void forgetCertificate(const QString &server);

private:
    void load();
    void restrictPermissions() const;
    void warnInvalid(const QString &key, const QVariant &value, const char *expected,
        const char *instead = "using the default") const;
    void loadTrustedCertificates();
    [[nodiscard]] std::optional<int> readInt(const QString &key) const;
    [[nodiscard]] std::optional<bool> readBool(const QString &key) const;
    [[nodiscard]] std::optional<QString> readString(const QString &key) const;
    [[nodiscard]] std::optional<QByteArray> readBytes(const QString &key) const;

    std::unique_ptr<QSettings> m_owned;
    QSettings *m_settings;

    QUrl m_gatewayUrl;
    QString m_token;
    bool m_rememberToken = false;
    int m_sortMode = kDefaultSortMode;
    QByteArray m_windowGeometry;
    QByteArray m_splitterState;
    int m_autoAwayMinutes = kDefaultAutoAwayMinutes;
    bool m_trayNotifications = false;
    bool m_messageNotifications = true;
    QHash<QString, QByteArray> m_trustedCertificates;
};

} // namespace Presence::App
