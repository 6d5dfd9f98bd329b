// [platform.slack] in the configuration: its keys, its two tokens, and its errors, which name
// the key and never a token.
#include "fake_slack.h"
#include "ghostpost/config/config.h"
#include "ghostpost/log/log.h"
#include "ghostpost/slack/module.h"
#include "ghostpost/slack/settings.h"

#include <fstream>

using namespace ghostpost::config;
using ghostpost::bot::read_slack_settings;
using ghostpost::bot::slack_module;
using ghostpost::bot::SlackSettings;

namespace {

const std::string bot_token = "xoxb-1111111111-2222222222-FAKEbotTOKENvalue";
const std::string app_token = "xapp-1-AFAKEAPP01-3333333333-fakeapptokenvalue";

Environment environment(std::optional<std::string> bot, std::optional<std::string> app) {
    return [bot, app](const std::string& name) -> std::optional<std::string> {
        if (name == "GHOSTPOST_SLACK_BOT_TOKEN")
            return bot;
        if (name == "GHOSTPOST_SLACK_APP_TOKEN")
            return app;
        return std::nullopt;
    };
}

SlackSettings read(const std::string& text, const Environment& env,
                   const std::filesystem::path& base_dir = {}) {
    const Settings settings = parse(text, "ghostpost.toml", env, base_dir, {slack_module.claim()});
    return read_slack_settings(settings.platforms.at("slack"), env);
}

std::string error_of(const std::string& text, std::optional<std::string> bot,
                     std::optional<std::string> app) {
    try {
        (void)read(text, environment(std::move(bot), std::move(app)));
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "no error";
}

const std::string storage = "[storage]\npath = \"g.db\"\n";

} // namespace

TEST_CASE("platform.slack reads its keys, and both tokens come from the environment",
          "[slack][config]") {
    const SlackSettings slack = read(storage + "[platform.slack]\n"
                                               "api_url = \"http://127.0.0.1:9/api/\"\n"
                                               "poll_timeout = 20\nrequest_timeout = 7\n"
                                               "per_chat_interval_ms = 0\n"
                                               "group_messages_per_minute = 30\n",
                                     environment(bot_token, app_token));
    CHECK(slack.api_url == "http://127.0.0.1:9/api");
    CHECK(slack.poll_timeout == std::chrono::seconds(20));
    CHECK(slack.request_timeout == std::chrono::seconds(7));
    CHECK(slack.per_chat_interval == std::chrono::milliseconds(0));
    CHECK(slack.group_messages_per_minute == 30);
    CHECK(slack.bot_token == bot_token);
    CHECK(slack.app_token == app_token);

    const auto defaults = read(storage + "[platform.slack]\n", environment(bot_token, app_token));
    CHECK(defaults.api_url == "https://slack.com/api");
    CHECK(defaults.per_chat_interval == std::chrono::milliseconds(1000));
}

TEST_CASE("platform.slack reads the tokens from their files when the environment has none",
          "[slack][config]") {
    ghostpost::slack_test::TempDir dir;
    std::ofstream(dir.path() / "bot.token") << bot_token << "\n";
    std::ofstream(dir.path() / "app.token") << app_token << "\n";
    const auto slack = read(storage + "[platform.slack]\nbot_token_file = \"bot.token\"\n"
                                      "app_token_file = \"app.token\"\n",
                            environment(std::nullopt, std::nullopt), dir.path());
    CHECK(slack.bot_token == bot_token);
    CHECK(slack.app_token == app_token);
}

TEST_CASE("platform.slack errors name the key and never quote a token", "[slack][config]") {
    CHECK(error_of(storage + "[platform.slack]\n", std::nullopt, app_token) ==
          "ghostpost.toml: platform.slack.bot_token_file: no bot token: set "
          "GHOSTPOST_SLACK_BOT_TOKEN or [platform.slack] bot_token_file");
    CHECK(error_of(storage + "[platform.slack]\n", bot_token, std::nullopt) ==
          "ghostpost.toml: platform.slack.app_token_file: no app-level token: set "
          "GHOSTPOST_SLACK_APP_TOKEN or [platform.slack] app_token_file");
    // Swapped tokens: each is refused by its kind, and neither is quoted.
    const std::string swapped = error_of(storage + "[platform.slack]\n", app_token, bot_token);
    CHECK(swapped == "ghostpost.toml: platform.slack.bot_token_file: the token in the "
                     "environment variable GHOSTPOST_SLACK_BOT_TOKEN is not a Slack bot token "
                     "(xoxb-..., from the app's OAuth & Permissions page)");
    CHECK(error_of(storage + "[platform.slack]\n", bot_token, bot_token) ==
          "ghostpost.toml: platform.slack.app_token_file: the token in the environment variable "
          "GHOSTPOST_SLACK_APP_TOKEN is not a Slack app-level token (xapp-..., from the app's "
          "Basic Information page, with the connections:write scope)");
    CHECK(error_of(storage + "[platform.slack]\napi_ulr = \"https://x\"\n", bot_token, app_token) ==
          "ghostpost.toml:4: platform.slack.api_ulr: unknown key");
    CHECK(error_of(storage + "[platform.slack]\npoll_timeout = 99\n", bot_token, app_token) ==
          "ghostpost.toml:4: platform.slack.poll_timeout: must be between 1 and 50 seconds");
    CHECK(error_of(storage + "[platform.slack]\napi_url = \"ftp://x\"\n", bot_token, app_token) ==
          "ghostpost.toml:4: platform.slack.api_url: must start with http:// or https://");
}

TEST_CASE("platform.slack registers both tokens as secrets, and the log cuts them out",
          "[slack][config]") {
    const Settings settings = parse(storage + "[platform.slack]\n", "ghostpost.toml",
                                    environment(bot_token, app_token), {}, {slack_module.claim()});
    const auto configured =
        slack_module.read(settings.platforms.at("slack"), environment(bot_token, app_token));
    CHECK(configured->secrets() == std::vector<std::string>{bot_token, app_token});
    for (const std::string& secret : configured->secrets())
        ghostpost::bot::log::add_secret(secret);
    const std::string line =
        ghostpost::bot::log::redact("Authorization: Bearer " + bot_token + " and " + app_token);
    CHECK(line.find("xoxb-") == std::string::npos);
    CHECK(line.find("xapp-") == std::string::npos);
}
