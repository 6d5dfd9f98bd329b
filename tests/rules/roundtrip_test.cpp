// Issue 15, "Round trip": in every variant, every canonical text the service prints is read
// back to the same action, and a whole game written as movetext (numbers, comments, variations,
// glyphs, as in a lichess export) replays to the same final position.
#include "chess_test_support.h"
#include "ghostpost/rules/replay.h"

#include <random>

using namespace ghostpost::rules;

namespace {

// A reproducible stream, so a game with dice replays with the same rolls.
class Stream final : public RandomSource {
public:
    explicit Stream(std::uint32_t seed) : gen_(seed) {}
    std::uint32_t uniform(std::uint32_t n) override {
        return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(gen_);
    }

private:
    std::mt19937 gen_;
};

// What a replay must give again: the position (FEN where the variant has one) and every board.
std::string final_state(const Game& g, bool with_notes) {
    std::string out = g.fen() + "|" + g.outcome().reason;
    for (const BoardView& b : {g.public_view().board(), g.seat_view(Seat::White).board(),
                               g.seat_view(Seat::Black).board()}) {
        for (const auto& cell : b.cells) {
            for (const auto& f : cell.figures)
                out += std::string(1, piece_letter(f.piece.kind)) +
                       (f.piece.seat == Seat::White ? "w" : "b") + std::to_string(f.hp) +
                       (f.imprisoned ? "i" : "") + ",";
            out += ";";
        }
        if (with_notes)
            for (const auto& n : b.notes)
                out += n + ";";
    }
    return out;
}

// Reads movetext as `ghostpost replay` does: each word (or a few words, for the texts of more
// than one word such as "Respawn d1") is an action of whoever must decide first.
std::string read_movetext(Game& g, const std::string& movetext, RandomSource& rng) {
    std::istringstream words(strip_movetext(movetext));
    std::vector<std::string> all;
    for (std::string w; words >> w;) {
        const bool number = std::isdigit(static_cast<unsigned char>(w[0])) &&
                            w.find_first_not_of("0123456789.") == std::string::npos;
        if (!number && w != "*" && w != "1-0" && w != "0-1" && w != "1/2-1/2")
            all.push_back(w);
    }
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (g.pending().empty())
            return "over before " + all[i];
        const Seat seat = g.pending().front().seat;
        auto parsed = read_recorded_action(g, seat, all[i]);
        for (std::size_t j = i + 1; !parsed && j < all.size() && j < i + 4; ++j) {
            std::string joined = all[i];
            for (std::size_t k = i + 1; k <= j; ++k)
                joined += " " + all[k];
            if (auto longer = read_recorded_action(g, seat, joined); longer) {
                parsed = longer;
                i = j;
            }
        }
        if (!parsed)
            return all[i] + ": " + parsed.error().message;
        if (!g.apply(seat, parsed->action, rng))
            return all[i] + ": not applied";
    }
    return {};
}

} // namespace

TEST_CASE("Every canonical text reads back, and random games replay from their movetext in every "
          "variant",
          "[notation][replay][roundtrip]") {
    std::mt19937 pick(15);
    int positions = 0;
    const int plies_per_game = 60;
    for (const Variant* v : variants()) {
        const bool chance = v->info().uses_chance;
        // Gnostic Chess reads a text slowly (its standing policies are many): fewer samples.
        const int games_per_variant = chance ? 2 : 10;
        const std::size_t samples = chance ? 3 : 10;
        for (int game_no = 0; game_no < games_per_variant; ++game_no) {
            auto game = test::start(v->info().name);
            Stream rng(static_cast<std::uint32_t>(game_no + 1));
            std::vector<LoggedAction> log;
            std::string movetext = "[Event \"round trip\"]\n[Site \"a (tag) {with} ;marks\"]\n\n";
            std::optional<Seat> previous;
            int number = 0;
            for (int ply = 0; ply < plies_per_game && !game->pending().empty(); ++ply) {
                const Seat seat = game->pending()[pick() % game->pending().size()].seat;
                const auto actions = game->notated_actions(seat);
                REQUIRE_FALSE(actions.empty());
                ++positions;
                for (std::size_t n = 0; n < std::min(samples, actions.size()); ++n) {
                    // Every action when there are few, else a random sample of them.
                    const auto& a =
                        actions.size() <= samples ? actions[n] : actions[pick() % actions.size()];
                    // A record is read against the truth (Phantom Chess: "Nxd4" takes a
                    // Phantom its mover did not see).
                    auto back = read_recorded_action(*game, seat, a.text);
                    INFO(v->info().name << " " << game->fen() << " " << a.text << ": "
                                        << (back ? back->text : back.error().message));
                    REQUIRE(back.ok());
                    CHECK(back->action == a.action);
                }
                NotatedAction chosen = actions[pick() % actions.size()];
                bool aside = false;
                const auto anytime = game->anytime_actions(seat);
                if (!anytime.empty() && pick() % 8 == 0) {
                    chosen = anytime.front(); // a peek: a comment, as !history writes it
                    aside = true;
                }
                auto applied = game->apply(seat, chosen.action, rng);
                if (!applied)
                    continue; // a peek with no life left
                log.push_back({seat, chosen.text});
                if (aside) {
                    movetext += "{" + std::string(seat_name(seat)) + ": " + chosen.text + "} ";
                    continue;
                }
                if (seat == Seat::White && previous != Seat::White)
                    movetext += std::to_string(++number) + ". ";
                else if (!previous)
                    movetext += std::to_string(++number) + "... ";
                movetext += chosen.text + (ply % 7 == 3 ? " $1 (1. e4 {a line} (1. d4) e5) " : " ");
                if (ply % 11 == 5)
                    movetext += "; a comment to the end of the line\n";
                previous = seat;
            }
            const std::string expected = final_state(*game, true);

            auto replayed = test::start(v->info().name);
            Stream again(static_cast<std::uint32_t>(game_no + 1));
            auto r = replay(*replayed, log, again);
            INFO(v->info().name << " game " << game_no << ": " << (r ? "" : r.error().message));
            REQUIRE(r.ok());
            CHECK(final_state(*replayed, true) == expected);

            if (chance)
                continue; // movetext does not say who chose which die; the log with seats does
            auto read = test::start(v->info().name);
            Stream third(static_cast<std::uint32_t>(game_no + 1));
            INFO(movetext);
            CHECK(read_movetext(*read, movetext, third) == "");
            CHECK(final_state(*read, false) == final_state(*game, false));
        }
    }
    CHECK(positions > 3000); // thousands of positions, over every variant
}

TEST_CASE("Movetext loses its tags, comments, variations and glyphs, and keeps its moves",
          "[notation][replay]") {
    CHECK(strip_movetext("[Event \"x (y) {z}\"]\n1. e4 {best (by test)} e5 "
                         "(1... c5 2. Nf3 (2. c3)) 2. Nf3 $1 ; to the end\nNc6 *") ==
          "\n1. e4   e5    2. Nf3   \nNc6 *");
    CHECK(strip_movetext("1. e4 {never closed") == "1. e4  ");
}
