// Gnostic Chess through the service: the seed's commitment and reveal, secret dice choices by
// direct message, the record with every roll, and !verify catching a tampered log or seed.
#include "../storage/temp_path.h"
#include "ghostpost/service/engine_player.h"
#include "ghostpost/service/game_loader.h"
#include "ghostpost/service/random.h"
#include "ghostpost/service/service.h"
#include "ghostpost/storage/sqlite.h"

#include <catch2/catch.hpp>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <random>
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

class Table {
public:
    Table()
        : store_(storage::open_sqlite_store(path_.str())),
          service_(*store_, settings(), fixed_clock) {}

    static bot::ServiceSettings settings() {
        bot::ServiceSettings s;
        s.fixed_seed = "verify-test"; // the dice below follow from this text
        return s;
    }

    // Posts `text` in #lobby (or by direct message when `dm`) and returns the replies, each as
    // "#channel: text" or "@user: text".
    std::vector<std::string> say(const std::string& user, const std::string& text,
                                 bool dm = false) {
        Post p;
        p.platform = "console";
        p.channel = dm ? "@" + user : "lobby";
        p.message_id = std::to_string(++sequence_);
        p.author_id = user;
        p.author_name = user;
        p.author_handle = user;
        p.text = text;
        p.direct = dm;
        service_.handle(p);
        return drain();
    }
    // The replies queued since the last look, each as "#channel: text" or "@user: text".
    std::vector<std::string> drain() {
        std::vector<std::string> out;
        for (const auto& e : store_->due("console", 2000000000, 1000)) {
            out.push_back((e.message.to_user ? "@" : "#") + e.message.destination + ": " +
                          e.message.text + (e.message.code.empty() ? "" : "\n" + e.message.code));
            store_->mark_sent(e.id, 0);
        }
        return out;
    }
    std::string last(const std::string& user, const std::string& text, bool dm = false) {
        auto replies = say(user, text, dm);
        REQUIRE_FALSE(replies.empty());
        return replies.back();
    }

    // Game #1 up to the combat the Black queen starts against the White king on e1, where the
    // track at A makes the king weak (50 hit points) and the queen strong.
    void open_combat() {
        const char* lines[] = {
            "!new gnostic @bob white", "!accept", "f3", "e5", "g4", "Qh4", "a3", "Qxe1"};
        bool alice = true;
        for (const char* line : lines) {
            say(alice ? "alice" : "bob", line);
            alice = !alice;
        }
    }

    // Plays game #1 until the Black queen kills the White king (0-1).
    void play_whole_game() {
        open_combat();
        for (const char* bob : {"roll 4", "roll 7", "roll 2"}) {
            say("alice", "roll 1", true);
            say("bob", bob, true);
        }
        REQUIRE(store_->game(1)->result == "0-1");
    }

    void tamper(const std::string& sql) {
        storage::Database db(path_.str());
        db.exec(sql);
    }

    storage::Store& store() { return *store_; }
    Service& service() { return service_; }
    // The game as it stands.
    std::unique_ptr<rules::Game> game(std::int64_t id) {
        auto rec = store_->game(id);
        REQUIRE(rec);
        return bot::load_game(*rec, store_->actions(id)).game;
    }

private:
    TempPath path_{"gnostic-service"};
    std::unique_ptr<storage::Store> store_;
    Service service_;
    int sequence_ = 0;
};

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("A game with dice starts with the seed's hash and ends by publishing the seed",
          "[bot][variant:gnostic]") {
    Table t;
    t.say("alice", "!new gnostic @bob white");
    const std::string accepted = t.last("bob", "!accept");
    const auto seed = t.store().game(1)->seed;
    REQUIRE(seed.size() == 32);
    CHECK(contains(accepted, "Its dice come from a secret seed whose SHA-256 is " +
                                 bot::sha256_hex(seed) +
                                 "; the seed is published when the game ends, and then !verify "
                                 "1 checks every roll."));
    CHECK_FALSE(contains(accepted, bot::to_hex(seed)));
    CHECK(t.last("carol", "!verify 1") ==
          "#lobby: Game #1 is under way, so its seed stays secret until the game ends. Its "
          "SHA-256 is " +
              bot::sha256_hex(seed) +
              ", the hash posted when the game started; "
              "!verify 1 checks every roll once the game is over.");
    // Chess has no dice: nothing is committed to.
    t.say("carol", "!new chess @dave");
    CHECK_FALSE(contains(t.last("dave", "!accept 2"), "SHA-256"));
}

TEST_CASE("A first dice choice is secret: by direct message only, refused in the channel",
          "[bot][variant:gnostic]") {
    Table t;
    t.open_combat();
    const int before = t.store().action_count(1);
    // In the channel the opponent would read it: refused, nothing changes.
    CHECK(t.last("alice", "roll 1") ==
          "#lobby: Not played in game #1: roll 1 is secret, so it must not be made in the "
          "channel, where the other side would see it. Send it to me by direct message "
          "(@ghostpost); you may choose again there.");
    CHECK(t.store().action_count(1) == before);
    auto replies = t.say("alice", "roll 1", true);
    REQUIRE(replies.size() == 3);
    CHECK(replies[0] == "@alice: Game #1: you chose roll 1 in the combat on e1; it is revealed "
                        "when the other side has chosen");
    CHECK(replies[2] == "#lobby: @alice (White) has decided in game #1; the choice stays secret "
                        "until it is revealed. @bob (Black) must choose by direct message the "
                        "dice of their queen in the combat on e1: roll 1 to roll 9 (it has 0 "
                        "banked + 0 this turn of 50).");
    for (const auto& r : replies)
        if (r.rfind("#lobby", 0) == 0)
            CHECK_FALSE(contains(r, "roll 1 in"));
    // The record hides it too while the game runs.
    CHECK(contains(t.last("carol", "!history 1"), "Qxe1 {a secret choice}"));
    // The second choice completes the round: both are revealed and the dice rolled in public.
    const std::string reveal = t.last("bob", "roll 4", true);
    CHECK(contains(reveal, "#lobby: @bob (Black) played roll 4 in game #1. Combat on e1, round 1: "
                           "Black rolls 4 dice, White rolls 1 die. Combat on e1, round 1: the "
                           "Black queen rolls 4 3 6 5 = 18: 0 banked + 18 this turn of 50."));
    // The record keeps the first choice's text for the end of the game; the reveal is public.
    CHECK(t.last("carol", "!history 1") ==
          "#lobby: Game #1, Gnostic Chess, 8 plies.\n"
          "1. f3 e5 2. g4 Qh4 3. a3 Qxe1 {a secret choice} roll 4\n"
          "{combat on e1, round 1: Black rolls 4 dice, White rolls 1\n"
          "die; combat on e1, round 1: the Black queen rolls 4 3 6 5 =\n"
          "18: 0 banked + 18 this turn of 50; combat on e1, round 1:\n"
          "the White king rolls 2 = 2: 0 banked + 2 this turn of 180}\n");
}

TEST_CASE("!verify recomputes every roll of a finished game from the published seed",
          "[bot][variant:gnostic]") {
    Table t;
    t.play_whole_game();
    const auto seed = t.store().game(1)->seed;
    const std::string verdict = t.last("carol", "!verify 1", true); // all in one by DM
    INFO(verdict);
    CHECK(contains(verdict, "@carol: Game #1: the seed is " + bot::to_hex(seed) +
                                "; its SHA-256 is " + bot::sha256_hex(seed) +
                                ", which must be the hash posted when the game started. Replaying "
                                "its 12 actions from this seed re-derives every die (16), each "
                                "gives the rolls the game recorded when it was played, every "
                                "action is legal where it was played, and the game ends as "
                                "recorded (0-1, killing the White king): the rolls match."));
    CHECK(contains(verdict, "the rolls match. The listing of every roll is below.\n"
                            "ply 8 (roll 4): combat on e1, round 1: Black rolls 4 dice, White "
                            "rolls 1 die\n"
                            "ply 8 (roll 4): combat on e1, round 1: the Black queen rolls 4 3 6 5 "
                            "= 18: 0 banked + 18 this turn of 50\n"));
    CHECK(contains(verdict, "ply 12 (roll 2): the Black queen wins the combat on e1 and kills "
                            "the White king\n"));
    // The published record now shows every choice with its rolls.
    CHECK(contains(t.last("carol", "!pgn 1"), "3. a3 Qxe1 roll 1 roll 4 {combat on e1, round 1:"));
}

TEST_CASE("!verify reports a mismatch when the seed is not the one the game was played with",
          "[bot][variant:gnostic]") {
    Table t;
    t.play_whole_game();
    t.tamper("UPDATE games SET seed = zeroblob(32) WHERE id = 1");
    const std::string verdict = t.last("carol", "!verify 1", true); // all in one by DM
    INFO(verdict);
    // Other dice: the queen busts in round 2, so the king rolls alone and Black's last choice
    // comes when Black has nothing to decide.
    CHECK(contains(verdict, "which must be the hash posted when the game started. The rolls do "
                            "NOT match: replaying the log from this seed fails: ply 12 (roll 2) "
                            "is not possible: it is not your decision now: White to decide. The "
                            "rolls this seed gives are below.\n"));
    CHECK(contains(verdict, "ply 10 (roll 7): combat on e1, round 2: the Black queen rolls 5 1 4 "
                            "5 1 3 3, a 1 loses the turn: 0 banked + 0 this turn of 50\n"));
    CHECK_FALSE(contains(verdict, "the rolls match"));
}

TEST_CASE("!verify reports a mismatch when a logged dice choice was changed",
          "[bot][variant:gnostic]") {
    Table t;
    t.play_whole_game();
    t.tamper("UPDATE actions SET text = 'roll 3' WHERE game_id = 1 AND ply = 10");
    const std::string verdict = t.last("carol", "!verify 1", true); // all in one by DM
    INFO(verdict);
    // Three dice instead of the seven the channel was told of when the choice was made.
    CHECK(contains(verdict, "The rolls do NOT match: at ply 10 (roll 3) the record says \"combat "
                            "on e1, round 2: Black rolls 7 dice, White rolls 1 die\" where this "
                            "seed gives \"combat on e1, round 2: Black rolls 3 dice, White rolls "
                            "1 die\". The rolls this seed gives are below.\n"));
    CHECK(contains(verdict, "ply 12 (roll 2): combat on e1, round 3: the Black queen rolls 2 5 = "
                            "7: 0 banked + 36 this turn of 50\n"));
    CHECK_FALSE(contains(verdict, "the rolls match"));
}

TEST_CASE("!verify reports a mismatch when a recorded roll was changed", "[bot][variant:gnostic]") {
    Table t;
    t.play_whole_game();
    t.tamper("UPDATE actions SET rolls = replace(rolls, '4 3 6 5 = 18', '6 6 6 6 = 24') "
             "WHERE game_id = 1 AND ply = 8");
    const std::string verdict = t.last("carol", "!verify 1", true); // all in one by DM
    INFO(verdict);
    CHECK(contains(verdict, "The rolls do NOT match: at ply 8 (roll 4) the record says \"combat "
                            "on e1, round 1: the Black queen rolls 6 6 6 6 = 24: 0 banked + 18 "
                            "this turn of 50\" where this seed gives \"combat on e1, round 1: "
                            "the Black queen rolls 4 3 6 5 = 18: 0 banked + 18 this turn of "
                            "50\". The rolls this seed gives are below.\n"));
    CHECK_FALSE(contains(verdict, "the rolls match"));
}

TEST_CASE("A standing dice policy sent by direct message at any time is told only to its owner",
          "[bot][variant:gnostic]") {
    Table t;
    t.say("alice", "!new gnostic @bob white");
    t.say("bob", "!accept");
    // White is to move, yet Black may register the policy now.
    auto replies = t.say("bob", "policy roll 4 hold 20", true);
    REQUIRE(replies.size() == 1);
    CHECK(replies[0] == "@bob: Game #1: your standing policy: roll 4 dice, hold at 20 points this "
                        "turn (used when you do not choose before the combat deadline)");
    CHECK(t.store().action_count(1) == 1);
    // In the channel it would tell White how Black fights: refused.
    CHECK(t.last("bob", "policy off") ==
          "#lobby: Not played in game #1: policy off is secret, so it must not be made in the "
          "channel, where the other side would see it. Send it to me by direct message "
          "(@ghostpost); you may choose again there.");
    CHECK(t.store().action_count(1) == 1);
}

TEST_CASE("Taking back a secret dice choice does not reveal it", "[bot][variant:gnostic]") {
    Table t;
    t.open_combat();
    t.say("alice", "roll 1", true);
    t.say("alice", "!takeback 1", true);
    const std::string accepted = t.last("bob", "!takeback 1");
    CHECK(contains(accepted, "#lobby: @bob (Black) accepts the takeback in game #1: {a secret "
                             "choice} taken back."));
    CHECK_FALSE(contains(accepted, "roll 1 taken back"));
    CHECK(t.store().action_count(1) == 6);
}

TEST_CASE("A takeback that would undo rolled dice is refused: the next rolls stay unknown",
          "[bot][variant:gnostic]") {
    Table t;
    t.open_combat();
    t.say("alice", "roll 1", true);
    t.say("bob", "roll 4", true); // the round is rolled: those faces are public now
    const int before = t.store().action_count(1);
    const std::string refused =
        "No takeback in game #1: dice were rolled since that move, and taking it back would let "
        "the same choices roll the same faces again.";
    CHECK(t.last("bob", "!takeback 1") == "#lobby: " + refused);
    CHECK(t.last("alice", "!takeback 1") == "#lobby: " + refused);
    CHECK(t.store().action_count(1) == before);
}

TEST_CASE("A takeback before any dice leaves !verify reproducing every roll",
          "[bot][variant:gnostic]") {
    Table t;
    for (const auto& [who, text] :
         std::vector<std::pair<std::string, std::string>>{{"alice", "!new gnostic @bob white"},
                                                          {"bob", "!accept"},
                                                          {"alice", "f3"},
                                                          {"bob", "e5"},
                                                          {"alice", "g4"},
                                                          {"bob", "Qh4"},
                                                          {"alice", "a4"},
                                                          {"alice", "!takeback 1"},
                                                          {"bob", "!takeback 1"},
                                                          {"alice", "a3"},
                                                          {"bob", "Qxe1"}})
        t.say(who, text);
    REQUIRE(t.store().action_count(1) == 6);
    for (const char* bob : {"roll 4", "roll 7", "roll 2"}) {
        t.say("alice", "roll 1", true);
        t.say("bob", bob, true);
    }
    REQUIRE(t.store().game(1)->result == "0-1");
    CHECK(contains(t.last("carol", "!verify 1", true), "the rolls match."));
}

TEST_CASE("A standing policy set by direct message leaves no trace in the public record",
          "[bot][variant:gnostic]") {
    Table t;
    t.say("alice", "!new gnostic @bob white");
    t.say("bob", "!accept");
    t.say("bob", "policy roll 4 hold 20", true);
    t.say("alice", "e4");
    CHECK(t.last("carol", "!history 1") == "#lobby: Game #1, Gnostic Chess, 1 ply.\n1. e4\n");
    CHECK_FALSE(contains(t.last("carol", "!pgn 1"), "secret"));
}

TEST_CASE("A player who types default is not told they were late", "[bot][variant:gnostic]") {
    Table t;
    t.open_combat();
    t.say("alice", "default", true);
    const std::string reveal = t.last("bob", "default", true);
    CHECK(contains(reveal, "#lobby: @bob (Black) played default in game #1. Black's standing "
                           "policy chose roll 3."));
    CHECK_FALSE(contains(reveal, "did not answer in time"));
}

TEST_CASE("A spell that is not possible gets its reason in the channel", "[bot][variant:gnostic]") {
    Table t;
    t.say("alice", "!new gnostic @bob white");
    t.say("bob", "!accept");
    CHECK(t.last("alice", "Heal e4") ==
          "#lobby: Not played in game #1: Heal e4 is not possible: "
          "Heal needs a damaged piece of yours, and none is damaged.");
    t.say("alice", "Imprison e7");
    t.say("bob", "d6");
    CHECK(t.last("alice", "!move 1 Imprison d7") ==
          "#lobby: Not played in game #1: Imprison d7 is not possible: you cast Imprison already "
          "(each spell once per game).");
}

// Issue 32: the bot chooses its dice as a player does, by direct message. Before, its first
// choice of a round was posted in the channel, refused there in public ("roll 3 is secret"),
// and so both shown to the human and never made.
TEST_CASE("The bot's first dice choice of a round goes by direct message and is made",
          "[bot][engine][variant:gnostic]") {
    Table t;
    t.say("alice", "!new gnostic bot level=1 tc=none");
    bot::EnginePlayer engine(true);
    std::mt19937_64 rng(32);
    bool bot_decided = false;
    for (int step = 0; step < 120 && !bot_decided; ++step) {
        engine.step(t.service(), "console");
        CHECK(engine.take_failures().empty());
        for (const auto& r : t.drain()) {
            INFO(r);
            if (r.rfind("#lobby", 0) != 0)
                continue;
            // Nothing of the bot's secret reaches the channel, not even as a refusal.
            CHECK_FALSE(contains(r, "Not played"));
            CHECK_FALSE(contains(r, "is secret"));
            if (contains(r, "ghostpost (level 1) (Black) has decided in game #1; the choice stays "
                            "secret until it is revealed.")) {
                bot_decided = true;
                // White must still choose: the bot's choice is made and waits for the reveal.
                CHECK(contains(r, "@alice (White) must choose by direct message"));
            }
        }
        if (bot_decided)
            break;
        auto game = t.game(1);
        REQUIRE_FALSE(game->outcome().over());
        const auto actions = game->notated_actions(rules::Seat::White);
        if (actions.empty())
            continue;
        if (actions.front().action.kind == rules::ActionKind::Choice) {
            t.say("alice", "roll 1", true); // alice's own dice, by direct message
            continue;
        }
        std::vector<std::string> captures, quiet;
        for (const auto& a : actions) {
            if (a.action.kind != rules::ActionKind::Move)
                continue;
            if (a.text.find('x') != std::string::npos && a.text[0] != 'K')
                captures.push_back(a.text);
            else if (a.text.size() <= 3)
                quiet.push_back(a.text);
        }
        const auto& pool = captures.empty() ? quiet : captures;
        t.say("alice",
              "!move 1 " + (pool.empty() ? actions.front().text : pool[rng() % pool.size()]));
    }
    REQUIRE(bot_decided);
    // The bot's choice is in the log, entered by its engine account's post.
    const auto log = t.store().actions(1);
    REQUIRE_FALSE(log.empty());
    CHECK(log.back().seat == rules::Seat::Black);
    CHECK(log.back().message_id.starts_with("engine:1:"));
    CHECK((log.back().text.starts_with("roll ") || log.back().text == "hold"));
    const auto pending = t.game(1)->pending();
    REQUIRE(pending.size() == 1);
    CHECK(pending.front().seat == rules::Seat::White);
}

// Issue 32: tournament games committed to nothing, though !verify speaks of "the hash posted
// when the game started".
TEST_CASE("A tournament game with dice posts its seed's hash when it starts",
          "[bot][tournament][variant:gnostic]") {
    Table t;
    t.say("alice", "!tourney create cup gnostic roundrobin");
    t.say("alice", "!tourney join cup");
    t.say("bob", "!tourney join cup");
    const auto replies = t.say("alice", "!tourney start cup");
    const auto g = t.store().game(1);
    REQUIRE(g);
    bool committed = false;
    for (const auto& r : replies)
        committed = committed || (r.rfind("#lobby", 0) == 0 &&
                                  contains(r, "Its dice come from a secret seed whose SHA-256 is " +
                                                  bot::sha256_hex(g->seed) +
                                                  "; the seed is published when "
                                                  "the game ends"));
    INFO(replies.size());
    CHECK(committed);
}

// Issue 32: a standing policy showed in the ply counts (!board 1 99 counted it, !history did
// not) and !board 1 k showed the position at the ply where it was set. Two games that differ
// only in a policy set by direct message must look the same to the channel.
TEST_CASE("A standing policy shows in no ply count and no earlier position",
          "[bot][leak][variant:gnostic]") {
    Table with, without;
    for (Table* t : {&with, &without}) {
        t->say("alice", "!new gnostic @bob white");
        t->say("bob", "!accept");
        t->say("alice", "e4");
        if (t == &with)
            t->say("bob", "policy roll 4 hold 20", true);
        t->say("bob", "e5");
        t->say("alice", "Nf3");
    }
    CHECK(with.store().action_count(1) == 4);
    for (const char* ask : {"!history 1", "!board 1 99", "!board 1 0", "!board 1 1", "!board 1 2",
                            "!board 1 3", "!board 1 4", "!board 1"}) {
        INFO(ask);
        CHECK(with.say("carol", ask) == without.say("carol", ask));
    }
    CHECK(with.last("carol", "!board 1 99") == "#lobby: Game #1 has only 3 plies.");
    CHECK(with.game(1)->public_view().board().ply == 3);
}

// Issue 32: `default` typed as the first choice of a round was taken as a silent anytime action:
// nobody heard that White had chosen, and !history did not count it.
TEST_CASE("default typed as a first dice choice is announced and counted like any choice",
          "[bot][variant:gnostic]") {
    Table t;
    t.open_combat();
    const auto replies = t.say("alice", "default", true);
    REQUIRE(replies.size() == 3);
    CHECK(replies[0] == "@alice: Game #1: your standing policy chose roll 3 in the combat on e1; "
                        "it is revealed when the other side has chosen");
    CHECK(contains(replies[2], "#lobby: @alice (White) has decided in game #1; the choice stays "
                               "secret until it is revealed. @bob (Black) must choose"));
    CHECK(t.last("carol", "!history 1") == "#lobby: Game #1, Gnostic Chess, 7 plies.\n"
                                           "1. f3 e5 2. g4 Qh4 3. a3 Qxe1 {a secret choice}\n");
}

// Issue 32, correspondence pace: a queen against a king took 52 rounds, one a day, because a
// standing policy was used only when the 24-hour deadline passed.
TEST_CASE("With both standing policies set a combat runs to its end in the post that starts it",
          "[bot][variant:gnostic]") {
    Table t;
    t.say("alice", "!new gnostic @bob white");
    t.say("bob", "!accept");
    t.say("alice", "policy roll 5 hold 30", true);
    t.say("bob", "policy roll 4 hold 20", true);
    for (const auto& [who, text] : std::vector<std::pair<std::string, std::string>>{
             {"alice", "f3"}, {"bob", "e5"}, {"alice", "g4"}, {"bob", "Qh4"}, {"alice", "a3"}})
        t.say(who, text);
    const auto replies = t.say("bob", "Qxe1");
    REQUIRE(replies.size() >= 1);
    const std::string& played = replies.front();
    INFO(played);
    CHECK(played.rfind("#lobby: @bob (Black) played Qxe1 in game #1.", 0) == 0);
    CHECK(contains(played, "Combat on e1, round 1: Black rolls 4 dice, White rolls 5 dice."));
    CHECK((contains(played, "wins the combat on e1") || contains(played, "is a draw")));
    // Nothing is left to choose: the combat is over within this one post.
    const auto game = t.game(1);
    const auto pending = game->pending();
    CHECK((game->outcome().over() || (pending.size() == 1 && pending[0].what == "move")));
    // The policies are still nobody else's business: the channel never names them.
    for (const auto& r : replies)
        if (r.rfind("#lobby", 0) == 0)
            CHECK_FALSE(contains(r, "policy roll"));
}

TEST_CASE("A standing policy chooses at once when its combat needs it, and a forced choice is made",
          "[bot][variant:gnostic]") {
    Table t;
    t.say("alice", "!new gnostic @bob white");
    t.say("bob", "!accept");
    t.say("bob", "policy roll 4 hold 20", true);
    for (const auto& [who, text] : std::vector<std::pair<std::string, std::string>>{
             {"alice", "f3"}, {"bob", "e5"}, {"alice", "g4"}, {"bob", "Qh4"}, {"alice", "a3"}})
        t.say(who, text);
    // Black's policy answers at once and in secret: only White is left to choose.
    const auto replies = t.say("bob", "Qxe1");
    REQUIRE(replies.size() >= 2);
    CHECK(replies[0] == "@bob: Game #1: your standing policy chose roll 4 in the combat on e1; it "
                        "is revealed when the other side has chosen");
    int public_replies = 0;
    for (const auto& r : replies) {
        if (r.rfind("#lobby", 0) != 0)
            continue;
        ++public_replies;
        CHECK(contains(r, "@alice (White) must choose by direct message the dice of their king "
                          "in the combat on e1"));
        CHECK_FALSE(contains(r, "roll 4"));
    }
    CHECK(public_replies == 1);
    const auto pending = t.game(1)->pending();
    REQUIRE(pending.size() == 1);
    CHECK(pending[0].seat == rules::Seat::White);
    // A pawn at the start of its turn can only roll one die: that choice is made for it.
    Table p;
    for (const auto& [who, text] :
         std::vector<std::pair<std::string, std::string>>{{"alice", "!new gnostic @bob white"},
                                                          {"bob", "!accept"},
                                                          {"alice", "e4"},
                                                          {"bob", "d5"}})
        p.say(who, text);
    bool rolled = false;
    for (const auto& r : p.say("alice", "exd5"))
        rolled = rolled || (r.rfind("#lobby", 0) == 0 &&
                            contains(r, "Combat on d5, round 1: White rolls 1 die, Black rolls 1 "
                                        "die."));
    CHECK(rolled);
}

// Issue 32: !verify answers in the channel with a short summary and gives the listing to the
// asker; the game's page states how a die comes from the seed, exactly enough to check a game
// without our source. The test follows the stated procedure with OpenSSL alone.
TEST_CASE("!verify sums up in the channel and sends the listing by direct message",
          "[bot][variant:gnostic]") {
    Table t;
    t.play_whole_game();
    const auto seed = t.store().game(1)->seed;
    const auto replies = t.say("carol", "!verify 1");
    REQUIRE(replies.size() == 2);
    CHECK(replies[0] == "#lobby: Game #1: the seed is " + bot::to_hex(seed) + "; its SHA-256 is " +
                            bot::sha256_hex(seed) +
                            ", which must be the hash posted when the game started. Replaying "
                            "its 12 actions from this seed re-derives every die (16), each gives "
                            "the rolls the game recorded when it was played, every action is "
                            "legal where it was played, and the game ends as recorded (0-1, "
                            "killing the White king): the rolls match. The listing of every roll "
                            "is sent to you by direct message.");
    CHECK(replies[1].rfind("@carol: Game #1, !verify 1: the listing of every roll is below.\n"
                           "ply 8 (roll 4): combat on e1, round 1: Black rolls 4 dice, White "
                           "rolls 1 die\n",
                           0) == 0);
}

TEST_CASE("The stated derivation of a die, followed with OpenSSL, gives the game's rolls",
          "[bot][random][variant:gnostic]") {
    const std::string stated = bot::dice_derivation();
    for (const char* part :
         {"HMAC-SHA256 with the 32 bytes of the seed as the key and i written as 8 bytes, "
          "big-endian, as the message",
          "its first 4 bytes read as an unsigned big-endian 32-bit number", "a word of 4294967292",
          "or more is rejected", "the face is the word modulo 6, plus 1",
          "the attacker's dice, then the defender's"})
        CHECK(contains(stated, part));
    Table t;
    t.play_whole_game();
    const auto seed = t.store().game(1)->seed;
    // The faces the record shows, in order ("... rolls 4 3 6 5 = 18", "... rolls 5 1, a 1 ...").
    std::vector<int> recorded;
    for (const auto& a : t.store().actions(1)) {
        std::size_t at = 0;
        while ((at = a.rolls.find(" rolls ", at)) != std::string::npos) {
            at += 7;
            std::vector<int> faces;
            while (at < a.rolls.size() && a.rolls[at] >= '1' && a.rolls[at] <= '6') {
                faces.push_back(a.rolls[at] - '0');
                at += 2;
            }
            // "Black rolls 4 dice" reveals a choice; only a fighter's line lists faces.
            if (a.rolls.compare(at, 2, "di") != 0)
                recorded.insert(recorded.end(), faces.begin(), faces.end());
        }
    }
    REQUIRE(recorded.size() == 16);
    // The procedure as the page states it.
    std::vector<int> derived;
    for (std::uint64_t i = 0; derived.size() < recorded.size(); ++i) {
        unsigned char message[8];
        for (int k = 0; k < 8; ++k)
            message[k] = static_cast<unsigned char>(i >> (56 - 8 * k));
        unsigned char block[EVP_MAX_MD_SIZE];
        unsigned int length = 0;
        REQUIRE(HMAC(EVP_sha256(), seed.data(), static_cast<int>(seed.size()), message, 8, block,
                     &length) != nullptr);
        const std::uint32_t word = (std::uint32_t{block[0]} << 24) |
                                   (std::uint32_t{block[1]} << 16) |
                                   (std::uint32_t{block[2]} << 8) | std::uint32_t{block[3]};
        if (word >= 4294967292u)
            continue;
        derived.push_back(static_cast<int>(word % 6) + 1);
    }
    CHECK(derived == recorded);
}
