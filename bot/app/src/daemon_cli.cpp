// `ghostpost run --config FILE`: configuration, signals, and the lanes of the daemon. Each
// configured platform runs in a lane of its own (a thread, an HTTP client, a database
// connection, a stop of its own): its start-up check, polling and delivery retry with their own
// backoff, and a platform that is down or refuses the bot never delays another. The time-driven
// job and the web view run beside them whatever the platforms do.
#include "ghostpost/app/daemon.h"
#include "ghostpost/app/monitor.h"
#include "ghostpost/config/config.h"
#include "ghostpost/http/http.h"
#include "ghostpost/log/log.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/service/service.h"
#include "ghostpost/web/server.h"
#include "platform_modules.h"
#include "systemd_notify.h"

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <list>
#include <memory>
#include <pthread.h>
#include <random>
#include <thread>
#include <unistd.h>

namespace ghostpost::bot {

namespace {

// A server on `listen` (of [web] or [metrics]) with [web]'s limits. Errors: as web::parse_listen.
web::ServerSettings server_settings(const std::string& listen, const config::WebSettings& web) {
    web::ServerSettings server = web::parse_listen(listen);
    server.max_connections = web.max_connections;
    server.max_header_bytes = static_cast<std::size_t>(web.max_header_bytes);
    server.max_header_lines = static_cast<std::size_t>(web.max_header_lines);
    server.timeout_seconds = web.timeout_seconds;
    return server;
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

// One platform's lane: what it owns, and how it ended.
struct Lane {
    Lane(const EnabledPlatform& p, LaneMonitor& lane_monitor)
        : name(p.module->name), platform(*p.configured), monitor(lane_monitor) {}
    std::string name;
    const ConfiguredPlatform& platform;
    LaneMonitor& monitor;
    CurlHttpClient http; // one request at a time per client: a client per lane
    StopToken stop;
    std::thread thread;
    std::atomic<bool> done{false};
    std::atomic<bool> refused{false};
    std::atomic<bool> failed{false};
};

// What the operator must do when a platform refuses the bot, in a few words.
std::string refusal_hint(const std::string& platform) {
    return "the platform refuses the bot's credentials: renew them (see [platform." + platform +
           "] in docs/operators.md) and restart the daemon; the other platforms go on";
}

// The lane's thread: the start-up check, retried with backoff until it passes, is refused, or
// the daemon stops; then the poll loop on a database connection of its own.
void run_lane(Lane& lane, const config::Settings& settings, const storage::StoreLocation& location,
              const std::string& holder) {
    const std::string name = lane.name;
    const auto refuse = [&](const std::string& why) {
        lane.monitor.set_state(LaneState::Refused, why);
        log::error("platform_refused",
                   {{"platform", name}, {"error", why}, {"hint", refusal_hint(name)}});
        lane.refused.store(true);
    };
    try {
        std::optional<PlatformStart> started;
        StartContext context{
            lane.http,
            [&lane](std::chrono::milliseconds wait) { return lane.stop.sleep_for(wait); },
            [&lane] { return lane.stop.stop_requested(); }, settings.command_prefix};
        context.commands = command_menu();
        for (const rules::Variant* variant : rules::variants()) {
            context.variants.push_back(variant->info().name);
            for (const rules::VariantCommand& c : variant->info().commands)
                context.variant_commands.push_back({c.word, c.brief});
        }
        std::chrono::milliseconds delay{1000};
        while (!started && !lane.stop.stop_requested()) {
            lane.monitor.beat();
            std::string why;
            try {
                started = lane.platform.start(context);
                break;
            } catch (const PlatformError& e) {
                if (e.kind() == PlatformError::Kind::Cancelled)
                    break;
                if (e.kind() == PlatformError::Kind::Unauthorized) {
                    refuse(e.what());
                    return;
                }
                why = e.what();
            } catch (const std::exception& e) {
                why = e.what();
            }
            lane.monitor.set_state(LaneState::Retrying, why);
            log::warning("start_up_failed",
                         {{"platform", name}, {"error", why}, {"retry_in_ms", delay.count()}});
            lane.stop.sleep_for(delay);
            delay = std::min<std::chrono::milliseconds>(delay * 2, std::chrono::seconds(60));
        }
        if (!started)
            return; // stopping
        DaemonOptions options;
        options.poll_timeout = started->poll_timeout;
        options.time_driven_jobs = false; // the daemon's jobs thread runs them for every lane
        options.holder = holder;
        options.lease = settings.storage.lease;
        options.claim = settings.storage.claim;
        options.monitor = &lane.monitor;
        options.engine_threads = static_cast<std::size_t>(settings.limits.engine_threads);
        // The platform's further lanes beside the first, each with a connection and a service
        // of its own; they end with the lane's stop.
        std::vector<std::thread> more;
        std::atomic<bool> more_failed{false};
        for (const auto& platform : started->more)
            more.emplace_back([&, &extra = *platform] {
                try {
                    auto store = storage::open_store(location);
                    Service service(*store, service_settings(settings, name, started->bot_name));
                    const DaemonReport report =
                        run_daemon(*store, service, extra, options, lane.stop);
                    if (!report.refused.empty())
                        refuse(report.refused);
                } catch (const std::exception& e) {
                    log::error("fatal",
                               {{"platform", name}, {"lane", extra.lane()}, {"error", e.what()}});
                    more_failed.store(true);
                }
            });
        const auto join_more = [&] {
            if (more.empty())
                return;
            lane.stop.request_stop(); // one lane of the platform ended: the others end too
            for (std::thread& thread : more)
                thread.join();
            if (more_failed.load())
                lane.failed.store(true);
        };
        try {
            auto store = storage::open_store(location);
            Service service(*store, service_settings(settings, name, started->bot_name));
            const DaemonReport report =
                run_daemon(*store, service, *started->platform, options, lane.stop);
            join_more();
            if (!report.refused.empty())
                refuse(report.refused);
        } catch (...) {
            join_more();
            throw;
        }
    } catch (const std::exception& e) {
        log::error("fatal", {{"platform", name}, {"error", e.what()}});
        lane.failed.store(true);
    }
}

// The time-driven job for every platform's games (losses on time, reminders, digests, the
// heartbeat): once at start-up, then every `interval`, whatever the platforms do. Its replies go
// out through the outbox of each game's platform.
void run_jobs(const storage::StoreLocation& location, const ServiceSettings& settings,
              std::chrono::seconds interval, StopToken& stop,
              std::atomic<std::chrono::steady_clock::rep>& beat) {
    const auto mark = [&] {
        beat.store(std::chrono::steady_clock::now().time_since_epoch().count());
    };
    std::unique_ptr<storage::Store> store;
    std::optional<Service> service;
    bool started = false;
    do {
        mark();
        try {
            if (!store) {
                store = storage::open_store(location);
                service.emplace(*store, settings);
            }
            if (!started) {
                if (const int told = service->start_up(); told > 0)
                    log::info("downtime_forgiven", {{"games", told}});
                started = true;
            }
            service->tick();
        } catch (const std::exception& e) {
            log::error(started ? "tick_failed" : "start_up_failed", {{"error", e.what()}});
        }
    } while (stop.sleep_for(interval));
}

// The database's figures for /healthz and /metrics, on a connection of their own.
std::function<StoreFigures()> figures_reader(const storage::StoreLocation& location) {
    struct Reader {
        std::mutex mutex;
        std::unique_ptr<storage::Store> store;
    };
    auto reader = std::make_shared<Reader>();
    return [reader, location] {
        const std::lock_guard lock(reader->mutex);
        try {
            if (!reader->store)
                reader->store = storage::open_store(location);
            StoreFigures figures;
            reader->store->transaction([&] {
                for (const storage::OutboxBacklog& b : reader->store->backlog())
                    figures.backlog[b.platform] = {b.pending, b.oldest_created_at};
                for (const auto& [variant, count] : reader->store->games_under_way())
                    figures.games_under_way[variant] = count;
            });
            return figures;
        } catch (...) {
            reader->store.reset(); // a new connection next time
            throw;
        }
    };
}

int run(const std::string& config_path, bool check_only) {
    log::install_crash_handler();
    Configuration configuration;
    try {
        configuration = load_configuration(config_path, config::process_environment());
    } catch (const config::ConfigError& e) {
        log::error("bad_configuration", {{"error", e.what()}});
        return 2;
    }
    const config::Settings& settings = configuration.settings;
    const std::vector<EnabledPlatform>& enabled = configuration.platforms;
    log::set_level(settings.log_level);
    for (const EnabledPlatform& platform : enabled)
        for (const std::string& secret : platform.configured->secrets())
            log::add_secret(secret);
    if (enabled.empty()) {
        std::string names;
        for (const PlatformModule* module : platform_modules())
            names += std::string(names.empty() ? "" : ", ") + "[platform." + module->name + "]";
        log::error(
            "bad_configuration",
            {{"error", config_path + ": platform: no platform configured (add " + names + ")"}});
        return 2;
    }
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

    Monitor monitor;
    std::list<Lane> lanes; // a list: a lane never moves, its thread holds it
    for (const EnabledPlatform& platform : enabled)
        lanes.emplace_back(platform, monitor.add_lane(platform.module->name));
    StopToken stop; // the whole daemon: a signal, or every lane refused
    const auto stop_all = [&] {
        stop.request_stop();
        for (Lane& lane : lanes) {
            lane.stop.request_stop();
            lane.http.cancel();
        }
    };
    std::atomic<bool> finished{false};
    std::thread watcher([&] {
        const timespec tick{0, 200'000'000};
        while (!finished.load()) {
            const int signal = sigtimedwait(&signals, nullptr, &tick);
            if (signal == SIGTERM || signal == SIGINT) {
                log::info("shutdown_requested",
                          {{"signal", signal == SIGTERM ? "SIGTERM" : "SIGINT"}});
                stop_all();
                return;
            }
        }
    });

    int status = 0;
    // The jobs thread's last round; declared before it starts, so it outlives the thread on
    // every path out (the thread is joined before this function returns).
    std::atomic<std::chrono::steady_clock::rep> jobs_beat{
        std::chrono::steady_clock::now().time_since_epoch().count()};
    std::thread jobs;
    std::unique_ptr<web::Site> site;
    std::unique_ptr<web::WebServer> web_server;
    std::unique_ptr<web::WebServer> metrics_server;
    // /healthz and /metrics, on whichever server answers them.
    const auto serve_monitor = [&monitor](web::WebServer& server) {
        const auto answer = [](const HttpAnswer& a) {
            return web::Response{a.status, a.content_type, a.body};
        };
        server.route("/healthz", [&monitor, answer] { return answer(monitor.health()); });
        server.route("/metrics", [&monitor, answer] { return answer(monitor.metrics()); });
    };
    try {
        // The database exists and is migrated before any lane opens its own connection.
        const storage::StoreLocation location = store_location(settings.storage);
        const bool shared = storage::open_store(location)->shared();
        const std::string holder = daemon_name();
        if (shared)
            log::info("shared_database",
                      {{"daemon", holder}, {"lease_seconds", settings.storage.lease.count()}});
        monitor.set_figures(figures_reader(location));
        // The web view, when configured: its own connections and threads, read-only.
        if (!settings.web.listen.empty()) {
            web::SiteSettings site_settings;
            site_settings.db_path = settings.storage.path.string();
            site_settings.db_url = settings.storage.url;
            site_settings.db_password = settings.storage.password;
            site_settings.command_prefix = settings.command_prefix;
            site = std::make_unique<web::Site>(site_settings);
            web_server = std::make_unique<web::WebServer>(
                *site, server_settings(settings.web.listen, settings.web));
            if (settings.metrics.listen.empty())
                serve_monitor(*web_server);
            web_server->start();
            log::info("web_listening", {{"listen", settings.web.listen}});
        }
        if (!settings.metrics.listen.empty()) {
            metrics_server = std::make_unique<web::WebServer>(
                server_settings(settings.metrics.listen, settings.web));
            serve_monitor(*metrics_server);
            metrics_server->start();
            log::info("metrics_listening", {{"listen", settings.metrics.listen}});
        }
        for (Lane& lane : lanes)
            lane.thread = std::thread([&lane, &settings, location, holder] {
                run_lane(lane, settings, location, holder);
                lane.done.store(true);
            });
        jobs = std::thread([&, location] {
            run_jobs(location,
                     service_settings(settings, enabled.front().module->name, "ghostpost"),
                     std::chrono::seconds(30), stop, jobs_beat);
        });
        systemd::ready(std::to_string(lanes.size()) + " platform lane(s) started");

        // Until a signal, or until every lane has ended by itself: pings for the watchdog while
        // every live lane and the jobs go round (a wedged thread stops them, and systemd
        // restarts the daemon).
        const auto watchdog = systemd::watchdog_interval();
        const auto pause =
            watchdog ? std::chrono::duration_cast<std::chrono::milliseconds>(*watchdog) / 3
                     : std::chrono::milliseconds(500);
        const auto stale = std::chrono::seconds(150);
        while (!stop.stop_requested()) {
            bool all_ended = true;
            bool alive = true;
            const auto now = std::chrono::steady_clock::now();
            for (const Lane& lane : lanes) {
                if (lane.failed.load()) {
                    status = 1; // a fault of ours or a database out of reach: restart it all
                    stop_all();
                }
                if (!lane.done.load()) {
                    all_ended = false;
                    alive = alive && now - lane.monitor.last_beat() < stale;
                }
            }
            alive = alive && now - std::chrono::steady_clock::time_point(
                                       std::chrono::steady_clock::duration(jobs_beat.load())) <
                                 stale + std::chrono::seconds(30);
            if (all_ended) {
                stop_all();
                break;
            }
            if (watchdog && alive)
                systemd::watchdog();
            stop.sleep_for(std::min<std::chrono::milliseconds>(pause, std::chrono::seconds(1)));
        }
        systemd::stopping();
        for (Lane& lane : lanes)
            lane.thread.join();
        jobs.join();
        bool every_lane_refused = true;
        for (const Lane& lane : lanes) {
            if (lane.failed.load())
                status = 1;
            every_lane_refused = every_lane_refused && lane.refused.load();
        }
        // Like a bad configuration: waiting cannot help, the operator must act. One platform
        // refused of several is reported and the others go on, so only all of them stop it.
        if (every_lane_refused && status == 0)
            status = 2;
    } catch (const std::exception& e) {
        log::error("fatal", {{"error", e.what()}});
        status = 1;
        stop_all();
        for (Lane& lane : lanes)
            if (lane.thread.joinable())
                lane.thread.join();
        if (jobs.joinable())
            jobs.join();
    }
    if (web_server)
        web_server->stop();
    if (metrics_server)
        metrics_server->stop();
    finished.store(true);
    watcher.join();
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
    command->callback(
        [config_path, check_only, &exit_status] { exit_status = run(*config_path, *check_only); });
}

} // namespace ghostpost::bot
