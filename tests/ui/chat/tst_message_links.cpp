// MessageLinks: the http and https links found in a message's text, where they end, and what
// is not a link.

// Qt
#include <QTest>
#include <QUrl>

// Presence
#include "ui/chat/MessageLinks.h"

using namespace Qt::StringLiterals;
using Presence::Ui::MessageLinks;

class TestMessageLinks : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void linksAreFound_data();
    void linksAreFound();
};

void TestMessageLinks::linksAreFound_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("links");
    QTest::newRow("none") << u"no links here, www. nor example.org"_s << QStringList {};
    QTest::newRow("one, a full stop after") << u"See https://example.org/a/b?c=d."_s
                                            << QStringList { u"https://example.org/a/b?c=d"_s };
    QTest::newRow("two, in words")
        << u"http://a.example, then (https://b.example/x)!"_s
        << QStringList { u"http://a.example"_s, u"https://b.example/x"_s };
    QTest::newRow("brackets of its own")
        << u"https://en.wikipedia.org/wiki/Pascal_(unit), see"_s
        << QStringList { u"https://en.wikipedia.org/wiki/Pascal_(unit)"_s };
    QTest::newRow("other schemes are not links")
        << u"file:///etc/passwd javascript:alert(1) ftp://x.example"_s << QStringList {};
    QTest::newRow("upper case") << u"HTTPS://EXAMPLE.ORG/"_s
                                << QStringList { u"HTTPS://EXAMPLE.ORG/"_s };
    // The bubble shows a line break as a line separator (U+2028), a paragraph one likewise.
    QTest::newRow("before a line separator") << u"https://a.example/?q=1\u2028third line"_s
                                             << QStringList { u"https://a.example/?q=1"_s };
    QTest::newRow("before a paragraph separator")
        << u"https://a.example/x\u2029next"_s << QStringList { u"https://a.example/x"_s };
}

void TestMessageLinks::linksAreFound()
{
    QFETCH(QString, text);
    QFETCH(QStringList, links);
    QStringList found;
    for (const MessageLinks::Link &link : MessageLinks::find(text)) {
        found.append(text.mid(link.start, link.length));
        QCOMPARE(link.url, QUrl(found.last()));
        QVERIFY(link.url.scheme().toLower().startsWith(u"http"_s));
    }
    QCOMPARE(found, links);
}

QTEST_APPLESS_MAIN(TestMessageLinks)
#include "tst_message_links.moc"
