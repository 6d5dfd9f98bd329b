// Tournaments and ratings through the service: what the store holds after the commands, and the
// replies that say so. The whole flows from creation to final standings are console transcripts
// (tests/data/transcripts/tourney_*.in); these check what a transcript cannot show.
#include "../storage/temp_path.h"
#include "ghostpost/bot/service.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ghostpost;
using bot::Post;
using bot::Service;
using ghostpost::testing::TempPath;

namespace {

std::int64_t fixed_clock() {
    return 1700000000;
}

// Feeds posts in #lobby under increasing message ids.
class Lobby {
public:
    Lobby()
        : store_(storage::open_sqlite_store(path_.str())),
          service_(*store_, settings(), fixed_clock) {}

    static bot::ServiceSettings settings() {
        bot::ServiceSettings s;
        s.moderators = {"mod"};
        return s;
    }

    // Handles the post and returns the texts it queued, in order.
    std::vector<std::string> post(const std::string& user, const std::string& text) {
        Post p;
        p.platform = "console";
        p.channel = "lobby";
        p.message_id = std::to_string(++next_);
        p.author_id = user;
        p.author_name = user;
        p.author_handle = user;
        p.text = text;
        p.cursor = p.message_id;
        service_.handle(p);
        std::vector<std::string> out;
        for (const auto& e : store_->due("console", 2000000000, 1000)) {
            out.push_back((e.message.to_user ? "@" : "#") + e.message.destination + " " +
                          e.message.text);
            store_->mark_sent(e.id, 0);
        }
        return out;
    }

    storage::Store& store() { return *store_; }
    std::int64_t id(const std::string& user) {
        return store_->player_by_handle("console", user).value().id;
    }

private:
    TempPath path_;
    std::unique_ptr<storage::Store> store_;
    Service service_;
    int next_ = 0;
};

// Creates a tournament of `format` named "cup" with `players` (who join in this order) and
// starts it; the first player creates it.
void run_start(Lobby& lobby, const std::string& format, const std::vector<std::string>& players,
               const std::string& extra = "") {
    lobby.post(players.front(), "!tourney create cup chess " + format + extra);
    for (const auto& p : players)
        lobby.post(p, "!tourney join cup");
    lobby.post(players.front(), "!tourney start cup");
}

std::string name_of(Lobby& lobby, std::int64_t id) {
    return lobby.store().player(id)->name;
}

// The loser of each of the round's games resigns: the lower seed (later joiner here) when
// `favourites` is true.
void finish_round(Lobby& lobby, int round, bool favourites) {
    auto t = lobby.store().tournament_by_name("console", "cup").value();
    auto entrants = lobby.store().entrants(t.id);
    auto seed = [&](std::int64_t id) {
        for (const auto& e : entrants)
            if (e.player_id == id)
                return e.seed;
        return -1;
    };
    for (const auto& p : lobby.store().pairings(t.id)) {
        if (p.round != round || !p.black)
            continue;
        std::int64_t weaker = seed(p.white) > seed(*p.black) ? p.white : *p.black;
        std::int64_t loser = favourites ? weaker : (weaker == p.white ? *p.black : p.white);
        lobby.post(name_of(lobby, loser), "!resign " + std::to_string(*p.game_id));
    }
}

} // namespace

TEST_CASE("A rated game moves both players' Glicko-2 ratings by the exact figures",
          "[bot][rating]") {
    Lobby lobby;
    lobby.post("alice", "!new chess @bob white");
    lobby.post("bob", "!accept");
    auto replies = lobby.post("bob", "!resign");
    REQUIRE(replies.size() == 2);
    CHECK(replies[0] == "#lobby @bob (Black) resigns. Game #1 is over: @alice (White) wins by "
                        "resignation (1-0).");
    CHECK(replies[1] ==
          "#lobby Ratings in FIDE chess after game #1: @alice 1500.0 -> 1662.3, @bob 1500.0 -> "
          "1337.7.");
    // Two newcomers (1500, 350, 0.06) after one decisive game, as Glickman's steps 1-8 give.
    auto alice = lobby.store().rating(lobby.id("alice"), "chess").value();
    auto bob = lobby.store().rating(lobby.id("bob"), "chess").value();
    CHECK(alice.rating == Approx(1662.3108939).margin(1e-6));
    CHECK(alice.deviation == Approx(290.3189637).margin(1e-6));
    CHECK(alice.volatility == Approx(0.0599996754).margin(1e-9));
    CHECK(alice.games == 1);
    CHECK(bob.rating == Approx(1337.6891061).margin(1e-6));
    CHECK(bob.deviation == Approx(290.3189637).margin(1e-6));
    CHECK(bob.games == 1);

    // A draw between them then pulls the two ratings toward each other.
    lobby.post("alice", "!new chess @bob white");
    lobby.post("bob", "!accept");
    lobby.post("alice", "!draw");
    replies = lobby.post("bob", "!draw");
    REQUIRE(replies.size() == 2);
    CHECK(replies[1] ==
          "#lobby Ratings in FIDE chess after game #2: @alice 1662.3 -> 1576.7, @bob 1337.7 -> "
          "1423.3.");
    alice = lobby.store().rating(lobby.id("alice"), "chess").value();
    CHECK(alice.rating == Approx(1576.6886643).margin(1e-6));
    CHECK(alice.deviation == Approx(260.4887636).margin(1e-6));
    CHECK(alice.volatility == Approx(0.0599991487).margin(1e-9));
    CHECK(alice.games == 2);
}

TEST_CASE("Ratings keep their figures through the database", "[storage][rating]") {
    TempPath path;
    auto store = storage::open_sqlite_store(path.str());
    auto p = store->upsert_player("console", "alice", "alice", "alice");
    store->save_rating(
        {p.id, "chess", 1662.3108939062977, 290.31896371798047, 0.05999967537233814, 1},
        1700000000);
    auto r = store->rating(p.id, "chess").value();
    // Bound as doubles, kept as REAL: the same bits come back.
    CHECK(r.rating == 1662.3108939062977);
    CHECK(r.deviation == 290.31896371798047);
    CHECK(r.volatility == 0.05999967537233814);
    CHECK(r.games == 1);
    CHECK_FALSE(store->rating(p.id, "ghost").has_value());
}

TEST_CASE("A Swiss of six players over three rounds never pairs anyone twice",
          "[bot][tournament][swiss]") {
    Lobby lobby;
    const std::vector<std::string> six{"ann", "ben", "cat", "dan", "eve", "fay"};
    run_start(lobby, "swiss", six, " rounds=3");
    for (int round = 1; round <= 3; ++round) {
        auto t = lobby.store().tournament_by_name("console", "cup").value();
        REQUIRE(t.current_round == round);
        // Alternate who wins so that score groups mix: favourites in odd rounds.
        finish_round(lobby, round, round % 2 == 1);
        if (round < 3)
            lobby.post("ann", "!tourney next cup");
    }
    auto t = lobby.store().tournament_by_name("console", "cup").value();
    CHECK(t.status == storage::TournamentStatus::Finished);
    CHECK(t.rounds == 3);
    auto boards = lobby.store().pairings(t.id);
    REQUIRE(boards.size() == 9);
    std::set<std::pair<std::int64_t, std::int64_t>> met;
    std::map<std::int64_t, int> games;
    for (const auto& b : boards) {
        REQUIRE(b.black.has_value());
        CHECK(met.insert({std::min(b.white, *b.black), std::max(b.white, *b.black)}).second);
        ++games[b.white];
        ++games[*b.black];
        CHECK(lobby.store().game(*b.game_id)->status == storage::GameStatus::Finished);
    }
    CHECK(games.size() == 6);
    for (const auto& [player, n] : games)
        CHECK(n == 3);
}

TEST_CASE("A knockout of five seeds 4 and 5 into round 1 and a draw sends the higher seed through",
          "[bot][tournament][knockout]") {
    Lobby lobby;
    run_start(lobby, "knockout", {"a1", "b2", "c3", "d4", "e5"});
    auto t = lobby.store().tournament_by_name("console", "cup").value();
    CHECK(t.rounds == 3);
    auto boards = lobby.store().pairings(t.id);
    REQUIRE(boards.size() == 4);
    auto id = [&](const std::string& n) { return lobby.id(n); };
    // Bracket order: 1 (bye), 5 v 4 with the lower seed White, 2 (bye), 3 (bye).
    CHECK(boards[0].white == id("a1"));
    CHECK_FALSE(boards[0].black.has_value());
    CHECK(boards[1].white == id("e5"));
    CHECK(boards[1].black == std::optional<std::int64_t>(id("d4")));
    CHECK(boards[2].white == id("b2"));
    CHECK_FALSE(boards[2].black.has_value());
    CHECK(boards[3].white == id("c3"));
    CHECK_FALSE(boards[3].black.has_value());

    lobby.post("e5", "!draw");
    auto replies = lobby.post("d4", "!draw");
    CHECK(std::find(replies.begin(), replies.end(),
                    "#lobby Round 1 of cup is complete. Its players, @a1 who created it, or a "
                    "moderator: !tourney next cup starts round 2. Standings after round 1:") !=
          replies.end());
    lobby.post("e5", "!tourney next cup");
    boards = lobby.store().pairings(t.id);
    REQUIRE(boards.size() == 6);
    // Round 2: 1 meets the winner of 4-5 (the drawn game: seed 4), 2 meets 3.
    CHECK(boards[4].white == id("d4"));
    CHECK(boards[4].black == std::optional<std::int64_t>(id("a1")));
    CHECK(boards[5].white == id("c3"));
    CHECK(boards[5].black == std::optional<std::int64_t>(id("b2")));
}

TEST_CASE("A tournament game cannot be aborted by its players, and a moderator's abort counts "
          "for nobody",
          "[bot][tournament]") {
    Lobby lobby;
    run_start(lobby, "roundrobin", {"amy", "bea"});
    auto replies = lobby.post("amy", "!abort 1");
    REQUIRE(replies.size() == 1);
    CHECK(replies[0] == "#lobby Game #1 is a tournament game: it cannot be aborted. Use !resign "
                        "[game] or !draw [game].");
    CHECK(lobby.store().game(1)->status == storage::GameStatus::Ongoing);
    replies = lobby.post("mod", "!abort 1");
    REQUIRE(replies.size() >= 2);
    CHECK(replies[0] == "#lobby Game #1 is aborted by @mod. It counts for nobody.");
    CHECK(lobby.store().tournament_by_name("console", "cup")->status ==
          storage::TournamentStatus::Finished);
    CHECK_FALSE(lobby.store().rating(lobby.id("amy"), "chess").has_value());
    replies = lobby.post("amy", "!tourney standings");
    REQUIRE(replies.size() == 1);
    CHECK(replies[0] == "#lobby Standings of cup (round robin, final; tie-breaks: "
                        "Sonneborn-Berger (SB), then Buchholz (BH)):");
}

TEST_CASE("Mistaken tournament commands get one reply and change nothing", "[bot][tournament]") {
    Lobby lobby;
    auto one = [&](const std::string& user, const std::string& text) {
        auto r = lobby.post(user, text);
        REQUIRE(r.size() == 1);
        return r[0];
    };
    CHECK(one("amy", "!tourney create 9lives chess swiss") ==
          "#lobby \"9lives\" cannot be a tournament name: up to 32 letters, digits, - and _, "
          "starting with a letter. Use: !tourney create <name> <variant> "
          "<roundrobin|double|swiss|knockout> [rounds=N] [tc=...]");
    CHECK(
        one("amy", "!tourney create cup chess league") ==
        "#lobby There is no format \"league\": roundrobin, double, swiss or knockout. Use: "
        "!tourney create <name> <variant> <roundrobin|double|swiss|knockout> [rounds=N] [tc=...]");
    CHECK(one("amy", "!tourney create cup chess swiss rounds=0") ==
          "#lobby rounds= takes a number from 1 to 30. Use: !tourney create <name> <variant> "
          "<roundrobin|double|swiss|knockout> [rounds=N] [tc=...]");
    CHECK(one("amy", "!tourney create cup chess knockout rounds=2")
              .find("rounds= is for a Swiss only") != std::string::npos);
    CHECK_FALSE(lobby.store().tournament_by_name("console", "cup").has_value());
    CHECK(one("amy", "!tourney create cup chess swiss") ==
          "#lobby @amy opens the tournament cup: FIDE chess, Swiss, rounds by the field, time "
          "control 3d. Everyone: !tourney join cup enters; @amy or a moderator starts it with "
          "!tourney start cup.");
    CHECK(one("bea", "!tourney create CUP chess swiss") ==
          "#lobby There is a tournament named cup already. Choose another name.");
    lobby.post("bea", "!tourney join cup");
    CHECK(one("bea", "!tourney start cup") ==
          "#lobby Only @amy, who created cup, or a moderator can start it.");
    CHECK(one("amy", "!tourney start cup") ==
          "#lobby cup needs at least 2 players to start; it has 1. Players: !tourney join cup.");
    CHECK(one("amy", "!tourney shuffle cup") ==
          "#lobby There is no !tourney shuffle. Say one of create, join, leave, start, pairings, "
          "standings, next; !help tourney for more.");
    auto t = lobby.store().tournament_by_name("console", "cup").value();
    CHECK(t.status == storage::TournamentStatus::Open);
    CHECK(lobby.store().entrants(t.id).size() == 1);
    CHECK(lobby.store().pairings(t.id).empty());
}

TEST_CASE("A double round robin of three plays six rounds, each with one player sitting out",
          "[bot][tournament][round-robin]") {
    Lobby lobby;
    run_start(lobby, "double", {"amy", "bea", "cal"});
    auto t = lobby.store().tournament_by_name("console", "cup").value();
    CHECK(t.rounds == 6);
    std::map<std::pair<std::int64_t, std::int64_t>, int> coloured;
    for (int round = 1; round <= 6; ++round) {
        finish_round(lobby, round, true);
        if (round < 6) {
            auto replies = lobby.post("bea", "!tourney next");
            REQUIRE_FALSE(replies.empty());
            CHECK(replies[0].rfind("#lobby cup, round " + std::to_string(round + 1) +
                                       " of 6 (FIDE chess, double round robin):",
                                   0) == 0);
        }
    }
    auto boards = lobby.store().pairings(t.id);
    REQUIRE(boards.size() == 12);
    int byes = 0;
    for (const auto& b : boards) {
        if (!b.black) {
            ++byes;
            continue;
        }
        ++coloured[{b.white, *b.black}];
    }
    CHECK(byes == 6);
    // Every ordered pair once: each pair meets twice, once with either colour.
    CHECK(coloured.size() == 6);
    for (const auto& [pair, n] : coloured)
        CHECK(n == 1);
    CHECK(lobby.store().tournament(t.id)->status == storage::TournamentStatus::Finished);
}
