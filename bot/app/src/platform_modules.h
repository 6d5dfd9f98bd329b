// The one list of chat platforms the daemon knows. Each entry says whether the configuration
// enables it, which secrets it brings (cut out of every log line), and how its lane starts: a
// start-up check that asks the platform who the bot is, then the adapter and what its loop
// needs. Adding a platform adds an entry here; nothing else in the daemon names a platform.
#pragma once

#include "ghostpost/bot/daemon.h"
#include "ghostpost/bot/http.h"
#include "ghostpost/config/config.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ghostpost::bot {

// A platform that passed its start-up check: the adapter and the settings of its lane.
struct StartedPlatform {
    std::unique_ptr<Platform> platform;
    ServiceSettings service;
    DaemonOptions options;
};

struct PlatformModule {
    const char* name;
    bool (*enabled)(const config::Settings& settings);
    std::vector<std::string> (*secrets)(const config::Settings& settings);
    // The start-up check and the factory, once. `http` and `stop` belong to the lane and
    // outlive the platform. Errors: PlatformError: Unauthorized when the platform refuses the
    // bot's credentials (the lane stops), Cancelled when stopping, anything else is retried.
    StartedPlatform (*start)(const config::Settings& settings, HttpClient& http, StopToken& stop);
};

std::span<const PlatformModule> platform_modules();

// The service's settings for one platform's posts; `bot_name` is the bot's own name there.
ServiceSettings service_settings(const config::Settings& settings, const std::string& platform,
                                 const std::string& bot_name);

} // namespace ghostpost::bot
