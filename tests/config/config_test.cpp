#include "ghostpost/config/config.h"
#include "ghostpost/config/table_reader.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace ghostpost::config;

namespace {

Environment fake_environment(std::map<std::string, std::string> variables) {
    return
        [variables = std::move(variables)](const std::string& name) -> std::optional<std::string> {
            const auto it = variables.find(name);
            if (it == variables.end()) {
                return std::nullopt;
            }
            return it->second;
        };
}

const std::string token = "123456:AAF-secret_Token";

std::string error_of(std::string_view text, const Environment& environment) {
    try {
        (void)parse(text, "ghostpost.toml", environment);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "no error";
}

std::string error_of_claimed(std::string_view text, const std::vector<PlatformClaim>& claims) {
    try {
        (void)parse(text, "ghostpost.toml", fake_environment({}), {}, claims);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST_CASE("a full configuration is read into typed settings", "[config]") {
    const auto settings = parse(R"(
[bot]
command_prefix = "/"
moderators = ["telegram:42", "console:alice"]

[log]
level = "debug"

[clocks]
default_time_control = "7d+1d/14d"
combat_deadline_hours = 48
vacation_days = 10
challenge_expiry_days = 14
max_open_challenges = 3

[storage]
path = "/var/lib/ghostpost/games.sqlite"
)",
                                "ghostpost.toml", fake_environment({}));
    CHECK(settings.command_prefix == "/");
    CHECK(settings.moderators == std::vector<std::string>{"telegram:42", "console:alice"});
    CHECK(settings.log_level == LogLevel::Debug);
    CHECK(settings.storage.path == "/var/lib/ghostpost/games.sqlite");
    CHECK(settings.clocks.default_time_control == "7d+1d/14d");
    CHECK(settings.clocks.combat_deadline == std::chrono::hours(48));
    CHECK(settings.clocks.vacation_days == 10);
    CHECK(settings.clocks.challenge_expiry_days == 14);
    CHECK(settings.clocks.max_open_challenges == 3);
}

TEST_CASE("a minimal configuration takes the defaults", "[config]") {
    const auto settings = parse("[storage]\npath = \"games.sqlite\"\n", "ghostpost.toml",
                                fake_environment({}), "/etc/ghostpost");
    CHECK(settings.command_prefix == "!");
    CHECK(settings.moderators.empty());
    CHECK(settings.log_level == LogLevel::Info);
    CHECK(settings.storage.path == "/etc/ghostpost/games.sqlite");
    CHECK(settings.platforms.empty());
    CHECK(settings.clocks.default_time_control == "3d");
    CHECK(settings.clocks.combat_deadline == std::chrono::hours(24));
    CHECK(settings.clocks.vacation_days == 30);
}

TEST_CASE("a bad configuration names the key and the line", "[config]") {
    const auto env = fake_environment({});
    CHECK(error_of("[storage]\npath = 7\n", env) ==
          "ghostpost.toml:2: storage.path: must be a string");
    CHECK(error_of("[storage]\npath = \"x\"\n\n[log]\nlevel = \"loud\"\n", env) ==
          "ghostpost.toml:5: log.level: must be one of debug, info, warning, error");
    CHECK(error_of("[storage]\npath = \"x\"\n[bot]\nmoderator = [\"a\"]\n", env) ==
          "ghostpost.toml:4: bot.moderator: unknown key");
    CHECK(error_of("[storage]\npath = \"x\"\n[bot]\nmoderators = [\"a\", 3]\n", env) ==
          "ghostpost.toml:4: bot.moderators: must be an array of strings");
    CHECK(error_of("[storage]\n", env) == "ghostpost.toml:1: storage.path: is required");
    CHECK(error_of("[storage]\npath = \"x\"\n[clocks]\ndefault_time_control = \"3 days\"\n", env) ==
          "ghostpost.toml:4: clocks.default_time_control: must be like \"3d\", \"12h\", "
          "\"30m\", \"7d+1d/14d\", \"1d+1d\" or \"none\"");
    CHECK(error_of("[storage]\npath = \"x\"\n[clocks]\ncombat_deadline_hours = 0\n", env) ==
          "ghostpost.toml:4: clocks.combat_deadline_hours: must be between 1 and 720 hours");
    CHECK(error_of("[storage]\npath = \"x\"\n[clocks]\nchallenge_expiry_days = 91\n", env) ==
          "ghostpost.toml:4: clocks.challenge_expiry_days: must be between 1 and 90 days");
    CHECK(error_of("[storage]\npath = \"x\"\n[clocks]\nmax_open_challenges = 0\n", env) ==
          "ghostpost.toml:4: clocks.max_open_challenges: must be between 1 and 100");
    CHECK(error_of("[log]\nlevel = \"info\"\n", env) ==
          "ghostpost.toml: storage: is required ([storage] path)");
}

TEST_CASE("a TOML syntax error names the line", "[config]") {
    const std::string message =
        error_of("[storage]\npath = \"x\"\nlevel = = 3\n", fake_environment({}));
    CHECK(message.starts_with("ghostpost.toml:3: "));
}

TEST_CASE("load reads a file and reports an unreadable one", "[config]") {
    CHECK_THROWS_WITH(load("/nonexistent/ghostpost.toml", fake_environment({})),
                      "/nonexistent/ghostpost.toml: cannot read the file");
    const auto settings =
        load(GHOSTPOST_SOURCE_DIR "/ghostpost.example.toml", fake_environment({}));
    CHECK(settings.storage.path.filename() == "ghostpost.sqlite");
}

TEST_CASE("[metrics] listen is read and checked like [web] listen", "[config]") {
    const auto env = fake_environment({});
    CHECK(parse("[storage]\npath = \"x\"\n[metrics]\nlisten = \"[::1]:9464\"\n", "ghostpost.toml",
                env)
              .metrics.listen == "[::1]:9464");
    CHECK(error_of("[storage]\npath = \"x\"\n[metrics]\nlisten = \"9464\"\n", env) ==
          "ghostpost.toml:4: metrics.listen: must be host:port, e.g. \"127.0.0.1:9464\"");
    CHECK(error_of("[storage]\npath = \"x\"\n[metrics]\npath = \"/m\"\n", env) ==
          "ghostpost.toml:4: metrics.path: unknown key");
}

TEST_CASE("a claimed [platform.<name>] table is handed through unread, an unclaimed one refused",
          "[config][platform]") {
    const auto env = fake_environment({});
    const std::vector<PlatformClaim> claims{{"somename"}, {"other", "older", "Other"}};
    const std::string storage = "[storage]\npath = \"x\"\n";
    const auto settings = parse(storage + "[platform.somename]\nanything = 7\nnested.a = \"b\"\n",
                                "ghostpost.toml", env, "/etc/ghostpost", claims);
    REQUIRE(settings.platforms.size() == 1);
    const PlatformTable& table = settings.platforms.at("somename");
    CHECK(table.key == "platform.somename");
    CHECK(table.source == "ghostpost.toml");
    CHECK(table.base_dir == "/etc/ghostpost");
    // Its keys reach the module as they stand, and the module's reader checks them.
    const TableReader reader(table, {"anything", "nested"});
    CHECK(reader.integer("anything") == 7);
    CHECK(reader.table()["nested"]["a"].value<std::string>() == "b");
    CHECK_THROWS_WITH(TableReader(table, {"anything"}),
                      "ghostpost.toml:5: platform.somename.nested: unknown key");
    CHECK_THROWS_WITH(reader.fail_unplaced("token_file", "no token"),
                      "ghostpost.toml: platform.somename.token_file: no token");

    // A claim's older top-level table reads as [platform.<name>], but not both at once.
    const auto older = parse(storage + "[older]\nk = 1\n", "ghostpost.toml", env, {}, claims);
    CHECK(older.platforms.at("other").key == "older");
    CHECK(error_of_claimed(storage + "[platform.other]\n[older]\n", claims) ==
          "ghostpost.toml:4: older: give the Other settings once, in [platform.other]");

    CHECK(error_of_claimed(storage + "[platform.irc]\nserver = \"x\"\n", claims) ==
          "ghostpost.toml:3: platform.irc: unknown platform (known: somename, other)");
    CHECK(error_of_claimed(storage + "[platform.irc]\n", {}) ==
          "ghostpost.toml:3: platform.irc: unknown platform");
    CHECK(error_of_claimed(storage + "[platform]\nsomename = 3\n", claims) ==
          "ghostpost.toml:4: platform.somename: must be a table");
    // Without the claim, the older table is an unknown key like any other.
    CHECK(error_of_claimed(storage + "[older]\n", {{"somename"}}) ==
          "ghostpost.toml:3: older: unknown key");
    CHECK(parse(storage, "ghostpost.toml", env, {}, claims).platforms.empty());
}

TEST_CASE("the web view's listen address and base URL are read and checked", "[config]") {
    const auto env = fake_environment({});
    const auto settings = parse("[storage]\npath = \"x\"\n[web]\nlisten = \"127.0.0.1:8080\"\n"
                                "base_url = \"https://games.example.org/\"\n",
                                "ghostpost.toml", env);
    CHECK(settings.web.listen == "127.0.0.1:8080");
    CHECK(settings.web.base_url == "https://games.example.org");
    CHECK(parse("[storage]\npath = \"x\"\n", "ghostpost.toml", env).web.listen.empty());
    CHECK(error_of("[storage]\npath = \"x\"\n[web]\nlisten = \"8080\"\n", env) ==
          "ghostpost.toml:4: web.listen: must be host:port, e.g. \"127.0.0.1:8080\"");
    CHECK(error_of("[storage]\npath = \"x\"\n[web]\nlisten = \"h:70000\"\n", env) ==
          "ghostpost.toml:4: web.listen: must be host:port, e.g. \"127.0.0.1:8080\"");
    CHECK(error_of("[storage]\npath = \"x\"\n[web]\nbase_url = \"games.example.org\"\n", env) ==
          "ghostpost.toml:4: web.base_url: must be an http:// or https:// address");
    CHECK(error_of("[storage]\npath = \"x\"\n[web]\nport = 80\n", env) ==
          "ghostpost.toml:4: web.port: unknown key");
}

TEST_CASE("the web server's limits are keys of [web], checked against their ranges", "[config]") {
    const auto env = fake_environment({});
    const auto defaults = parse("[storage]\npath = \"x\"\n[web]\n", "ghostpost.toml", env).web;
    CHECK(defaults.max_connections == 1024);
    CHECK(defaults.max_header_bytes == 65536);
    CHECK(defaults.max_header_lines == 100);
    CHECK(defaults.timeout_seconds == 5);
    const auto set =
        parse("[storage]\npath = \"x\"\n[web]\nmax_connections = 4000\n"
              "max_header_bytes = 16384\nmax_header_lines = 40\ntimeout_seconds = 20\n",
              "ghostpost.toml", env)
            .web;
    CHECK(set.max_connections == 4000);
    CHECK(set.max_header_bytes == 16384);
    CHECK(set.max_header_lines == 40);
    CHECK(set.timeout_seconds == 20);
    const std::string head = "[storage]\npath = \"x\"\n[web]\n";
    CHECK(error_of(head + "max_connections = 15\n", env) ==
          "ghostpost.toml:4: web.max_connections: must be between 16 and 65536");
    CHECK(error_of(head + "max_connections = 65537\n", env) ==
          "ghostpost.toml:4: web.max_connections: must be between 16 and 65536");
    CHECK(error_of(head + "max_header_bytes = 1023\n", env) ==
          "ghostpost.toml:4: web.max_header_bytes: must be between 1024 and 1048576");
    CHECK(error_of(head + "max_header_bytes = 2000000\n", env) ==
          "ghostpost.toml:4: web.max_header_bytes: must be between 1024 and 1048576");
    CHECK(error_of(head + "max_header_lines = 9\n", env) ==
          "ghostpost.toml:4: web.max_header_lines: must be between 10 and 1000");
    CHECK(error_of(head + "max_header_lines = 1001\n", env) ==
          "ghostpost.toml:4: web.max_header_lines: must be between 10 and 1000");
    CHECK(error_of(head + "timeout_seconds = 0\n", env) ==
          "ghostpost.toml:4: web.timeout_seconds: must be between 1 and 300");
    CHECK(error_of(head + "timeout_seconds = 301\n", env) ==
          "ghostpost.toml:4: web.timeout_seconds: must be between 1 and 300");
    CHECK(error_of(head + "max_header_lines = \"many\"\n", env) ==
          "ghostpost.toml:4: web.max_header_lines: must be an integer");
}

TEST_CASE("a PostgreSQL database is named by url, its password kept apart", "[config]") {
    const auto env = fake_environment(
        {{"GHOSTPOST_TELEGRAM_TOKEN", token}, {"GHOSTPOST_DATABASE_PASSWORD", " s3cret\n"}});
    const auto settings = parse("[storage]\nurl = \"postgresql://ghostpost@db:5432/games\"\n"
                                "lease_seconds = 10\nclaim_seconds = 60\n",
                                "ghostpost.toml", env);
    CHECK(settings.storage.url == "postgresql://ghostpost@db:5432/games");
    CHECK(settings.storage.password == "s3cret");
    CHECK(settings.storage.path.empty());
    CHECK(settings.storage.lease == std::chrono::seconds(10));
    CHECK(settings.storage.claim == std::chrono::seconds(60));

    // Without the variable: the file; without either, libpq's own means (no password here).
    const auto dir = std::filesystem::temp_directory_path() / "ghostpost-config-pg";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "db.password") << "from-file\n";
    const auto from_file =
        parse("[storage]\nurl = \"postgres://ghostpost@db/games\"\npassword_file = "
              "\"db.password\"\n",
              "ghostpost.toml", fake_environment({{"GHOSTPOST_TELEGRAM_TOKEN", token}}), dir);
    CHECK(from_file.storage.password == "from-file");
    const auto neither =
        parse("[storage]\nurl = \"postgresql:///games?host=/run/pg\"\n", "ghostpost.toml",
              fake_environment({{"GHOSTPOST_TELEGRAM_TOKEN", token}}));
    CHECK(neither.storage.password.empty());
    CHECK(neither.storage.lease == std::chrono::seconds(30));
    CHECK(neither.storage.claim == std::chrono::seconds(120));
    std::filesystem::remove_all(dir);
}

TEST_CASE("a storage table that names both backends, or a password in the url, is refused",
          "[config]") {
    const auto env = fake_environment({{"GHOSTPOST_TELEGRAM_TOKEN", token}});
    CHECK(error_of("[storage]\npath = \"x.sqlite\"\nurl = \"postgresql://db/games\"\n"
                   "",
                   env) == "ghostpost.toml:3: storage.url: give either path (SQLite) or url "
                           "(PostgreSQL), not both");
    CHECK(error_of("[storage]\nurl = \"postgresql://ghostpost:hunter2@db/games\"\n", env) ==
          "ghostpost.toml:2: storage.url: must not hold the password: set "
          "GHOSTPOST_DATABASE_PASSWORD or [storage] password_file");
    CHECK(error_of("[storage]\nurl = \"mysql://db/games\"\n", env) ==
          "ghostpost.toml:2: storage.url: must be a PostgreSQL URL, "
          "postgresql://user@host[:port]/database");
    CHECK(error_of("[storage]\nurl = \"postgresql://db/games\"\nlease_seconds = 1\n", env) ==
          "ghostpost.toml:3: storage.lease_seconds: must be between 3 and 600 "
          "seconds");
    CHECK(error_of("[storage]\npath = \"x.sqlite\"\npassword_file = \"p\"\n", env) ==
          "ghostpost.toml:3: storage.password_file: is for a PostgreSQL url; an SQLite file has "
          "no password");
    CHECK(error_of("[storage]\n", env) == "ghostpost.toml:1: storage.path: is required");
}

TEST_CASE("a PostgreSQL database named on the command line is checked as [storage] url is",
          "[config]") {
    const auto with_password = fake_environment({{"GHOSTPOST_DATABASE_PASSWORD", " s3cret\n"}});
    const auto storage =
        postgres_storage("postgresql://ghostpost@db/games", "--db-url", with_password);
    CHECK(storage.url == "postgresql://ghostpost@db/games");
    CHECK(storage.password == "s3cret");
    CHECK(storage.path.empty());
    CHECK(postgres_storage("postgresql:///games?host=/run/pg", "--db-url", fake_environment({}))
              .password.empty());
    CHECK_THROWS_WITH(
        postgres_storage("postgresql://ghostpost:hunter2@db/games", "--db-url", with_password),
        "--db-url: must not hold the password: set GHOSTPOST_DATABASE_PASSWORD");
    CHECK_THROWS_WITH(postgres_storage("games.sqlite", "--db-url", with_password),
                      "--db-url: must be a PostgreSQL URL, postgresql://user@host[:port]/database");
}

TEST_CASE("per-player limits are read from [bot] and checked", "[config][limits]") {
    const auto env = fake_environment({});
    const auto defaults = parse("[storage]\npath = \"x\"\n", "ghostpost.toml", env);
    CHECK(defaults.limits.max_bot_games == 3);
    CHECK(defaults.limits.max_open_games == 30);
    CHECK(defaults.limits.commands_per_minute == 30);
    CHECK(defaults.limits.engine_threads == 0);
    const auto set = parse("[storage]\npath = \"x\"\n[bot]\nmax_bot_games = 1\nmax_open_games = 5\n"
                           "commands_per_minute = 0\nengine_threads = 2\n",
                           "ghostpost.toml", env);
    CHECK(set.limits.max_bot_games == 1);
    CHECK(set.limits.max_open_games == 5);
    CHECK(set.limits.commands_per_minute == 0);
    CHECK(set.limits.engine_threads == 2);
    CHECK(error_of("[storage]\npath = \"x\"\n[bot]\nmax_bot_games = 0\n", env) ==
          "ghostpost.toml:4: bot.max_bot_games: must be between 1 and 100");
    CHECK(error_of("[storage]\npath = \"x\"\n[bot]\nmax_open_games = 1001\n", env) ==
          "ghostpost.toml:4: bot.max_open_games: must be between 1 and 1000");
    CHECK(error_of("[storage]\npath = \"x\"\n[bot]\ncommands_per_minute = -1\n", env) ==
          "ghostpost.toml:4: bot.commands_per_minute: must be between 0 and 1000");
    CHECK(error_of("[storage]\npath = \"x\"\n[bot]\nengine_threads = 65\n", env) ==
          "ghostpost.toml:4: bot.engine_threads: must be between 0 and 64");
    // Games against the bot are unrated unless the operator says so.
    CHECK_FALSE(defaults.limits.rated_bot_games);
    CHECK(parse("[storage]\npath = \"x\"\n[bot]\nrated_bot_games = true\n", "ghostpost.toml", env)
              .limits.rated_bot_games);
    CHECK(error_of("[storage]\npath = \"x\"\n[bot]\nrated_bot_games = \"yes\"\n", env) ==
          "ghostpost.toml:4: bot.rated_bot_games: must be true or false");
}

TEST_CASE("a moderator without a platform: prefix is refused, naming the entry", "[config]") {
    // The example names the first platform the daemon knows.
    const std::vector<PlatformClaim> claims{{"telegram"}, {"discord"}};
    const std::string head = "[storage]\npath = \"x\"\n[bot]\n";
    CHECK(error_of_claimed(head + "moderators = [\"telegram:1\", \"123456\"]\n", claims) ==
          "ghostpost.toml:4: bot.moderators: entry \"123456\" must be "
          "\"<platform>:<user id>\", for example \"telegram:123456\"");
    CHECK(error_of_claimed("[storage]\npath = \"x\"\n[bot]\nmoderators = [\":5\"]\n", claims) ==
          "ghostpost.toml:4: bot.moderators: entry \":5\" must be "
          "\"<platform>:<user id>\", for example \"telegram:123456\"");
    CHECK(error_of_claimed(head + "moderators = [\"telegram:\"]\n", claims) ==
          "ghostpost.toml:4: bot.moderators: entry \"telegram:\" must be "
          "\"<platform>:<user id>\", for example \"telegram:123456\"");
    CHECK(
        error_of("[storage]\npath = \"x\"\n[bot]\nmoderators = [\"5\"]\n", fake_environment({})) ==
        "ghostpost.toml:4: bot.moderators: entry \"5\" must be \"<platform>:<user id>\", for "
        "example \"console:123456\"");
}
