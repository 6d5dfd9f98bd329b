// A platform is a module: its folder exports one PlatformModule, and bot/app/ keeps the one list
// of them. The module reads its own [platform.<name>] table (config/ hands it through unread),
// names the secrets to cut out of every log line, and starts its lane: a start-up check that
// asks the platform who the bot is, then the adapter.
#pragma once

#include "ghostpost/config/config.h"
#include "ghostpost/http/http.h"
#include "ghostpost/platform/platform.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ghostpost::bot {

// What a lane lends its platform's start-up check. `http` and the two callbacks belong to the
// lane and outlive the platform.
struct StartContext {
    HttpClient& http;
    std::function<bool(std::chrono::milliseconds)> sleep; // waits; false once the lane stops
    std::function<bool()> stopping;                       // whether the lane is stopping
    std::string command_prefix;                           // [bot] command_prefix
    // What the service offers, for the platforms that publish menus (a "/" menu, slash
    // commands): every command with a few words on it, the variants' own
    // commands among them (each takes a game's number); the variants' names, for choices.
    // Given here so that a platform knows neither the service's table nor the rules.
    std::vector<MenuCommand> commands;
    std::vector<MenuCommand> variant_commands;
    std::vector<std::string> variants;
    // A limit every daemon on the database shares (a platform's requests a second for the whole
    // bot): how long to wait before a call under `key`, the call counted; calls spaced so that
    // no second holds more than `per_second`, `burst` of them allowed early. Null when the
    // daemon is alone on its database (SQLite): the platform's own limiter keeps the limit.
    std::function<std::chrono::milliseconds(const std::string& key, int per_second, int burst)>
        shared_limit;
};

// A platform that passed its start-up check.
struct PlatformStart {
    std::unique_ptr<Platform> platform;
    std::string bot_name; // the bot's own name there, as its users write it after "@"
    std::chrono::seconds poll_timeout{50};
    // Further lanes of the same platform (its shards), each polled on a thread and a
    // database connection of its own beside `platform`, under its own Platform::lane() key.
    std::vector<std::unique_ptr<Platform>> more;
};

// A platform read from its table, ready to start.
class ConfiguredPlatform {
public:
    virtual ~ConfiguredPlatform() = default;
    // The secrets of its table (tokens, keys), cut out of every log line.
    virtual std::vector<std::string> secrets() const = 0;
    // The start-up check and the factory, once. Errors: PlatformError: Unauthorized when the
    // platform refuses the bot's credentials (the lane stops), Cancelled when stopping;
    // anything else is retried.
    virtual PlatformStart start(const StartContext& context) const = 0;
};

struct PlatformModule {
    const char* name;  // [platform.<name>], and the prefix of its accounts ("<name>:<id>")
    const char* alias; // a top-level table older configurations used for it; "": none
    const char* title; // its name in prose
    // Reads the module's table. Throws config::ConfigError naming the key and its line.
    std::unique_ptr<ConfiguredPlatform> (*read)(const config::PlatformTable& table,
                                                const config::Environment& environment);
    // Whether its clients show an image in the conversation, as they show text: then a
    // channel's boards are images unless its moderators choose text.
    bool images_inline = false;

    config::PlatformClaim claim() const { return {name, alias, title}; }
};

} // namespace ghostpost::bot
