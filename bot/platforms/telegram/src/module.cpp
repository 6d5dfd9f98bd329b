#include "ghostpost/telegram/module.h"

#include "ghostpost/log/log.h"
#include "ghostpost/telegram/settings.h"
#include "ghostpost/telegram/telegram.h"

namespace ghostpost::bot {

namespace {

class ConfiguredTelegram : public ConfiguredPlatform {
public:
    explicit ConfiguredTelegram(TelegramSettings settings) : settings_(std::move(settings)) {}

    std::vector<std::string> secrets() const override { return {settings_.token}; }

    // getMe tells the bot's @name (the service needs it to tell its commands from other bots')
    // and whether it reads groups; then the "/" menu is published.
    PlatformStart start(const StartContext& context) const override {
        TelegramOptions options;
        options.api_url = settings_.api_url;
        options.token = settings_.token;
        options.bot_username = settings_.bot_username;
        options.request_timeout = settings_.request_timeout;
        options.pacing.per_chat = settings_.per_chat_interval;
        options.pacing.group_per_minute = settings_.group_messages_per_minute;
        options.commands = context.commands;
        auto telegram = std::make_unique<TelegramPlatform>(context.http, options);
        std::string bot_name = telegram->identify();
        log::info("bot_identified", {{"platform", "telegram"}, {"username", bot_name}});
        telegram->publish_commands(); // a failure is logged and changes nothing
        return {std::move(telegram), std::move(bot_name), settings_.poll_timeout};
    }

private:
    TelegramSettings settings_;
};

std::unique_ptr<ConfiguredPlatform> read(const config::PlatformTable& table,
                                         const config::Environment& environment) {
    return std::make_unique<ConfiguredTelegram>(read_telegram_settings(table, environment));
}

} // namespace

const PlatformModule telegram_module{"telegram", "telegram", "Telegram", read, true};

} // namespace ghostpost::bot
