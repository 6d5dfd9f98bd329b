#include "ghostpost/config/table_reader.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace ghostpost::config {

namespace {

std::optional<std::uint32_t> line_of(const toml::node& node) {
    const auto line = node.source().begin.line;
    if (line == 0) {
        return std::nullopt;
    }
    return static_cast<std::uint32_t>(line);
}

} // namespace

TableReader::TableReader(const toml::table& table, std::string prefix, std::string source,
                         std::set<std::string> known, std::filesystem::path base_dir)
    : table_(table), prefix_(std::move(prefix)), source_(std::move(source)),
      known_(std::move(known)), base_dir_(std::move(base_dir)) {
    for (const auto& [key, node] : table_) {
        const std::string name{key.str()};
        if (!known_.contains(name)) {
            fail_at(node, name, "unknown key");
        }
    }
}

TableReader::TableReader(const PlatformTable& table, std::set<std::string> known)
    : TableReader(table.table->table, table.key + ".", table.source, std::move(known),
                  table.base_dir) {}

void TableReader::fail_at(const toml::node& node, const std::string& key,
                          const std::string& problem) const {
    throw ConfigError(source_, line_of(node), prefix_ + key, problem);
}

void TableReader::fail_missing(const std::string& key) const {
    throw ConfigError(source_, line_of(table_), prefix_ + key, "is required");
}

void TableReader::fail_unplaced(const std::string& key, const std::string& problem) const {
    throw ConfigError(source_, std::nullopt, prefix_ + key, problem);
}

std::string TableReader::key() const {
    return prefix_.empty() ? prefix_ : prefix_.substr(0, prefix_.size() - 1);
}

std::optional<std::string> TableReader::string(const std::string& key) const {
    const toml::node* node = table_.get(key);
    if (node == nullptr) {
        return std::nullopt;
    }
    if (!node->is_string()) {
        fail_at(*node, key, "must be a string");
    }
    return node->value<std::string>();
}

std::optional<std::int64_t> TableReader::integer(const std::string& key) const {
    const toml::node* node = table_.get(key);
    if (node == nullptr) {
        return std::nullopt;
    }
    if (!node->is_integer()) {
        fail_at(*node, key, "must be an integer");
    }
    return node->value<std::int64_t>();
}

std::optional<bool> TableReader::boolean(const std::string& key) const {
    const toml::node* node = table_.get(key);
    if (node == nullptr) {
        return std::nullopt;
    }
    if (!node->is_boolean()) {
        fail_at(*node, key, "must be true or false");
    }
    return node->value<bool>();
}

std::optional<std::vector<std::string>> TableReader::strings(const std::string& key) const {
    const toml::node* node = table_.get(key);
    if (node == nullptr) {
        return std::nullopt;
    }
    const toml::array* array = node->as_array();
    if (array == nullptr) {
        fail_at(*node, key, "must be an array of strings");
    }
    std::vector<std::string> values;
    for (const toml::node& element : *array) {
        if (!element.is_string()) {
            fail_at(element, key, "must be an array of strings");
        }
        values.push_back(*element.value<std::string>());
    }
    return values;
}

std::string trim(std::string text) {
    const auto not_space = [](unsigned char c) { return std::isspace(c) == 0; };
    text.erase(text.begin(), std::find_if(text.begin(), text.end(), not_space));
    text.erase(std::find_if(text.rbegin(), text.rend(), not_space).base(), text.end());
    return text;
}

void read_seconds(const TableReader& reader, const std::string& key, std::int64_t low,
                  std::int64_t high, std::chrono::seconds& into) {
    if (auto value = reader.integer(key)) {
        if (*value < low || *value > high)
            reader.fail_at(reader.node(key), key,
                           "must be between " + std::to_string(low) + " and " +
                               std::to_string(high) + " seconds");
        into = std::chrono::seconds(*value);
    }
}

void read_pacing(const TableReader& reader, std::chrono::milliseconds& per_chat, int& per_minute) {
    if (auto millis = reader.integer("per_chat_interval_ms")) {
        if (*millis < 0 || *millis > 60000)
            reader.fail_at(reader.node("per_chat_interval_ms"), "per_chat_interval_ms",
                           "must be between 0 and 60000");
        per_chat = std::chrono::milliseconds(*millis);
    }
    if (auto count = reader.integer("group_messages_per_minute")) {
        if (*count < 1 || *count > 1000)
            reader.fail_at(reader.node("group_messages_per_minute"), "group_messages_per_minute",
                           "must be between 1 and 1000");
        per_minute = static_cast<int>(*count);
    }
}

std::optional<std::string> read_http_url(const TableReader& reader, const std::string& key) {
    auto url = reader.string(key);
    if (!url)
        return std::nullopt;
    if (!url->starts_with("http://") && !url->starts_with("https://"))
        reader.fail_at(reader.node(key), key, "must start with http:// or https://");
    while (!url->empty() && url->back() == '/')
        url->pop_back();
    return url;
}

Secret read_secret(const TableReader& reader, const Environment& environment,
                   const std::string& variable, const std::string& file_key,
                   const std::string& what, bool refuse_empty) {
    if (auto from_env = environment(variable); from_env && !trim(*from_env).empty())
        return {trim(*from_env), "the environment variable " + variable};
    if (auto file = reader.string(file_key)) {
        std::filesystem::path path(*file);
        if (path.is_relative() && !reader.base_dir().empty())
            path = reader.base_dir() / path;
        std::ifstream in(path);
        if (!in)
            reader.fail_at(reader.node(file_key), file_key, "cannot read " + path.string());
        std::stringstream text;
        text << in.rdbuf();
        Secret secret{trim(text.str()), "the file " + path.string()};
        if (refuse_empty && secret.value.empty())
            reader.fail_at(reader.node(file_key), file_key, path.string() + " is empty");
        return secret;
    }
    reader.fail_unplaced(file_key, "no " + what + ": set " + variable + " or [" + reader.key() +
                                       "] " + file_key);
}

} // namespace ghostpost::config
