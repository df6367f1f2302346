#pragma once

// Qt
#include <QString>
#include <QTemporaryDir>

namespace Presence::TestSupport {

// A throw-away certificate authority and a server certificate it signed for 127.0.0.1 and
// localhost, made with the `openssl` command at run time in a temporary folder (gone with this
// object). Also a second authority, which signed nothing the server uses: a client that trusts
// only it must refuse the server; and a self-signed server certificate, as a small gateway's
// may be.
class TestCertificates {
public:
    TestCertificates();

    // False (with error()) when openssl could not make them.
    [[nodiscard]] bool isValid() const { return m_error.isEmpty(); }
    [[nodiscard]] const QString &error() const { return m_error; }

    [[nodiscard]] QString caFile() const { return path(u"ca.pem"); }
    [[nodiscard]] QString otherCaFile() const { return path(u"other-ca.pem"); }
    [[nodiscard]] QString certificateFile() const { return path(u"server.pem"); }
    [[nodiscard]] QString keyFile() const { return path(u"server.key"); }
    // Another certificate for the same server from the same authority: a renewal.
    [[nodiscard]] QString renewedCertificateFile() const { return path(u"renewed.pem"); }
    [[nodiscard]] QString renewedKeyFile() const { return path(u"renewed.key"); }
    // A certificate for the same server that signs itself, no authority involved.
    [[nodiscard]] QString selfSignedCertificateFile() const { return path(u"self-signed.pem"); }
    [[nodiscard]] QString selfSignedKeyFile() const { return path(u"self-signed.key"); }
    [[nodiscard]] QString folder() const { return m_dir.path(); }

private:
    [[nodiscard]] QString path(QStringView name) const { return m_dir.filePath(name.toString()); }
    // Runs openssl with arguments in the folder; false with m_error set on failure.
    bool openssl(const QStringList &arguments);
    bool makeAuthority(const QString &name, const QString &subject);
    bool makeServer(const QString &name);
    bool makeSelfSigned(const QString &name);

    QTemporaryDir m_dir;
    QString m_error;
};

} // namespace Presence::TestSupport
