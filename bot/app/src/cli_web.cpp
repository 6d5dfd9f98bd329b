// `ghostpost web --db FILE [--listen ADDR]`: the web pages without the bot, for a read-only
// replica of the database or a look at a copy. Stops on SIGTERM or SIGINT.
#include "ghostpost/bot/cli.h"
#include "ghostpost/web/server.h"
#include "ghostpost/web/site.h"

#include <CLI/CLI.hpp>
#include <csignal>
#include <iostream>
#include <memory>
#include <pthread.h>

namespace ghostpost::bot {

namespace {

int serve(const std::string& db, const std::string& listen, int threads) {
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr); // the server's threads inherit this
    try {
        web::ServerSettings settings = web::parse_listen(listen);
        settings.threads = threads;
        web::Site site(web::SiteSettings{db, static_cast<std::size_t>(threads)});
        web::WebServer server(site, settings);
        server.start();
        std::cout << "serving " << db << " on http://" << settings.host << ":" << server.port()
                  << "/" << std::endl;
        int signal = 0;
        sigwait(&signals, &signal);
        server.stop();
        return 0;
    } catch (const std::invalid_argument& e) {
        std::cerr << "ghostpost web: --listen " << listen << ": " << e.what() << '\n';
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "ghostpost web: " << e.what() << '\n';
        return 1;
    }
}

} // namespace

void add_web_command(CLI::App& app, int& exit_status) {
    CLI::App* cmd = app.add_subcommand("web", "serve the read-only web pages of a database");
    auto db = std::make_shared<std::string>();
    auto listen = std::make_shared<std::string>("127.0.0.1:8080");
    auto threads = std::make_shared<int>(8);
    cmd->add_option("--db", *db, "the SQLite database file")->required();
    cmd->add_option("--listen", *listen, "host:port to listen on (default 127.0.0.1:8080)");
    cmd->add_option("--threads", *threads, "worker threads (default 8)")->check(CLI::Range(1, 64));
    cmd->callback(
        [db, listen, threads, &exit_status] { exit_status = serve(*db, *listen, *threads); });
}

} // namespace ghostpost::bot
