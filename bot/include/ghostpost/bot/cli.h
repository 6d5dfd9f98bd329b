// Subcommands of the ghostpost executable. Each registers its options on the CLI11 app and
// returns the exit status when run; main() only wires them together.
#pragma once

namespace CLI {
class App;
}

namespace ghostpost::bot {

// `perft` and `replay`: the rules core on the command line.
void add_rules_commands(CLI::App& app, int& exit_status);

} // namespace ghostpost::bot
