// The one list of chat platforms the daemon knows: each platform's folder exports its descriptor
// (platform_module.h), and this list names them. Adding a platform adds an entry here; nothing
// else in the daemon names a platform.
#pragma once

#include "ghostpost/config/config.h"
#include "ghostpost/platform/module.h"
#include "ghostpost/service/service.h"

#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ghostpost::bot {

std::span<const PlatformModule* const> platform_modules();

// The names every module claims, for config::load.
std::vector<config::PlatformClaim> platform_claims();

// A platform of this daemon's configuration, read by its module.
struct EnabledPlatform {
    const PlatformModule* module;
    std::unique_ptr<ConfiguredPlatform> configured;
};

// The configuration file with every module's table read by its module, in the list's order.
struct Configuration {
    config::Settings settings;
    std::vector<EnabledPlatform> platforms;
};

// Reads `file` and then each platform table in it. Throws config::ConfigError.
Configuration load_configuration(const std::filesystem::path& file,
                                 const config::Environment& environment);

// The same for TOML text; `source` names it in errors, relative file names resolve against
// `base_dir`.
Configuration parse_configuration(std::string_view text, const std::string& source,
                                  const config::Environment& environment,
                                  const std::filesystem::path& base_dir = {});

// The service's settings for one platform's posts; `bot_name` is the bot's own name there.
ServiceSettings service_settings(const config::Settings& settings, const std::string& platform,
                                 const std::string& bot_name);

} // namespace ghostpost::bot
