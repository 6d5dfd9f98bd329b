#include "ghostpost/discord/module.h"

#include "ghostpost/discord/discord.h"
#include "ghostpost/discord/settings.h"

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
        options.request_timeout = settings_.request_timeout;
        options.pacing.per_chat = settings_.per_chat_interval;
        options.pacing.group_per_minute = settings_.group_messages_per_minute;
        options.cancelled = context.stopping;
        return {std::make_unique<DiscordPlatform>(context.http, options), "ghostpost",
                settings_.poll_timeout};
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
