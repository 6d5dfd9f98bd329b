#include "platform_modules.h"

#include "ghostpost/bot/discord.h"
#include "ghostpost/bot/discourse.h"
#include "ghostpost/bot/log.h"
#include "ghostpost/bot/matrix.h"
#include "ghostpost/bot/telegram.h"
#include "ghostpost/rules/registry.h"

namespace ghostpost::bot {

namespace {

// The service compares raw platform user ids; the file names them "<platform>:<id>" so one list
// serves several platforms. An entry without a platform counts for every platform.
std::vector<std::string> moderators_of(const std::string& platform,
                                       const std::vector<std::string>& configured) {
    std::vector<std::string> ids;
    for (const std::string& entry : configured) {
        if (entry.starts_with(platform + ":")) {
            ids.push_back(entry.substr(platform.size() + 1));
        } else if (entry.find(':') == std::string::npos) {
            ids.push_back(entry);
        }
    }
    return ids;
}

// Telegram: getMe tells the bot's @name (the service needs it to tell its commands from other
// bots') and whether it reads groups; then the "/" menu is published.
StartedPlatform start_telegram(const config::Settings& settings, HttpClient& http, StopToken&) {
    TelegramOptions options;
    options.api_url = settings.telegram.api_url;
    options.token = settings.telegram.token;
    options.bot_username = settings.telegram.bot_username;
    options.request_timeout = settings.telegram.request_timeout;
    options.pacing.per_chat = settings.telegram.per_chat_interval;
    options.pacing.group_per_minute = settings.telegram.group_messages_per_minute;
    options.commands = command_menu();
    auto telegram = std::make_unique<TelegramPlatform>(http, options);
    const std::string bot_name = telegram->identify();
    log::info("bot_identified", {{"platform", "telegram"}, {"username", bot_name}});
    telegram->publish_commands(); // a failure is logged and changes nothing
    StartedPlatform started{
        std::move(telegram), service_settings(settings, "telegram", bot_name), {}};
    started.options.poll_timeout = settings.telegram.poll_timeout;
    return started;
}

// Discourse: the username is configured; the first poll tells whether the key works. The stop
// token's sleep between polls lets SIGTERM end a quiet wait at once.
StartedPlatform start_discourse(const config::Settings& settings, HttpClient& http,
                                StopToken& stop) {
    const config::DiscourseSettings& d = settings.discourse;
    DiscourseOptions options;
    options.base_url = d.base_url;
    options.username = d.username;
    options.api_key = d.api_key;
    options.categories.insert(d.categories.begin(), d.categories.end());
    options.request_timeout = d.request_timeout;
    options.pacing.per_chat = d.per_topic_interval;
    options.sleep = [&stop](std::chrono::milliseconds wait) { return stop.sleep_for(wait); };
    StartedPlatform started{std::make_unique<DiscoursePlatform>(http, std::move(options)),
                            service_settings(settings, "discourse", d.username),
                            {}};
    started.options.poll_timeout = d.poll_interval;
    return started;
}

// Matrix: /account/whoami confirms the token and names the account it belongs to.
StartedPlatform start_matrix(const config::Settings& settings, HttpClient& http, StopToken&) {
    MatrixOptions options;
    options.homeserver_url = settings.matrix.homeserver_url;
    options.access_token = settings.matrix.token;
    options.user_id = settings.matrix.user_id;
    options.join_any = settings.matrix.join_any;
    options.join_servers = settings.matrix.join_servers;
    options.request_timeout = settings.matrix.request_timeout;
    options.command_prefix = settings.command_prefix;
    options.pacing.per_chat = settings.matrix.per_chat_interval;
    options.pacing.group_per_minute = settings.matrix.group_messages_per_minute;
    auto matrix = std::make_unique<MatrixPlatform>(http, options);
    const std::string account = matrix->whoami();
    if (account != settings.matrix.user_id)
        log::warning("matrix_account_mismatch", {{"platform", "matrix"},
                                                 {"configured", settings.matrix.user_id},
                                                 {"token_for", account}});
    log::info("bot_identified", {{"platform", "matrix"}, {"username", account}});
    // The service writes "@" + bot_name: a Matrix id already starts with its "@".
    StartedPlatform started{
        std::move(matrix), service_settings(settings, "matrix", account.substr(1)), {}};
    started.options.poll_timeout = settings.matrix.poll_timeout;
    return started;
}

// Discord: the Gateway connects on the first poll, which also tells whether the token works.
StartedPlatform start_discord(const config::Settings& settings, HttpClient& http, StopToken& stop) {
    DiscordOptions options;
    options.api_url = settings.discord.api_url;
    options.gateway_url = settings.discord.gateway_url;
    options.token = settings.discord.token;
    options.guild_ids = settings.discord.guild_ids;
    options.message_content = settings.discord.message_content;
    for (const rules::Variant* variant : rules::variants())
        options.variants.push_back(variant->info().name);
    options.request_timeout = settings.discord.request_timeout;
    options.pacing.per_chat = settings.discord.per_chat_interval;
    options.pacing.group_per_minute = settings.discord.group_messages_per_minute;
    options.cancelled = [&stop] { return stop.stop_requested(); };
    StartedPlatform started{std::make_unique<DiscordPlatform>(http, options),
                            service_settings(settings, "discord", "ghostpost"),
                            {}};
    started.options.poll_timeout = settings.discord.poll_timeout;
    return started;
}

const PlatformModule modules[] = {
    {"telegram", [](const config::Settings& s) { return s.telegram.enabled; },
     [](const config::Settings& s) { return std::vector<std::string>{s.telegram.token}; },
     start_telegram},
    {"discord", [](const config::Settings& s) { return s.discord.enabled; },
     [](const config::Settings& s) { return std::vector<std::string>{s.discord.token}; },
     start_discord},
    {"matrix", [](const config::Settings& s) { return s.matrix.enabled; },
     [](const config::Settings& s) { return std::vector<std::string>{s.matrix.token}; },
     start_matrix},
    {"discourse", [](const config::Settings& s) { return s.discourse.enabled; },
     [](const config::Settings& s) { return std::vector<std::string>{s.discourse.api_key}; },
     start_discourse},
};

} // namespace

std::span<const PlatformModule> platform_modules() {
    return modules;
}

ServiceSettings service_settings(const config::Settings& settings, const std::string& platform,
                                 const std::string& bot_name) {
    ServiceSettings s;
    s.prefix = settings.command_prefix;
    s.moderators = moderators_of(platform, settings.moderators);
    s.bot_name = bot_name;
    s.default_time_control = settings.clocks.default_time_control;
    s.combat_deadline =
        std::chrono::duration_cast<std::chrono::seconds>(settings.clocks.combat_deadline).count();
    s.vacation_days = settings.clocks.vacation_days;
    s.challenge_expiry = std::int64_t{settings.clocks.challenge_expiry_days} * 86400;
    s.max_open_challenges = settings.clocks.max_open_challenges;
    s.max_bot_games = settings.limits.max_bot_games;
    s.max_open_games = settings.limits.max_open_games;
    s.commands_per_minute = settings.limits.commands_per_minute;
    // The platforms of this daemon, for !invite (a channel of one of them may follow a game).
    for (const PlatformModule& module : modules)
        if (module.enabled(settings))
            s.platforms.push_back(module.name);
    s.web_base_url = settings.web.base_url;
    return s;
}

} // namespace ghostpost::bot
