// [platform.telegram] (and [telegram], the older form) in the configuration: its keys, its
// token's two sources, and errors that name the key and never quote the token.
#include "ghostpost/config/config.h"
#include "ghostpost/telegram/module.h"
#include "ghostpost/telegram/settings.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>

using namespace ghostpost::config;
using ghostpost::bot::read_telegram_settings;
using ghostpost::bot::telegram_module;
using ghostpost::bot::TelegramSettings;

namespace {

Environment fake_environment(std::map<std::string, std::string> variables) {
    return
        [variables = std::move(variables)](const std::string& name) -> std::optional<std::string> {
            const auto it = variables.find(name);
            return it == variables.end() ? std::nullopt : std::optional<std::string>(it->second);
        };
}

const std::string token = "123456:AAF-secret_Token";

// The file read as the daemon reads it: config/ hands the table through, the module reads it.
TelegramSettings read(std::string_view text, const Environment& environment,
                      const std::filesystem::path& base_dir = {}) {
    const Settings settings =
        parse(text, "ghostpost.toml", environment, base_dir, {telegram_module.claim()});
    return read_telegram_settings(settings.platforms.at("telegram"), environment);
}

std::string error_of(std::string_view text, const Environment& environment) {
    try {
        (void)read(text, environment);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST_CASE("a Telegram table is read into typed settings", "[config][telegram]") {
    const TelegramSettings telegram = read(R"(
[storage]
path = "/var/lib/ghostpost/games.sqlite"

[telegram]
api_url = "http://127.0.0.1:8081/"
bot_username = "@ghostpost_bot"
poll_timeout = 30
request_timeout = 5
)",
                                           fake_environment({{"GHOSTPOST_TELEGRAM_TOKEN", token}}));
    CHECK(telegram.api_url == "http://127.0.0.1:8081");
    CHECK(telegram.bot_username == "ghostpost_bot");
    CHECK(telegram.poll_timeout == std::chrono::seconds(30));
    CHECK(telegram.request_timeout == std::chrono::seconds(5));
    CHECK(telegram.token == token);

    const TelegramSettings defaults = read("[storage]\npath = \"g.db\"\n[platform.telegram]\n",
                                           fake_environment({{"GHOSTPOST_TELEGRAM_TOKEN", token}}));
    CHECK(defaults.api_url == "https://api.telegram.org");
    CHECK(defaults.poll_timeout == std::chrono::seconds(50));
    CHECK(defaults.per_chat_interval == std::chrono::milliseconds(1000));
    CHECK(defaults.group_messages_per_minute == 20);
}

TEST_CASE("a bad Telegram table names the key and the line", "[config][telegram]") {
    const auto env = fake_environment({{"GHOSTPOST_TELEGRAM_TOKEN", token}});
    CHECK(error_of("[storage]\npath = \"x\"\n[telegram]\npoll_timeout = 90\n", env) ==
          "ghostpost.toml:4: telegram.poll_timeout: must be between 1 and 50 seconds");
    CHECK(error_of("[storage]\npath = \"x\"\n[telegram]\napi_url = \"ftp://x\"\n", env) ==
          "ghostpost.toml:4: telegram.api_url: must start with http:// or https://");
    CHECK(error_of("[storage]\npath = \"x\"\n[telegram]\ntoken = \"x\"\n", env) ==
          "ghostpost.toml:4: telegram.token: unknown key");
    CHECK(error_of("[storage]\npath = \"x\"\n[telegram]\ngroup_messages_per_minute = 0\n", env) ==
          "ghostpost.toml:4: telegram.group_messages_per_minute: must be between 1 and 1000");
}

TEST_CASE("the token comes from the environment before the token file", "[config][telegram]") {
    const auto dir = std::filesystem::temp_directory_path() / "ghostpost_config_test";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "token") << "777:from-file\n";
    const std::string text = "[storage]\npath = \"x\"\n[telegram]\ntoken_file = \"token\"\n";

    CHECK(read(text, fake_environment({}), dir).token == "777:from-file");
    CHECK(read(text, fake_environment({{"GHOSTPOST_TELEGRAM_TOKEN", token}}), dir).token == token);
    std::filesystem::remove_all(dir);
}

TEST_CASE("a missing or malformed token stops start-up without quoting it", "[config][telegram]") {
    const std::string text = "[storage]\npath = \"x\"\n[telegram]\n";
    CHECK(error_of(text, fake_environment({})) ==
          "ghostpost.toml: telegram.token_file: no token: set GHOSTPOST_TELEGRAM_TOKEN or "
          "[telegram] token_file");
    const std::string message =
        error_of(text, fake_environment({{"GHOSTPOST_TELEGRAM_TOKEN", "not a token secretword"}}));
    CHECK(message == "ghostpost.toml: telegram.token_file: the token in the environment variable "
                     "GHOSTPOST_TELEGRAM_TOKEN is not of the form <bot id>:<secret> given by "
                     "@BotFather");
    CHECK(message.find("secretword") == std::string::npos);
    CHECK(error_of("[storage]\npath = \"x\"\n[telegram]\ntoken_file = \"/nonexistent/t\"\n",
                   fake_environment({})) ==
          "ghostpost.toml:4: telegram.token_file: cannot read /nonexistent/t");
}

TEST_CASE("Telegram is a table under [platform] and the older [telegram] still reads",
          "[config][telegram]") {
    const auto environment = fake_environment({{"GHOSTPOST_TELEGRAM_TOKEN", token}});
    CHECK(read("[storage]\npath = \"g.db\"\n[platform.telegram]\npoll_timeout = 20\n", environment)
              .poll_timeout == std::chrono::seconds(20));
    CHECK(read("[storage]\npath = \"g.db\"\n[telegram]\npoll_timeout = 20\n", environment)
              .poll_timeout == std::chrono::seconds(20));

    CHECK(error_of("[storage]\npath = \"g.db\"\n[platform.telegram]\n[telegram]\n", environment) ==
          "ghostpost.toml:4: telegram: give the Telegram settings once, in [platform.telegram]");
    CHECK(error_of("[storage]\npath = \"g.db\"\n[platform.telegram]\npoll_timeout = 99\n",
                   environment) ==
          "ghostpost.toml:4: platform.telegram.poll_timeout: must be between 1 and 50 seconds");
    CHECK(error_of("[storage]\npath = \"g.db\"\n[platform.telegram]\n", fake_environment({})) ==
          "ghostpost.toml: platform.telegram.token_file: no token: set GHOSTPOST_TELEGRAM_TOKEN or "
          "[platform.telegram] token_file");
}
