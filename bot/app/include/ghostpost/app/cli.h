// Subcommands of the ghostpost executable. Each registers its options on the CLI11 app and
// returns the exit status when run; main() only wires them together.
#pragma once

namespace CLI {
class App;
}

namespace ghostpost::bot {

// `perft` and `replay`: the rules core on the command line.
void add_rules_commands(CLI::App& app, int& exit_status);

// `console [--db PATH]`: local play on the console platform, through the same service.
void add_console_command(CLI::App& app, int& exit_status);

// `render --variant V [--fen FEN | --db PATH --game ID [--ply N]] [--flip] --out FILE.png`.
void add_render_command(CLI::App& app, int& exit_status);

// Registers `web --db FILE [--listen HOST:PORT] [--threads N]` and [web]'s limits as options
// (--max-connections...): the read-only web pages of a database without the bot. Exit status: 0
// after SIGTERM/SIGINT, 2 for a bad --listen, 1 when the database cannot be opened or the address
// bound.
void add_web_command(CLI::App& app, int& exit_status);

} // namespace ghostpost::bot
