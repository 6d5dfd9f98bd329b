#include "ghostpost/slack/module.h"

#include "ghostpost/slack/settings.h"
#include "ghostpost/slack/slack.h"

namespace ghostpost::bot {

namespace {

class ConfiguredSlack : public ConfiguredPlatform {
public:
    explicit ConfiguredSlack(SlackSettings settings) : settings_(std::move(settings)) {}

    std::vector<std::string> secrets() const override {
        return {settings_.bot_token, settings_.app_token};
    }

    // auth.test tells whether the bot token works and who the bot is; Socket Mode connects on
    // the first poll.
    PlatformStart start(const StartContext& context) const override {
        SlackOptions options;
        options.api_url = settings_.api_url;
        options.bot_token = settings_.bot_token;
        options.app_token = settings_.app_token;
        options.command_prefix = context.command_prefix;
        options.request_timeout = settings_.request_timeout;
        options.pacing.per_chat = settings_.per_chat_interval;
        options.pacing.group_per_minute = settings_.group_messages_per_minute;
        options.cancelled = context.stopping;
        auto platform = std::make_unique<SlackPlatform>(context.http, options);
        std::string name = platform->identify();
        return {std::move(platform), std::move(name), settings_.poll_timeout};
    }

private:
    SlackSettings settings_;
};

std::unique_ptr<ConfiguredPlatform> read(const config::PlatformTable& table,
                                         const config::Environment& environment) {
    return std::make_unique<ConfiguredSlack>(read_slack_settings(table, environment));
}

} // namespace

// Boards stay text by default: an image costs Slack's three-call upload flow for every move,
// under rate limits of about one message a second per channel.
const PlatformModule slack_module{"slack", "", "Slack", read, false};

} // namespace ghostpost::bot
