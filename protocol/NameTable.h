#pragma once

// C++
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>

// Qt
#include <QString>
#include <QStringView>

namespace Presence::Protocol {

// The wire names of an enum's values, written once: toString(), the parser and the phrase an
// error lists them with ("online, away or invisible") all read the same table, so a new value
// cannot be known to one and not the others.
template <typename Enum, std::size_t N> class NameTable {
public:
    using Entry = std::pair<Enum, const char16_t *>;

    constexpr explicit NameTable(const std::array<Entry, N> &entries)
        : m_entries(entries)
    {
    }

    // Empty for a value the table does not name. The names are literals: the string refers
    // to them rather than copying (a status is named for every presence push serialized).
    [[nodiscard]] QString name(Enum value) const
    {
        for (const auto &[entry, name] : m_entries) {
            if (entry == value)
                return QString::fromRawData(reinterpret_cast<const QChar *>(name),
                    qsizetype(std::char_traits<char16_t>::length(name)));
        }
        return {};
    }

    // Names are matched exactly: the wire is lower-case, and "Online" is not a status.
    [[nodiscard]] std::optional<Enum> value(QStringView name) const
    {
        for (const auto &[entry, entryName] : m_entries) {
            if (name == QStringView(entryName))
                return entry;
        }
        return std::nullopt;
    }

    // "a, b or c", for "field 'status' must be a, b or c".
    [[nodiscard]] QString alternatives() const
    {
        QString phrase;
        for (std::size_t i = 0; i < N; ++i) {
            if (i > 0)
                phrase += i + 1 == N ? QStringView(u" or ") : QStringView(u", ");
            phrase += QStringView(m_entries[i].second);
        }
        return phrase;
    }

private:
    std::array<Entry, N> m_entries;
};

// nameTable<Enum>({ { Enum::A, u"a" }, ... }): the count comes from the list.
template <typename Enum, std::size_t N>
constexpr NameTable<Enum, N> nameTable(const std::pair<Enum, const char16_t *> (&entries)[N])
{
    return NameTable<Enum, N>(std::to_array(entries));
}

} // namespace Presence::Protocol
