// Phantom Chess leak test through the service: random games are played by feeding posts to
// `ghostpost console`, while the same game is followed here with the rules library to know where
// the Phantoms stand after each post. No reply to the channel may name a Phantom's square or
// draw a Phantom, except the announcement of the move itself and the record shown at the end.
// In every other game the players ask for boards as images: each public image must be, byte for
// byte, the image of the true board with the Phantoms (and the mark of a Phantom's move) left out.
#include "../rules/phantom_squares.h"
#include "../storage/temp_path.h"
#include "console_images.h"
#include "ghostpost/render/png.h"
#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/storage/sqlite.h"
#include "ghostpost/variants/pieces.h"

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace ghostpost::rules;

namespace {

using ghostpost::test::phantom_squares;

struct Step {
    std::string post;                 // the console line
    std::string typed;                // what the player wrote
    std::string announced;            // canonical text when it was played, else empty
    std::vector<std::string> squares; // Phantom squares before and after the post
    bool over = false;                // the game ended with this post
    // The public image this post's board must be, for each orientation (images games only).
    std::array<std::vector<std::uint8_t>, 2> image;
};

// The true board as the owners know it, with every Phantom left out and no mark of the last
// move when a Phantom made it: what the channel may see. Built from White's view, which holds
// all but Black's Phantom, so that nothing is taken from the public view under test.
ghostpost::rules::BoardView without_phantoms(const Game& g, bool phantom_moved_last) {
    BoardView b = g.seat_view(Seat::White).board();
    for (auto& cell : b.cells)
        std::erase_if(cell.figures,
                      [](const Figure& f) { return f.piece.kind == pieces::phantom; });
    if (phantom_moved_last) {
        b.last_from = Square{};
        b.last_to = Square{};
    }
    return b;
}

std::array<std::vector<std::uint8_t>, 2> expected_images(const Game& g, bool phantom_moved_last) {
    const BoardView b = without_phantoms(g, phantom_moved_last);
    std::array<std::vector<std::uint8_t>, 2> out;
    for (bool flip : {false, true}) {
        ghostpost::render::PngOptions o;
        o.flip = flip;
        o.game_label = "Game #1";
        out[flip ? 1 : 0] = ghostpost::render::render_png(b, o);
    }
    return out;
}

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
    int checked_blocks = 0, private_refusals = 0, checked_images = 0;
    for (int n = 0; n < games; ++n) {
        const bool images = n % 2 == 1;
        const Variant* v = find_variant("phantom");
        REQUIRE(v != nullptr);
        auto started = v->start({});
        REQUIRE(started.ok());
        std::unique_ptr<Game> game = std::move(*started);
        std::vector<Step> steps;
        std::string input = images ? "#lobby mod: !channel settings images=on\n"
                                     "#lobby bob: !settings images=on\n"
                                   : "";
        input += "#lobby alice: !new phantom @bob white\n#sep carol: !games\n"
                 "#lobby bob: !accept\n#sep carol: !games\n";
        steps.push_back({});
        steps.push_back({});
        if (images)
            steps.back().image = expected_images(*game, false);
        bool phantom_moved_last = false;
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
                if (events && parsed->action.kind != ActionKind::Special) {
                    step.announced = parsed->text;
                    phantom_moved_last = parsed->text[0] == 'F';
                }
                if (events && images)
                    step.image = expected_images(*game, phantom_moved_last);
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
        const auto run = ghostpost::testing::run_console_keeping_images(input, db.str(), "lobby");
        const auto parts = chunks(run.output);
        REQUIRE(parts.size() == steps.size() + 1);
        const auto& sent_images = run.images;
        std::size_t next_image = 0;
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
                    if (s.announced.find(sq) == std::string::npos &&
                        s.typed.find(sq) == std::string::npos)
                        CHECK(block.find(sq) == std::string::npos);
                if (block.find("[image: board.png") == std::string::npos)
                    continue;
                // Only the players who asked for images get them, one per board.
                REQUIRE(images);
                REQUIRE(next_image < sent_images.size());
                REQUIRE_FALSE(s.image[0].empty());
                const auto& png = sent_images[next_image++];
                ++checked_images;
                CHECK((png == s.image[0] || png == s.image[1]));
            }
        }
    }
    CHECK(checked_blocks > 200);
    CHECK(private_refusals > 5);
    CHECK(checked_images > 60);
}
