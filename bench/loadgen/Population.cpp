#include "bench/loadgen/Population.h"

// C++
#include <fstream>
#include <sstream>
// System
#include <boost/json.hpp>

namespace LoadGen {

std::optional<Population> Population::load(const std::string &path, std::string *error)
{
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        *error = "cannot read " + path;
        return std::nullopt;
    }
    std::stringstream text;
    text << file.rdbuf();
    boost::system::error_code code;
    const boost::json::value document = boost::json::parse(text.str(), code);
    const auto *users
        = !code && document.is_object() ? document.as_object().if_contains("users") : nullptr;
    if (!users || !users->is_array()) {
        *error = path + ": not a users file ({\"users\": [...]})";
        return std::nullopt;
    }
    Population population;
    for (const boost::json::value &entry : users->as_array()) {
        const auto *user = entry.if_object();
        const auto *id = user ? user->if_contains("id") : nullptr;
        const auto *token = user ? user->if_contains("token") : nullptr;
        if (!id || !id->is_string() || !token || !token->is_string()) {
            *error = path + ": a user without a string id and token";
            return std::nullopt;
        }
        population.m_index.emplace(std::string(id->as_string()), population.size());
        population.m_ids.emplace_back(id->as_string());
        population.m_tokens.emplace_back(token->as_string());
    }
    if (population.m_ids.empty()) {
        *error = path + " holds no users";
        return std::nullopt;
    }
    return population;
}

int Population::indexOf(std::string_view id) const
{
    const auto found = m_index.find(std::string(id));
    return found == m_index.end() ? -1 : found->second;
}

} // namespace LoadGen
