#include "ui/chat/EmojiRuns.h"

// Qt
#include <QFontDatabase>
#include <QTextCharFormat>

namespace Presence::Ui {

using namespace Qt::StringLiterals;

QString EmojiRuns::colourFamily()
{
    // Looked up once: the font database does not change while the client runs.
    static const QString family = [] {
        const QString noto = u"Noto Color Emoji"_s;
        return QFontDatabase::families().contains(noto) ? noto : QString();
    }();
    return family;
}

bool EmojiRuns::isEmoji(char32_t c)
{
    return (c >= 0x1F300 && c <= 0x1FAFF) // pictographs, emoticons, transport, symbols
        || (c >= 0x1F1E6 && c <= 0x1F1FF) // regional indicators (flags)
        || (c >= 0x2600 && c <= 0x27BF) // miscellaneous symbols, dingbats
        || (c >= 0x1F000 && c <= 0x1F2FF) // mahjong, cards, enclosed
        || c == 0x2B50 || c == 0x2B55 || c == 0x2B1B || c == 0x2B1C // star, circles, squares
        || c == 0x231A || c == 0x231B || c == 0x23F0 || c == 0x23F3; // watch, hourglass, alarm
}

bool EmojiRuns::joinsEmoji(char32_t c)
{
    return c == 0x200D // zero-width joiner
        || c == 0xFE0F // emoji presentation
        || c == 0x20E3 // combining keycap
        || (c >= 0x1F3FB && c <= 0x1F3FF) // skin tones
        || (c >= 0xE0020 && c <= 0xE007F); // tags (subdivision flags)
}

QList<QTextLayout::FormatRange> EmojiRuns::formats(const QString &text)
{
    QList<QTextLayout::FormatRange> runs;
    const QString family = colourFamily();
    if (family.isEmpty())
        return runs;
    QTextCharFormat format;
    format.setFontFamilies({ family });
    qsizetype start = -1;
    qsizetype i = 0;
    while (i < text.size()) {
        const qsizetype at = i;
        char32_t c = text.at(i).unicode();
        if (QChar::isHighSurrogate(c) && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) {
            c = QChar::surrogateToUcs4(text.at(i), text.at(i + 1));
            i += 2;
        } else {
            ++i;
        }
        const bool inRun = isEmoji(c) || (start >= 0 && joinsEmoji(c));
        if (inRun && start < 0) {
            start = at;
        } else if (!inRun && start >= 0) {
            runs.append({ int(start), int(at - start), format });
            start = -1;
        }
    }
    if (start >= 0)
        runs.append({ int(start), int(text.size() - start), format });
    return runs;
}

} // namespace Presence::Ui
