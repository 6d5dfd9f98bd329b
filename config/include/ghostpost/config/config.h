// The typed configuration of the daemon: a TOML file for everything an operator may show,
// the environment (or a file only the daemon reads) for secrets.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ghostpost::config {

enum class LogLevel : std::uint8_t { Debug, Info, Warning, Error };

// "debug" -> LogLevel::Debug...; std::nullopt for any other word.
std::optional<LogLevel> parse_log_level(std::string_view word);
std::string_view to_string(LogLevel level);

struct StorageSettings {
    std::filesystem::path path; // the SQLite database file; empty when `url` is set
    std::string url;            // a PostgreSQL database shared by several daemons
    std::string password;       // secret: from GHOSTPOST_DATABASE_PASSWORD or password_file
    // Several daemons on PostgreSQL: how long a daemon polls a platform unrenewed (another
    // takes over within it after the owner dies), and holds an outbox entry it delivers.
    std::chrono::seconds lease{30};  // 3..600
    std::chrono::seconds claim{120}; // 5..3600
};

// The read-only web view ([web]): served when `listen` is set; replies link to games when
// `base_url` is set.
struct WebSettings {
    std::string listen;   // "127.0.0.1:8080"; empty: no web server
    std::string base_url; // "https://games.example.org" without a trailing '/'; empty: no links
    // What one client may cost the server, here and on [metrics] listen (docs/operators.md,
    // section 10); the ranges are below.
    int max_connections = 1024;       // open at once
    int max_header_bytes = 64 * 1024; // request line and header fields together
    int max_header_lines = 100;
    int timeout_seconds = 5; // for a whole request head, writing an answer, keep-alive idle
};

// The ranges [web]'s limits are checked against; `ghostpost web` checks its options the same.
struct IntRange {
    int low;
    int high;
};
inline constexpr IntRange web_max_connections{16, 65536};
inline constexpr IntRange web_max_header_bytes{1024, 1024 * 1024};
inline constexpr IntRange web_max_header_lines{10, 1000};
inline constexpr IntRange web_timeout_seconds{1, 300};

// The operators' /healthz and /metrics on an address of their own ([metrics]); without it they
// are served on [web] listen, when that is set.
struct MetricsSettings {
    std::string listen; // "127.0.0.1:9464"; empty: none of their own
};

// A [platform.<name>] table, handed through unread to the module that claims the name, which
// reads it with table_reader.h.
struct TomlTable;
struct PlatformTable {
    std::string key;                // where it stands: "platform.<name>", or its older alias
    std::string source;             // the file's name, for errors
    std::filesystem::path base_dir; // where the table's relative file names resolve
    std::shared_ptr<const TomlTable> table;
};

// A platform name a module claims: parse() refuses a [platform.<name>] nobody claims.
struct PlatformClaim {
    std::string name;       // [platform.<name>]
    std::string alias = {}; // a top-level table older files used instead; empty: none
    std::string title = {}; // the platform's name in prose, for the error that finds both tables
};

// Correspondence clocks ([clocks]); the service applies them (docs/operators.md, section 5).
struct ClockSettings {
    std::string default_time_control = "3d"; // a game's clock when !new names no tc=
    std::chrono::hours combat_deadline{24};  // a combat's time to choose dice, 1..720
    int vacation_days = 30;                  // per player and calendar year, 0..366
    int challenge_expiry_days = 7;           // an unanswered challenge lapses after, 1..90
    int max_open_challenges = 10;            // unanswered challenges one player may have, 1..100
};

// Per-player limits ([bot]); the service applies them (docs/operators.md, section 5).
struct LimitSettings {
    int max_bot_games = 3;        // games against the bot under way per player, 1..100
    int max_open_games = 30;      // games under way and open challenges per player, 1..1000
    int commands_per_minute = 30; // per account; 0: no limit; at most 1000
    int engine_threads = 0;       // the bot's thoughts at once; 0: half the cores; at most 64
    // Whether games against the bot may be rated. Off by default: a bot's level is a setting,
    // not a player, and a rating farmed from it says nothing (lichess keeps bot games unrated).
    bool rated_bot_games = false;
};

struct Settings {
    std::string command_prefix = "!";
    // The language of replies when neither their reader nor their channel chose one and the
    // platform said nothing ([bot] language), as a catalog names it.
    std::string language = "en";
    // "<platform>:<user id>" entries; one without a platform is refused
    std::vector<std::string> moderators;
    LimitSettings limits;
    LogLevel log_level = LogLevel::Info;
    StorageSettings storage;
    // The platform tables present, by the claimed name; each is its module's to read.
    std::map<std::string, PlatformTable, std::less<>> platforms;
    ClockSettings clocks;
    WebSettings web;
    MetricsSettings metrics;
};

// A configuration that cannot be used. what() names the key and, when the file has one,
// the line: "ghostpost.toml:7: storage.lease_seconds: must be between 3 and 600 seconds".
class ConfigError : public std::runtime_error {
public:
    ConfigError(std::string source, std::optional<std::uint32_t> line, std::string key,
                std::string problem);
    const std::string& key() const noexcept { return key_; }
    std::optional<std::uint32_t> line() const noexcept { return line_; }

private:
    std::string key_;
    std::optional<std::uint32_t> line_;
};

// Looks up an environment variable; std::nullopt when unset.
using Environment = std::function<std::optional<std::string>(const std::string& name)>;
Environment process_environment();

// Parses TOML text; `source` names it in errors, relative file names resolve against
// `base_dir`. The tables of `platforms` are handed through unread in Settings::platforms.
// Throws ConfigError for bad syntax, unknown keys, wrong types, bad values, a [platform.<name>]
// that no claim names, or a platform given both as [platform.<name>] and as its alias.
Settings parse(std::string_view toml_text, const std::string& source,
               const Environment& environment, const std::filesystem::path& base_dir = {},
               const std::vector<PlatformClaim>& platforms = {});

// Reads and parses a file. Throws ConfigError (also when the file cannot be read).
Settings load(const std::filesystem::path& file, const Environment& environment,
              const std::vector<PlatformClaim>& platforms = {});

// A PostgreSQL database named on a command line rather than in a file (`ghostpost web
// --db-url`): `url` as [storage] url must be (postgresql://..., without a password), the
// password from GHOSTPOST_DATABASE_PASSWORD (unset: libpq's own means). Throws ConfigError
// naming `source`.
StorageSettings postgres_storage(const std::string& url, const std::string& source,
                                 const Environment& environment);

} // namespace ghostpost::config
