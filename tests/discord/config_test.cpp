// [platform.discord] in the configuration: its keys, its token, and its errors, which name the
// key and never the token.
#include "fake_discord.h"
#include "ghostpost/config/config.h"

#include <fstream>

using namespace ghostpost::config;

namespace {

const std::string token = "MTAxNzQ.FAKEsecret.discord-token_value";

Environment environment(std::optional<std::string> discord_token) {
    return [discord_token](const std::string& name) -> std::optional<std::string> {
        if (name == "GHOSTPOST_DISCORD_TOKEN")
            return discord_token;
        return std::nullopt;
    };
}

std::string error_of(const std::string& text, std::optional<std::string> discord_token) {
    try {
        (void)parse(text, "ghostpost.toml", environment(std::move(discord_token)));
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "no error";
}

const std::string storage = "[storage]\npath = \"g.db\"\n";

} // namespace

TEST_CASE("platform.discord reads its keys, and the token comes from the environment",
          "[discord][config]") {
    const auto settings = parse(storage + "[platform.discord]\n"
                                          "api_url = \"http://127.0.0.1:9/api/v10/\"\n"
                                          "gateway_url = \"ws://127.0.0.1:9/gateway\"\n"
                                          "guild_ids = [\"800000000000000001\"]\n"
                                          "poll_timeout = 20\nper_chat_interval_ms = 0\n"
                                          "message_content = false\n",
                                "ghostpost.toml", environment(token));
    CHECK(settings.discord.enabled);
    CHECK_FALSE(settings.telegram.enabled);
    CHECK(settings.discord.api_url == "http://127.0.0.1:9/api/v10");
    CHECK(settings.discord.gateway_url == "ws://127.0.0.1:9/gateway");
    CHECK(settings.discord.guild_ids == std::vector<std::string>{"800000000000000001"});
    CHECK(settings.discord.poll_timeout == std::chrono::seconds(20));
    CHECK(settings.discord.per_chat_interval == std::chrono::milliseconds(0));
    CHECK(settings.discord.token == token);
    CHECK_FALSE(settings.discord.message_content);

    const auto defaults =
        parse(storage + "[platform.discord]\n", "ghostpost.toml", environment(token));
    CHECK(defaults.discord.api_url == "https://discord.com/api/v10");
    CHECK(defaults.discord.gateway_url.empty());
    CHECK(defaults.discord.message_content);
}

TEST_CASE("platform.discord reads the token from token_file when the environment has none",
          "[discord][config]") {
    ghostpost::discord_test::TempDir dir;
    std::ofstream(dir.path() / "discord.token") << token << "\n";
    const auto settings = parse(storage + "[platform.discord]\ntoken_file = \"discord.token\"\n",
                                "ghostpost.toml", environment(std::nullopt), dir.path());
    CHECK(settings.discord.token == token);
}

TEST_CASE("platform.discord errors name the key and never quote the token", "[discord][config]") {
    CHECK(error_of(storage + "[platform.discord]\n", std::nullopt) ==
          "ghostpost.toml: platform.discord.token_file: no token: set GHOSTPOST_DISCORD_TOKEN or "
          "[platform.discord] token_file");
    CHECK(error_of(storage + "[platform.discord]\n", std::string("Bot secret-value")) ==
          "ghostpost.toml: platform.discord.token_file: the token in the environment variable "
          "GHOSTPOST_DISCORD_TOKEN is not a Discord bot token (three parts joined by dots, from "
          "the developer portal's Bot page)");
    CHECK(error_of(storage + "[platform.discord]\ngateway_url = \"https://x\"\n", token) ==
          "ghostpost.toml:4: platform.discord.gateway_url: must start with ws:// or wss://");
    CHECK(error_of(storage + "[platform.discord]\nguild_ids = [\"x1\"]\n", token) ==
          "ghostpost.toml:4: platform.discord.guild_ids: must be Discord ids (digits only)");
    CHECK(error_of(storage + "[platform.discord]\napi_ulr = \"https://x\"\n", token) ==
          "ghostpost.toml:4: platform.discord.api_ulr: unknown key");
    CHECK(error_of(storage + "[platform.discord]\npoll_timeout = 99\n", token) ==
          "ghostpost.toml:4: platform.discord.poll_timeout: must be between 1 and 50 seconds");
    CHECK(error_of(storage + "[platform.discord]\nmessage_content = \"no\"\n", token) ==
          "ghostpost.toml:4: platform.discord.message_content: must be true or false");
}
