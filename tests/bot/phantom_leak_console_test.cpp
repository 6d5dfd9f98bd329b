// Phantom Chess leak test through the service: random games are played by feeding posts to
// `ghostpost console`, while the same game is followed here with the rules library to know where
// the Phantoms stand after each post. No reply to the channel may name a Phantom's square or
// draw a Phantom, except the announcement of the move itself and the record shown at the end.
#include "../storage/temp_path.h"

#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace ghostpost::rules;

namespace {

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> phantom_squares(const Game& g) {
    std::vector<std::string> out;
    const std::string fen = g.fen();
    int rank = 7, file = 0;
    for (char c : fen.substr(0, fen.find_first_of(" [")))
        if (c == '/') {
            --rank;
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
        } else {
            if (c == 'F' || c == 'f')
                out.push_back(Square(file, rank).name());
            ++file;
        }
    return out;
}

struct Step {
    std::string post;                 // the console line
    std::string typed;                // what the player wrote
    std::string announced;            // canonical text when it was played, else empty
    std::vector<std::string> squares; // Phantom squares before and after the post
    bool over = false;                // the game ended with this post
};

// Splits the console output at the separator posts' replies: one chunk per step.
std::vector<std::string> chunks(const std::string& output) {
    std::vector<std::string> out(1);
    std::istringstream lines(output);
    std::string line;
    bool in_separator = false;
    while (std::getline(lines, line)) {
        if (line.rfind(">> ", 0) == 0) {
            in_separator = line == ">> #sep";
            if (in_separator) {
                out.emplace_back();
                continue;
            }
        }
        if (!in_separator)
            out.back() += line + "\n";
    }
    return out;
}

// The public blocks (">> #lobby") of a chunk.
std::vector<std::string> public_blocks(const std::string& chunk) {
    std::vector<std::string> out;
    std::istringstream lines(chunk);
    std::string line;
    bool pub = false;
    while (std::getline(lines, line)) {
        if (line.rfind(">> ", 0) == 0) {
            pub = line == ">> #lobby";
            if (pub)
                out.emplace_back();
            continue;
        }
        if (pub)
            out.back() += line + "\n";
    }
    return out;
}

} // namespace

TEST_CASE("Random Phantom Chess games through the console never show the channel a Phantom",
          "[bot][leak][variant:phantom]") {
    constexpr int games = 6;
    constexpr int max_posts = 70;
    std::mt19937 rng(7077);
    NoRandomness no_dice;
    int checked_blocks = 0, private_refusals = 0;
    for (int n = 0; n < games; ++n) {
        const Variant* v = find_variant("phantom");
        REQUIRE(v != nullptr);
        auto started = v->start({});
        REQUIRE(started.ok());
        std::unique_ptr<Game> game = std::move(*started);
        std::vector<Step> steps;
        std::string input = "#lobby alice: !new phantom @bob white\n#sep carol: !games\n"
                            "#lobby bob: !accept\n#sep carol: !games\n";
        steps.push_back({});
        steps.push_back({});
        for (int i = 0; i < max_posts && !game->outcome().over(); ++i) {
            const Seat mover = game->pending().front().seat;
            const std::string who = mover == Seat::White ? "alice" : "bob";
            Step step;
            step.squares = phantom_squares(*game);
            const auto roll = rng() % 10;
            auto actions = game->notated_actions(mover);
            if (roll == 0) {
                step.typed = "peek";
            } else if (roll <= 3 && !step.squares.empty()) {
                // Aim at a Phantom: a piece onto its square, or the Phantom's own letter.
                const std::string sq = step.squares[rng() % step.squares.size()];
                const std::string pieces[] = {"", "N", "B", "R", "Q", "K", "F", "F@"};
                step.typed = pieces[rng() % 8] + sq;
            } else {
                std::size_t choice = rng() % actions.size();
                for (std::size_t k = 0; k < actions.size(); ++k)
                    if (actions[k].text[0] == 'F' && rng() % 3 == 0)
                        choice = k;
                step.typed = actions[choice].text;
            }
            auto parsed = parse_action(*game, mover, step.typed);
            if (parsed) {
                auto events = game->apply(mover, parsed->action, no_dice);
                if (events && parsed->action.kind != ActionKind::Special)
                    step.announced = parsed->text;
            } else if (!parsed.error().private_detail.empty()) {
                ++private_refusals;
            }
            for (const auto& s : phantom_squares(*game))
                step.squares.push_back(s);
            step.over = game->outcome().over();
            step.post = "#lobby " + who + ": " + step.typed;
            input += step.post + "\n#sep carol: !games\n";
            steps.push_back(step);
        }

        ghostpost::testing::TempPath db("phantom-leak-" + std::to_string(n));
        ghostpost::testing::TempPath in_file("phantom-leak-in");
        ghostpost::testing::TempPath out_file("phantom-leak-out");
        std::ofstream(in_file.str(), std::ios::binary) << input;
        const std::string command = std::string("'") + GHOSTPOST_BIN + "' console --db '" + db.str() +
                                    "' --fixed-time 1700000000 < '" + in_file.str() + "' > '" +
                                    out_file.str() + "' 2>&1";
        REQUIRE(std::system(command.c_str()) == 0);
        const auto parts = chunks(read_file(out_file.str()));
        REQUIRE(parts.size() == steps.size() + 1);
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const Step& s = steps[i];
            if (s.over)
                break; // the record published at the end names every Phantom, as it should
            for (const std::string& block : public_blocks(parts[i])) {
                INFO("game " << n << " post \"" << s.post << "\"\n" << block);
                ++checked_blocks;
                CHECK(block.find("F?") == std::string::npos);
                CHECK(block.find("f?") == std::string::npos);
                // The announcement and the player's own post are public already, and so are
                // the squares they name (a capture of a Phantom names its square).
                for (const auto& sq : s.squares)
                    if (s.announced.find(sq) == std::string::npos && s.typed.find(sq) == std::string::npos)
                        CHECK(block.find(sq) == std::string::npos);
            }
        }
    }
    CHECK(checked_blocks > 200);
    CHECK(private_refusals > 5);
}
