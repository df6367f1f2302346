#pragma once

// Qt
#include <QList>
#include <QString>
#include <QTextLayout>

namespace Presence::Ui {

// Where a message's emoji are, so they are drawn from the colour emoji font. Qt 6.4 picks a
// fallback font per character by coverage alone, and the usual text fonts (DejaVu) have
// black-and-white emoji of their own: without this, 😀 comes out as a line drawing.
class EmojiRuns {
public:
    // The colour emoji font's family if the system has it (fonts-noto-color-emoji), else empty.
    [[nodiscard]] static QString colourFamily();
    // Runs of emoji (with their joiners, variation selectors, skin tones and keycaps), each
    // formatted with the colour font; empty when the system has none.
    [[nodiscard]] static QList<QTextLayout::FormatRange> formats(const QString &text);
    // Whether the code point starts or continues an emoji sequence.
    [[nodiscard]] static bool isEmoji(char32_t codePoint);
    [[nodiscard]] static bool joinsEmoji(char32_t codePoint);
};

} // namespace Presence::Ui
