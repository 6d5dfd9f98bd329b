// `ghostpost run --config FILE`: configuration, signals, and the objects the daemon needs.
#include "ghostpost/bot/daemon.h"
#include "ghostpost/bot/discourse.h"
#include "ghostpost/bot/discord.h"
#include "ghostpost/bot/http.h"
#include "ghostpost/bot/log.h"
#include "ghostpost/bot/matrix.h"
#include "ghostpost/bot/telegram.h"
#include "ghostpost/config/config.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/web/server.h"

#include <CLI/CLI.hpp>
#include <csignal>
#include <ctime>
#include <iostream>
#include <memory>
#include <cstdio>
#include <pthread.h>
#include <random>
#include <thread>
#include <unistd.h>

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

// One platform's share of the daemon: its adapter and what its loop needs. Each lane runs in a
// thread of its own, with its own database connection.
struct Lane {
    std::unique_ptr<Platform> platform;
    ServiceSettings service;
    DaemonOptions options;
    // Why the platform refused the bot for good (the operator must act), empty when it did not.
    std::function<std::string()> refused;
};

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
    // The platforms of this daemon, for !invite (a channel of one of them may follow a game).
    const std::pair<bool, const char*> lanes[] = {{settings.telegram.enabled, "telegram"},
                                                  {settings.discord.enabled, "discord"},
                                                  {settings.matrix.enabled, "matrix"},
                                                  {settings.discourse.enabled, "discourse"}};
    for (const auto& [enabled, name] : lanes)
        if (enabled)
            s.platforms.push_back(name);
    s.web_base_url = settings.web.base_url;
    return s;
}

// The Telegram lane, once getMe told the bot's @name (the service needs it to tell its commands
// from other bots'); nullopt when a stop came first.
std::optional<Lane> telegram_lane(const config::Settings& settings, HttpClient& http,
                                  StopToken& stop) {
    TelegramOptions options;
    options.api_url = settings.telegram.api_url;
    options.token = settings.telegram.token;
    options.bot_username = settings.telegram.bot_username;
    options.request_timeout = settings.telegram.request_timeout;
    options.pacing.per_chat = settings.telegram.per_chat_interval;
    options.pacing.group_per_minute = settings.telegram.group_messages_per_minute;
    options.commands = command_menu();
    auto telegram = std::make_unique<TelegramPlatform>(http, options);
    std::string bot_name;
    std::chrono::milliseconds delay{1000};
    while (bot_name.empty() && !stop.stop_requested()) {
        try {
            // Asked even when configured: getMe also says whether the bot reads groups.
            bot_name = telegram->identify();
        } catch (const PlatformError& e) {
            if (e.kind() == PlatformError::Kind::Cancelled)
                break;
            log::warning("get_me_failed", {{"platform", "telegram"}, {"error", e.what()}});
        } catch (const std::exception& e) {
            log::warning("get_me_failed", {{"platform", "telegram"}, {"error", e.what()}});
        }
        if (bot_name.empty()) {
            stop.sleep_for(delay);
            delay = std::min<std::chrono::milliseconds>(delay * 2, std::chrono::seconds(60));
        }
    }
    if (bot_name.empty())
        return std::nullopt;
    log::info("bot_identified", {{"platform", "telegram"}, {"username", bot_name}});
    try {
        telegram->publish_commands(); // the "/" menu; a failure is logged and changes nothing
    } catch (const PlatformError&) {
        return std::nullopt; // cancelled: the daemon is stopping
    }
    Lane lane{std::move(telegram), service_settings(settings, "telegram", bot_name), {}};
    lane.options.poll_timeout = settings.telegram.poll_timeout;
    return lane;
}

// The Discourse lane: its own HTTP client (one request at a time each), and the stop token's
// sleep between polls, so that SIGTERM ends a quiet wait at once.
Lane discourse_lane(const config::Settings& settings, HttpClient& http, StopToken& stop) {
    const config::DiscourseSettings& d = settings.discourse;
    DiscourseOptions options;
    options.base_url = d.base_url;
    options.username = d.username;
    options.api_key = d.api_key;
    options.categories.insert(d.categories.begin(), d.categories.end());
    options.request_timeout = d.request_timeout;
    options.pacing.per_chat = d.per_topic_interval;
    options.sleep = [&stop](std::chrono::milliseconds wait) { return stop.sleep_for(wait); };
    Lane lane{std::make_unique<DiscoursePlatform>(http, std::move(options)),
              service_settings(settings, "discourse", d.username),
              {}};
    lane.options.poll_timeout = d.poll_interval;
    return lane;
}

// The Matrix lane, once /account/whoami confirmed the token belongs to the configured account;
// nullopt when a stop came first or the token was refused (`token_refused` is then set).
std::optional<Lane> matrix_lane(const config::Settings& settings, HttpClient& http, StopToken& stop,
                                std::atomic<bool>& token_refused) {
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
    // A refused token will not heal by waiting: the daemon stops and says so (status 2).
    options.token_refused = [&token_refused, &stop] {
        token_refused.store(true);
        stop.request_stop();
    };
    auto matrix = std::make_unique<MatrixPlatform>(http, options);
    std::string account;
    std::chrono::milliseconds delay{1000};
    while (account.empty() && !stop.stop_requested()) {
        try {
            account = matrix->whoami();
        } catch (const std::exception& e) {
            if (token_refused.load())
                break;
            log::warning("whoami_failed", {{"platform", "matrix"}, {"error", e.what()}});
        }
        if (account.empty()) {
            stop.sleep_for(delay);
            delay = std::min<std::chrono::milliseconds>(delay * 2, std::chrono::seconds(60));
        }
    }
    if (account.empty())
        return std::nullopt;
    if (account != settings.matrix.user_id)
        log::warning("matrix_account_mismatch",
                     {{"configured", settings.matrix.user_id}, {"token_for", account}});
    log::info("bot_identified", {{"platform", "matrix"}, {"username", account}});
    // The service writes "@" + bot_name: a Matrix id already starts with its "@".
    Lane lane{std::move(matrix), service_settings(settings, "matrix", account.substr(1)), {}};
    lane.options.poll_timeout = settings.matrix.poll_timeout;
    return lane;
}

// The Discord lane; its Gateway connects on the first poll.
Lane discord_lane(const config::Settings& settings, HttpClient& http, StopToken& stop) {
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
    auto discord = std::make_unique<DiscordPlatform>(http, options);
    const DiscordPlatform* refusing = discord.get();
    Lane lane{std::move(discord), service_settings(settings, "discord", "ghostpost"), {}, {}};
    lane.options.poll_timeout = settings.discord.poll_timeout;
    lane.refused = [refusing] { return refusing->fatal_error(); };
    return lane;
}

storage::StoreLocation store_location(const config::StorageSettings& storage) {
    return {storage.url, storage.password, storage.path.string()};
}

// This daemon's name among several on one database: the machine, the process, and a random
// part, since a restarted process may get the same id.
std::string daemon_name() {
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) != 0)
        host[0] = '\0';
    std::random_device random;
    char suffix[9];
    std::snprintf(suffix, sizeof suffix, "%08x", random());
    return std::string(host) + ":" + std::to_string(getpid()) + ":" + suffix;
}

int run(const std::string& config_path, bool check_only) {
    log::install_crash_handler();
    config::Settings settings;
    try {
        settings = config::load(config_path, config::process_environment());
    } catch (const config::ConfigError& e) {
        log::error("bad_configuration", {{"error", e.what()}});
        return 2;
    }
    log::set_level(settings.log_level);
    if (!settings.telegram.enabled && !settings.discourse.enabled && !settings.matrix.enabled &&
        !settings.discord.enabled) {
        log::error("bad_configuration",
                   {{"error", config_path +
                                  ": platform: no platform configured (add [platform.telegram], "
                                  "[platform.discord], [platform.discourse] or [platform.matrix])"}});
        return 2;
    }
    if (settings.telegram.enabled)
        log::add_secret(settings.telegram.token);
    if (settings.discourse.enabled)
        log::add_secret(settings.discourse.api_key);
    if (settings.matrix.enabled)
        log::add_secret(settings.matrix.token);
    if (settings.discord.enabled)
        log::add_secret(settings.discord.token);
    if (!settings.storage.password.empty())
        log::add_secret(settings.storage.password);
    if (check_only) {
        // What an operator runs as the service's user before starting it: the configuration
        // reads, the secrets are there and the database opens for writing (and is migrated).
        const storage::StoreLocation location = store_location(settings.storage);
        // Never the URL itself: it may carry a password.
        const std::string where =
            location.url.empty() ? settings.storage.path.string() : std::string("PostgreSQL");
        try {
            auto store = storage::open_store(location);
            store->transaction([&] { static_cast<void>(store->heartbeat()); });
        } catch (const std::exception& e) {
            log::error("bad_storage", {{"path", where}, {"error", e.what()}});
            return 1;
        }
        std::cout << "configuration ok: " << config_path << ", database " << where << "\n";
        return 0;
    }

    // Signals go to one thread that waits for them; the others never see them, so a long
    // poll is ended by cancelling its HTTP call rather than by an interrupted system call.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    CurlHttpClient http;
    // One request at a time per client: a client per lane.
    CurlHttpClient discourse_http;
    CurlHttpClient matrix_http;
    CurlHttpClient discord_http;
    StopToken stop;
    std::atomic<bool> finished{false};
    std::thread watcher([&] {
        const timespec tick{0, 200'000'000};
        while (!finished.load()) {
            const int signal = sigtimedwait(&signals, nullptr, &tick);
            if (signal == SIGTERM || signal == SIGINT) {
                log::info("shutdown_requested",
                          {{"signal", signal == SIGTERM ? "SIGTERM" : "SIGINT"}});
                stop.request_stop();
                http.cancel();
                discourse_http.cancel();
                matrix_http.cancel();
                discord_http.cancel();
                return;
            }
        }
    });
    const auto join = [&] {
        finished.store(true);
        watcher.join();
    };

    int status = 0;
    std::atomic<bool> matrix_token_refused{false};
    try {
        // The database exists and is migrated before any lane opens its own connection.
        const storage::StoreLocation location = store_location(settings.storage);
        const bool shared = storage::open_store(location)->shared();
        const std::string holder = daemon_name();
        if (shared)
            log::info("shared_database", {{"daemon", holder},
                                          {"lease_seconds", settings.storage.lease.count()}});
        // The web view, when configured: its own connections and threads, read-only.
        std::unique_ptr<web::Site> site;
        std::unique_ptr<web::WebServer> web_server;
        if (!settings.web.listen.empty()) {
            web::SiteSettings site_settings;
            site_settings.db_path = settings.storage.path.string();
            site_settings.db_url = settings.storage.url;
            site_settings.db_password = settings.storage.password;
            site_settings.command_prefix = settings.command_prefix;
            site = std::make_unique<web::Site>(site_settings);
            web_server =
                std::make_unique<web::WebServer>(*site, web::parse_listen(settings.web.listen));
            web_server->start();
            log::info("web_listening", {{"listen", settings.web.listen}});
        }
        std::vector<Lane> lanes;
        if (settings.telegram.enabled)
            if (auto lane = telegram_lane(settings, http, stop))
                lanes.push_back(std::move(*lane));
        if (settings.discourse.enabled)
            lanes.push_back(discourse_lane(settings, discourse_http, stop));
        if (settings.matrix.enabled && !stop.stop_requested())
            if (auto lane = matrix_lane(settings, matrix_http, stop, matrix_token_refused))
                lanes.push_back(std::move(*lane));
        if (settings.discord.enabled)
            lanes.push_back(discord_lane(settings, discord_http, stop));
        // One lane runs the time-driven job for every platform's games; their replies go out
        // through the outbox of each game's platform.
        for (std::size_t i = 1; i < lanes.size(); ++i)
            lanes[i].options.time_driven_jobs = false;
        for (Lane& lane : lanes) {
            lane.options.holder = holder;
            lane.options.lease = settings.storage.lease;
            lane.options.claim = settings.storage.claim;
        }
        std::vector<std::thread> threads;
        std::atomic<int> failed{0};
        std::atomic<int> refused{0};
        for (Lane& lane : lanes) {
            threads.emplace_back([&location, &lane, &stop, &failed, &refused, &http,
                                  &discord_http, &discourse_http, &matrix_http] {
                try {
                    auto store = storage::open_store(location);
                    Service service(*store, lane.service);
                    run_daemon(*store, service, *lane.platform, lane.options, stop);
                    if (const std::string why = lane.refused ? lane.refused() : std::string();
                        !why.empty()) {
                        // Like a bad configuration: retrying cannot help, the operator must act.
                        log::error("platform_refused",
                                   {{"platform", lane.platform->name()}, {"error", why}});
                        refused.fetch_add(1);
                        stop.request_stop();
                        http.cancel();
                        discord_http.cancel();
                        discourse_http.cancel();
                        matrix_http.cancel();
                    }
                } catch (const std::exception& e) {
                    log::error("fatal", {{"platform", lane.platform->name()}, {"error", e.what()}});
                    failed.fetch_add(1);
                    stop.request_stop();
                }
            });
        }
        for (auto& t : threads)
            t.join();
        if (failed.load() > 0)
            status = 1;
        if (matrix_token_refused.load()) {
            log::error("matrix_token_refused",
                       {{"error", "the homeserver refuses the access token (M_UNKNOWN_TOKEN)"},
                        {"hint", "log the bot in again and set GHOSTPOST_MATRIX_TOKEN or "
                                 "[platform.matrix] token_file"}});
            status = 2;
        }
        if (refused.load() > 0)
            status = 2;
    } catch (const std::exception& e) {
        log::error("fatal", {{"error", e.what()}});
        status = 1;
    }
    join();
    return status;
}

} // namespace

void add_run_command(CLI::App& app, int& exit_status) {
    auto* command =
        app.add_subcommand("run", "Run the daemon: poll the chat platform, play, reply");
    const auto config_path = std::make_shared<std::string>();
    command->add_option("--config", *config_path, "the TOML configuration file")->required();
    const auto check_only = std::make_shared<bool>(false);
    command->add_flag("--check", *check_only,
                      "read the configuration and open the database, then exit: 0 when the "
                      "daemon could start, 2 for a bad configuration, 1 when the database "
                      "cannot be opened");
    command->callback([config_path, check_only, &exit_status] {
        exit_status = run(*config_path, *check_only);
    });
}

} // namespace ghostpost::bot
