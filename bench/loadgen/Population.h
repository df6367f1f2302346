#pragma once

// C++
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace LoadGen {

// The users of a users file (docs/protocol.md §2): ids and tokens, and the index of each id.
// Read-only once loaded, so every worker thread may look ids up at once.
class Population {
public:
    [[nodiscard]] static std::optional<Population> load(
        const std::string &path, std::string *error);

    [[nodiscard]] int size() const { return static_cast<int>(m_ids.size()); }
    [[nodiscard]] const std::string &id(int user) const { return m_ids[size_t(user)]; }
    [[nodiscard]] const std::string &token(int user) const { return m_tokens[size_t(user)]; }
    // The index of `id`, or -1 when the file does not hold it.
    [[nodiscard]] int indexOf(std::string_view id) const;

private:
    std::vector<std::string> m_ids;
    std::vector<std::string> m_tokens;
    std::unordered_map<std::string, int> m_index;
};

} // namespace LoadGen
