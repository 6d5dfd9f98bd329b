// The reader API a platform module uses on its [platform.<name>] table, so that every table
// of the file reads alike: unknown keys refused, each error naming the key and its line, and
// secrets from the environment or a file, never quoted in an error.
#pragma once

#include "ghostpost/config/config.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <toml++/toml.h>
#include <vector>

namespace ghostpost::config {

// A table handed through unread (config.h keeps toml++ out of its users). It points into the
// whole parsed file, which it keeps: a copy of a toml++ table would lose its line numbers.
struct TomlTable {
    std::shared_ptr<const toml::table> document;
    const toml::table& table;
};

// Reads one TOML table against the keys it may hold, so a typo is an error, not a default.
// Every error is a ConfigError naming "<prefix><key>" and, when the file has one, the line.
class TableReader {
public:
    // Throws ConfigError "unknown key" for a key not in `known`.
    TableReader(const toml::table& table, std::string prefix, std::string source,
                std::set<std::string> known, std::filesystem::path base_dir = {});
    // A platform's table: its keys are named "<table.key>.<key>".
    TableReader(const PlatformTable& table, std::set<std::string> known);

    [[noreturn]] void fail_at(const toml::node& node, const std::string& key,
                              const std::string& problem) const;
    // "<key>: is required", at the table's own line.
    [[noreturn]] void fail_missing(const std::string& key) const;
    // An error about `key` that no single line of the file holds (a secret from elsewhere).
    [[noreturn]] void fail_unplaced(const std::string& key, const std::string& problem) const;

    // Each: std::nullopt when the key is absent; ConfigError when it has another type.
    std::optional<std::string> string(const std::string& key) const;
    std::optional<std::int64_t> integer(const std::string& key) const;
    std::optional<bool> boolean(const std::string& key) const;
    std::optional<std::vector<std::string>> strings(const std::string& key) const;

    // The node of a key that is present.
    const toml::node& node(const std::string& key) const { return *table_.get(key); }
    const toml::table& table() const { return table_; }
    // Where the table stands, without the trailing '.': "platform.<name>".
    std::string key() const;
    const std::filesystem::path& base_dir() const { return base_dir_; }

private:
    const toml::table& table_;
    std::string prefix_;
    std::string source_;
    std::set<std::string> known_;
    std::filesystem::path base_dir_;
};

// `text` without leading and trailing white space.
std::string trim(std::string text);

// An optional number of seconds between `low` and `high`; `into` keeps its default when the key
// is absent. Error: "must be between <low> and <high> seconds".
void read_seconds(const TableReader& reader, const std::string& key, std::int64_t low,
                  std::int64_t high, std::chrono::seconds& into);

// The pacing keys every chat platform has: per_chat_interval_ms (0..60000) and
// group_messages_per_minute (1..1000); each keeps its default when absent.
void read_pacing(const TableReader& reader, std::chrono::milliseconds& per_chat, int& per_minute);

// An http:// or https:// address without its trailing '/'; std::nullopt when absent. Error:
// "must start with http:// or https://".
std::optional<std::string> read_http_url(const TableReader& reader, const std::string& key);

// A secret and where it came from, for errors that must not quote it.
struct Secret {
    std::string value;
    std::string origin; // "the environment variable X" or "the file /path"
};

// The secret of a platform's table: the environment variable `variable` wins, so that a
// container can override a file baked into its image; else the file `file_key` names, relative
// to the configuration's folder. Errors: neither ("no <what>: set <variable> or [<table>]
// <file_key>"), an unreadable file, and an empty one when `refuse_empty` is set.
Secret read_secret(const TableReader& reader, const Environment& environment,
                   const std::string& variable, const std::string& file_key,
                   const std::string& what, bool refuse_empty);

} // namespace ghostpost::config
