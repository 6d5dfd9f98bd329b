#include "ghostpost/config/config.h"

#include "ghostpost/config/table_reader.h"
#include "ghostpost/i18n/catalogs.h"

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

std::optional<std::uint32_t> line_of(const toml::node& node) {
    const auto line = node.source().begin.line;
    return line == 0 ? std::nullopt : std::optional<std::uint32_t>(line);
}

// The shape of a time control ("3d", "12h", "7d+1d/14d", "none"); the service reads its
// meaning. Config depends on nothing of ours, so it checks the form only.
bool time_control_shaped(std::string_view text) {
    if (text == "none")
        return true;
    auto span = [](std::string_view s) {
        return s.size() >= 2 && s.size() <= 6 &&
               (s.back() == 'd' || s.back() == 'h' || s.back() == 'm') && s.front() != '0' &&
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

// An integer of `reader` in `range`, into `into`; "must be between 1 and 90 days" when not.
void read_range(const TableReader& reader, const char* key, IntRange range, int& into,
                const std::string& unit = {}) {
    if (auto value = reader.integer(key)) {
        if (*value < range.low || *value > range.high)
            reader.fail_at(reader.node(key), key,
                           "must be between " + std::to_string(range.low) + " and " +
                               std::to_string(range.high) + unit);
        into = static_cast<int>(*value);
    }
}

void read_bot(const toml::table& bot, const std::string& source,
              const std::vector<PlatformClaim>& platforms, Settings& settings) {
    const TableReader reader(bot, "bot.", source,
                             {"command_prefix", "moderators", "max_bot_games", "max_open_games",
                              "commands_per_minute", "engine_threads", "rated_bot_games",
                              "language"});
    if (auto language = reader.string("language")) {
        const auto chosen = i18n::supported_language(*language);
        if (!chosen)
            reader.fail_at(reader.node("language"), "language",
                           "\"" + *language +
                               "\" has no catalog: en, de, fr, es, ru, pt-BR or zh-CN");
        settings.language = *chosen;
    }
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
        const std::string example_platform =
            platforms.empty() ? std::string("console") : platforms.front().name;
        // An id alone would count on every platform, where the same number may be somebody
        // else's account.
        for (const std::string& m : *moderators) {
            const auto colon = m.find(':');
            if (colon == std::string::npos || colon == 0 || colon + 1 == m.size() ||
                !std::all_of(m.begin(), m.begin() + static_cast<std::ptrdiff_t>(colon),
                             [](unsigned char c) { return std::islower(c) != 0; })) {
                reader.fail_at(reader.node("moderators"), "moderators",
                               "entry \"" + m +
                                   "\" must be \"<platform>:<user id>\", for example \"" +
                                   example_platform + ":123456\"");
            }
        }
        settings.moderators = *moderators;
    }
    read_range(reader, "max_bot_games", {1, 100}, settings.limits.max_bot_games);
    read_range(reader, "max_open_games", {1, 1000}, settings.limits.max_open_games);
    read_range(reader, "commands_per_minute", {0, 1000}, settings.limits.commands_per_minute);
    read_range(reader, "engine_threads", {0, 64}, settings.limits.engine_threads);
    if (auto rated = reader.boolean("rated_bot_games"))
        settings.limits.rated_bot_games = *rated;
}

void read_clocks(const toml::table& clocks, const std::string& source, Settings& settings) {
    const TableReader reader(clocks, "clocks.", source,
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
    int hours = static_cast<int>(settings.clocks.combat_deadline.count());
    read_range(reader, "combat_deadline_hours", {1, 720}, hours, " hours");
    settings.clocks.combat_deadline = std::chrono::hours(hours);
    read_range(reader, "vacation_days", {0, 366}, settings.clocks.vacation_days, " days");
    read_range(reader, "challenge_expiry_days", {1, 90}, settings.clocks.challenge_expiry_days,
               " days");
    read_range(reader, "max_open_challenges", {1, 100}, settings.clocks.max_open_challenges);
}

void read_web(const toml::table& web, const std::string& source, Settings& settings) {
    const TableReader reader(web, "web.", source,
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
    read_range(reader, "max_connections", web_max_connections, settings.web.max_connections);
    read_range(reader, "max_header_bytes", web_max_header_bytes, settings.web.max_header_bytes);
    read_range(reader, "max_header_lines", web_max_header_lines, settings.web.max_header_lines);
    read_range(reader, "timeout_seconds", web_timeout_seconds, settings.web.timeout_seconds);
}

// Each platform is a table [platform.<name>]; several may run in one daemon. Its module reads
// it: this file knows only which names are claimed, and the older top-level alias some
// configurations use for one.
void read_platforms(const std::shared_ptr<toml::table>& document, const std::string& source,
                    const std::filesystem::path& base_dir,
                    const std::vector<PlatformClaim>& platforms, Settings& settings) {
    const toml::table& root = *document;
    const auto hand_through = [&](const toml::table& table, const std::string& name,
                                  const std::string& key) {
        auto contents = std::make_shared<const TomlTable>(TomlTable{document, table});
        settings.platforms[name] = PlatformTable{key, source, base_dir, std::move(contents)};
    };
    if (const toml::table* tables = subtable(root, "platform", source)) {
        for (const auto& [key, node] : *tables) {
            const std::string name{key.str()};
            const auto claim = std::find_if(platforms.begin(), platforms.end(),
                                            [&](const PlatformClaim& c) { return c.name == name; });
            if (claim == platforms.end()) {
                std::string known;
                for (const PlatformClaim& c : platforms)
                    known += (known.empty() ? "" : ", ") + c.name;
                throw ConfigError(source, line_of(node), "platform." + name,
                                  known.empty() ? "unknown platform"
                                                : "unknown platform (known: " + known + ")");
            }
            if (!node.is_table())
                throw ConfigError(source, line_of(node), "platform." + name, "must be a table");
            hand_through(*node.as_table(), name, "platform." + name);
        }
    }
    for (const PlatformClaim& claim : platforms) {
        if (claim.alias.empty())
            continue;
        if (const toml::table* older = subtable(root, claim.alias, source)) {
            if (settings.platforms.contains(claim.name))
                throw ConfigError(source, line_of(*root.get(claim.alias)), claim.alias,
                                  "give the " + claim.title + " settings once, in [platform." +
                                      claim.name + "]");
            hand_through(*older, claim.name, claim.alias);
        }
    }
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
               const Environment& environment, const std::filesystem::path& base_dir,
               const std::vector<PlatformClaim>& platforms) {
    const auto document = std::make_shared<toml::table>();
    toml::table& root = *document;
    try {
        root = toml::parse(toml_text, source);
    } catch (const toml::parse_error& e) {
        const auto line = e.source().begin.line;
        throw ConfigError(source, line == 0 ? std::nullopt : std::optional<std::uint32_t>(line), "",
                          std::string(e.description()));
    }

    Settings settings;
    std::set<std::string> sections{"bot", "clocks", "log", "storage", "platform", "web", "metrics"};
    for (const PlatformClaim& claim : platforms)
        if (!claim.alias.empty())
            sections.insert(claim.alias);
    const TableReader top(root, "", source, sections);

    if (const toml::table* bot = subtable(root, "bot", source))
        read_bot(*bot, source, platforms, settings);
    if (const toml::table* clocks = subtable(root, "clocks", source))
        read_clocks(*clocks, source, settings);
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

    if (const toml::table* web = subtable(root, "web", source))
        read_web(*web, source, settings);

    if (const toml::table* metrics = subtable(root, "metrics", source)) {
        const TableReader reader(*metrics, "metrics.", source, {"listen"});
        if (auto listen = read_listen(reader, "127.0.0.1:9464"))
            settings.metrics.listen = *listen;
    }

    read_platforms(document, source, base_dir, platforms, settings);
    return settings;
}

Settings load(const std::filesystem::path& file, const Environment& environment,
              const std::vector<PlatformClaim>& platforms) {
    std::ifstream in(file);
    if (!in) {
        throw ConfigError(file.string(), std::nullopt, "", "cannot read the file");
    }
    std::stringstream text;
    text << in.rdbuf();
    return parse(text.str(), file.string(), environment, file.parent_path(), platforms);
}

} // namespace ghostpost::config
