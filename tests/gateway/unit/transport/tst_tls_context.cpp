// TlsContext: a certificate and its key from PEM files, with messages that name the file and
// what is wrong with it (a start or a reload with them must say so, and change nothing).

// Qt
#include <QFile>
#include <QTest>

// Presence
#include "TestCertificates.h"
#include "server-mock/transport/TlsContext.h"

using namespace Qt::StringLiterals;
using Presence::Server::TlsContext;
using Presence::TestSupport::TestCertificates;

class TestTlsContext : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void loadsACertificateAndItsKey();
    void refusesWhatIsMissingOrWrong();

private:
    TestCertificates m_certificates;
};

void TestTlsContext::initTestCase()
{
    QVERIFY2(m_certificates.isValid(), qPrintable(m_certificates.error()));
}

void TestTlsContext::loadsACertificateAndItsKey()
{
    QString error;
    const auto context
        = TlsContext::load(m_certificates.certificateFile(), m_certificates.keyFile(), &error);
    QVERIFY2(context, qPrintable(error));
    QVERIFY(context->get() != nullptr);
    QCOMPARE(context->certificateFile(), m_certificates.certificateFile());
    QCOMPARE(context->keyFile(), m_certificates.keyFile());
}

void TestTlsContext::refusesWhatIsMissingOrWrong()
{
    const QString certificate = m_certificates.certificateFile();
    const QString key = m_certificates.keyFile();
    const QString garbage = m_certificates.folder() + u"/garbage.pem"_s;
    {
        QFile file(garbage);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n");
    }
    const QString missing = m_certificates.folder() + u"/missing.pem"_s;
    struct Case {
        QString certificate;
        QString key;
        QString expectedStart;
    };
    const QList<Case> cases {
        { missing, key, u"TLS certificate '%1': no such file"_s.arg(missing) },
        { certificate, missing, u"TLS key '%1': no such file"_s.arg(missing) },
        { m_certificates.folder(), key,
            u"TLS certificate '%1': not a readable file"_s.arg(m_certificates.folder()) },
        { garbage, key, u"TLS certificate '%1': "_s.arg(garbage) },
        { certificate, garbage, u"TLS key '%1': "_s.arg(garbage) },
        // A key of another certificate.
        { certificate, m_certificates.renewedKeyFile(),
            u"TLS key '%1' does not belong to the certificate '%2'"_s.arg(
                m_certificates.renewedKeyFile(), certificate) },
        // An authority's certificate with the server's key.
        { m_certificates.caFile(), key,
            u"TLS key '%1' does not belong to the certificate '%2'"_s.arg(
                key, m_certificates.caFile()) },
    };
    for (const Case &c : cases) {
        QString error;
        QVERIFY(!TlsContext::load(c.certificate, c.key, &error));
        QVERIFY2(error.startsWith(c.expectedStart), qPrintable(error));
        if (c.expectedStart.endsWith(u": "_s)) // OpenSSL's reason follows
            QVERIFY2(error.size() > c.expectedStart.size(), qPrintable(error));
    }
}

QTEST_GUILESS_MAIN(TestTlsContext)
#include "tst_tls_context.moc"
