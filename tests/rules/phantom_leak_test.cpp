// Phantom Chess leak test at the rules level: many random games, with random entry options,
// peeks, and typed moves aimed at the Phantoms' squares; nothing the channel gets (public views,
// public events, public refusals) may show where a Phantom stands, except the announcements of
// the moves themselves and the record published at the end.
#include "chess_test_support.h"
#include "ghostpost/rules/notation.h"
#include "ghostpost/variants/pieces.h"
#include "phantom_squares.h"

#include <algorithm>
#include <random>
#include <set>

using namespace ghostpost::rules;

namespace {

using ghostpost::test::PhantomAt;
using ghostpost::test::phantoms_of;

std::string square_names(const std::vector<PhantomAt>& ps) {
    std::string out;
    for (const auto& p : ps)
        out += p.square.name() + " ";
    return out;
}

// The first Phantom square named in `text` that `allowed` does not name too; empty when none.
std::string named_square(const std::string& text, const std::vector<PhantomAt>& ps,
                         const std::string& allowed = {}) {
    for (const auto& p : ps) {
        const std::string n = p.square.name();
        if (text.find(n) != std::string::npos && allowed.find(n) == std::string::npos)
            return n;
    }
    return {};
}

int phantom_figures(const BoardView& b, std::optional<Seat> of = std::nullopt) {
    int n = 0;
    for (const auto& cell : b.cells)
        for (const auto& f : cell.figures)
            if (f.piece.kind == pieces::phantom || f.style == FigureStyle::Secret)
                n += !of || f.piece.seat == *of;
    return n;
}

void check_views(const Game& g, const std::vector<PhantomAt>& ps) {
    if (g.outcome().over())
        return;
    const BoardView pub = g.public_view().board();
    CHECK(phantom_figures(pub) == 0);
    for (const auto& p : ps) {
        CHECK(pub.last_to != p.square);
        CHECK(pub.last_from != p.square);
    }
    for (const auto& note : pub.notes)
        CHECK(named_square(note, ps).empty());
    for (Seat s : {Seat::White, Seat::Black}) {
        const BoardView mine = g.seat_view(s).board();
        CHECK(phantom_figures(mine, opponent(s)) == 0);
        int own = 0;
        for (const auto& p : ps)
            own += p.seat == s;
        CHECK(phantom_figures(mine, s) == own);
    }
}

// A public event may name a Phantom's square only as the move's announcement, or in the
// record published when the game ends.
void check_events(const std::vector<Event>& events, const std::vector<PhantomAt>& before,
                  const std::vector<PhantomAt>& after, bool over) {
    for (const auto& e : events) {
        if (e.only_for) {
            if (e.board)
                CHECK(e.board->seat() == *e.only_for);
            continue;
        }
        CHECK_FALSE(e.board);
        if (e.kind == EventKind::Moved || e.kind == EventKind::Captured ||
            (over && (e.kind == EventKind::Reveal || e.kind == EventKind::GameOver)))
            continue;
        INFO("public event: " << e.text);
        CHECK(named_square(e.text, before).empty());
        CHECK(named_square(e.text, after).empty());
    }
}

// Something a player might type, often aimed at a Phantom's square or at squares behind it.
std::string typed_attempt(std::mt19937& rng, const std::vector<PhantomAt>& ps) {
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    Square to(pick(8), pick(8));
    if (!ps.empty() && pick(3) != 0) {
        const Square p = ps[static_cast<std::size_t>(pick(static_cast<int>(ps.size())))].square;
        const int df = pick(3) - 1, dr = pick(3) - 1;
        to = Square(std::clamp(p.file + (pick(2) ? df : 0), 0, 7),
                    std::clamp(p.rank + (pick(2) ? dr : 0), 0, 7));
    }
    const std::string sq = to.name();
    switch (pick(9)) {
    case 0:
        return sq;
    case 1:
        return std::string(1, "NBRQK"[pick(5)]) + sq;
    case 2:
        return "F" + sq;
    case 3:
        return "F@" + sq;
    case 4:
        return std::string(1, static_cast<char>('a' + pick(8))) + "x" + sq;
    case 5:
        return Square(pick(8), pick(8)).name() + sq;
    case 6:
        return pick(2) ? "O-O" : "O-O-O";
    case 7:
        return std::string(1, "NBRQ"[pick(4)]) + static_cast<char>('a' + pick(8)) + sq;
    default:
        return "K" + sq;
    }
}

} // namespace

TEST_CASE("Random Phantom Chess games never show the channel where a Phantom stands",
          "[variant:phantom][leak]") {
    constexpr int games = 60;
    constexpr int max_plies = 160;
    std::mt19937 rng(20240501);
    NoRandomness no_dice;
    int refusals_private = 0, refusals_public = 0, peeks = 0, finished = 0;
    for (int n = 0; n < games; ++n) {
        Options options{{"phantom_entry_capture", rng() % 2 ? "yes" : "no"},
                        {"phantom_entry_check", rng() % 2 ? "yes" : "no"},
                        {"phantom_lives", std::to_string(rng() % 4)}};
        auto game = test::start("phantom", {}, options);
        for (int step = 0; step < max_plies && !game->outcome().over(); ++step) {
            const auto before = phantoms_of(*game);
            INFO("game " << n << " step " << step << " fen " << game->fen() << " phantoms "
                         << square_names(before));
            check_views(*game, before);
            const Seat mover = game->pending().front().seat;
            const auto roll = rng() % 20;
            if (roll == 0) {
                const Seat peeker = rng() % 2 ? Seat::White : Seat::Black;
                auto parsed = parse_action(*game, peeker, "peek");
                REQUIRE(parsed.ok());
                auto events = game->apply(peeker, parsed->action, no_dice);
                if (events) {
                    ++peeks;
                    check_events(*events, before, before, false);
                } else {
                    CHECK(named_square(events.error().message, before).empty());
                }
                continue;
            }
            if (roll <= 6) {
                const std::string typed = typed_attempt(rng, before);
                auto parsed = parse_action(*game, mover, typed);
                if (!parsed) {
                    const RuleError& e = parsed.error();
                    INFO("typed " << typed << ": " << e.message << " | " << e.private_detail);
                    CHECK(named_square(e.message, before, typed).empty());
                    CHECK(e.message.find("Phantom on") == std::string::npos);
                    CHECK(e.message.find("own Phantom") == std::string::npos);
                    CHECK(e.message.find("phantom on") == std::string::npos);
                    (e.private_detail.empty() ? refusals_public : refusals_private) += 1;
                    continue;
                }
                auto events = game->apply(mover, parsed->action, no_dice);
                REQUIRE(events.ok());
                check_events(*events, before, phantoms_of(*game), game->outcome().over());
                continue;
            }
            auto actions = game->notated_actions(mover);
            REQUIRE_FALSE(actions.empty());
            // Entries and Phantom moves are favoured so that Phantoms are on the board early.
            std::size_t choice = rng() % actions.size();
            for (std::size_t i = 0; i < actions.size(); ++i)
                if (actions[i].text[0] == 'F' && rng() % 4 == 0)
                    choice = i;
            auto events = game->apply(mover, actions[choice].action, no_dice);
            REQUIRE(events.ok());
            check_events(*events, before, phantoms_of(*game), game->outcome().over());
        }
        finished += game->outcome().over();
    }
    // The walk must have met each kind of case, or it proves nothing.
    CHECK(refusals_private > 50);
    CHECK(refusals_public > 50);
    CHECK(peeks > 20);
    CHECK(finished > 0);
}
