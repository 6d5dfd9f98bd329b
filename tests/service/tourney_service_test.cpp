// Tournaments and ratings through the service: what the store holds after the commands, and the
// replies that say so. The whole flows from creation to final standings are console transcripts
// (tests/data/transcripts/tourney_*.in); these check what a transcript cannot show.
#include "../storage/temp_path.h"
#include "ghostpost/service/service.h"

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

    // Handles the post and returns the texts it queued, in order; with `code`, each text's
    // monospaced block (a table) after it on the next line.
    std::vector<std::string> post(const std::string& user, const std::string& text,
                                  bool code = false) {
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
                          e.message.text +
                          (code && !e.message.code.empty() ? "\n" + e.message.code : ""));
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
// Returns what the last resignation's post queued.
std::vector<std::string> finish_round(Lobby& lobby, int round, bool favourites) {
    auto t = lobby.store().tournament_by_name("console", "cup").value();
    auto entrants = lobby.store().entrants(t.id);
    auto seed = [&](std::int64_t id) {
        for (const auto& e : entrants)
            if (e.player_id == id)
                return e.seed;
        return -1;
    };
    std::vector<std::string> last;
    for (const auto& p : lobby.store().pairings(t.id)) {
        if (p.round != round || !p.black)
            continue;
        std::int64_t weaker = seed(p.white) > seed(*p.black) ? p.white : *p.black;
        std::int64_t loser = favourites ? weaker : (weaker == p.white ? *p.black : p.white);
        last = lobby.post(name_of(lobby, loser), "!resign " + std::to_string(*p.game_id));
    }
    return last;
}

} // namespace

TEST_CASE("A rated game moves both players' Glicko-2 ratings by the exact figures",
          "[bot][rating]") {
    Lobby lobby;
    lobby.post("alice", "!new chess @bob white");
    lobby.post("bob", "!accept");
    lobby.post("alice", "e4");
    lobby.post("bob", "e5");
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
    run_start(lobby, "knockout", {"a1", "b2", "c3", "d4", "e5"}, " next=manual");
    auto t = lobby.store().tournament_by_name("console", "cup").value();
    CHECK(t.rounds == 3);
    CHECK(t.next_round == "manual");
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
    CHECK(replies[0] == "#lobby Standings of cup (round robin, final; tie-breaks: direct "
                        "encounter (DE), then Sonneborn-Berger (SB), then Buchholz (BH)):");
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
          "<roundrobin|double|swiss|knockout> [rounds=N] [tc=...] [next=auto|manual] "
          "[schedule=rounds|allatonce]");
    CHECK(one("amy", "!tourney create cup chess league") ==
          "#lobby There is no format \"league\": roundrobin, double, swiss or knockout. Use: "
          "!tourney create <name> <variant> <roundrobin|double|swiss|knockout> [rounds=N] [tc=...] "
          "[next=auto|manual] [schedule=rounds|allatonce]");
    CHECK(one("amy", "!tourney create cup chess swiss rounds=0") ==
          "#lobby rounds= takes a number from 1 to 30. Use: !tourney create <name> <variant> "
          "<roundrobin|double|swiss|knockout> [rounds=N] [tc=...] [next=auto|manual] "
          "[schedule=rounds|allatonce]");
    CHECK(one("amy", "!tourney create cup chess swiss schedule=allatonce") ==
          "#lobby schedule=allatonce is for round robins: a Swiss or a knockout pairs each round "
          "from the results before it. Nothing was created.");
    CHECK(one("amy", "!tourney create cup chess roundrobin schedule=allatonce next=manual") ==
          "#lobby next=manual is for tournaments played round by round: with "
          "schedule=allatonce every game starts together. Nothing was created.");
    CHECK(one("amy", "!tourney create cup chess roundrobin next=later") ==
          "#lobby next= takes auto (a round starts when the last game of the one before ends) or "
          "manual (it waits for !tourney next [name]). Use: !tourney create <name> <variant> "
          "<roundrobin|double|swiss|knockout> [rounds=N] [tc=...] [next=auto|manual] "
          "[schedule=rounds|allatonce]");
    CHECK(one("amy", "!tourney create cup chess roundrobin schedule=soon")
              .rfind("#lobby schedule= takes rounds (one round after another) or allatonce", 0) ==
          0);
    CHECK(one("amy", "!tourney create cup chess knockout rounds=2")
              .find("rounds= is for a Swiss only") != std::string::npos);
    CHECK_FALSE(lobby.store().tournament_by_name("console", "cup").has_value());
    CHECK(one("amy", "!tourney create cup chess swiss") ==
          "#lobby @amy opens the tournament cup: FIDE chess, Swiss, rounds by the field, time "
          "control 3d, each round starting when the one before ends. Everyone: !tourney join cup "
          "enters; @amy or a moderator starts it with !tourney start cup.");
    CHECK(one("bea", "!tourney create CUP chess swiss") ==
          "#lobby There is a tournament named cup already. Choose another name.");
    lobby.post("bea", "!tourney join cup");
    CHECK(one("bea", "!tourney start cup") ==
          "#lobby Only @amy, who created cup, or a moderator can start it.");
    CHECK(one("amy", "!tourney start cup") ==
          "#lobby cup needs at least 2 players to start; it has 1. Players: !tourney join cup.");
    CHECK(one("amy", "!tourney shuffle cup") ==
          "#lobby There is no !tourney shuffle. Say one of create, join, leave, start, pairings, "
          "standings, next, withdraw, bye, forbid, allow, trf; !help tourney for more.");
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
        const auto replies = finish_round(lobby, round, true);
        if (round < 6) {
            // The round's last result starts the next one: no !tourney next.
            const auto complete =
                std::find(replies.begin(), replies.end(),
                          "#lobby Round " + std::to_string(round) + " of cup is complete; round " +
                              std::to_string(round + 1) + " starts now. Standings after round " +
                              std::to_string(round) + ":");
            REQUIRE(complete != replies.end());
            REQUIRE(complete + 1 != replies.end());
            CHECK(complete[1].rfind("#lobby cup, round " + std::to_string(round + 1) +
                                        " of 6 (FIDE chess, double round robin):",
                                    0) == 0);
            CHECK(lobby.store().tournament(t.id)->current_round == round + 1);
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

TEST_CASE("A knockout's next round starts by itself when the last game of a round ends",
          "[bot][tournament][knockout]") {
    Lobby lobby;
    run_start(lobby, "knockout", {"a1", "b2", "c3", "d4"});
    auto t = lobby.store().tournament_by_name("console", "cup").value();
    CHECK(t.next_round == "auto");
    REQUIRE(lobby.store().pairings(t.id).size() == 2);
    lobby.post("d4", "!resign 1");
    // One game of two: nothing starts, and !tourney next says the round is not over.
    CHECK(lobby.store().pairings(t.id).size() == 2);
    auto replies = lobby.post("a1", "!tourney next");
    REQUIRE(replies.size() == 1);
    CHECK(replies[0] == "#lobby Round 1 of cup is not over: game #2 is under way. The next round "
                        "starts by itself when it ends.");
    replies = lobby.post("c3", "!resign 2");
    REQUIRE(replies.size() >= 4);
    CHECK(replies[2] == "#lobby Round 1 of cup is complete; round 2 starts now. Standings after "
                        "round 1:");
    CHECK(replies[3] == "#lobby cup, round 2 of 2 (FIDE chess, knockout):\nGame #3, FIDE chess: "
                        "@b2 (White) vs @a1 (Black). @b2 (White) must move.");
    CHECK(lobby.store().tournament(t.id)->current_round == 2);
    replies = lobby.post("b2", "!resign 3");
    REQUIRE(replies.size() == 3);
    CHECK(replies[2] == "#lobby cup is over: @a1 wins. Final standings:");
}

TEST_CASE("A round robin all at once starts every game together, says so once to the channel "
          "and once to each player, and ends with its last game",
          "[bot][tournament][round-robin]") {
    Lobby lobby;
    lobby.post("amy", "!tourney create cup chess roundrobin schedule=allatonce");
    for (const auto* p : {"amy", "bea", "cal"})
        lobby.post(p, "!tourney join cup");
    auto replies = lobby.post("amy", "!tourney start cup");
    const std::vector<std::string> expected{
        "#lobby cup starts with 3 players, seeded by rating in FIDE chess: 1. amy 1500, 2. bea "
        "1500, 3. cal 1500; 3 rounds.",
        "#lobby cup (FIDE chess, round robin): every game starts now, 3 games at once.\n"
        "Round 1:\n@amy sits this round out.\nGame #1, FIDE chess: @bea (White) vs @cal (Black). "
        "@bea (White) must move.\n"
        "Round 2:\n@cal sits this round out.\nGame #2, FIDE chess: @amy (White) vs @bea (Black). "
        "@amy (White) must move.\n"
        "Round 3:\n@bea sits this round out.\nGame #3, FIDE chess: @cal (White) vs @amy (Black). "
        "@cal (White) must move.",
        "@amy cup: every game starts now. You play 2 games in the tournament's channel and sit "
        "out round 1:\ngame #2, FIDE chess, as White against @bea: @amy (White) must move.\n"
        "game #3, FIDE chess, as Black against @cal: @cal (White) must move.",
        "@bea cup: every game starts now. You play 2 games in the tournament's channel and sit "
        "out round 3:\ngame #1, FIDE chess, as White against @cal: @bea (White) must move.\n"
        "game #2, FIDE chess, as Black against @amy: @amy (White) must move.",
        "@cal cup: every game starts now. You play 2 games in the tournament's channel and sit "
        "out round 2:\ngame #1, FIDE chess, as Black against @bea: @bea (White) must move.\n"
        "game #3, FIDE chess, as White against @amy: @cal (White) must move.",
    };
    CHECK(replies == expected);
    for (std::int64_t g = 1; g <= 3; ++g)
        CHECK(lobby.store().game(g)->status == storage::GameStatus::Ongoing);
    auto t = lobby.store().tournament_by_name("console", "cup").value();
    CHECK(t.current_round == 3);

    replies = lobby.post("bea", "!tourney next");
    REQUIRE(replies.size() == 1);
    CHECK(replies[0] == "#lobby Every game of cup started at once: there is no round to start. 0 "
                        "of 3 games finished.");
    // The games end in any order; the table follows them.
    lobby.post("amy", "!resign 3");
    replies = lobby.post("bea", "!tourney standings");
    REQUIRE(replies.size() == 1);
    CHECK(replies[0].rfind("#lobby Standings of cup (round robin, 1 of 3 games finished;", 0) == 0);
    lobby.post("bea", "!resign 2");
    CHECK(lobby.store().tournament(t.id)->status == storage::TournamentStatus::Running);
    replies = lobby.post("cal", "!resign 1");
    REQUIRE(replies.size() == 3);
    // Everyone beat one and lost to one: the seed decides.
    CHECK(replies[2] ==
          "#lobby cup is over: @amy wins with 1 point on tie-break. Final standings:");
    CHECK(lobby.store().tournament(t.id)->status == storage::TournamentStatus::Finished);
}

TEST_CASE("A Swiss keeps the colour it drew and the float each board gave",
          "[bot][tournament][swiss]") {
    Lobby lobby;
    run_start(lobby, "swiss", {"ann", "ben", "cat", "dan", "eve"}, " rounds=2");
    auto t = lobby.store().tournament_by_name("console", "cup").value();
    REQUIRE((t.initial_colour == "white" || t.initial_colour == "black"));
    auto boards = lobby.store().pairings(t.id);
    REQUIRE(boards.size() == 3);
    // Round 1: 1 meets 3, 2 meets 4 (top half against bottom half), 5 has the bye. The first
    // seed, with an odd number, takes the colour drawn.
    const std::int64_t ann = lobby.id("ann");
    CHECK((boards[0].white == ann) == (t.initial_colour == "white"));
    CHECK(boards[0].white_float == "none");
    CHECK(boards[0].black_float == "none");
    CHECK(boards[2].white == lobby.id("eve"));
    CHECK_FALSE(boards[2].black.has_value());
    CHECK(boards[2].white_float == "down");
    // The favourites win: round 2 pairs 1 with 2 and 3 with the bye's 5, 4 has the bye.
    finish_round(lobby, 1, true);
    boards = lobby.store().pairings(t.id);
    REQUIRE(boards.size() == 6);
    for (const auto& b : boards) {
        if (b.round != 2 || !b.black)
            continue;
        const auto scores = [&](std::int64_t id) {
            double s = 0;
            for (const auto& x : boards) {
                if (x.round != 1)
                    continue;
                if (!x.black && x.white == id)
                    s += 1;
                else if (x.black && (x.white == id || *x.black == id)) {
                    const auto g = lobby.store().game(*x.game_id).value();
                    s += g.result == "1-0" ? (x.white == id) : (*x.black == id);
                }
            }
            return s;
        };
        const double w = scores(b.white), k = scores(*b.black);
        CHECK(b.white_float == (w > k ? "down" : w < k ? "up" : "none"));
        CHECK(b.black_float == (k > w ? "down" : k < w ? "up" : "none"));
    }
    CHECK(boards[5].white == lobby.id("dan"));
    CHECK_FALSE(boards[5].black.has_value());
}

namespace {

// The players of a round's boards (a bye's player with 0 as the opponent), and the replies of
// !tourney pairings for it.
std::set<std::int64_t> paired_in(Lobby& lobby, int round) {
    auto t = lobby.store().tournament_by_name("console", "cup").value();
    std::set<std::int64_t> out;
    for (const auto& p : lobby.store().pairings(t.id))
        if (p.round == round) {
            out.insert(p.white);
            if (p.black)
                out.insert(*p.black);
        }
    return out;
}

std::string joined(const std::vector<std::string>& replies) {
    std::string out;
    for (const auto& r : replies)
        out += r + "\n";
    return out;
}

} // namespace

TEST_CASE("A player withdraws from a running Swiss: not paired from the next round, the games "
          "played kept",
          "[bot][tournament][swiss][organiser]") {
    Lobby lobby;
    run_start(lobby, "swiss", {"ann", "ben", "cat", "dan", "eve", "fay"}, " rounds=3");
    REQUIRE(paired_in(lobby, 1).count(lobby.id("fay")) == 1);
    // Only the creator or a moderator withdraws someone else.
    CHECK(lobby.post("ben", "!tourney withdraw cup @fay") ==
          std::vector<std::string>{"#lobby Only @ann, who created cup, or a moderator can "
                                   "withdraw another player."});
    auto t = lobby.store().tournament_by_name("console", "cup").value();
    std::int64_t game = 0;
    for (const auto& p : lobby.store().pairings(t.id))
        if (p.black && (p.white == lobby.id("fay") || *p.black == lobby.id("fay")))
            game = *p.game_id;
    CHECK(lobby.post("fay", "!tourney withdraw") ==
          std::vector<std::string>{"#lobby @fay withdraws from cup: not paired from round 2 on; "
                                   "the games played count. Game #" +
                                   std::to_string(game) +
                                   " of round 1 is still to be played or resigned."});
    CHECK(lobby.post("fay", "!tourney withdraw cup") ==
          std::vector<std::string>{"#lobby @fay withdrew from cup already, from round 2 on."});
    CHECK(lobby.post("fay", "!tourney join cup") ==
          std::vector<std::string>{"#lobby You withdrew from cup; a withdrawal is final."});
    // Her round-1 game is played out; round 2 pairs the five others (one of them the bye).
    finish_round(lobby, 1, true);
    CHECK(paired_in(lobby, 2) == std::set<std::int64_t>{lobby.id("ann"), lobby.id("ben"),
                                                        lobby.id("cat"), lobby.id("dan"),
                                                        lobby.id("eve")});
    const std::string table = joined(lobby.post("ann", "!tourney standings", true));
    CHECK(table.find("@fay") != std::string::npos);
    CHECK(table.find("withdrew after round 1") != std::string::npos);
    // A moderator withdraws another player: eve, who has round 2's bye, so no game is open.
    for (const auto& p : lobby.store().pairings(t.id))
        if (p.round == 2 && !p.black)
            CHECK(p.white == lobby.id("eve"));
    CHECK(lobby.post("mod", "!tourney withdraw cup @eve") ==
          std::vector<std::string>{"#lobby @eve withdraws from cup: not paired from round 3 on; "
                                   "the games played count."});
    finish_round(lobby, 2, true);
    CHECK(paired_in(lobby, 3).count(lobby.id("eve")) == 0);
    CHECK(paired_in(lobby, 3).count(lobby.id("fay")) == 0);
    CHECK(paired_in(lobby, 3).size() == 4);
}

TEST_CASE("A round robin withdraws nobody: its games are fixed when it starts",
          "[bot][tournament][organiser]") {
    Lobby lobby;
    run_start(lobby, "roundrobin", {"ann", "ben", "cat"});
    CHECK(lobby.post("cat", "!tourney withdraw cup") ==
          std::vector<std::string>{"#lobby A round robin's games are fixed when it starts, so "
                                   "nobody is withdrawn from cup: a player who stops resigns "
                                   "each game as it comes."});
    CHECK(lobby.post("cat", "!tourney bye cup 2") ==
          std::vector<std::string>{"#lobby Only a Swiss has half-point byes: a round robin's "
                                   "rounds are fixed when it starts."});
    CHECK(lobby.post("dan", "!tourney join cup") ==
          std::vector<std::string>{"#lobby cup has started: entries are closed. Only a Swiss "
                                   "takes late entries, since its rounds are paired one at a "
                                   "time."});
}

TEST_CASE("A late entrant to a Swiss is paired from the next round with no points for the "
          "rounds missed",
          "[bot][tournament][swiss][organiser]") {
    Lobby lobby;
    run_start(lobby, "swiss", {"ann", "ben", "cat", "dan", "eve"}, " rounds=3");
    CHECK(lobby.post("gus", "!tourney join cup") ==
          std::vector<std::string>{"#lobby @gus joins cup late, as seed 6: paired from round 2 "
                                   "of 3, with no points for the round missed."});
    CHECK(lobby.post("gus", "!tourney join cup") ==
          std::vector<std::string>{"#lobby You are in cup already."});
    auto t = lobby.store().tournament_by_name("console", "cup").value();
    const auto entrants = lobby.store().entrants(t.id);
    REQUIRE(entrants.size() == 6);
    CHECK(entrants.back().player_id == lobby.id("gus"));
    CHECK(entrants.back().first_round == 2);
    CHECK(paired_in(lobby, 1).count(lobby.id("gus")) == 0);
    finish_round(lobby, 1, true);
    const auto two = paired_in(lobby, 2);
    CHECK(two.size() == 6);
    CHECK(two.count(lobby.id("gus")) == 1);
    // Six players: no bye in round 2.
    for (const auto& p : lobby.store().pairings(t.id))
        if (p.round == 2)
            CHECK(p.black.has_value());
    finish_round(lobby, 2, true);
    // The last round under way: no more entries.
    CHECK(lobby.post("hal", "!tourney join cup") ==
          std::vector<std::string>{"#lobby cup is in its last round: entries are closed."});
}

TEST_CASE("A half-point bye asked for before its round: not paired, half a point, cancellable",
          "[bot][tournament][swiss][organiser]") {
    Lobby lobby;
    run_start(lobby, "swiss", {"ann", "ben", "cat", "dan"}, " rounds=3");
    CHECK(lobby.post("ann", "!tourney bye cup 1") ==
          std::vector<std::string>{"#lobby Round 1 of cup is paired already: a bye is asked for "
                                   "before its round."});
    CHECK(lobby.post("ann", "!tourney bye cup 4") ==
          std::vector<std::string>{"#lobby cup has 3 rounds: there is no round 4 to sit out."});
    CHECK(lobby.post("ann", "!tourney bye cup 3") ==
          std::vector<std::string>{"#lobby @ann sits out round 3 of cup for half a point "
                                   "(!tourney bye cup 3 cancel undoes it)."});
    CHECK(lobby.post("ann", "!tourney bye cup 3 cancel") ==
          std::vector<std::string>{"#lobby @ann plays round 3 of cup after all."});
    CHECK(lobby.post("ann", "!tourney bye cup 3 cancel") ==
          std::vector<std::string>{"#lobby @ann has no bye in round 3 of cup to cancel."});
    CHECK(lobby.post("ann", "!tourney bye cup 2") ==
          std::vector<std::string>{"#lobby @ann sits out round 2 of cup for half a point "
                                   "(!tourney bye cup 2 cancel undoes it)."});
    // The favourites win round 1: ann (seed 1) has a point.
    finish_round(lobby, 1, true);
    const auto two = paired_in(lobby, 2);
    CHECK(two.count(lobby.id("ann")) == 0);
    CHECK(two.size() == 3); // three left: one game and the pairing-allocated bye
    const std::string pairings = joined(lobby.post("ben", "!tourney pairings cup 2", true));
    CHECK(pairings.find("@ann - half-point bye") != std::string::npos);
    finish_round(lobby, 2, true);
    const std::string table = joined(lobby.post("ben", "!tourney standings cup", true));
    // 1 for her win over cat and ½ for the bye; cat's Buchholz counts ann's 1.5 and ben's 2, and
    // its cut 1 leaves ann's out. ann and dan each had a round without an opponent: that round
    // is the one cut. Nobody is level on points, so no direct encounter applies.
    INFO(table);
    CHECK(table.find(" # player  points  BH-C1  BH     DE     SB     games\n"
                     " 1 @ben    2       1      1      -      1      2\n"
                     " 2 @ann    1.5     0      0      -      0      2\n"
                     " 3 @dan    1       2      2      -      0      2\n"
                     " 4 @cat    0       2      3.5    -      0      2\n") != std::string::npos);
    auto t = lobby.store().tournament_by_name("console", "cup").value();
    CHECK(lobby.store().byes(t.id) == std::vector<storage::ByeRequest>{{lobby.id("ann"), 2}});
}

TEST_CASE("Two players kept apart are never paired with each other in a Swiss",
          "[bot][tournament][swiss][organiser]") {
    Lobby lobby;
    lobby.post("ann", "!tourney create cup chess swiss rounds=2");
    for (const auto* p : {"ann", "ben", "cat", "dan"})
        lobby.post(p, std::string("!tourney join cup"));
    CHECK(lobby.post("ben", "!tourney forbid cup @ann @cat") ==
          std::vector<std::string>{"#lobby Only @ann, who created cup, or a moderator can keep "
                                   "players apart."});
    CHECK(lobby.post("ann", "!tourney forbid cup @ann @ann") ==
          std::vector<std::string>{"#lobby That is one player twice."});
    // Seeds 1 and 3 would meet in round 1 (top half against bottom half).
    CHECK(lobby.post("ann", "!tourney forbid cup @ann @cat") ==
          std::vector<std::string>{"#lobby cup: @ann and @cat are never paired with each other "
                                   "from the next round on."});
    lobby.post("ann", "!tourney start cup");
    auto t = lobby.store().tournament_by_name("console", "cup").value();
    CHECK(lobby.store().forbidden_pairings(t.id) ==
          std::vector<storage::ForbiddenPairing>{{std::min(lobby.id("ann"), lobby.id("cat")),
                                                  std::max(lobby.id("ann"), lobby.id("cat"))}});
    for (int round = 1; round <= 2; ++round) {
        CHECK(paired_in(lobby, round).size() == 4);
        for (const auto& p : lobby.store().pairings(t.id))
            if (p.round == round && p.black) {
                const std::set<std::int64_t> board{p.white, *p.black};
                CHECK(board != std::set<std::int64_t>{lobby.id("ann"), lobby.id("cat")});
            }
        if (round < 2)
            finish_round(lobby, round, true);
    }
    CHECK(lobby.post("ann", "!tourney allow cup @cat @ann") ==
          std::vector<std::string>{"#lobby cup: @cat and @ann may be paired with each other "
                                   "again."});
    CHECK(lobby.store().forbidden_pairings(t.id).empty());
}

TEST_CASE("A Swiss as a FIDE report file: ranks, points and each round's opponent, colour and "
          "result in TRF16's columns",
          "[bot][tournament][swiss][organiser]") {
    Lobby lobby;
    run_start(lobby, "swiss", {"ann", "ben", "cat", "dan", "eve"}, " rounds=3");
    lobby.post("eve", "!tourney bye cup 2");
    finish_round(lobby, 1, true);
    const auto replies = lobby.post("ann", "!tourney trf", true);
    REQUIRE(replies.size() == 1);
    const std::string& trf = replies.front();
    CHECK(trf.starts_with("#lobby cup as a FIDE Tournament Report File (TRF16; the web view has "
                          "it as a file):\n012 cup\n042 2023/11/14\n062 5\n092 Swiss (Dutch), "
                          "FIDE chess\n"));
    // The player lines by starting rank; columns as TRF16 numbers them from 1.
    std::vector<std::string> players;
    std::size_t from = 0;
    while ((from = trf.find("\n001 ", from)) != std::string::npos) {
        ++from;
        players.push_back(trf.substr(from, trf.find('\n', from) - from));
    }
    REQUIRE(players.size() == 5);
    const auto columns = [](const std::string& line, std::size_t first, std::size_t last) {
        return line.substr(first - 1, last - first + 1);
    };
    // ann, seed 1: beat cat (seed 3) with Black, the colour drawn for odd seeds; round 2 against
    // ben with White, under way (no result yet).
    REQUIRE(lobby.store().tournament_by_name("console", "cup")->initial_colour == "black");
    CHECK(columns(players[0], 1, 8) == "001    1");
    CHECK(columns(players[0], 15, 47) == "ann" + std::string(30, ' '));
    CHECK(columns(players[0], 81, 89) == " 1.0    2");
    CHECK(columns(players[0], 90, 99) == "     3 b 1");
    CHECK(players[0].substr(99) == "     2 w");
    // eve, seed 5: the pairing-allocated bye in round 1 (U), the half-point bye she asked for
    // in round 2 (H): 1.5 points, first.
    CHECK(columns(players[4], 1, 8) == "001    5");
    CHECK(columns(players[4], 81, 89) == " 1.5    1");
    CHECK(players[4].substr(89) == "  0000 - U  0000 - H");
    // A game a moderator voids was paired and not played: a forfeit lost by both, so a pairing
    // program reads them as paired, neither meeting nor colour counted.
    const auto t = lobby.store().tournament_by_name("console", "cup").value();
    std::int64_t game = 0;
    for (const auto& p : lobby.store().pairings(t.id))
        if (p.round == 2 && p.white == lobby.id("ann"))
            game = p.game_id.value();
    REQUIRE(game != 0);
    lobby.post("mod", "!abort " + std::to_string(game));
    const std::string voided = lobby.post("ann", "!tourney trf", true).front();
    CHECK(voided.find("     3 b 1     2 w -\n") != std::string::npos);
    CHECK(voided.find("     1 b -\n") != std::string::npos);
    CHECK(trf.ends_with("XXR 3\nXXC " +
                        lobby.store().tournament_by_name("console", "cup")->initial_colour +
                        "1\n"));
}

TEST_CASE("A tournament is named by its number as well as its name", "[bot][tournament]") {
    Lobby lobby;
    run_start(lobby, "swiss", {"ann", "ben", "cat", "dan"}, " rounds=2");
    CHECK(lobby.post("ann", "!tourney") ==
          std::vector<std::string>{"#lobby Tournaments run from here (!tourney standings [name] "
                                   "for one):"});
    CHECK(lobby.post("ann", "!tourney", true)
              .front()
              .ends_with("\ncup (#1): FIDE chess, Swiss, round 1 of 2\n"));
    CHECK(lobby.post("ann", "!tourney standings #1") ==
          lobby.post("ann", "!tourney standings cup"));
    CHECK(lobby.post("ann", "!tourney pairings #1 1") ==
          lobby.post("ann", "!tourney pairings cup 1"));
    CHECK(lobby.post("ann", "!tourney standings #9") ==
          std::vector<std::string>{"#lobby There is no tournament #9."});
    CHECK(lobby.post("ann", "!tourney bye #1 2") ==
          std::vector<std::string>{"#lobby @ann sits out round 2 of cup for half a point "
                                   "(!tourney bye cup 2 cancel undoes it)."});
}
