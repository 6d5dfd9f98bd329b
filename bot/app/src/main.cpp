// The ghostpost executable: one binary for the daemon, the console and the tools.
#include "ghostpost/app/cli.h"
#include "ghostpost/app/daemon.h"

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstring>
#include <exception>
#include <iostream>
#include <pthread.h>
#include <string>

int main(int argc, char** argv) {
    // The daemon takes SIGTERM and SIGINT on a thread of its own once it runs; blocking them
    // from the first instruction keeps one sent during start-up pending for that thread
    // instead of killing the process before it could shut down cleanly.
    if (argc > 1 && std::strcmp(argv[1], "run") == 0) {
        sigset_t signals;
        sigemptyset(&signals);
        sigaddset(&signals, SIGTERM);
        sigaddset(&signals, SIGINT);
        pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    }
    CLI::App app{"ghostpost: turn-based board games by post"};
    app.set_version_flag("--version", std::string("ghostpost ") + GHOSTPOST_VERSION);
    app.require_subcommand(1);
    int exit_status = 0;
    ghostpost::bot::add_rules_commands(app, exit_status);
    ghostpost::bot::add_run_command(app, exit_status);
    ghostpost::bot::add_console_command(app, exit_status);
    ghostpost::bot::add_render_command(app, exit_status);
    ghostpost::bot::add_web_command(app, exit_status);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    } catch (const std::exception& e) {
        std::cerr << "ghostpost: " << e.what() << '\n';
        return 1;
    }
    return exit_status;
}
