// The typed configuration of the daemon: a TOML file for everything an operator may show,
// the environment (or a file only the daemon reads) for secrets.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
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

struct TelegramSettings {
    bool enabled = false;                             // true when a [telegram] table is present
    std::string api_url = "https://api.telegram.org"; // no trailing slash
    std::string token;                        // secret: from GHOSTPOST_TELEGRAM_TOKEN or token_file
    std::string bot_username;                 // optional; asked with getMe when empty
    std::chrono::seconds poll_timeout{50};    // long-poll wait, 1..50
    std::chrono::seconds request_timeout{15}; // for every call that is not a long poll
    std::chrono::milliseconds per_chat_interval{1000}; // pacing: between two sends to a chat
    int group_messages_per_minute = 20;                // pacing: sends to one group a minute
};

// [platform.discourse]: a forum read by polling its REST API.
struct DiscourseSettings {
    bool enabled = false;            // true when a [platform.discourse] table is present
    std::string base_url;            // "https://forum.example.org", no trailing slash
    std::string username;            // the bot's account (Api-Username)
    std::string api_key;             // secret: from GHOSTPOST_DISCOURSE_API_KEY or key_file
    std::vector<std::int64_t> categories; // ids read in full; empty: mentions and PMs only
    std::chrono::seconds poll_interval{5};    // between two polls that found nothing, 1..300
    std::chrono::seconds request_timeout{15}; // for every request, 1..300
    std::chrono::milliseconds per_topic_interval{1000}; // pacing: between two posts to a topic
};

// [platform.matrix]: the bot is a regular account on a homeserver.
struct MatrixSettings {
    bool enabled = false;                  // true when a [platform.matrix] table is present
    std::string homeserver_url;            // required; no trailing slash
    std::string user_id;                   // required: the bot's account, "@ghostpost:example.org"
    bool join_any = true;                  // auto_join = "all": every invite is followed
    std::vector<std::string> join_servers; // auto_join = [...]: invites to rooms of these servers
    std::string token;                     // secret: from GHOSTPOST_MATRIX_TOKEN or token_file
    std::chrono::seconds poll_timeout{30}; // /sync long-poll wait, 1..120
    std::chrono::seconds request_timeout{30};          // for every call that is not a long poll
    std::chrono::milliseconds per_chat_interval{1000}; // pacing: between two sends to a room
    int group_messages_per_minute = 20;                // pacing: sends to one room a minute
};

// [platform.discord]: the Gateway in, REST out.
struct DiscordSettings {
    bool enabled = false;                                // true when [platform.discord] is present
    std::string api_url = "https://discord.com/api/v10"; // no trailing slash
    std::string gateway_url;                  // ws:// or wss://; empty: asked with GET /gateway/bot
    std::vector<std::string> guild_ids;       // guilds for slash commands; empty: global
    bool message_content = true;              // ask for the privileged Message Content intent
    std::string token;                        // secret: from GHOSTPOST_DISCORD_TOKEN or token_file
    std::chrono::seconds poll_timeout{30};    // how long one poll waits for the Gateway, 1..50
    std::chrono::seconds request_timeout{15}; // for every REST call
    std::chrono::milliseconds per_chat_interval{1000}; // pacing: between two sends to a channel
    int group_messages_per_minute = 50;                // pacing: sends to one channel a minute
};

// Correspondence clocks ([clocks]); the service applies them (docs/operators.md, section 5).
struct ClockSettings {
    std::string default_time_control = "3d"; // a game's clock when !new names no tc=
    std::chrono::hours combat_deadline{24};  // Gnostic Chess: time to choose dice, 1..720
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
};

struct Settings {
    std::string command_prefix = "!";
    // "<platform>:<user id>" entries, e.g. "telegram:123456"; one without a platform is refused
    std::vector<std::string> moderators;
    LimitSettings limits;
    LogLevel log_level = LogLevel::Info;
    StorageSettings storage;
    TelegramSettings telegram;
    DiscourseSettings discourse;
    MatrixSettings matrix;
    DiscordSettings discord;
    ClockSettings clocks;
    WebSettings web;
    MetricsSettings metrics;
};

// A configuration that cannot be used. what() names the key and, when the file has one,
// the line: "ghostpost.toml:7: telegram.poll_timeout: must be between 1 and 50".
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

// Parses TOML text; `source` names it in errors, relative token_file paths resolve against
// `base_dir`. Throws ConfigError for bad syntax, unknown keys, wrong types, bad values,
// or a [telegram] table without a token.
Settings parse(std::string_view toml_text, const std::string& source,
               const Environment& environment, const std::filesystem::path& base_dir = {});

// Reads and parses a file. Throws ConfigError (also when the file cannot be read).
Settings load(const std::filesystem::path& file, const Environment& environment);

// A PostgreSQL database named on a command line rather than in a file (`ghostpost web
// --db-url`): `url` as [storage] url must be (postgresql://..., without a password), the
// password from GHOSTPOST_DATABASE_PASSWORD (unset: libpq's own means). Throws ConfigError
// naming `source`.
StorageSettings postgres_storage(const std::string& url, const std::string& source,
                                 const Environment& environment);

} // namespace ghostpost::config
