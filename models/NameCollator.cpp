#include "models/NameCollator.h"

// C++
#include <algorithm>
#include <cstring>

// Qt
#include <QLoggingCategory>

// ICU
#include <unicode/ucol.h>

namespace Presence::Models {

namespace {

Q_LOGGING_CATEGORY(lcCollation, "presence.models.collation")

UCollator *openCollator(const QLocale &locale)
{
    // Qt's C locale has no collation of its own: people read the list in English order then.
    const QByteArray name = locale.language() == QLocale::C
        ? QByteArrayLiteral("en")
        : locale.bcp47Name().replace(u'-', u'_').toLatin1();
    UErrorCode status = U_ZERO_ERROR;
    UCollator *collator = ucol_open(name.constData(), &status);
    if (U_FAILURE(status)) {
        qCWarning(lcCollation) << "no collation for" << name << "(" << u_errorName(status)
                               << "): names sort in the root order";
        status = U_ZERO_ERROR;
        collator = ucol_open("", &status);
        if (U_FAILURE(status)) {
            qCWarning(lcCollation) << "no collation data at all (" << u_errorName(status)
                                   << "): names sort by code point";
            return nullptr;
        }
    }
    // As QCollator with CaseInsensitive and numeric mode: secondary strength ignores case,
    // keeps accents; normalisation makes composed and decomposed accents equal.
    ucol_setAttribute(collator, UCOL_NORMALIZATION_MODE, UCOL_ON, &status);
    ucol_setAttribute(collator, UCOL_STRENGTH, UCOL_SECONDARY, &status);
    ucol_setAttribute(collator, UCOL_NUMERIC_COLLATION, UCOL_ON, &status);
    if (U_FAILURE(status))
        qCWarning(lcCollation) << "collation attributes refused:" << u_errorName(status);
    return collator;
}

const UChar *units(QStringView text)
{
    return reinterpret_cast<const UChar *>(text.utf16());
}

// A row's key in the shared buffer, with its first bytes as a number: most comparisons end
// there.
struct Keyed {
    quint64 head;
    size_t offset;
    int row;
};

quint64 headOf(const char *key)
{
    // Big-endian, so numbers compare as the bytes do; a key ends at its first zero byte.
    quint64 head = 0;
    size_t i = 0;
    for (; i < sizeof(head) && key[i] != 0; ++i)
        head = (head << 8) | quint8(key[i]);
    return head << (8 * (sizeof(head) - i));
}

} // namespace

NameCollator::NameCollator(const QLocale &locale)
    : m_collator(openCollator(locale))
{
}

NameCollator::~NameCollator()
{
    if (m_collator)
        ucol_close(m_collator);
}

int NameCollator::compare(QStringView a, QStringView b) const
{
    if (!m_collator)
        return a.compare(b);
    switch (ucol_strcoll(m_collator, units(a), int32_t(a.size()), units(b), int32_t(b.size()))) {
    case UCOL_LESS:
        return -1;
    case UCOL_EQUAL:
        return 0;
    case UCOL_GREATER:
        return 1;
    }
    return 0;
}

void NameCollator::sort(std::vector<int> &rows, const Text &name, const Text &id) const
{
    const auto byId = [&id](int a, int b) { return id(a) < id(b); };
    if (!m_collator) {
        std::sort(rows.begin(), rows.end(), [&](int a, int b) {
            const int c = name(a).compare(name(b));
            return c != 0 ? c < 0 : byId(a, b);
        });
        return;
    }
    // Every key in one buffer, zero-terminated as ICU writes them.
    std::vector<char> keys;
    keys.reserve(rows.size() * 24);
    std::vector<Keyed> keyed;
    keyed.reserve(rows.size());
    for (const int row : rows) {
        const QStringView text = name(row);
        const size_t offset = keys.size();
        // Keys run to about three bytes a character: room for that, and more if it is short.
        const auto room = int32_t(text.size() * 4 + 16);
        keys.resize(offset + size_t(room));
        int32_t length = ucol_getSortKey(m_collator, units(text), int32_t(text.size()),
            reinterpret_cast<uint8_t *>(keys.data() + offset), room);
        if (length > room) { // too long for the room left: again with enough
            keys.resize(offset + size_t(length));
            length = ucol_getSortKey(m_collator, units(text), int32_t(text.size()),
                reinterpret_cast<uint8_t *>(keys.data() + offset), length);
        }
        keys.resize(offset + size_t(length)); // length counts the terminating zero
        keyed.push_back({ 0, offset, row });
    }
    m_keysMade += qint64(rows.size());
    for (Keyed &k : keyed)
        k.head = headOf(keys.data() + k.offset);
    std::sort(keyed.begin(), keyed.end(), [&](const Keyed &a, const Keyed &b) {
        if (a.head != b.head)
            return a.head < b.head;
        const int c = std::strcmp(keys.data() + a.offset, keys.data() + b.offset);
        return c != 0 ? c < 0 : byId(a.row, b.row);
    });
    for (size_t i = 0; i < keyed.size(); ++i)
        rows[i] = keyed[i].row;
}

} // namespace Presence::Models
