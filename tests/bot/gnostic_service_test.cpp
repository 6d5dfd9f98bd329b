// Gnostic Chess through the service: the seed's commitment and reveal, secret dice choices by
// direct message, the record with every roll, and !verify catching a tampered log or seed.
#include "../storage/temp_path.h"
#include "ghostpost/bot/random.h"
#include "ghostpost/bot/service.h"
#include "ghostpost/storage/sqlite.h"

#include <catch2/catch.hpp>
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
        std::vector<std::string> out;
        for (const auto& e : store_->due("console", 2000000000, 100)) {
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
    const std::string verdict = t.last("carol", "!verify 1");
    INFO(verdict);
    CHECK(contains(verdict, "#lobby: Game #1: the seed is " + bot::to_hex(seed) +
                                "; its SHA-256 is " + bot::sha256_hex(seed) +
                                ", which must be the hash posted when the game started. Replaying "
                                "its 12 actions from this seed re-derives every die (16), each "
                                "gives the rolls the game recorded when it was played, every "
                                "action is legal where it was played, and the game ends as "
                                "recorded (0-1, killing the White king): the rolls match."));
    CHECK(contains(verdict, "the rolls match.\n"
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
    const std::string verdict = t.last("carol", "!verify 1");
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
    const std::string verdict = t.last("carol", "!verify 1");
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

TEST_CASE("!verify reports a mismatch when a recorded roll was changed",
          "[bot][variant:gnostic]") {
    Table t;
    t.play_whole_game();
    t.tamper("UPDATE actions SET rolls = replace(rolls, '4 3 6 5 = 18', '6 6 6 6 = 24') "
             "WHERE game_id = 1 AND ply = 8");
    const std::string verdict = t.last("carol", "!verify 1");
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
    for (const auto& [who, text] : std::vector<std::pair<std::string, std::string>>{
             {"alice", "!new gnostic @bob white"}, {"bob", "!accept"}, {"alice", "f3"},
             {"bob", "e5"}, {"alice", "g4"}, {"bob", "Qh4"}, {"alice", "a4"},
             {"alice", "!takeback 1"}, {"bob", "!takeback 1"}, {"alice", "a3"},
             {"bob", "Qxe1"}})
        t.say(who, text);
    REQUIRE(t.store().action_count(1) == 6);
    for (const char* bob : {"roll 4", "roll 7", "roll 2"}) {
        t.say("alice", "roll 1", true);
        t.say("bob", bob, true);
    }
    REQUIRE(t.store().game(1)->result == "0-1");
    CHECK(contains(t.last("carol", "!verify 1"), "the rolls match."));
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
    CHECK(t.last("alice", "Heal e4") == "#lobby: Not played in game #1: Heal e4 is not possible: "
                                        "Heal needs a damaged piece of yours, and none is damaged.");
    t.say("alice", "Imprison e7");
    t.say("bob", "d6");
    CHECK(t.last("alice", "!move 1 Imprison d7") ==
          "#lobby: Not played in game #1: Imprison d7 is not possible: you cast Imprison already "
          "(each spell once per game).");
}
