// `ghostpost run --config FILE`: configuration, signals, and the objects the daemon needs.
#include "ghostpost/bot/daemon.h"
#include "ghostpost/bot/http.h"
#include "ghostpost/bot/log.h"
#include "ghostpost/bot/telegram.h"
#include "ghostpost/config/config.h"

#include <CLI/CLI.hpp>
#include <csignal>
#include <ctime>
#include <memory>
#include <pthread.h>
#include <thread>

namespace ghostpost::bot {

namespace {

// The service compares raw platform user ids; the file names them "telegram:<id>" so one
// list can serve several platforms.
std::vector<std::string> telegram_moderators(const std::vector<std::string>& configured) {
    std::vector<std::string> ids;
    for (const std::string& entry : configured) {
        if (entry.starts_with("telegram:")) {
            ids.push_back(entry.substr(9));
        } else if (entry.find(':') == std::string::npos) {
            ids.push_back(entry);
        }
    }
    return ids;
}

int run(const std::string& config_path) {
    log::install_crash_handler();
    config::Settings settings;
    try {
        settings = config::load(config_path, config::process_environment());
    } catch (const config::ConfigError& e) {
        log::error("bad_configuration", {{"error", e.what()}});
        return 2;
    }
    log::set_level(settings.log_level);
    if (!settings.telegram.enabled) {
        log::error(
            "bad_configuration",
            {{"error", config_path + ": telegram: no platform configured (add [telegram])"}});
        return 2;
    }
    log::add_secret(settings.telegram.token);

    // Signals go to one thread that waits for them; the others never see them, so a long
    // poll is ended by cancelling its HTTP call rather than by an interrupted system call.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    CurlHttpClient http;
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
                return;
            }
        }
    });
    const auto join = [&] {
        finished.store(true);
        watcher.join();
    };

    int status = 0;
    try {
        const auto store = storage::open_sqlite_store(settings.storage.path.string());
        TelegramOptions options;
        options.api_url = settings.telegram.api_url;
        options.token = settings.telegram.token;
        options.bot_username = settings.telegram.bot_username;
        options.request_timeout = settings.telegram.request_timeout;
        options.pacing.per_chat = settings.telegram.per_chat_interval;
        options.pacing.group_per_minute = settings.telegram.group_messages_per_minute;
        TelegramPlatform telegram(http, options);

        // The service needs the bot's @name to tell its commands from other bots'.
        std::string bot_name;
        std::chrono::milliseconds delay{1000};
        while (bot_name.empty() && !stop.stop_requested()) {
            try {
                bot_name = telegram.bot_username();
            } catch (const HttpError& e) {
                if (e.kind() == HttpError::Kind::Cancelled) {
                    break;
                }
                log::warning("get_me_failed", {{"error", e.what()}});
            } catch (const TelegramError& e) {
                log::error("get_me_failed", {{"code", e.code()}, {"error", e.what()}});
            }
            if (bot_name.empty()) {
                stop.sleep_for(delay);
                delay = std::min<std::chrono::milliseconds>(delay * 2, std::chrono::seconds(60));
            }
        }
        if (!stop.stop_requested()) {
            ServiceSettings service_settings;
            service_settings.prefix = settings.command_prefix;
            service_settings.moderators = telegram_moderators(settings.moderators);
            service_settings.bot_name = bot_name;
            service_settings.default_time_control = settings.clocks.default_time_control;
            service_settings.combat_deadline =
                std::chrono::duration_cast<std::chrono::seconds>(settings.clocks.combat_deadline)
                    .count();
            service_settings.vacation_days = settings.clocks.vacation_days;
            Service service(*store, service_settings);
            DaemonOptions daemon_options;
            daemon_options.poll_timeout = settings.telegram.poll_timeout;
            log::info("bot_identified", {{"username", bot_name}});
            run_daemon(*store, service, telegram, daemon_options, stop);
        }
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
    command->callback([config_path, &exit_status] { exit_status = run(*config_path); });
}

} // namespace ghostpost::bot
