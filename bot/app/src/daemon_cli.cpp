// `ghostpost run --config FILE`: configuration, signals, and the lanes of the daemon. Each
// configured platform runs in a lane of its own (a thread, an HTTP client, a database
// connection, a stop of its own): its start-up check, polling and delivery retry with their own
// backoff, and a platform that is down or refuses the bot never delays another. The time-driven
// job and the web view run beside them whatever the platforms do.
#include "ghostpost/app/daemon.h"
#include "ghostpost/app/monitor.h"
#include "ghostpost/config/config.h"
#include "ghostpost/http/http.h"
#include "ghostpost/i18n/catalogs.h"
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
#include <functional>
#include <iostream>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
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

// The limits a lane's platform shares with the other daemons on a PostgreSQL database
// (StartContext::shared_limit): a connection of their own, opened at the first call, one call
// at a time (the platform's shards and its delivery ask from their threads). When the database
// cannot answer, the call waits for nothing more: the platform's own limiter still holds, and
// the database is asked again ten seconds later, not at every call (a connection that cannot be
// made may take long to fail).
class SharedLimits {
public:
    SharedLimits(storage::StoreLocation location, std::string platform)
        : location_(std::move(location)), platform_(std::move(platform)) {}

    std::chrono::milliseconds take(const std::string& key, int per_second, int burst) {
        const std::lock_guard lock(mutex_);
        const auto now = std::chrono::steady_clock::now();
        if (failing_ && now < retry_at_)
            return std::chrono::milliseconds(0);
        try {
            if (!store_)
                store_ = storage::open_store(location_);
            const auto wait =
                std::chrono::milliseconds(store_->take_shared_slot(key, per_second, burst));
            failing_ = false;
            return wait;
        } catch (const std::exception& e) {
            if (!failing_) // once until it answers again, not at every call
                log::warning("shared_limit_failed", {{"platform", platform_}, {"error", e.what()}});
            failing_ = true;
            retry_at_ = now + std::chrono::seconds(10);
            store_.reset();
            return std::chrono::milliseconds(0);
        }
    }

private:
    storage::StoreLocation location_;
    std::string platform_;
    std::mutex mutex_;
    std::unique_ptr<storage::Store> store_;
    bool failing_ = false;
    std::chrono::steady_clock::time_point retry_at_{};
};

// What the operator must do when a platform refuses the bot, in a few words.
std::string refusal_hint(const std::string& platform) {
    return "the platform refuses the bot's credentials: renew them (see [platform." + platform +
           "] in docs/operators.md) and restart the daemon; the other platforms go on";
}

// The lane's start-up check, retried with backoff until it passes, is refused (then `refuse`
// is called), or the daemon stops; nullopt unless it passed.
std::optional<PlatformStart> start_lane(Lane& lane, const config::Settings& settings,
                                        const storage::StoreLocation& location,
                                        const std::function<void(const std::string&)>& refuse) {
    StartContext context{
        lane.http, [&lane](std::chrono::milliseconds wait) { return lane.stop.sleep_for(wait); },
        [&lane] { return lane.stop.stop_requested(); }, settings.command_prefix};
    if (!location.url.empty()) { // PostgreSQL: other daemons may share the platform
        auto limits = std::make_shared<SharedLimits>(location, lane.name);
        context.shared_limit = [limits](const std::string& key, int per_second, int burst) {
            return limits->take(key, per_second, burst);
        };
    }
    context.commands = command_menu();
    for (const rules::Variant* variant : rules::variants())
        context.variants.push_back(variant->info().name);
    context.variant_commands = variant_command_menu();
    std::chrono::milliseconds delay{1000};
    while (!lane.stop.stop_requested()) {
        lane.monitor.beat();
        std::string why;
        try {
            return lane.platform.start(context);
        } catch (const PlatformError& e) {
            if (e.kind() == PlatformError::Kind::Cancelled)
                return std::nullopt;
            if (e.kind() == PlatformError::Kind::Unauthorized) {
                refuse(e.what());
                return std::nullopt;
            }
            why = e.what();
        } catch (const std::exception& e) {
            why = e.what();
        }
        lane.monitor.set_state(LaneState::Retrying, why);
        log::warning("start_up_failed",
                     {{"platform", lane.name}, {"error", why}, {"retry_in_ms", delay.count()}});
        lane.stop.sleep_for(delay);
        delay = std::min<std::chrono::milliseconds>(delay * 2, std::chrono::seconds(60));
    }
    return std::nullopt;
}

// The lane's thread: the start-up check, then the poll loop on a database connection of its
// own, and one more for each further lane of the platform (the shards of a chat gateway).
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
        const std::optional<PlatformStart> started = start_lane(lane, settings, location, refuse);
        if (!started)
            return; // stopping, or refused
        DaemonOptions options;
        options.poll_timeout = started->poll_timeout;
        options.time_driven_jobs = false; // the daemon's jobs thread runs them for every lane
        options.holder = holder;
        options.lease = settings.storage.lease;
        options.claim = settings.storage.claim;
        options.monitor = &lane.monitor;
        options.engine_threads = static_cast<std::size_t>(settings.limits.engine_threads);
        // One poll loop, with a connection and a service of its own; why the platform refused
        // the bot, when it did.
        const auto loop = [&](Platform& platform) {
            auto store = storage::open_store(location);
            Service service(*store, service_settings(settings, name, started->bot_name));
            return run_daemon(*store, service, platform, options, lane.stop).refused;
        };
        // The platform's further lanes beside the first; they end with the lane's stop.
        std::vector<std::thread> more;
        std::atomic<bool> more_failed{false};
        for (const auto& platform : started->more)
            more.emplace_back([&, &extra = *platform] {
                try {
                    if (const std::string why = loop(extra); !why.empty())
                        refuse(why);
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
            const std::string why = loop(*started->platform);
            join_more();
            if (!why.empty())
                refuse(why);
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

// `ghostpost run --check`: what an operator runs as the service's user before starting it: the
// configuration reads, the secrets are there and the database opens for writing (and is
// migrated).
int check_database(const std::string& config_path, const config::StorageSettings& storage) {
    const storage::StoreLocation location = store_location(storage);
    // Never the URL itself: it may carry a password.
    const std::string where =
        location.url.empty() ? storage.path.string() : std::string("PostgreSQL");
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

// The web view and the metrics, when configured: their own connections and threads, read-only.
class Servers {
public:
    void start(const config::Settings& settings, Monitor& monitor) {
        if (!settings.web.listen.empty()) {
            web::SiteSettings site_settings;
            site_settings.db_path = settings.storage.path.string();
            site_settings.db_url = settings.storage.url;
            site_settings.db_password = settings.storage.password;
            site_settings.command_prefix = settings.command_prefix;
            site_ = std::make_unique<web::Site>(site_settings);
            web_ = std::make_unique<web::WebServer>(
                *site_, server_settings(settings.web.listen, settings.web));
            if (settings.metrics.listen.empty())
                serve_monitor(*web_, monitor);
            web_->start();
            log::info("web_listening", {{"listen", settings.web.listen}});
        }
        if (!settings.metrics.listen.empty()) {
            metrics_ = std::make_unique<web::WebServer>(
                server_settings(settings.metrics.listen, settings.web));
            serve_monitor(*metrics_, monitor);
            metrics_->start();
            log::info("metrics_listening", {{"listen", settings.metrics.listen}});
        }
    }
    void stop() {
        if (web_)
            web_->stop();
        if (metrics_)
            metrics_->stop();
    }

private:
    // /healthz and /metrics, on whichever server answers them.
    static void serve_monitor(web::WebServer& server, Monitor& monitor) {
        const auto answer = [](const HttpAnswer& a) {
            return web::Response{a.status, a.content_type, a.body};
        };
        server.route("/healthz", [&monitor, answer] { return answer(monitor.health()); });
        server.route("/metrics", [&monitor, answer] { return answer(monitor.metrics()); });
    }

    std::unique_ptr<web::Site> site_;
    std::unique_ptr<web::WebServer> web_;
    std::unique_ptr<web::WebServer> metrics_;
};

// The running daemon: its lanes, the time-driven job, the thread that waits for signals.
class Daemon {
public:
    Daemon(const config::Settings& settings, const std::vector<EnabledPlatform>& enabled)
        : settings_(settings), enabled_(enabled) {
        for (const EnabledPlatform& platform : enabled)
            lanes_.emplace_back(platform, monitor_.add_lane(platform.module->name));
    }

    // Until a signal, or until every lane has ended by itself; the exit status.
    int run() {
        block_signals();
        watcher_ = std::thread([this] { watch_signals(); });
        int status = 0;
        try {
            start();
            status = supervise();
        } catch (const std::exception& e) {
            log::error("fatal", {{"error", e.what()}});
            status = 1;
            stop_all();
            join();
        }
        servers_.stop();
        finished_.store(true);
        watcher_.join();
        return status;
    }

private:
    // Signals go to one thread that waits for them; the others never see them, so a long poll
    // is ended by cancelling its HTTP call rather than by an interrupted system call.
    void block_signals() {
        sigemptyset(&signals_);
        sigaddset(&signals_, SIGTERM);
        sigaddset(&signals_, SIGINT);
        pthread_sigmask(SIG_BLOCK, &signals_, nullptr);
    }
    void watch_signals() {
        const timespec tick{0, 200'000'000};
        while (!finished_.load()) {
            const int signal = sigtimedwait(&signals_, nullptr, &tick);
            if (signal == SIGTERM || signal == SIGINT) {
                log::info("shutdown_requested",
                          {{"signal", signal == SIGTERM ? "SIGTERM" : "SIGINT"}});
                stop_all();
                return;
            }
        }
    }

    // The whole daemon stops: a signal, a lane's fault, or every lane ended.
    void stop_all() {
        stop_.request_stop();
        for (Lane& lane : lanes_) {
            lane.stop.request_stop();
            lane.http.cancel();
        }
    }

    void start() {
        // The catalogs are read now: a broken one stops the daemon here, not in a reply.
        i18n::catalogs();
        const std::string catalogs = i18n::catalog_dir();
        log::info("catalogs", {{"dir", catalogs.empty() ? "none: English only" : catalogs}});
        // The database exists and is migrated before any lane opens its own connection.
        const storage::StoreLocation location = store_location(settings_.storage);
        const bool shared = storage::open_store(location)->shared();
        const std::string holder = daemon_name();
        if (shared)
            log::info("shared_database",
                      {{"daemon", holder}, {"lease_seconds", settings_.storage.lease.count()}});
        monitor_.set_figures(figures_reader(location));
        servers_.start(settings_, monitor_);
        for (Lane& lane : lanes_)
            lane.thread = std::thread([&lane, this, location, holder] {
                run_lane(lane, settings_, location, holder);
                lane.done.store(true);
            });
        jobs_ = std::thread([this, location] {
            run_jobs(location,
                     service_settings(settings_, enabled_.front().module->name, "ghostpost"),
                     std::chrono::seconds(30), stop_, jobs_beat_);
        });
        systemd::ready(std::to_string(lanes_.size()) + " platform lane(s) started");
    }

    // Pings for the watchdog while every live lane and the jobs go round (a wedged thread
    // stops them, and systemd restarts the daemon), until the daemon stops; then the status.
    int supervise() {
        int status = 0;
        const auto watchdog = systemd::watchdog_interval();
        const auto pause =
            watchdog ? std::chrono::duration_cast<std::chrono::milliseconds>(*watchdog) / 3
                     : std::chrono::milliseconds(500);
        while (!stop_.stop_requested()) {
            bool all_ended = true;
            bool alive = true;
            const auto now = std::chrono::steady_clock::now();
            for (const Lane& lane : lanes_) {
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
                                       std::chrono::steady_clock::duration(jobs_beat_.load())) <
                                 stale + std::chrono::seconds(30);
            if (all_ended) {
                stop_all();
                break;
            }
            if (watchdog && alive)
                systemd::watchdog();
            stop_.sleep_for(std::min<std::chrono::milliseconds>(pause, std::chrono::seconds(1)));
        }
        systemd::stopping();
        join();
        bool every_lane_refused = true;
        for (const Lane& lane : lanes_) {
            if (lane.failed.load())
                status = 1;
            every_lane_refused = every_lane_refused && lane.refused.load();
        }
        // Like a bad configuration: waiting cannot help, the operator must act. One platform
        // refused of several is reported and the others go on, so only all of them stop it.
        if (every_lane_refused && status == 0)
            status = 2;
        return status;
    }

    void join() {
        for (Lane& lane : lanes_)
            if (lane.thread.joinable())
                lane.thread.join();
        if (jobs_.joinable())
            jobs_.join();
    }

    static constexpr std::chrono::seconds stale{150}; // a thread not round for this long

    const config::Settings& settings_;
    const std::vector<EnabledPlatform>& enabled_;
    Monitor monitor_;
    std::list<Lane> lanes_; // a list: a lane never moves, its thread holds it
    StopToken stop_;        // the whole daemon: a signal, or every lane refused
    sigset_t signals_{};
    std::atomic<bool> finished_{false};
    std::thread watcher_;
    // The jobs thread's last round; a member, so it outlives the thread (joined before run()
    // returns).
    std::atomic<std::chrono::steady_clock::rep> jobs_beat_{
        std::chrono::steady_clock::now().time_since_epoch().count()};
    std::thread jobs_;
    Servers servers_;
};

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
    log::set_level(settings.log_level);
    for (const EnabledPlatform& platform : configuration.platforms)
        for (const std::string& secret : platform.configured->secrets())
            log::add_secret(secret);
    if (configuration.platforms.empty()) {
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
    if (check_only)
        return check_database(config_path, settings.storage);
    return Daemon(settings, configuration.platforms).run();
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
