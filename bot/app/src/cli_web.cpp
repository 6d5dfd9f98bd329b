// `ghostpost web (--db FILE | --db-url URL) [--listen ADDR]` and [web]'s limits as options: the
// web pages without the bot, for a copy of an SQLite database or beside the daemons on a
// PostgreSQL one. Stops on SIGTERM or SIGINT.
#include "ghostpost/app/cli.h"
#include "ghostpost/config/config.h"
#include "ghostpost/web/server.h"
#include "ghostpost/web/site.h"

#include <CLI/CLI.hpp>
#include <csignal>
#include <iostream>
#include <memory>
#include <pthread.h>

namespace ghostpost::bot {

namespace {

struct WebOptions {
    std::string db;
    std::string db_url;
    std::string listen = "127.0.0.1:8080";
    int threads = 8;
    config::WebSettings limits; // [web]'s limits, as options of their own
};

int serve(const WebOptions& options) {
    web::SiteSettings site_settings;
    site_settings.connections = static_cast<std::size_t>(options.threads);
    std::string serving = options.db;
    if (!options.db_url.empty()) {
        try {
            const config::StorageSettings storage =
                config::postgres_storage(options.db_url, "--db-url", config::process_environment());
            site_settings.db_url = storage.url;
            site_settings.db_password = storage.password;
        } catch (const config::ConfigError& e) {
            std::cerr << "ghostpost web: " << e.what() << '\n';
            return 2;
        }
        serving = options.db_url;
    } else {
        site_settings.db_path = options.db;
    }
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr); // the server's threads inherit this
    try {
        web::ServerSettings settings = web::parse_listen(options.listen);
        settings.threads = options.threads;
        settings.max_connections = options.limits.max_connections;
        settings.max_header_bytes = static_cast<std::size_t>(options.limits.max_header_bytes);
        settings.max_header_lines = static_cast<std::size_t>(options.limits.max_header_lines);
        settings.timeout_seconds = options.limits.timeout_seconds;
        web::Site site(site_settings);
        web::WebServer server(site, settings);
        server.start();
        std::cout << "serving " << serving << " on http://" << settings.host << ":" << server.port()
                  << "/" << std::endl;
        int signal = 0;
        sigwait(&signals, &signal);
        server.stop();
        return 0;
    } catch (const std::invalid_argument& e) {
        std::cerr << "ghostpost web: --listen " << options.listen << ": " << e.what() << '\n';
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "ghostpost web: " << e.what() << '\n';
        return 1;
    }
}

} // namespace

void add_web_command(CLI::App& app, int& exit_status) {
    CLI::App* cmd = app.add_subcommand("web", "serve the read-only web pages of a database");
    auto options = std::make_shared<WebOptions>();
    auto* db = cmd->add_option("--db", options->db, "the SQLite database file");
    auto* url = cmd->add_option("--db-url", options->db_url,
                                "a PostgreSQL database, postgresql://user@host[:port]/database "
                                "(the password from GHOSTPOST_DATABASE_PASSWORD or libpq's own "
                                "means, never in the URL)");
    db->excludes(url);
    cmd->add_option("--listen", options->listen, "host:port to listen on (default 127.0.0.1:8080)");
    cmd->add_option("--threads", options->threads, "worker threads (default 8)")
        ->check(CLI::Range(1, 64));
    // The same limits, names and ranges as the keys of [web].
    const auto limit = [&](const char* name, const char* what, config::IntRange range, int& into) {
        cmd->add_option(name, into, std::string(what) + " (default " + std::to_string(into) + ")")
            ->check(CLI::Range(range.low, range.high));
    };
    limit("--max-connections", "connections open at once", config::web_max_connections,
          options->limits.max_connections);
    limit("--max-header-bytes", "bytes of a request head; past them: 431",
          config::web_max_header_bytes, options->limits.max_header_bytes);
    limit("--max-header-lines", "header lines of a request; past them: 431",
          config::web_max_header_lines, options->limits.max_header_lines);
    limit("--timeout-seconds", "for a request head, an answer's write and keep-alive idle",
          config::web_timeout_seconds, options->limits.timeout_seconds);
    cmd->callback([options, &exit_status] {
        if (options->db.empty() && options->db_url.empty()) {
            std::cerr << "ghostpost web: give the database: --db FILE (SQLite) or --db-url URL "
                         "(PostgreSQL)\n";
            exit_status = 2;
            return;
        }
        exit_status = serve(*options);
    });
}

} // namespace ghostpost::bot
