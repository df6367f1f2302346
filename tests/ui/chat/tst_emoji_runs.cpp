// EmojiRuns: which runs of a message's text go to the colour emoji font, sequences kept whole.

// Qt
#include <QStringList>
#include <QTest>
#include <QTextLayout>

// Presence
#include "ui/chat/EmojiRuns.h"

using namespace Qt::StringLiterals;
using Presence::Ui::EmojiRuns;

class TestEmojiRuns : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void emojiRunsKeepTheirSequences();
};

void TestEmojiRuns::emojiRunsKeepTheirSequences()
{
    const auto runs = [](const QString &text) {
        QStringList parts;
        for (const QTextLayout::FormatRange &range : EmojiRuns::formats(text))
            parts.append(text.mid(range.start, range.length));
        return parts;
    };
    QCOMPARE(runs(u"plain text, digits 42 # *"_s), QStringList());
    QCOMPARE(runs(u"a😀b"_s), (QStringList { u"😀"_s }));
    // Skin tone, joiners (a family), a flag, a keycap and a heart with its selector stay
    // one run each; the text between them is not in the emoji font.
    QCOMPARE(runs(u"👍🏽 and 👩‍👩‍👧 from 🇫🇷, 1️⃣ ❤️!"_s),
        (QStringList { u"👍🏽"_s, u"👩‍👩‍👧"_s, u"🇫🇷"_s, u"❤️"_s }));
    // (A keycap, 1️⃣, stays in the text font: its digit is text.)
}

QTEST_MAIN(TestEmojiRuns)
#include "tst_emoji_runs.moc"
