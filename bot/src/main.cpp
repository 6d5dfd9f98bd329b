// The ghostpost executable: one binary for the daemon, the console and the tools.
#include "ghostpost/bot/cli.h"
#include "ghostpost/bot/daemon.h"

#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
    CLI::App app{"ghostpost: turn-based board games by post"};
    app.require_subcommand(1);
    int exit_status = 0;
    ghostpost::bot::add_rules_commands(app, exit_status);
    ghostpost::bot::add_run_command(app, exit_status);
    ghostpost::bot::add_console_command(app, exit_status);
    ghostpost::bot::add_render_command(app, exit_status);
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
