// `ghostpost perft` and `ghostpost replay`: the rules core on the command line, for checking
// move generation against other engines and for replaying games by hand.
#include "ghostpost/app/cli.h"
#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/rules/replay.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

namespace ghostpost::bot {
namespace {

struct RulesArgs {
    std::string variant = "chess";
    std::string fen;
    std::vector<std::string> options;
    int depth = 1;
    bool divide = false;
};

// The start position of the requested game, or an error printed to stderr (nullptr).
std::unique_ptr<rules::Game> start_game(const RulesArgs& args) {
    const rules::Variant* v = rules::find_variant(args.variant);
    if (!v) {
        std::cerr << "unknown variant \"" << args.variant << "\"; known:";
        for (const auto* known : rules::variants())
            std::cerr << ' ' << known->info().name;
        std::cerr << '\n';
        return nullptr;
    }
    rules::Options options;
    for (const auto& o : args.options) {
        auto eq = o.find('=');
        if (eq == std::string::npos) {
            std::cerr << "an option is written name=value, not \"" << o << "\"\n";
            return nullptr;
        }
        options[o.substr(0, eq)] = o.substr(eq + 1);
    }
    auto game = v->start(options, args.fen);
    if (!game) {
        std::cerr << game.error().message << '\n';
        return nullptr;
    }
    return std::move(*game);
}

// Numbers like "12." or "12..." and PGN results are not moves.
bool is_move_number_or_result(const std::string& word) {
    if (word == "1-0" || word == "0-1" || word == "1/2-1/2" || word == "*")
        return true;
    std::size_t i = 0;
    while (i < word.size() && std::isdigit(static_cast<unsigned char>(word[i])))
        ++i;
    return i > 0 && i < word.size() && word.find_first_not_of('.', i) == std::string::npos;
}

int run_perft(const RulesArgs& args) {
    auto game = start_game(args);
    if (!game)
        return 2;
    const auto started = std::chrono::steady_clock::now();
    std::uint64_t total = 0;
    if (args.divide && args.depth >= 1) {
        rules::NoRandomness no_dice;
        for (const auto& d : game->pending()) {
            // One line per legal action, as perft counts them: the notated list also holds
            // the other spellings a player may type (an Exchange names its squares either way).
            const auto notated = game->notated_actions(d.seat);
            for (const auto& action : game->legal_actions(d.seat)) {
                const auto named = std::find_if(notated.begin(), notated.end(),
                                                [&](const auto& a) { return a.action == action; });
                auto next = game->clone();
                if (named == notated.end() || !next->apply(d.seat, action, no_dice))
                    return 1;
                std::uint64_t n = next->perft(args.depth - 1);
                std::cout << named->text << ' ' << n << '\n';
                total += n;
            }
        }
    } else {
        total = game->perft(args.depth);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::cerr << "time " << seconds << " s, "
              << (seconds > 0 ? static_cast<double>(total) / seconds / 1e6 : 0.0) << " Mnodes/s\n";
    std::cout << "nodes " << total << '\n';
    return 0;
}

int run_replay(const RulesArgs& args) {
    auto game = start_game(args);
    if (!game)
        return 2;
    rules::NoRandomness no_dice;
    // Comments, variations and annotation glyphs are no actions: lichess exports read.
    std::ostringstream read;
    read << std::cin.rdbuf();
    const std::string all = read.str();
    std::istringstream input(rules::strip_movetext(all));
    std::string line;
    while (std::getline(input, line)) {
        if (line.starts_with('['))
            continue; // a PGN tag pair
        std::istringstream words(line);
        std::string word;
        while (words >> word) {
            if (is_move_number_or_result(word))
                continue;
            auto pending = game->pending();
            if (pending.empty()) {
                std::cerr << word << ": the game is over (" << game->outcome().reason << ")\n";
                return 1;
            }
            const rules::Seat seat = pending.front().seat;
            auto action = rules::read_recorded_action(*game, seat, word);
            // Canonical texts of several words ("Respawn d1", "Shift Time", "policy roll 4
            // hold 20"): join the words that follow until the text parses.
            if (!action) {
                const auto before = words.tellg();
                std::string joined = word, next;
                std::optional<rules::RuleError>
                    reason; // why a special was refused, if one was named
                for (int extra = 0; extra < 4 && words >> next; ++extra) {
                    joined += ' ' + next;
                    auto longer = rules::read_recorded_action(*game, seat, joined);
                    if (longer) {
                        action = std::move(longer);
                        break;
                    }
                    if (!reason && longer.error().kind != rules::ErrorKind::NotAMove)
                        reason = longer.error();
                }
                if (!action && reason) {
                    std::cerr << reason->message << '\n';
                    return 1;
                }
                if (!action) {
                    words.clear();
                    words.seekg(before);
                }
            }
            if (!action) {
                std::cerr << action.error().message << '\n';
                return 1;
            }
            if (auto applied = game->apply(seat, action->action, no_dice); !applied) {
                std::cerr << applied.error().message << '\n';
                return 1;
            }
            std::cout << action->text << '\n';
        }
    }
    std::cout << "fen " << game->fen() << '\n';
    return 0;
}

void add_common(CLI::App* cmd, RulesArgs& args) {
    cmd->add_option("--variant", args.variant, "variant name (see !rules)")->capture_default_str();
    cmd->add_option("--fen", args.fen, "start position in the variant's FEN");
    cmd->add_option("--option", args.options, "a game option, name=value (repeatable)");
}

} // namespace

void add_rules_commands(CLI::App& app, int& exit_status) {
    auto args = std::make_shared<RulesArgs>();
    auto* perft = app.add_subcommand("perft", "count leaf nodes of the game tree");
    add_common(perft, *args);
    perft->add_option("--depth", args->depth, "plies to search")
        ->required()
        ->check(CLI::Range(0, 20));
    perft->add_flag("--divide", args->divide, "print the count below each first action");
    perft->callback([args, &exit_status] { exit_status = run_perft(*args); });

    auto* replay = app.add_subcommand(
        "replay", "replay moves from standard input, print canonical notation and the final FEN");
    add_common(replay, *args);
    replay->callback([args, &exit_status] { exit_status = run_replay(*args); });
}

} // namespace ghostpost::bot
