#include "platform_modules.h"

#include "ghostpost/discord/module.h"
#include "ghostpost/discourse/module.h"
#include "ghostpost/email/module.h"
#include "ghostpost/matrix/module.h"
#include "ghostpost/slack/module.h"
#include "ghostpost/telegram/module.h"

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

// One module a line, so that a new platform adds one line. clang-format would pack five.
// clang-format off
const PlatformModule* const modules[] = {
    &telegram_module,
    &discord_module,
    &matrix_module,
    &discourse_module,
    &email_module,
    &slack_module,
};
// clang-format on

} // namespace

std::span<const PlatformModule* const> platform_modules() {
    return modules;
}

std::vector<config::PlatformClaim> platform_claims() {
    std::vector<config::PlatformClaim> claims;
    for (const PlatformModule* module : modules)
        claims.push_back(module->claim());
    return claims;
}

namespace {

// Each table present, read by the module that claims it.
Configuration read_platforms(config::Settings settings, const config::Environment& environment) {
    Configuration configuration{std::move(settings), {}};
    for (const PlatformModule* module : modules) {
        const auto table = configuration.settings.platforms.find(module->name);
        if (table != configuration.settings.platforms.end())
            configuration.platforms.push_back({module, module->read(table->second, environment)});
    }
    return configuration;
}

} // namespace

Configuration load_configuration(const std::filesystem::path& file,
                                 const config::Environment& environment) {
    return read_platforms(config::load(file, environment, platform_claims()), environment);
}

Configuration parse_configuration(std::string_view text, const std::string& source,
                                  const config::Environment& environment,
                                  const std::filesystem::path& base_dir) {
    return read_platforms(config::parse(text, source, environment, base_dir, platform_claims()),
                          environment);
}

ServiceSettings service_settings(const config::Settings& settings, const std::string& platform,
                                 const std::string& bot_name) {
    ServiceSettings s;
    s.prefix = settings.command_prefix;
    s.language = settings.language;
    s.moderators = moderators_of(platform, settings.moderators);
    s.bot_name = bot_name;
    s.default_time_control = settings.clocks.default_time_control;
    s.combat_deadline =
        std::chrono::duration_cast<std::chrono::seconds>(settings.clocks.combat_deadline).count();
    s.vacation_days = settings.clocks.vacation_days;
    s.challenge_expiry = std::int64_t{settings.clocks.challenge_expiry_days} * 86400;
    s.max_open_challenges = settings.clocks.max_open_challenges;
    s.max_bot_games = settings.limits.max_bot_games;
    s.rated_bot_games = settings.limits.rated_bot_games;
    for (const PlatformModule* module : modules)
        if (module->images_inline)
            s.inline_images.push_back(module->name);
    s.max_open_games = settings.limits.max_open_games;
    s.commands_per_minute = settings.limits.commands_per_minute;
    // The platforms of this daemon, for !invite (a channel of one of them may follow a game).
    for (const PlatformModule* module : modules)
        if (settings.platforms.contains(module->name))
            s.platforms.push_back(module->name);
    s.web_base_url = settings.web.base_url;
    return s;
}

} // namespace ghostpost::bot
