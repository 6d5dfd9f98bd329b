// No page tells what the rules hide. Random Phantom Chess and Gnostic Chess games (fixed seeds)
// are played on a true game beside the store; after every action each page a visitor could
// fetch is read and must hold none of the hidden facts: a Phantom on its square as the true
// state has it, the raw text of a secret decision, the Gnostic seed. Once the game is over the
// seed must appear (so the check is not blind).
#include "../rules/phantom_squares.h"
#include "ghostpost/render/svg.h"
#include "ghostpost/service/random.h"
#include "ghostpost/web/site.h"
#include "web_support.h"

#include <catch2/catch.hpp>
#include <set>

using namespace ghostpost;
using ghostpost::test::WebDb;

namespace {

std::string piece_on(const std::string& page, const std::string& square) {
    const std::string key = "data-square=\"" + square + "\" data-piece=\"";
    const std::size_t at = page.find(key);
    if (at == std::string::npos)
        return "(no board)";
    const std::size_t start = at + key.size();
    return page.substr(start, page.find('"', start) - start);
}

bool shows_phantom_at(const std::string& page, const std::vector<test::PhantomAt>& phantoms) {
    for (const auto& p : phantoms) {
        const std::string on = piece_on(page, p.square.name());
        if (on.find('F') != std::string::npos || on.find('f') != std::string::npos)
            return true;
    }
    return false;
}

// The figures of `square` as data-piece writes them, from a board the test trusts.
std::string letters(const rules::BoardView& b, rules::Square square) {
    std::string out;
    for (const auto& f : b.at(square).figures) {
        const char c = rules::piece_letter(f.piece.kind);
        out += f.piece.seat == rules::Seat::White ? c : static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

bool all_private(const std::vector<rules::Event>& events) {
    return !events.empty() && std::all_of(events.begin(), events.end(), [](const auto& e) {
        return e.only_for.has_value() || e.board.has_value();
    });
}

struct Played {
    int phantom_plies = 0;  // plies after which a Phantom stood on the board
    int secret_actions = 0; // secret decisions made
    int pages = 0;
};

// Plays one random game of `variant` for up to `plies` actions, checking every page after each.
Played play(const std::string& variant, int seed, int plies) {
    WebDb db;
    const auto id = db.new_game(variant, static_cast<std::uint8_t>(seed));
    const std::string gid = std::to_string(id);
    const auto record = db.store().game(id);
    const std::string seed_hex = bot::to_hex(record->seed);
    auto game = rules::find_variant(variant)->start({}).value();
    bot::SeededRandom rng(record->seed);
    std::mt19937 pick(static_cast<std::uint32_t>(seed));
    web::Site site({db.path()});
    Played played;
    std::set<std::string> secrets, publics;
    for (int ply = 1; ply <= plies && !game->pending().empty(); ++ply) {
        const rules::Decision d = game->pending()[pick() % game->pending().size()];
        auto actions = game->notated_actions(d.seat);
        REQUIRE(!actions.empty());
        const auto chosen = actions[pick() % actions.size()];
        auto events = game->apply(d.seat, chosen.action, rng);
        REQUIRE(events);
        db.log(id, ply, d.seat, chosen.text);
        (all_private(*events) ? secrets : publics).insert(chosen.text);
        played.secret_actions += all_private(*events);

        const auto phantoms = test::phantoms_of(*game);
        played.phantom_plies += !phantoms.empty();
        std::vector<std::string> pages;
        for (const std::string& path :
             {"/game/" + gid, "/game/" + gid + "/board.svg", "/game/" + gid + "/pgn",
              std::string("/"), "/player/" + std::to_string(db.alice)}) {
            const web::Page p = site.get(path);
            REQUIRE(p.status == 200);
            pages.push_back(p.body);
        }
        // Every earlier position too, as the move list links them (every fourth ply, which
        // keeps the test fast and still reads each position under several later revisions).
        for (int k = 0; k < ply && ply % 4 == 0; ++k) {
            const web::Page p = site.get("/game/" + gid, {{"ply", std::to_string(k)}});
            if (p.status == 200)
                pages.push_back(p.body);
        }
        // The current board, on the page and alone, is the public view where a Phantom stands.
        const rules::BoardView pub = game->public_view().board();
        for (std::size_t i = 0; i < 2; ++i)
            for (const auto& ph : phantoms)
                CHECK(piece_on(pages[i], ph.square.name()) == letters(pub, ph.square));
        for (const std::string& body : pages) {
            ++played.pages;
            INFO("ply " << ply << ", Phantoms at " << phantoms.size());
            CHECK_FALSE(shows_phantom_at(body, phantoms));
            CHECK(body.find(seed_hex) == std::string::npos);
            const std::size_t moves = body.find("<ol class=\"moves\">");
            const std::string listed = moves == std::string::npos
                                           ? body
                                           : body.substr(moves, body.find("</ol>", moves) - moves);
            for (const auto& s : secrets)
                if (!publics.contains(s)) {
                    INFO("secret " << s);
                    CHECK(listed.find(">" + s + "<") == std::string::npos);
                    CHECK(listed.find(" " + s + " ") == std::string::npos);
                }
        }
    }
    // Over: the reveal shows the seed where the game has dice.
    db.finish(id, "1/2-1/2", "agreement");
    const web::Page end = site.get("/game/" + gid);
    CHECK((end.body.find(seed_hex) != std::string::npos) ==
          rules::find_variant(variant)->info().uses_chance);
    return played;
}

} // namespace

TEST_CASE("No page shows where a Phantom stands while the game runs",
          "[web][leak][variant:phantom]") {
    int phantom_plies = 0, pages = 0;
    for (int seed : {11, 12, 13})
        for (int i = 0; i < 1; ++i) {
            const Played p = play("phantom", seed, 24);
            phantom_plies += p.phantom_plies;
            pages += p.pages;
        }
    // The games did hide something, and the pages were read (the fixed seeds' figures).
    CHECK(phantom_plies == 68);
    CHECK(pages == 612);
}

TEST_CASE("No page shows Gnostic Chess's secret choices or its seed while the game runs",
          "[web][leak][variant:gnostic]") {
    int secrets = 0;
    for (int seed : {21, 22, 23})
        secrets += play("gnostic", seed, 20).secret_actions;
    // Secret dice choices made in the three games (a forced choice is made inside the action
    // that needs it, issue 32, and is no decision of its own).
    CHECK(secrets == 9);
}

TEST_CASE("The leak check itself sees a Phantom drawn from a seat's view", "[web][leak]") {
    // A page made from the true state would draw the Phantom as the owner's view does: the
    // checker must catch exactly that board.
    auto game = rules::find_variant("phantom")->start({}).value();
    bot::SeededRandom rng(std::vector<std::uint8_t>(32, 5));
    std::mt19937 pick(5);
    for (int ply = 0; ply < 40 && test::phantoms_of(*game).empty(); ++ply) {
        const auto d = game->pending().front();
        auto actions = game->notated_actions(d.seat);
        REQUIRE(game->apply(d.seat, actions[pick() % actions.size()].action, rng));
    }
    const auto phantoms = test::phantoms_of(*game);
    REQUIRE(!phantoms.empty());
    const std::string mine = render::render_svg(game->seat_view(phantoms[0].seat));
    const std::string pub = render::render_svg(game->public_view());
    CHECK(shows_phantom_at(mine, phantoms));
    CHECK_FALSE(shows_phantom_at(pub, phantoms));
    const auto sq = phantoms[0].square;
    CHECK(piece_on(mine, sq.name()) != letters(game->public_view().board(), sq));
    CHECK(piece_on(pub, sq.name()) == letters(game->public_view().board(), sq));
}
