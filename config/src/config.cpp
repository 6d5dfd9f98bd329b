#include "ghostpost/config/config.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <toml++/toml.h>

namespace ghostpost::config {

namespace {

constexpr const char* token_variable = "GHOSTPOST_TELEGRAM_TOKEN";

std::string format_error(const std::string& source, std::optional<std::uint32_t> line,
                         const std::string& key, const std::string& problem) {
    std::string text = source;
    if (line) {
        text += ":" + std::to_string(*line);
    }
    text += ": ";
    if (!key.empty()) {
        text += key + ": ";
    }
    return text + problem;
}

// Reads one TOML table against the keys it may hold, so a typo is an error, not a default.
class TableReader {
public:
    TableReader(const toml::table& table, std::string prefix, const std::string& source,
                std::set<std::string> known)
        : table_(table), prefix_(std::move(prefix)), source_(source), known_(std::move(known)) {
        for (const auto& [key, node] : table_) {
            const std::string name{key.str()};
            if (!known_.contains(name)) {
                fail_at(node, name, "unknown key");
            }
        }
    }

    [[noreturn]] void fail_at(const toml::node& node, const std::string& key,
                              const std::string& problem) const {
        throw ConfigError(source_, line_of(node), prefix_ + key, problem);
    }

    [[noreturn]] void fail_missing(const std::string& key) const {
        throw ConfigError(source_, line_of(table_), prefix_ + key, "is required");
    }

    std::optional<std::string> string(const std::string& key) const {
        const toml::node* node = table_.get(key);
        if (node == nullptr) {
            return std::nullopt;
        }
        if (!node->is_string()) {
            fail_at(*node, key, "must be a string");
        }
        return node->value<std::string>();
    }

    std::optional<std::int64_t> integer(const std::string& key) const {
        const toml::node* node = table_.get(key);
        if (node == nullptr) {
            return std::nullopt;
        }
        if (!node->is_integer()) {
            fail_at(*node, key, "must be an integer");
        }
        return node->value<std::int64_t>();
    }

    std::optional<bool> boolean(const std::string& key) const {
        const toml::node* node = table_.get(key);
        if (node == nullptr) {
            return std::nullopt;
        }
        if (!node->is_boolean()) {
            fail_at(*node, key, "must be true or false");
        }
        return node->value<bool>();
    }

    std::optional<std::vector<std::string>> strings(const std::string& key) const {
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

    const toml::node& node(const std::string& key) const { return *table_.get(key); }

private:
    static std::optional<std::uint32_t> line_of(const toml::node& node) {
        const auto line = node.source().begin.line;
        if (line == 0) {
            return std::nullopt;
        }
        return static_cast<std::uint32_t>(line);
    }

    const toml::table& table_;
    std::string prefix_;
    const std::string& source_;
    std::set<std::string> known_;
};

std::string trim(std::string text) {
    const auto not_space = [](unsigned char c) { return std::isspace(c) == 0; };
    text.erase(text.begin(), std::find_if(text.begin(), text.end(), not_space));
    text.erase(std::find_if(text.rbegin(), text.rend(), not_space).base(), text.end());
    return text;
}

// A Bot API token is "<bot id>:<secret>"; anything else is a misconfiguration worth naming
// before the first request fails with a bare 404.
bool looks_like_token(const std::string& token) {
    const auto colon = token.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == token.size()) {
        return false;
    }
    const bool id_ok = std::all_of(token.begin(), token.begin() + static_cast<long>(colon),
                                   [](unsigned char c) { return std::isdigit(c) != 0; });
    const bool secret_ok =
        std::all_of(token.begin() + static_cast<long>(colon) + 1, token.end(),
                    [](unsigned char c) { return std::isalnum(c) != 0 || c == '_' || c == '-'; });
    return id_ok && secret_ok;
}

// The shape of a time control ("3d", "12h", "7d+1d/14d", "none"); the service reads its
// meaning. Config depends on nothing of ours, so it checks the form only.
bool time_control_shaped(std::string_view text) {
    if (text == "none")
        return true;
    auto span = [](std::string_view s) {
        return s.size() >= 2 && s.size() <= 6 &&
               (s.back() == 'd' || s.back() == 'h' || s.back() == 'm') &&
               s.front() != '0' &&
               std::all_of(s.begin(), s.end() - 1, [](char c) { return c >= '0' && c <= '9'; });
    };
    const auto plus = text.find('+');
    if (plus == std::string_view::npos)
        return span(text);
    const auto slash = text.find('/', plus);
    if (slash == std::string_view::npos) // an increment without a cap
        return span(text.substr(0, plus)) && span(text.substr(plus + 1));
    return span(text.substr(0, plus)) && span(text.substr(plus + 1, slash - plus - 1)) &&
           span(text.substr(slash + 1));
}

const toml::table* subtable(const toml::table& root, const std::string& name,
                            const std::string& source) {
    const toml::node* node = root.get(name);
    if (node == nullptr) {
        return nullptr;
    }
    if (!node->is_table()) {
        const auto line = node->source().begin.line;
        throw ConfigError(source, line == 0 ? std::nullopt : std::optional<std::uint32_t>(line),
                          name, "must be a table");
    }
    return node->as_table();
}

// An optional number of seconds between `low` and `high`; `into` keeps its default when the key
// is absent.
void read_seconds(const TableReader& reader, const std::string& name, std::int64_t low,
                  std::int64_t high, std::chrono::seconds& into) {
    if (auto value = reader.integer(name)) {
        if (*value < low || *value > high)
            reader.fail_at(reader.node(name), name,
                           "must be between " + std::to_string(low) + " and " +
                               std::to_string(high) + " seconds");
        into = std::chrono::seconds(*value);
    }
}

// Why `url` cannot name the PostgreSQL database; nullopt when it can. `password_hint` says
// where the password goes instead.
std::optional<std::string> url_problem(const std::string& url, const std::string& password_hint) {
    if (!url.starts_with("postgresql://") && !url.starts_with("postgres://"))
        return "must be a PostgreSQL URL, postgresql://user@host[:port]/database";
    const std::string authority = url.substr(url.find("//") + 2);
    const std::size_t at = authority.find('@');
    const std::size_t slash = authority.find('/');
    if (at != std::string::npos && (slash == std::string::npos || at < slash) &&
        authority.substr(0, at).find(':') != std::string::npos)
        return "must not hold the password: set " + password_hint;
    return std::nullopt;
}

// [storage]: an SQLite file (`path`) or a PostgreSQL database (`url`), never both. The
// database's password comes from GHOSTPOST_DATABASE_PASSWORD or `password_file`, never from the
// URL (a URL is printed in errors and process lists); without either, libpq's own means apply
// (PGPASSWORD, ~/.pgpass).
void read_storage(const toml::table& table, const std::string& source,
                  const Environment& environment, const std::filesystem::path& base_dir,
                  StorageSettings& storage) {
    const TableReader reader(table, "storage.", source,
                             {"path", "url", "password_file", "lease_seconds", "claim_seconds"});
    const auto path = reader.string("path");
    const auto url = reader.string("url");
    if (path && url)
        reader.fail_at(reader.node("url"), "url",
                       "give either path (SQLite) or url (PostgreSQL), not both");
    if (!path && !url)
        reader.fail_missing("path");
    if (url) {
        if (auto problem =
                url_problem(*url, "GHOSTPOST_DATABASE_PASSWORD or [storage] password_file"))
            reader.fail_at(reader.node("url"), "url", *problem);
        storage.url = *url;
        if (auto secret = environment("GHOSTPOST_DATABASE_PASSWORD");
            secret && !trim(*secret).empty()) {
            storage.password = trim(*secret);
        } else if (auto file = reader.string("password_file")) {
            std::filesystem::path where(*file);
            if (where.is_relative() && !base_dir.empty())
                where = base_dir / where;
            std::ifstream in(where);
            if (!in)
                reader.fail_at(reader.node("password_file"), "password_file",
                               "cannot read " + where.string());
            std::stringstream text;
            text << in.rdbuf();
            storage.password = trim(text.str());
            if (storage.password.empty())
                reader.fail_at(reader.node("password_file"), "password_file",
                               where.string() + " is empty");
        }
    } else {
        if (path->empty())
            reader.fail_at(reader.node("path"), "path", "must not be empty");
        if (reader.string("password_file"))
            reader.fail_at(reader.node("password_file"), "password_file",
                           "is for a PostgreSQL url; an SQLite file has no password");
        storage.path = *path;
        if (storage.path.is_relative() && !base_dir.empty())
            storage.path = base_dir / storage.path;
    }
    read_seconds(reader, "lease_seconds", 3, 600, storage.lease);
    read_seconds(reader, "claim_seconds", 5, 3600, storage.claim);
}

// A listen address, "host:port", of [web] or [metrics]; `example` is named in the error.
std::optional<std::string> read_listen(const TableReader& reader, const std::string& example) {
    auto listen = reader.string("listen");
    if (!listen)
        return std::nullopt;
    const std::size_t colon = listen->rfind(':');
    const std::string port = colon == std::string::npos ? "" : listen->substr(colon + 1);
    if (colon == 0 || port.empty() || port.size() > 5 ||
        port.find_first_not_of("0123456789") != std::string::npos || std::stoi(port) < 1 ||
        std::stoi(port) > 65535)
        reader.fail_at(reader.node("listen"), "listen",
                       "must be host:port, e.g. \"" + example + "\"");
    return listen;
}

// The pacing keys every chat platform has: per_chat_interval_ms and group_messages_per_minute.
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

// `key` is where the table stands: "platform.telegram" (or "telegram", the older form).
void read_telegram(const toml::table& table, const std::string& key, const std::string& source,
                   const Environment& environment, const std::filesystem::path& base_dir,
                   TelegramSettings& telegram) {
    const TableReader reader(table, key + ".", source,
                             {"api_url", "token_file", "bot_username", "poll_timeout",
                              "request_timeout", "per_chat_interval_ms",
                              "group_messages_per_minute"});
    telegram.enabled = true;
    if (auto url = reader.string("api_url")) {
        if (!url->starts_with("http://") && !url->starts_with("https://")) {
            reader.fail_at(reader.node("api_url"), "api_url",
                           "must start with http:// or https://");
        }
        while (!url->empty() && url->back() == '/') {
            url->pop_back();
        }
        telegram.api_url = *url;
    }
    if (auto name = reader.string("bot_username")) {
        telegram.bot_username = name->starts_with("@") ? name->substr(1) : *name;
    }
    read_seconds(reader, "poll_timeout", 1, 50, telegram.poll_timeout);
    read_seconds(reader, "request_timeout", 1, 300, telegram.request_timeout);
    read_pacing(reader, telegram.per_chat_interval, telegram.group_messages_per_minute);

    // The environment wins so that a container can override a file baked into the image.
    // Errors below never quote the token, only where it came from.
    std::string origin;
    if (auto from_env = environment(token_variable); from_env && !trim(*from_env).empty()) {
        telegram.token = trim(*from_env);
        origin = std::string("the environment variable ") + token_variable;
    } else if (auto file = reader.string("token_file")) {
        std::filesystem::path path(*file);
        if (path.is_relative() && !base_dir.empty()) {
            path = base_dir / path;
        }
        std::ifstream in(path);
        if (!in) {
            reader.fail_at(reader.node("token_file"), "token_file", "cannot read " + path.string());
        }
        std::stringstream text;
        text << in.rdbuf();
        telegram.token = trim(text.str());
        origin = "the file " + path.string();
    } else {
        throw ConfigError(source, std::nullopt, key + ".token_file",
                          std::string("no token: set ") + token_variable +
                              " or [" + key + "] token_file");
    }
    if (!looks_like_token(telegram.token)) {
        throw ConfigError(source, std::nullopt, key + ".token_file",
                          "the token in " + origin +
                              " is not of the form <bot id>:<secret> given by @BotFather");
    }
}

constexpr const char* discourse_key_variable = "GHOSTPOST_DISCOURSE_API_KEY";

void read_discourse(const toml::table& table, const std::string& source,
                    const Environment& environment, const std::filesystem::path& base_dir,
                    DiscourseSettings& discourse) {
    const std::string key = "platform.discourse";
    const TableReader reader(table, key + ".", source,
                             {"base_url", "username", "categories", "key_file", "poll_interval",
                              "request_timeout", "per_topic_interval_ms"});
    discourse.enabled = true;
    auto url = reader.string("base_url");
    if (!url)
        reader.fail_missing("base_url");
    if (!url->starts_with("http://") && !url->starts_with("https://"))
        reader.fail_at(reader.node("base_url"), "base_url", "must start with http:// or https://");
    while (!url->empty() && url->back() == '/')
        url->pop_back();
    discourse.base_url = *url;
    auto name = reader.string("username");
    if (!name)
        reader.fail_missing("username");
    discourse.username = name->starts_with("@") ? name->substr(1) : *name;
    if (discourse.username.empty())
        reader.fail_at(reader.node("username"), "username", "must not be empty");
    if (const toml::node* node = table.get("categories")) {
        const toml::array* array = node->as_array();
        if (array == nullptr)
            reader.fail_at(*node, "categories", "must be an array of category ids");
        for (const toml::node& element : *array) {
            if (!element.is_integer() || *element.value<std::int64_t>() < 1)
                reader.fail_at(element, "categories", "must be an array of category ids");
            discourse.categories.push_back(*element.value<std::int64_t>());
        }
    }
    read_seconds(reader, "poll_interval", 1, 300, discourse.poll_interval);
    read_seconds(reader, "request_timeout", 1, 300, discourse.request_timeout);
    if (auto millis = reader.integer("per_topic_interval_ms")) {
        if (*millis < 0 || *millis > 60000)
            reader.fail_at(reader.node("per_topic_interval_ms"), "per_topic_interval_ms",
                           "must be between 0 and 60000");
        discourse.per_topic_interval = std::chrono::milliseconds(*millis);
    }
    // As for Telegram: the environment wins, and no error quotes the key.
    if (auto from_env = environment(discourse_key_variable); from_env && !trim(*from_env).empty()) {
        discourse.api_key = trim(*from_env);
    } else if (auto file = reader.string("key_file")) {
        std::filesystem::path path(*file);
        if (path.is_relative() && !base_dir.empty())
            path = base_dir / path;
        std::ifstream in(path);
        if (!in)
            reader.fail_at(reader.node("key_file"), "key_file", "cannot read " + path.string());
        std::stringstream text;
        text << in.rdbuf();
        discourse.api_key = trim(text.str());
        if (discourse.api_key.empty())
            reader.fail_at(reader.node("key_file"), "key_file", path.string() + " is empty");
    } else {
        throw ConfigError(source, std::nullopt, key + ".key_file",
                          std::string("no API key: set ") + discourse_key_variable + " or [" +
                              key + "] key_file");
    }
}

// The secret of [platform.<name>]: the environment wins so that a container can override a file
// baked into the image. Errors never quote the token, only where it came from.
std::string read_token(const TableReader& reader, const std::string& key,
                       const std::string& variable, const std::string& source,
                       const Environment& environment, const std::filesystem::path& base_dir) {
    if (auto from_env = environment(variable); from_env && !trim(*from_env).empty())
        return trim(*from_env);
    if (auto file = reader.string("token_file")) {
        std::filesystem::path path(*file);
        if (path.is_relative() && !base_dir.empty())
            path = base_dir / path;
        std::ifstream in(path);
        if (!in)
            reader.fail_at(reader.node("token_file"), "token_file", "cannot read " + path.string());
        std::stringstream text;
        text << in.rdbuf();
        if (trim(text.str()).empty())
            reader.fail_at(reader.node("token_file"), "token_file", path.string() + " is empty");
        return trim(text.str());
    }
    throw ConfigError(source, std::nullopt, key + ".token_file",
                      "no token: set " + variable + " or [" + key + "] token_file");
}

void read_matrix(const toml::table& table, const std::string& source,
                 const Environment& environment, const std::filesystem::path& base_dir,
                 MatrixSettings& matrix) {
    const std::string key = "platform.matrix";
    const TableReader reader(table, key + ".", source,
                             {"homeserver_url", "user_id", "auto_join", "token_file",
                              "poll_timeout", "request_timeout", "per_chat_interval_ms",
                              "group_messages_per_minute"});
    matrix.enabled = true;
    auto url = reader.string("homeserver_url");
    if (!url)
        reader.fail_missing("homeserver_url");
    if (!url->starts_with("http://") && !url->starts_with("https://"))
        reader.fail_at(reader.node("homeserver_url"), "homeserver_url",
                       "must start with http:// or https://");
    while (!url->empty() && url->back() == '/')
        url->pop_back();
    matrix.homeserver_url = *url;
    const auto user = reader.string("user_id");
    if (!user)
        reader.fail_missing("user_id");
    const auto colon = user->find(':');
    if (!user->starts_with("@") || colon == std::string::npos || colon < 2 ||
        colon + 1 == user->size() ||
        std::any_of(user->begin(), user->end(), [](unsigned char c) { return std::isspace(c); }))
        reader.fail_at(reader.node("user_id"), "user_id",
                       "must be a full Matrix user id like \"@ghostpost:example.org\"");
    matrix.user_id = *user;
    if (const toml::node* join = table.get("auto_join")) {
        if (join->is_string()) {
            if (*join->value<std::string>() != "all")
                reader.fail_at(*join, "auto_join", "must be \"all\" or a list of server names");
            matrix.join_any = true;
        } else {
            const auto servers = reader.strings("auto_join");
            if (std::any_of(servers->begin(), servers->end(), [](const std::string& s) {
                    return s.empty() || s.find('/') != std::string::npos;
                }))
                reader.fail_at(*join, "auto_join", "server names must not be empty or hold '/'");
            matrix.join_any = false;
            matrix.join_servers = *servers;
        }
    }
    read_seconds(reader, "poll_timeout", 1, 120, matrix.poll_timeout);
    read_seconds(reader, "request_timeout", 1, 300, matrix.request_timeout);
    read_pacing(reader, matrix.per_chat_interval, matrix.group_messages_per_minute);
    matrix.token = read_token(reader, key, "GHOSTPOST_MATRIX_TOKEN", source, environment, base_dir);
    if (std::any_of(matrix.token.begin(), matrix.token.end(),
                    [](unsigned char c) { return c <= 0x20 || c >= 0x7F; }))
        throw ConfigError(source, std::nullopt, key + ".token_file",
                          "the access token holds spaces or control characters");
}

// [platform.discord]: the token comes from GHOSTPOST_DISCORD_TOKEN or token_file, like
// Telegram's, and is never quoted in an error.
void read_discord(const toml::table& table, const std::string& source,
                  const Environment& environment, const std::filesystem::path& base_dir,
                  DiscordSettings& discord) {
    const std::string key = "platform.discord";
    const TableReader reader(table, key + ".", source,
                             {"api_url", "gateway_url", "guild_ids", "token_file", "poll_timeout",
                              "request_timeout", "per_chat_interval_ms",
                              "group_messages_per_minute", "message_content"});
    discord.enabled = true;
    if (const auto on = reader.boolean("message_content"))
        discord.message_content = *on;
    if (auto url = reader.string("api_url")) {
        if (!url->starts_with("http://") && !url->starts_with("https://"))
            reader.fail_at(reader.node("api_url"), "api_url", "must start with http:// or https://");
        while (!url->empty() && url->back() == '/')
            url->pop_back();
        discord.api_url = *url;
    }
    if (auto url = reader.string("gateway_url")) {
        if (!url->starts_with("ws://") && !url->starts_with("wss://"))
            reader.fail_at(reader.node("gateway_url"), "gateway_url",
                           "must start with ws:// or wss://");
        discord.gateway_url = *url;
    }
    if (auto ids = reader.strings("guild_ids")) {
        for (const std::string& id : *ids)
            if (id.empty() || id.size() > 20 ||
                !std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; }))
                reader.fail_at(reader.node("guild_ids"), "guild_ids",
                               "must be Discord ids (digits only)");
        discord.guild_ids = *ids;
    }
    read_seconds(reader, "poll_timeout", 1, 50, discord.poll_timeout);
    read_seconds(reader, "request_timeout", 1, 300, discord.request_timeout);
    read_pacing(reader, discord.per_chat_interval, discord.group_messages_per_minute);
    constexpr const char* variable = "GHOSTPOST_DISCORD_TOKEN";
    std::string origin;
    if (auto from_env = environment(variable); from_env && !trim(*from_env).empty()) {
        discord.token = trim(*from_env);
        origin = std::string("the environment variable ") + variable;
    } else if (auto file = reader.string("token_file")) {
        std::filesystem::path path(*file);
        if (path.is_relative() && !base_dir.empty())
            path = base_dir / path;
        std::ifstream in(path);
        if (!in)
            reader.fail_at(reader.node("token_file"), "token_file", "cannot read " + path.string());
        std::stringstream text;
        text << in.rdbuf();
        discord.token = trim(text.str());
        origin = "the file " + path.string();
    } else {
        throw ConfigError(source, std::nullopt, key + ".token_file",
                          std::string("no token: set ") + variable + " or [" + key +
                              "] token_file");
    }
    // A bot token is three dot-separated base64url parts; whitespace or a "Bot " prefix
    // would only fail later, less clearly.
    const bool shaped =
        discord.token.size() >= 20 && std::count(discord.token.begin(), discord.token.end(), '.') == 2 &&
        std::all_of(discord.token.begin(), discord.token.end(), [](unsigned char c) {
            return std::isalnum(c) != 0 || c == '_' || c == '-' || c == '.';
        });
    if (!shaped)
        throw ConfigError(source, std::nullopt, key + ".token_file",
                          "the token in " + origin +
                              " is not a Discord bot token (three parts joined by dots, from "
                              "the developer portal's Bot page)");
}

} // namespace

StorageSettings postgres_storage(const std::string& url, const std::string& source,
                                 const Environment& environment) {
    if (auto problem = url_problem(url, "GHOSTPOST_DATABASE_PASSWORD"))
        throw ConfigError(source, std::nullopt, "", *problem);
    StorageSettings storage;
    storage.url = url;
    if (auto secret = environment("GHOSTPOST_DATABASE_PASSWORD"))
        storage.password = trim(*secret);
    return storage;
}

ConfigError::ConfigError(std::string source, std::optional<std::uint32_t> line, std::string key,
                         std::string problem)
    : std::runtime_error(format_error(source, line, key, problem)), key_(std::move(key)),
      line_(line) {}

std::optional<LogLevel> parse_log_level(std::string_view word) {
    constexpr std::array<std::pair<std::string_view, LogLevel>, 4> levels{{
        {"debug", LogLevel::Debug},
        {"info", LogLevel::Info},
        {"warning", LogLevel::Warning},
        {"error", LogLevel::Error},
    }};
    for (const auto& [name, level] : levels) {
        if (name == word) {
            return level;
        }
    }
    return std::nullopt;
}

std::string_view to_string(LogLevel level) {
    switch (level) {
    case LogLevel::Debug:
        return "debug";
    case LogLevel::Info:
        return "info";
    case LogLevel::Warning:
        return "warning";
    case LogLevel::Error:
        return "error";
    }
    return "info";
}

Environment process_environment() {
    return [](const std::string& name) -> std::optional<std::string> {
        const char* value = std::getenv(name.c_str());
        if (value == nullptr) {
            return std::nullopt;
        }
        return std::string(value);
    };
}

Settings parse(std::string_view toml_text, const std::string& source,
               const Environment& environment, const std::filesystem::path& base_dir) {
    toml::table root;
    try {
        root = toml::parse(toml_text, source);
    } catch (const toml::parse_error& e) {
        const auto line = e.source().begin.line;
        throw ConfigError(source, line == 0 ? std::nullopt : std::optional<std::uint32_t>(line), "",
                          std::string(e.description()));
    }

    Settings settings;
    const TableReader top(root, "", source,
                          {"bot", "clocks", "log", "storage", "platform", "telegram", "web", "metrics"});

    if (const toml::table* bot = subtable(root, "bot", source)) {
        const TableReader reader(*bot, "bot.", source,
                                 {"command_prefix", "moderators", "max_bot_games",
                                  "max_open_games", "commands_per_minute", "engine_threads"});
        if (auto prefix = reader.string("command_prefix")) {
            if (prefix->empty() || prefix->size() > 4 ||
                std::any_of(prefix->begin(), prefix->end(),
                            [](unsigned char c) { return std::isspace(c) != 0; })) {
                reader.fail_at(reader.node("command_prefix"), "command_prefix",
                               "must be 1 to 4 characters without spaces");
            }
            settings.command_prefix = *prefix;
        }
        if (auto moderators = reader.strings("moderators")) {
            // An id alone would count on every platform, where the same number may be
            // somebody else's account.
            for (const std::string& m : *moderators) {
                const auto colon = m.find(':');
                if (colon == std::string::npos || colon == 0 || colon + 1 == m.size() ||
                    !std::all_of(m.begin(), m.begin() + static_cast<std::ptrdiff_t>(colon),
                                 [](unsigned char c) { return std::islower(c) != 0; })) {
                    reader.fail_at(reader.node("moderators"), "moderators",
                                   "entry \"" + m +
                                       "\" must be \"<platform>:<user id>\", "
                                       "for example \"telegram:123456\"");
                }
            }
            settings.moderators = *moderators;
        }
        const auto limit = [&](const char* key, int low, int high, int& into) {
            if (auto value = reader.integer(key)) {
                if (*value < low || *value > high)
                    reader.fail_at(reader.node(key), key,
                                   "must be between " + std::to_string(low) + " and " +
                                       std::to_string(high));
                into = static_cast<int>(*value);
            }
        };
        limit("max_bot_games", 1, 100, settings.limits.max_bot_games);
        limit("max_open_games", 1, 1000, settings.limits.max_open_games);
        limit("commands_per_minute", 0, 1000, settings.limits.commands_per_minute);
        limit("engine_threads", 0, 64, settings.limits.engine_threads);
    }

    if (const toml::table* clocks = subtable(root, "clocks", source)) {
        const TableReader reader(
            *clocks, "clocks.", source,
            {"default_time_control", "combat_deadline_hours", "vacation_days",
             "challenge_expiry_days", "max_open_challenges"});
        if (auto tc = reader.string("default_time_control")) {
            if (!time_control_shaped(*tc)) {
                reader.fail_at(reader.node("default_time_control"), "default_time_control",
                               "must be like \"3d\", \"12h\", \"30m\", \"7d+1d/14d\", \"1d+1d\" "
                               "or \"none\"");
            }
            settings.clocks.default_time_control = *tc;
        }
        if (auto hours = reader.integer("combat_deadline_hours")) {
            if (*hours < 1 || *hours > 720) {
                reader.fail_at(reader.node("combat_deadline_hours"), "combat_deadline_hours",
                               "must be between 1 and 720 hours");
            }
            settings.clocks.combat_deadline = std::chrono::hours(*hours);
        }
        if (auto days = reader.integer("vacation_days")) {
            if (*days < 0 || *days > 366) {
                reader.fail_at(reader.node("vacation_days"), "vacation_days",
                               "must be between 0 and 366 days");
            }
            settings.clocks.vacation_days = static_cast<int>(*days);
        }
        if (auto days = reader.integer("challenge_expiry_days")) {
            if (*days < 1 || *days > 90) {
                reader.fail_at(reader.node("challenge_expiry_days"), "challenge_expiry_days",
                               "must be between 1 and 90 days");
            }
            settings.clocks.challenge_expiry_days = static_cast<int>(*days);
        }
        if (auto count = reader.integer("max_open_challenges")) {
            if (*count < 1 || *count > 100) {
                reader.fail_at(reader.node("max_open_challenges"), "max_open_challenges",
                               "must be between 1 and 100");
            }
            settings.clocks.max_open_challenges = static_cast<int>(*count);
        }
    }

    if (const toml::table* log = subtable(root, "log", source)) {
        const TableReader reader(*log, "log.", source, {"level"});
        if (auto word = reader.string("level")) {
            const auto level = parse_log_level(*word);
            if (!level) {
                reader.fail_at(reader.node("level"), "level",
                               "must be one of debug, info, warning, error");
            }
            settings.log_level = *level;
        }
    }

    const toml::table* storage = subtable(root, "storage", source);
    if (storage == nullptr) {
        throw ConfigError(source, std::nullopt, "storage", "is required ([storage] path)");
    }
    read_storage(*storage, source, environment, base_dir, settings.storage);

    if (const toml::table* web = subtable(root, "web", source)) {
        const TableReader reader(*web, "web.", source,
                                 {"listen", "base_url", "max_connections", "max_header_bytes",
                                  "max_header_lines", "timeout_seconds"});
        if (auto listen = read_listen(reader, "127.0.0.1:8080"))
            settings.web.listen = *listen;
        if (auto base = reader.string("base_url")) {
            if ((base->rfind("https://", 0) != 0 && base->rfind("http://", 0) != 0) ||
                base->find_first_of(" \t\n\"<>") != std::string::npos) {
                reader.fail_at(reader.node("base_url"), "base_url",
                               "must be an http:// or https:// address");
            }
            std::string url = *base;
            while (!url.empty() && url.back() == '/')
                url.pop_back();
            settings.web.base_url = url;
        }
        const auto limit = [&](const char* key, IntRange range, int& into) {
            if (auto value = reader.integer(key)) {
                if (*value < range.low || *value > range.high)
                    reader.fail_at(reader.node(key), key,
                                   "must be between " + std::to_string(range.low) + " and " +
                                       std::to_string(range.high));
                into = static_cast<int>(*value);
            }
        };
        limit("max_connections", web_max_connections, settings.web.max_connections);
        limit("max_header_bytes", web_max_header_bytes, settings.web.max_header_bytes);
        limit("max_header_lines", web_max_header_lines, settings.web.max_header_lines);
        limit("timeout_seconds", web_timeout_seconds, settings.web.timeout_seconds);
    }

    if (const toml::table* metrics = subtable(root, "metrics", source)) {
        const TableReader reader(*metrics, "metrics.", source, {"listen"});
        if (auto listen = read_listen(reader, "127.0.0.1:9464"))
            settings.metrics.listen = *listen;
    }

    // Each platform is a table [platform.<name>]; several may run in one daemon. [telegram]
    // alone is the form older configurations used, and still reads the same.
    const toml::table* platforms = subtable(root, "platform", source);
    const toml::table* telegram =
        platforms != nullptr ? subtable(*platforms, "telegram", source) : nullptr;
    if (platforms != nullptr) {
        const TableReader reader(*platforms, "platform.", source,
                                 {"telegram", "discourse", "matrix", "discord"});
        if (const toml::table* discourse = subtable(*platforms, "discourse", source))
            read_discourse(*discourse, source, environment, base_dir, settings.discourse);
    }
    if (const toml::table* legacy = subtable(root, "telegram", source)) {
        if (telegram != nullptr) {
            const auto line = root.get("telegram")->source().begin.line;
            throw ConfigError(source,
                              line == 0 ? std::nullopt : std::optional<std::uint32_t>(line),
                              "telegram", "give the Telegram settings once, in [platform.telegram]");
        }
        read_telegram(*legacy, "telegram", source, environment, base_dir, settings.telegram);
    }
    if (telegram != nullptr)
        read_telegram(*telegram, "platform.telegram", source, environment, base_dir,
                      settings.telegram);
    if (const toml::table* matrix =
            platforms != nullptr ? subtable(*platforms, "matrix", source) : nullptr)
        read_matrix(*matrix, source, environment, base_dir, settings.matrix);
    if (const toml::table* discord =
            platforms != nullptr ? subtable(*platforms, "discord", source) : nullptr)
        read_discord(*discord, source, environment, base_dir, settings.discord);
    return settings;
}

Settings load(const std::filesystem::path& file, const Environment& environment) {
    std::ifstream in(file);
    if (!in) {
        throw ConfigError(file.string(), std::nullopt, "", "cannot read the file");
    }
    std::stringstream text;
    text << in.rdbuf();
    return parse(text.str(), file.string(), environment, file.parent_path());
}

} // namespace ghostpost::config
