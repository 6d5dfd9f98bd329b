#include "ghostpost/discord/module.h"

#include "ghostpost/discord/discord.h"
#include "ghostpost/discord/settings.h"
#include "ghostpost/log/log.h"

namespace ghostpost::bot {

namespace {

class ConfiguredDiscord : public ConfiguredPlatform {
public:
    explicit ConfiguredDiscord(DiscordSettings settings) : settings_(std::move(settings)) {}

    std::vector<std::string> secrets() const override { return {settings_.token}; }

    // The Gateway connects on the first poll, which also tells whether the token works.
    PlatformStart start(const StartContext& context) const override {
        DiscordOptions options;
        options.api_url = settings_.api_url;
        options.gateway_url = settings_.gateway_url;
        options.token = settings_.token;
        options.guild_ids = settings_.guild_ids;
        options.message_content = settings_.message_content;
        options.variants = context.variants;
        options.variant_commands = context.variant_commands;
        options.request_timeout = settings_.request_timeout;
        options.pacing.per_chat = settings_.per_chat_interval;
        options.pacing.group_per_minute = settings_.group_messages_per_minute;
        options.cancelled = context.stopping;
        options.shared_limit = context.shared_limit;
        int shards = settings_.shards;
        if (shards == 0) {
            DiscordPlatform probe(context.http, options);
            shards = probe.recommended_shards();
            log::info("discord_shards",
                      {{"platform", "discord"}, {"shards", shards}, {"from", "GET /gateway/bot"}});
        }
        options.shards = shards;
        auto first = std::make_unique<DiscordPlatform>(context.http, options);
        options.shared = first->shared();
        PlatformStart started{std::move(first), "ghostpost", settings_.poll_timeout, {}};
        // The other shards on HTTP clients of their own: a client makes one request at a time.
        // Their calls end within request_timeout when the daemon stops (only the lane's own
        // client is cancelled at once); none of them waits long.
        for (int shard = 1; shard < shards; ++shard) {
            options.shard = shard;
            started.more.push_back(
                std::make_unique<DiscordPlatform>(std::make_unique<CurlHttpClient>(), options));
        }
        return started;
    }

private:
    DiscordSettings settings_;
};

std::unique_ptr<ConfiguredPlatform> read(const config::PlatformTable& table,
                                         const config::Environment& environment) {
    return std::make_unique<ConfiguredDiscord>(read_discord_settings(table, environment));
}

} // namespace

const PlatformModule discord_module{"discord", "", "Discord", read, true};

} // namespace ghostpost::bot
