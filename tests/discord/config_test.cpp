// [platform.discord] in the configuration: its keys, its token, and its errors, which name the
// key and never the token.
#include "fake_discord.h"
#include "ghostpost/config/config.h"
#include "ghostpost/discord/module.h"
#include "ghostpost/discord/settings.h"

#include <fstream>

using namespace ghostpost::config;
using ghostpost::bot::discord_module;
using ghostpost::bot::DiscordSettings;
using ghostpost::bot::read_discord_settings;

namespace {

const std::string token = "MTAxNzQ.FAKEsecret.discord-token_value";

Environment environment(std::optional<std::string> discord_token) {
    return [discord_token](const std::string& name) -> std::optional<std::string> {
        if (name == "GHOSTPOST_DISCORD_TOKEN")
            return discord_token;
        return std::nullopt;
    };
}

// The file read as the daemon reads it: config/ hands the table through, the module reads it.
DiscordSettings read(const std::string& text, const Environment& env,
                     const std::filesystem::path& base_dir = {}) {
    const Settings settings =
        parse(text, "ghostpost.toml", env, base_dir, {discord_module.claim()});
    return read_discord_settings(settings.platforms.at("discord"), env);
}

std::string error_of(const std::string& text, std::optional<std::string> discord_token) {
    try {
        (void)read(text, environment(std::move(discord_token)));
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "no error";
}

const std::string storage = "[storage]\npath = \"g.db\"\n";

} // namespace

TEST_CASE("platform.discord reads its keys, and the token comes from the environment",
          "[discord][config]") {
    const DiscordSettings discord = read(storage + "[platform.discord]\n"
                                                   "api_url = \"http://127.0.0.1:9/api/v10/\"\n"
                                                   "gateway_url = \"ws://127.0.0.1:9/gateway\"\n"
                                                   "guild_ids = [\"800000000000000001\"]\n"
                                                   "poll_timeout = 20\nper_chat_interval_ms = 0\n"
                                                   "message_content = false\n",
                                         environment(token));
    CHECK(discord.api_url == "http://127.0.0.1:9/api/v10");
    CHECK(discord.gateway_url == "ws://127.0.0.1:9/gateway");
    CHECK(discord.guild_ids == std::vector<std::string>{"800000000000000001"});
    CHECK(discord.poll_timeout == std::chrono::seconds(20));
    CHECK(discord.per_chat_interval == std::chrono::milliseconds(0));
    CHECK(discord.token == token);
    CHECK_FALSE(discord.message_content);

    const auto defaults = read(storage + "[platform.discord]\n", environment(token));
    CHECK(defaults.api_url == "https://discord.com/api/v10");
    CHECK(defaults.gateway_url.empty());
    CHECK(defaults.message_content);
}

TEST_CASE("platform.discord reads the token from token_file when the environment has none",
          "[discord][config]") {
    ghostpost::discord_test::TempDir dir;
    std::ofstream(dir.path() / "discord.token") << token << "\n";
    const auto discord = read(storage + "[platform.discord]\ntoken_file = \"discord.token\"\n",
                              environment(std::nullopt), dir.path());
    CHECK(discord.token == token);
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

TEST_CASE("platform.discord reads shards: a count, 0 for Discord's recommendation, 1 by default",
          "[discord][config][shard]") {
    CHECK(read(storage + "[platform.discord]\n", environment(token)).shards == 1);
    CHECK(read(storage + "[platform.discord]\nshards = 4\n", environment(token)).shards == 4);
    CHECK(read(storage + "[platform.discord]\nshards = 0\n", environment(token)).shards == 0);
    const std::string range = "must be between 1 and 4096, or 0 for as many as Discord recommends";
    CHECK(error_of(storage + "[platform.discord]\nshards = -2\n", token) ==
          "ghostpost.toml:4: platform.discord.shards: " + range);
    CHECK(error_of(storage + "[platform.discord]\nshards = 5000\n", token) ==
          "ghostpost.toml:4: platform.discord.shards: " + range);
    CHECK(error_of(storage + "[platform.discord]\nshards = \"auto\"\n", token) ==
          "ghostpost.toml:4: platform.discord.shards: must be an integer");
}
