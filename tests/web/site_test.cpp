// The web pages through Site (no sockets): routes, 404s, what a game page shows at each ply,
// the PGN, and the caching by revision.
#include "ghostpost/web/site.h"
#include "web_support.h"

#include <catch2/catch.hpp>

using namespace ghostpost;
using ghostpost::test::WebDb;
using ghostpost::testing::Backend;
using rules::Seat;

namespace {

// The data-piece of `square` in the page's board ("" for an empty square).
std::string piece_on(const std::string& page, const std::string& square) {
    const std::string key = "data-square=\"" + square + "\" data-piece=\"";
    const std::size_t at = page.find(key);
    REQUIRE(at != std::string::npos);
    const std::size_t start = at + key.size();
    return page.substr(start, page.find('"', start) - start);
}

struct ChessGame {
    explicit ChessGame(Backend backend = Backend::Sqlite) : db(backend) { play(); }
    WebDb db;
    std::int64_t id = db.new_game("chess", 1);
    void play() {
        db.log(id, 1, Seat::White, "e4");
        db.log(id, 2, Seat::Black, "e5");
        db.log(id, 3, Seat::White, "Nf3");
    }
};

} // namespace

TEST_CASE("A game page shows the board at the ply asked for, and the last one by default",
          "[web][postgres]") {
    ChessGame t(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(t.db.backend());
    web::Site site(t.db.site());
    const web::Page last = site.get("/game/" + std::to_string(t.id));
    CHECK(last.status == 200);
    CHECK(last.content_type == "text/html; charset=utf-8");
    CHECK(piece_on(last.body, "f3") == "N");
    CHECK(piece_on(last.body, "g1") == "");
    CHECK(piece_on(last.body, "e5") == "p");
    CHECK(last.body.find("ply 3 of 3") != std::string::npos);

    const web::Page first = site.get("/game/1", {{"ply", "1"}});
    CHECK(first.status == 200);
    CHECK(piece_on(first.body, "e4") == "P");
    CHECK(piece_on(first.body, "e2") == "");
    CHECK(piece_on(first.body, "e7") == "p");
    CHECK(piece_on(first.body, "g1") == "N");
    // The steps and the move list link every ply; the keys follow #prev and #next.
    CHECK(first.body.find("<a id=\"prev\" rel=\"prev\" href=\"/game/1?ply=0\">") !=
          std::string::npos);
    CHECK(first.body.find("<a id=\"next\" rel=\"next\" href=\"/game/1?ply=2\">") !=
          std::string::npos);
    // Moves in pairs under their number, as the PGN writes them: 1. e4 e5 2. Nf3.
    CHECK(first.body.find("<ol class=\"moves\"><li value=\"1\"><a class=\"white current\" "
                          "href=\"/game/1?ply=1\">e4</a> <a class=\"black\" "
                          "href=\"/game/1?ply=2\">e5</a></li><li value=\"2\"><a class=\"white\" "
                          "href=\"/game/1?ply=3\">Nf3</a></li></ol>") != std::string::npos);
    // The game as it stands follows the game live; a ply of the past does not.
    CHECK(last.body.find("<main data-live=\"3\">") != std::string::npos);
    CHECK(first.body.find("<main>") != std::string::npos);
    CHECK(first.body.find("<script src=\"/static/game.js\" defer></script>") != std::string::npos);
    CHECK(first.body.find("<script>") == std::string::npos); // no inline script

    const web::Page start = site.get("/game/1", {{"ply", "0"}});
    CHECK(piece_on(start.body, "e2") == "P");
    CHECK(start.body.find("<span id=\"prev\">") != std::string::npos);
    // Names are escaped.
    CHECK(start.body.find("Bob &lt;b&gt;") != std::string::npos);
    CHECK(start.body.find("Bob <b>") == std::string::npos);
}

TEST_CASE("A game page names the players' ratings, what a rated game changed, and the deadline "
          "its running clock counts down to",
          "[web][postgres]") {
    ChessGame t(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(t.db.backend());
    storage::Store& store = t.db.store();
    store.put_clock(t.id, {Seat::Black, 86'400, 1'790'000'000, 0, 0, false});
    store.save_rating({t.db.alice, "chess", 1540.4, 80, 0.06, 1}, 1'789'000'000);
    web::Site site(t.db.site());
    const web::Page under_way = site.get("/game/" + std::to_string(t.id));
    CHECK(under_way.body.find("<a href=\"/player/1\">Alice</a></td><td class=\"rating\">1540"
                              "</td>") != std::string::npos);
    // Bob has no rating in chess yet.
    CHECK(under_way.body.find("Bob &lt;b&gt;</a></td><td class=\"rating\"></td>") !=
          std::string::npos);
    CHECK(under_way.body.find("<span class=\"left\" data-deadline=\"1790086400\">1d 0h 0m from "
                              "2026-09-21 14:13 UTC</span>, deadline 2026-09-22 14:13 UTC") !=
          std::string::npos);

    // Rated and over: each player's rating before and after the game, from their history.
    auto g = store.game(t.id).value();
    g.rated = true;
    store.update_game(g);
    t.db.finish(t.id, "1-0", "resignation");
    store.save_rating({t.db.alice, "chess", 1571.6, 75, 0.06, 2}, 1'790'000'100, t.id);
    store.save_rating({t.db.bob, "chess", 1402.2, 290, 0.06, 1}, 1'790'000'100, t.id);
    const web::Page over = site.get("/game/" + std::to_string(t.id));
    CHECK(over.body.find("Alice</a></td><td class=\"rating\">1540 → 1572 (+32)</td>") !=
          std::string::npos);
    CHECK(over.body.find("Bob &lt;b&gt;</a></td><td class=\"rating\">1500 → 1402 (−98)</td>") !=
          std::string::npos);
    CHECK(over.body.find("data-live") == std::string::npos);
}

TEST_CASE("Paths and ids that name nothing get a 404 page", "[web]") {
    ChessGame t;
    web::Site site({t.db.path()});
    for (const std::string path :
         {"/nope", "/game", "/game/abc", "/game/999", "/game/01", "/game/-1", "/game/1/x",
          "/game/1/pgn/x", "/player/7", "/player/x", "/tournament/1", "/leaderboard/nonesuch",
          "/static/nope.js", "/game/99999999999999999999", "relative", "//"}) {
        INFO(path);
        const web::Page p = site.get(path);
        CHECK(p.status == 404);
        CHECK(p.body.find("<h1>Not found</h1>") != std::string::npos);
    }
    for (const std::string ply : {"4", "-1", "x", "01", "1e3", "", "9999999"}) {
        INFO(ply);
        if (ply.empty())
            continue;
        CHECK(site.get("/game/1", {{"ply", ply}}).status == 404);
    }
}

TEST_CASE("The PGN download is the game's public record", "[web]") {
    ChessGame t;
    web::Site site({t.db.path()});
    const web::Page pgn = site.get("/game/1/pgn");
    CHECK(pgn.status == 200);
    CHECK(pgn.filename == "ghostpost-game-1.pgn");
    CHECK(pgn.content_type == "application/x-chess-pgn; charset=utf-8");
    CHECK(pgn.body == "[Event \"ghostpost game 1\"]\n[Site \"console lobby\"]\n"
                      "[Date \"2026.09.21\"]\n[Round \"-\"]\n[White \"Alice\"]\n"
                      "[Black \"Bob <b>\"]\n[Result \"*\"]\n[UTCDate \"2026.09.21\"]\n"
                      "[UTCTime \"14:13:20\"]\n[Variant \"Standard\"]\n[TimeControl \"-\"]\n"
                      "[Termination \"Unterminated\"]\n\n1. e4 e5 2. Nf3 *\n");
}

TEST_CASE("A game page changes its ETag when the game changes, not before", "[web][postgres]") {
    ChessGame t(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(t.db.backend());
    web::Site site(t.db.site());
    const web::Page a = site.get("/game/1");
    const web::Page b = site.get("/game/1");
    CHECK(a.etag == b.etag);
    CHECK(a.etag.size() == 18);
    t.db.log(t.id, 4, Seat::Black, "Nc6");
    const web::Page c = site.get("/game/1");
    CHECK(c.etag != a.etag);
    CHECK(piece_on(c.body, "c6") == "n");
}

TEST_CASE("The index lists games under way, a player page their games and ratings",
          "[web][postgres]") {
    ChessGame t(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(t.db.backend());
    const auto other = t.db.new_game("ghost", 2);
    t.db.finish(other, "0-1", "resignation");
    storage::RatingRecord r;
    r.player_id = t.db.alice;
    r.variant = "chess";
    for (auto [games, rating] : {std::pair{1, 1540.0}, {2, 1580.6}, {3, 1612.4}}) {
        r.rating = rating;
        r.deviation = 80.2;
        r.games = games;
        t.db.store().save_rating(r, 1'790'000'000 + games);
    }
    web::Site site(t.db.site());
    const web::Page index = site.get("/");
    CHECK(index.status == 200);
    CHECK(index.body.find("<a href=\"/game/1\">#1</a>") != std::string::npos);
    CHECK(index.body.find("<a href=\"/game/2\">#2</a>") == std::string::npos);
    CHECK(index.body.find("<a href=\"/leaderboard/phantom\">Phantom Chess</a>") !=
          std::string::npos);

    const web::Page alice = site.get("/player/" + std::to_string(t.db.alice));
    CHECK(alice.status == 200);
    CHECK(alice.body.find("<h1>Alice</h1>") != std::string::npos);
    CHECK(alice.body.find("<td>1612</td><td>80</td><td>3</td>") != std::string::npos);
    CHECK(alice.body.find("<td class=\"outcome\">lost</td><td>0-1 (resignation)</td>") !=
          std::string::npos);
    CHECK(alice.body.find("<p class=\"record\">0 won, 0 drawn, 1 lost</p>") != std::string::npos);
    // The rating history: one point per rated game, on an axis from 1500 to 1700.
    CHECK(alice.body.find("data-variant=\"chess\"") != std::string::npos);
    CHECK(alice.body.find("<polyline fill=\"none\" stroke=\"#2a5db0\" stroke-width=\"2\" "
                          "points=\"50.0,106.0 250.0,81.6 450.0,62.6\"/>") != std::string::npos);
    CHECK(alice.body.find("<title>after game 2: 1581</title>") != std::string::npos);
    CHECK(alice.body.find(">1700</text>") != std::string::npos);
    CHECK(alice.body.find(">1500</text>") != std::string::npos);
    const web::Page bob_page = site.get("/player/" + std::to_string(t.db.bob));
    CHECK(bob_page.body.find("rating-history") == std::string::npos);

    const web::Page board = site.get("/leaderboard/chess");
    CHECK(board.status == 200);
    CHECK(board.body.find("<td>1</td><td><a href=\"/player/1\">Alice</a></td><td>1612</td>") !=
          std::string::npos);
    CHECK(site.get("/leaderboard/gnostic").body.find("Nobody has a rating in Gnostic Chess yet.") !=
          std::string::npos);
}

TEST_CASE("A tournament page has standings, a crosstable and the pairings by round",
          "[web][postgres]") {
    WebDb db(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(db.backend());
    const auto carol = db.store().upsert_player("console", "carol", "Carol", "carol").id;
    storage::TournamentRecord tr;
    tr.platform = "console";
    tr.channel = "lobby";
    tr.name = "Autumn";
    tr.variant = "chess";
    tr.format = "roundrobin";
    tr.rounds = 3;
    tr.status = storage::TournamentStatus::Running;
    tr.creator = db.alice;
    tr.current_round = 1;
    const auto tid = db.store().create_tournament(tr);
    for (auto p : {db.alice, db.bob, carol})
        db.store().add_entrant(tid, p, 1'790'000'000);
    const auto g1 = db.new_game("chess", 3);
    db.finish(g1, "1-0", "checkmate");
    db.store().add_pairing({tid, 1, 1, db.alice, db.bob, g1});
    db.store().add_pairing({tid, 1, 2, carol, std::nullopt, std::nullopt});
    web::Site site(db.site());
    const web::Page p = site.get("/tournament/" + std::to_string(tid));
    CHECK(p.status == 200);
    CHECK(p.body.find("<h1>Autumn</h1><p>FIDE chess, round robin, running, round 1 of 3</p>") !=
          std::string::npos);
    // The table the chat shows: Alice 1 (a win); Bob and Carol 0, a round robin's bye scoring
    // nothing; level, but they have not met, so no direct encounter ("–"); Bob ahead on the
    // third tie-break, Buchholz (he met Alice's point).
    CHECK(p.body.find("<p class=\"tiebreaks\">Ties broken by direct encounter (DE), then "
                      "Sonneborn-Berger (SB), then Buchholz (BH).</p>") != std::string::npos);
    CHECK(p.body.find("<tr><th>#</th><th>Player</th><th>Points</th><th title=\"direct "
                      "encounter\">DE</th><th title=\"Sonneborn-Berger\">SB</th><th "
                      "title=\"Buchholz\">BH</th><th>Games</th></tr>"
                      "<tr><td>1</td><td><a href=\"/player/1\">Alice</a></td><td>1</td><td>–</td>"
                      "<td>0</td><td>0</td><td>1</td></tr>"
                      "<tr><td>2</td><td><a href=\"/player/2\">Bob &lt;b&gt;</a></td><td>0</td>"
                      "<td>–</td><td>0</td><td>1</td><td>1</td></tr>"
                      "<tr><td>3</td><td><a href=\"/player/3\">Carol</a></td><td>0</td><td>–</td>"
                      "<td>0</td><td>0</td><td>0</td></tr>") != std::string::npos);
    CHECK(p.body.find("<tr><th>1 Alice</th><td class=\"self\"></td><td>1</td><td></td></tr>") !=
          std::string::npos);
    CHECK(p.body.find("<a id=\"trf\" href=\"/tournament/" + std::to_string(tid) +
                      "/trf\" download>") != std::string::npos);
    CHECK(
        p.body.find("<h3>Round 1</h3><ol class=\"pairings\"><li><a href=\"/player/1\">Alice</a> – "
                    "<a href=\"/player/2\">Bob &lt;b&gt;</a> <a href=\"/game/" +
                    std::to_string(g1) + "\">game #" + std::to_string(g1) +
                    "</a> 1-0</li><li><a href=\"/player/3\">Carol</a> – bye</li></ol>") !=
        std::string::npos);

    // The home page lists it among the tournaments under way.
    CHECK(site.get("/").body.find("<h2>Tournaments</h2><ul class=\"tournaments\"><li><a "
                                  "href=\"/tournament/" +
                                  std::to_string(tid) +
                                  "\">Autumn</a>: FIDE chess, round robin, round 1 of 3</li></ul>"
                                  "<h2>Finished tournaments</h2><p>None.</p>") !=
          std::string::npos);

    // The FIDE report as a file: Carol's round-robin bye scores nothing (Z).
    const web::Page trf = site.get("/tournament/" + std::to_string(tid) + "/trf");
    CHECK(trf.status == 200);
    CHECK(trf.content_type == "text/plain; charset=utf-8");
    CHECK(trf.filename == "ghostpost-tournament-" + std::to_string(tid) + ".trf");
    CHECK(trf.body.starts_with("012 Autumn\n"));
    CHECK(trf.body.find("  0000 - Z\n") != std::string::npos);

    // A round robin played all at once has no current round to show.
    tr.name = "Relay";
    tr.schedule = "allatonce";
    tr.current_round = 3;
    const auto relay = db.store().create_tournament(tr);
    const web::Page all = site.get("/tournament/" + std::to_string(relay));
    CHECK(all.body.find("<h1>Relay</h1><p>FIDE chess, round robin, running, every game at "
                        "once</p>") != std::string::npos);
}
