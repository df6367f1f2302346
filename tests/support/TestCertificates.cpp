#include "TestCertificates.h"

// Qt
#include <QFile>
#include <QProcess>

using namespace Qt::StringLiterals;

namespace Presence::TestSupport {

TestCertificates::TestCertificates()
{
    if (!m_dir.isValid()) {
        m_error = u"no temporary folder"_s;
        return;
    }
    // EC P-256 keys: quick to make, and what a modern deployment would use.
    if (!makeAuthority(u"ca"_s, u"/CN=Presence test CA"_s)
        || !makeAuthority(u"other-ca"_s, u"/CN=Someone else's CA"_s) || !makeServer(u"server"_s)
        || !makeServer(u"renewed"_s) || !makeSelfSigned(u"self-signed"_s))
        return;
}

bool TestCertificates::openssl(const QStringList &arguments)
{
    QProcess process;
    process.setWorkingDirectory(m_dir.path());
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(u"openssl"_s, arguments);
    if (!process.waitForFinished(30'000) || process.exitStatus() != QProcess::NormalExit
        || process.exitCode() != 0) {
        m_error = u"openssl %1: %2 %3"_s.arg(
            arguments.join(u' '), process.errorString(), QString::fromLocal8Bit(process.readAll()));
        return false;
    }
    return true;
}

bool TestCertificates::makeAuthority(const QString &name, const QString &subject)
{
    return openssl(
        { u"req"_s, u"-x509"_s, u"-newkey"_s, u"ec"_s, u"-pkeyopt"_s, u"ec_paramgen_curve:P-256"_s,
            u"-nodes"_s, u"-keyout"_s, name + u".key"_s, u"-out"_s, name + u".pem"_s, u"-days"_s,
            u"2"_s, u"-subj"_s, subject, u"-addext"_s, u"basicConstraints=critical,CA:TRUE"_s,
            u"-addext"_s, u"keyUsage=critical,keyCertSign,cRLSign"_s });
}

bool TestCertificates::makeServer(const QString &name)
{
    QFile extensions(path(name + u".ext"_s));
    if (!extensions.open(QIODevice::WriteOnly)) {
        m_error = u"cannot write %1"_s.arg(extensions.fileName());
        return false;
    }
    extensions.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n"
                     "extendedKeyUsage=serverAuth\n"
                     "basicConstraints=CA:FALSE\n");
    extensions.close();
    return openssl({ u"req"_s, u"-newkey"_s, u"ec"_s, u"-pkeyopt"_s, u"ec_paramgen_curve:P-256"_s,
               u"-nodes"_s, u"-keyout"_s, name + u".key"_s, u"-out"_s, name + u".csr"_s, u"-subj"_s,
               u"/CN=localhost"_s })
        && openssl({ u"x509"_s, u"-req"_s, u"-in"_s, name + u".csr"_s, u"-CA"_s, u"ca.pem"_s,
            u"-CAkey"_s, u"ca.key"_s, u"-CAcreateserial"_s, u"-out"_s, name + u".pem"_s, u"-days"_s,
            u"2"_s, u"-extfile"_s, name + u".ext"_s });
}

bool TestCertificates::makeSelfSigned(const QString &name)
{
    return openssl({ u"req"_s, u"-x509"_s, u"-newkey"_s, u"ec"_s, u"-pkeyopt"_s,
        u"ec_paramgen_curve:P-256"_s, u"-nodes"_s, u"-keyout"_s, name + u".key"_s, u"-out"_s,
        name + u".pem"_s, u"-days"_s, u"2"_s, u"-subj"_s, u"/CN=localhost"_s, u"-addext"_s,
        u"subjectAltName=IP:127.0.0.1,DNS:localhost"_s, u"-addext"_s,
        u"extendedKeyUsage=serverAuth"_s });
}

} // namespace Presence::TestSupport
