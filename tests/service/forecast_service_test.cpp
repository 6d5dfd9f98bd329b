// Conditional moves (!forecast) and the daily digest (!settings digest=...), driven through a
// Service on a real SQLite store with a clock the test moves. docs/forecasts.md and
// docs/digest.md describe what these tests hold the service to.
#include "../storage/temp_path.h"
#include "ghostpost/service/service.h"
#include "ghostpost/storage/sqlite.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

using namespace ghostpost;
using ghostpost::testing::TempPath;
using rules::Seat;

namespace {

constexpr std::int64_t start = 1700000000; // 2023-11-14 22:13:20 UTC
constexpr std::int64_t day = 86400;

struct Fixture {
    TempPath path;
    int commits = 0;
    std::unique_ptr<storage::Store> store;
    std::shared_ptr<std::int64_t> now = std::make_shared<std::int64_t>(start);
    bot::Service service;
    int next_id = 1;

    explicit Fixture(bot::ServiceSettings settings = {})
        : store(storage::open_sqlite_store(path.str(), counting())),
          service(*store, std::move(settings), [n = now] { return *n; }) {}

    storage::DatabaseOptions counting() {
        storage::DatabaseOptions o;
        o.on_commit = [this] { ++commits; };
        return o;
    }
    void send(const std::string& user, const std::string& text, bool direct) {
        bot::Post p;
        p.platform = "console";
        p.channel = direct ? "@" + user : "lobby";
        p.direct = direct;
        p.message_id = std::to_string(next_id++);
        p.author_id = user;
        p.author_name = user;
        p.author_handle = user;
        p.text = text;
        service.handle(p);
    }
    void post(const std::string& user, const std::string& text) { send(user, text, false); }
    void dm(const std::string& user, const std::string& text) { send(user, text, true); }
    // The replies queued since the last call, as "#channel: text" or "@user: text".
    std::vector<std::string> drain() {
        std::vector<std::string> out;
        for (const auto& e : store->due("console", *now + 365 * day, 100)) {
            out.push_back((e.message.to_user ? "@" : "#") + e.message.destination + ": " +
                          e.message.text);
            store->mark_sent(e.id, *now);
        }
        return out;
    }
    // The code block (a board, a list) of each reply queued since the last call.
    std::vector<std::string> drain_codes() {
        std::vector<std::string> out;
        for (const auto& e : store->due("console", *now + 365 * day, 100)) {
            out.push_back(e.message.code);
            store->mark_sent(e.id, *now);
        }
        return out;
    }
    // alice (White) and bob play game #1 of `variant`; the moves are played in turn.
    void start_game(const std::vector<std::string>& moves = {}, const std::string& options = "",
                    const std::string& variant = "chess") {
        post("alice", "!new " + variant + " @bob white " + options);
        post("bob", "!accept");
        bool white = true;
        for (const auto& m : moves) {
            post(white ? "alice" : "bob", m);
            white = !white;
        }
        drain();
    }
    std::vector<std::string> log_texts(std::int64_t game = 1) {
        std::vector<std::string> out;
        for (const auto& a : store->actions(game))
            out.push_back(a.text);
        return out;
    }
    std::vector<std::vector<std::string>> lines_of(Seat seat, std::int64_t game = 1) {
        for (const auto& f : store->forecasts(game))
            if (f.seat == seat)
                return f.lines;
        return {};
    }
};

using Lines = std::vector<std::vector<std::string>>;
using Texts = std::vector<std::string>;

} // namespace

TEST_CASE("A forecast answers the opponent's move at once, in the same post and commit",
          "[bot][forecast]") {
    Fixture f;
    f.start_game({"e4", "e5"});
    f.dm("bob", "!forecast 1 Nf3 Nc6 Bb5 a6; d4 exd4");
    CHECK(f.drain() ==
          Texts{"@bob: Forecast stored for game #1: 2 lines. When @alice (White) plays the first "
                "move of a line, I play your reply at once. !forecast 1 shows it, !forecast 1 "
                "clear deletes it."});
    CHECK(f.lines_of(Seat::Black) == Lines{{"Nf3", "Nc6", "Bb5", "a6"}, {"d4", "exd4"}});

    const int before = f.commits;
    f.post("alice", "Nf3");
    CHECK(f.commits - before == 1); // the move, the reply and every message: one transaction
    CHECK(f.log_texts() == Texts{"e4", "e5", "Nf3", "Nc6"});
    const auto log = f.store->actions(1);
    CHECK(log[3].seat == Seat::Black);
    CHECK(log[3].player_id == f.store->player_by_account("console", "bob")->id);
    CHECK(log[3].message_id == "forecast:" + std::to_string(f.next_id - 1));
    CHECK(f.drain() ==
          Texts{"#lobby: @alice (White) played Nf3 in game #1. @bob (Black) played Nc6 in game "
                "#1, from a forecast. @alice (White) must move.",
                "@bob: Game #1: your forecast answered Nf3 with Nc6. It goes on with 1 line: Bb5 "
                "a6."});
    // The line that foresaw Nf3 goes on; the one that began with d4 is gone.
    CHECK(f.lines_of(Seat::Black) == Lines{{"Bb5", "a6"}});

    f.post("alice", "Bb5");
    CHECK(f.log_texts() == Texts{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6"});
    CHECK(f.drain() ==
          Texts{"#lobby: @alice (White) played Bb5 in game #1. @bob (Black) played a6 in game "
                "#1, from a forecast. @alice (White) must move.",
                "@bob: Game #1: your forecast answered Bb5 with a6. Nothing of it is left."});
    CHECK(f.store->forecasts(1).empty());
}

TEST_CASE("A move no line foresaw drops the whole forecast, and only its owner hears of it",
          "[bot][forecast]") {
    Fixture f;
    f.start_game({"e4", "e5"});
    f.dm("bob", "!forecast 1 Nf3 Nc6; Bc4 Nf6");
    f.drain();
    f.post("alice", "d4");
    CHECK(f.log_texts() == Texts{"e4", "e5", "d4"});
    const auto replies = f.drain();
    REQUIRE(replies.size() == 2);
    CHECK(replies[0] == "#lobby: @alice (White) played d4 in game #1. @bob (Black) must move.");
    CHECK(replies[1] == "@bob: Game #1: @alice played d4, which your forecast did not foresee, "
                        "so it is dropped; the decision is yours.");
    CHECK(f.store->forecasts(1).empty());
}

TEST_CASE("A line that ends with the move it foresaw leaves the decision to its owner",
          "[bot][forecast]") {
    Fixture f;
    f.start_game({"e4", "e5"});
    f.dm("bob", "!forecast 1 Nf3 Nc6 Bb5");
    f.drain();
    f.post("alice", "Nf3");
    f.drain();
    f.post("alice", "Bb5");
    CHECK(f.log_texts() == Texts{"e4", "e5", "Nf3", "Nc6", "Bb5"});
    CHECK(f.drain() == Texts{"#lobby: @alice (White) played Bb5 in game #1. @bob (Black) must "
                             "move.",
                             "@bob: Game #1: @alice played Bb5, as your forecast foresaw, but no "
                             "line of it goes further; the decision is yours."});
    CHECK(f.store->forecasts(1).empty());
}

TEST_CASE("A line with an illegal or ambiguous move is refused with its place, storing nothing",
          "[bot][forecast]") {
    Fixture f;
    f.start_game({"e4", "Nf6", "Nc3", "d6"});
    f.dm("bob", "!forecast 1 Nf3 Nc6; Bc4 Ke6");
    CHECK(f.drain() ==
          Texts{"@bob: Nothing was stored. Line 2, move 2: Ke6 is not possible: no king can reach "
                "e6."});
    f.dm("bob", "!forecast 1 Bc4 Nd7");
    CHECK(f.drain() == Texts{"@bob: Nothing was stored. Move 2: Nd7 is ambiguous: Nfd7 or Nbd7."});
    f.dm("bob", "!forecast 1 Nc6 Bc4");
    CHECK(f.drain() ==
          Texts{"@bob: Nothing was stored. Move 1: Nc6 is not possible: no knight can reach c6. "
                "A line starts with the next move of @alice (White)."});
    f.dm("bob", "!forecast 1 Bc4 hello");
    CHECK(f.drain() ==
          Texts{"@bob: Nothing was stored. Move 2: \"hello\" is not a move. Write moves like e4, "
                "Nf3, exd5, O-O or e8=Q (!rules chess shows the notation)."});
    f.dm("bob", "!forecast 1 Bc4");
    CHECK(f.drain() ==
          Texts{"@bob: Nothing was stored. The line has no reply of yours to a move of @alice "
                "(White): write the move you expect, then yours, for example !forecast 1 <their "
                "move> <your reply>."});
    CHECK(f.store->forecasts(1).empty());
}

TEST_CASE("Move numbers, annotations, lower-case pieces, commas and rows are read in a forecast",
          "[bot][forecast]") {
    Fixture f;
    f.start_game({"e4", "e5"});
    f.dm("bob", "!forecast #1 2. nf3 Nc6! 3.Bb5 a6;2.Bc4 2... Nf6?!");
    CHECK(f.lines_of(Seat::Black) == Lines{{"Nf3", "Nc6", "Bb5", "a6"}, {"Bc4", "Nf6"}});
    // One line per row of the message, and commas between moves.
    f.dm("bob", "!forecast 1 clear");
    f.dm("bob", "!forecast 1\nNf3, Nc6, Bb5, a6\nd4 exd4\n");
    CHECK(f.lines_of(Seat::Black) == Lines{{"Nf3", "Nc6", "Bb5", "a6"}, {"d4", "exd4"}});
}

TEST_CASE("Two lines that answer the same move differently are refused", "[bot][forecast]") {
    Fixture f;
    f.start_game({"e4", "e5"});
    f.dm("bob", "!forecast 1 Nf3 Nc6 Bb5 a6; Nf3 d6");
    CHECK(f.drain() == Texts{"@bob: Nothing was stored: after Nf3 one line plays Nc6 and another "
                             "d6: a forecast has one reply to each move."});
    CHECK(f.store->forecasts(1).empty());
    // Against what is stored too; a line that continues a stored one just replaces it.
    f.dm("bob", "!forecast 1 Nf3 Nc6");
    f.dm("bob", "!forecast 1 Nf3 Nc6 Bb5 a6");
    CHECK(f.drain().back() == "@bob: Forecast for game #1 updated: 1 line in all. When @alice "
                              "(White) plays the first move of a line, I play your reply at once. "
                              "!forecast 1 shows it, !forecast 1 clear deletes it.");
    CHECK(f.lines_of(Seat::Black) == Lines{{"Nf3", "Nc6", "Bb5", "a6"}});
    f.dm("bob", "!forecast 1 Nf3 Nf6");
    CHECK(f.drain() == Texts{"@bob: Nothing was stored: after Nf3 one line plays Nc6 and another "
                             "Nf6: a forecast has one reply to each move. !forecast 1 clear "
                             "starts again."});
}

TEST_CASE("When it is the player's decision, a forecast starts with their move, played at once",
          "[bot][forecast]") {
    Fixture f;
    f.start_game({"e4", "e5"});
    // The issue's example: alice (White) plays Nf3 and answers Nc6 and d5 in advance.
    f.dm("alice", "!forecast 1 Nf3 Nc6 Bb5; Nf3 d5 d4");
    const auto replies = f.drain();
    REQUIRE(replies.size() == 3);
    CHECK(replies[0] == "@alice: Forecast stored for game #1: 2 lines. Your Nf3 is played now; "
                        "when @bob (Black) answers as a line foresees, I play your reply at once. "
                        "!forecast 1 shows it, !forecast 1 clear deletes it.");
    CHECK(replies[1] == "@alice: @alice (White) played Nf3 in game #1. @bob (Black) must move.");
    CHECK(replies[2] == "#lobby: @alice (White) played Nf3 in game #1. @bob (Black) must move.");
    CHECK(f.lines_of(Seat::White) == Lines{{"Nc6", "Bb5"}, {"d5", "d4"}});
    f.post("bob", "d5");
    CHECK(f.log_texts() == Texts{"e4", "e5", "Nf3", "d5", "d4"});

    // Lines that start with different moves of the player's are no forecast.
    f.dm("bob", "!forecast 1 Nc6 Bb5 Nf6; dxe4 Nxe5 Nf6");
    CHECK(f.drain().back() == "@bob: Nothing was stored: your lines start with different moves "
                              "of yours (Nc6 and dxe4), and you play one move now.");
    f.dm("bob", "!forecast 1 e3");
    CHECK(f.drain().back() ==
          "@bob: Nothing was stored. Move 1: e3 is not possible: no pawn can reach e3. It is "
          "your decision in game #1, so a line starts with your move.");
}

TEST_CASE("Both players' forecasts may answer each other in one post", "[bot][forecast]") {
    Fixture f;
    f.start_game({"e4"});
    // bob decides now: his e5 is played at once, alice's forecast answers it, and so on.
    f.dm("alice", "!forecast 1 e5 Nf3 Nc6 Bb5");
    f.drain();
    f.dm("bob", "!forecast 1 e5 Nf3 Nc6 Bb5 a6");
    CHECK(f.log_texts() == Texts{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6"});
    const auto replies = f.drain();
    REQUIRE(replies.size() >= 3);
    CHECK(replies[2] ==
          "#lobby: @bob (Black) played e5 in game #1. @alice (White) played Nf3 in game #1, from "
          "a forecast. @bob (Black) played Nc6 in game #1, from a forecast. @alice (White) played "
          "Bb5 in game #1, from a forecast. @bob (Black) played a6 in game #1, from a forecast. "
          "@alice (White) must move.");
    CHECK(f.store->forecasts(1).empty());
}

TEST_CASE("A forecast's reply that mates ends the game and clears what is left",
          "[bot][forecast]") {
    Fixture f;
    f.start_game({"e4", "e5", "Bc4", "Nc6", "Qh5"});
    f.dm("alice", "!forecast 1 Nf6 Qxf7#; g6 Qf3");
    f.drain();
    f.post("bob", "Nf6");
    CHECK(f.log_texts().back() == "Qxf7#");
    CHECK(f.store->game(1)->status == storage::GameStatus::Finished);
    CHECK(f.store->game(1)->result == "1-0");
    CHECK(f.store->forecasts(1).empty());
    const auto replies = f.drain();
    REQUIRE_FALSE(replies.empty());
    CHECK(replies[0] == "#lobby: @bob (Black) played Nf6 in game #1. @alice (White) played "
                        "Qxf7# in game #1, from a forecast. Game #1 is over: @alice (White) wins "
                        "by checkmate (1-0).");
}

TEST_CASE("A forecast is private: refused in a channel, and a list only for its owner",
          "[bot][forecast]") {
    Fixture f;
    f.start_game({"e4", "e5"});
    f.post("bob", "!forecast 1 Nf3 Nc6");
    CHECK(f.drain() == Texts{"#lobby: Forecasts are private: send !forecast to me by direct "
                             "message. Nothing was stored."});
    CHECK(f.store->forecasts(1).empty());

    f.dm("bob", "!forecast 1 Nf3 Nc6; d4 exd4");
    f.drain();
    f.dm("bob", "!forecast 1");
    CHECK(f.drain() == Texts{"@bob: Your forecast in game #1, 2 lines, each starting with the next "
                             "move of @alice (White):"});
    f.dm("bob", "!forecast 1");
    CHECK(f.drain_codes() == Texts{"Nf3 Nc6\nd4 exd4\n"});
    f.dm("bob", "!forecast");
    CHECK(f.drain() == Texts{"@bob: Your forecasts, by game:"});
    f.dm("alice", "!forecast 1");
    CHECK(f.drain() == Texts{"@alice: You have no forecast in game #1. Use: !forecast [game] "
                             "[<line>; <line>; ...|clear]"});
    f.dm("carol", "!forecast 1 Nf3 Nc6");
    CHECK(f.drain() == Texts{"@carol: You are not playing in game #1."});
    f.dm("bob", "!forecast 1 clear");
    CHECK(f.drain() == Texts{"@bob: Your forecast in game #1 is cleared (2 lines)."});
    CHECK(f.store->forecasts(1).empty());
}

TEST_CASE("Forecasts are refused where the rules hide pieces or roll dice", "[bot][forecast]") {
    Fixture f;
    f.start_game({"e4"}, "", "phantom");
    f.dm("bob", "!forecast 1 e5 Nf3 Nc6");
    CHECK(f.drain() == Texts{"@bob: Game #1 is Phantom Chess: forecasts are only for games where "
                             "nothing is hidden and no dice are rolled, so that a line can be "
                             "checked when it is stored. Nothing was stored."});
    CHECK(f.store->forecasts(1).empty());
    CHECK(f.log_texts() == Texts{"e4"});
}

TEST_CASE("A takeback clears forecasts and says so, and the end of a game clears them silently",
          "[bot][forecast]") {
    Fixture f;
    f.start_game({"e4", "e5", "Nf3"});
    f.dm("alice", "!forecast 1 Nc6 Bb5");
    f.post("alice", "!takeback");
    f.post("bob", "!takeback");
    const auto replies = f.drain();
    CHECK(std::find(replies.begin(), replies.end(),
                    "@alice: Game #1: a takeback changed the position, so your forecast is "
                    "cleared.") != replies.end());
    CHECK(f.store->forecasts(1).empty());

    f.dm("bob", "!forecast 1 Nf3 Nc6");
    f.drain();
    REQUIRE_FALSE(f.store->forecasts(1).empty());
    f.post("alice", "!resign");
    const auto ended = f.drain();
    CHECK(f.store->forecasts(1).empty());
    CHECK(std::none_of(ended.begin(), ended.end(), [](const std::string& r) {
        return r.find("forecast") != std::string::npos;
    }));
}

TEST_CASE("An open draw offer of the opponent's holds the forecast for its owner to decide",
          "[bot][forecast]") {
    Fixture f;
    f.start_game({"e4", "e5"});
    f.dm("bob", "!forecast 1 Nf3 Nc6 Bb5 a6");
    f.post("alice", "!draw");
    f.drain();
    f.post("alice", "Nf3");
    CHECK(f.log_texts() == Texts{"e4", "e5", "Nf3"});
    const auto replies = f.drain();
    REQUIRE(replies.size() == 2);
    CHECK(replies[0].starts_with("#lobby: @alice (White) played Nf3 in game #1. @bob (Black) must "
                                 "move."));
    CHECK(replies[1] ==
          "@bob: Game #1: @alice offers a draw, so your forecast did not answer Nf3 with Nc6. The "
          "decision is yours; the forecast stays, its lines now starting with that reply.");
    CHECK(f.lines_of(Seat::Black) == Lines{{"Nc6", "Bb5", "a6"}});
    // Playing that reply declines the draw, and the forecast goes on.
    f.post("bob", "Nc6");
    f.post("alice", "Bb5");
    CHECK(f.log_texts() == Texts{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6"});
    CHECK_FALSE(f.store->offer(1, storage::OfferKind::Draw).has_value());
}

TEST_CASE("A forecast's reply has its clock effects and no reminder goes to its owner",
          "[bot][forecast]") {
    Fixture f;
    f.post("bob", "!settings reminders=on");
    f.start_game({"e4", "e5"}, "tc=1d+1h");
    f.dm("bob", "!forecast 1 Nf3 Nc6");
    f.drain();
    *f.now += 3600; // alice thinks for an hour
    f.post("alice", "Nf3");
    const auto replies = f.drain();
    CHECK(std::none_of(replies.begin(), replies.end(), [](const std::string& r) {
        return r.find("it is your decision") != std::string::npos;
    }));
    const auto clocks = f.store->clocks(1);
    REQUIRE(clocks.size() == 2);
    // bob answered at once: his day, plus an hour after each of his two moves.
    CHECK(clocks[1].seat == Seat::Black);
    CHECK(clocks[1].remaining == day + 2 * 3600);
    CHECK(clocks[1].running_since == 0);
    // alice's clock runs again from the reply, with her hour charged and her increment added.
    CHECK(clocks[0].running_since == *f.now);
    CHECK(clocks[0].remaining == day + 3600 - 3600 + 3600);
}

TEST_CASE("The daily digest lists the decisions with their deadlines, at the hour chosen",
          "[bot][digest]") {
    Fixture f;
    f.post("bob", "!settings digest=9");
    CHECK(
        f.drain() ==
        Texts{
            "#lobby: Settings of @bob for what I send you privately: orientation=auto "
            "notation=ascii images=off reminders=off digest=09:00 language=auto. Your daily digest "
            "comes by direct message at 09:00 "
            "UTC, the next at 2023-11-15 09:00 UTC, on days when a decision waits for you."});
    f.start_game({"e4"});                     // #1: bob must move
    f.post("carol", "!new chess @bob black"); // #2: a challenge for bob
    f.post("bob", "!new chess @dave white tc=none");
    f.post("dave", "!accept"); // #3: bob (White) must move, no clock
    f.post("bob", "!new chess @erin white");
    f.post("erin", "!accept");
    f.post("bob", "!move 4 d4"); // #4: erin must move
    f.dm("bob", "!forecast 4 d5 c4");
    f.drain();
    *f.now = start + 10 * 3600; // 2023-11-15 08:13 UTC: not yet
    f.service.tick();
    CHECK(f.drain().empty());
    *f.now = start + 11 * 3600; // 09:13
    f.service.tick();
    CHECK(f.drain() ==
          Texts{"@bob: Your daily digest, 2023-11-15 09:13 UTC: 3 decisions wait for you. "
                "!settings digest=off stops it."});
    // The same again: nothing until the next day.
    f.service.tick();
    CHECK(f.drain().empty());
    *f.now = start + day + 11 * 3600;
    f.service.tick();
    CHECK(f.drain_codes() ==
          Texts{"#1 FIDE chess vs @alice: you must move; your time runs out at 2023-11-17 22:13 "
                "UTC (1d 13h from now).\n"
                "#3 FIDE chess vs @dave: you must move; no clock.\n"
                "Challenges for you:\n"
                "#2 FIDE chess from @carol: !accept 2 or !decline 2, until 2023-11-21 22:13 UTC.\n"
                "Waiting on your opponents: #4 (@erin, until 2023-11-17 22:13 UTC, your forecast "
                "ready).\n"});
}

TEST_CASE("No digest is sent when no decision waits, nor to those who did not ask",
          "[bot][digest]") {
    Fixture f;
    f.post("alice", "!settings digest=on");
    f.post("carol", "!settings digest=on");
    f.start_game({"e4"}); // bob must move; alice waits
    f.drain();
    *f.now = start + 2 * day;
    f.service.tick();
    CHECK(f.drain().empty());
    f.post("carol", "!settings digest=off");
    CHECK(f.drain() == Texts{"#lobby: Settings of @carol for what I send you privately: "
                             "orientation=auto notation=ascii images=off reminders=off "
                             "digest=off language=auto."});
    CHECK_FALSE(f.store->digest(f.store->player_by_account("console", "carol")->id));
    f.post("carol", "!settings digest=25");
    CHECK(f.drain() == Texts{"#lobby: I did not understand \"digest=25\". Use: !settings "
                             "[orientation=white|black|auto] [notation=ascii|unicode] "
                             "[images=on|off] [reminders=on|off] [digest=on|off|<hour>] "
                             "[language=<language>|auto]"});
}

TEST_CASE("A digest missed while the service was down comes once, then at its hour again",
          "[bot][digest]") {
    Fixture f;
    f.post("bob", "!settings digest=on"); // 08:00 UTC
    f.start_game({"e4"}, "tc=none");
    f.drain();
    *f.now = start + 5 * day; // five digests' hours passed unseen
    f.service.tick();
    CHECK(f.drain().size() == 1);
    const auto d = f.store->digest(f.store->player_by_account("console", "bob")->id);
    REQUIRE(d);
    CHECK(d->hour == 8);
    CHECK(d->next_at == 1700467200); // 2023-11-20 08:00 UTC, the first after now
}

TEST_CASE("Every way a game ends clears its forecasts without a word about them",
          "[bot][forecast]") {
    bot::ServiceSettings settings;
    settings.moderators = {"mod"};
    const std::vector<std::pair<std::string, std::vector<std::string>>> endings{
        {"agreed draw", {"alice: !draw", "bob: !draw"}},
        {"abort", {"bob: !abort"}},
        {"void", {"mod: !mod void 1"}},
        {"adjudication", {"mod: !mod adjudicate 1 1/2-1/2"}},
        {"forfeit", {"mod: !mod forfeit 1 @alice"}},
        {"timeout", {"~ 4d"}},
    };
    for (const auto& [name, posts] : endings) {
        SECTION(name) {
            Fixture f(settings);
            // bob has not moved, so an abort is still allowed; alice's forecast waits on him.
            f.start_game({"e4"});
            f.dm("alice", "!forecast 1 e5 Nf3");
            f.drain();
            REQUIRE(f.store->forecasts(1).size() == 1);
            for (const auto& p : posts) {
                if (p == "~ 4d") {
                    *f.now += 4 * day;
                    f.service.tick();
                } else {
                    const auto colon = p.find(": ");
                    f.post(p.substr(0, colon), p.substr(colon + 2));
                }
            }
            CHECK(f.store->game(1)->status != storage::GameStatus::Ongoing);
            CHECK(f.store->forecasts(1).empty());
            const auto replies = f.drain();
            CHECK(std::none_of(replies.begin(), replies.end(), [](const std::string& r) {
                return r.find("forecast") != std::string::npos;
            }));
        }
    }
}

TEST_CASE("A paused game keeps its forecast, and a banned owner's reply is not played",
          "[bot][forecast]") {
    bot::ServiceSettings settings;
    settings.moderators = {"mod"};
    Fixture f(settings);
    f.start_game({"e4", "e5"});
    f.dm("bob", "!forecast 1 Nf3 Nc6 Bb5 a6");
    f.post("mod", "!mod pause 1");
    f.post("alice", "Nf3");
    CHECK(f.log_texts() == Texts{"e4", "e5"});
    f.post("mod", "!mod resume 1");
    f.post("alice", "Nf3");
    CHECK(f.log_texts() == Texts{"e4", "e5", "Nf3", "Nc6"});
    f.drain();

    f.post("mod", "!mod ban @bob");
    f.post("alice", "Bb5");
    CHECK(f.log_texts() == Texts{"e4", "e5", "Nf3", "Nc6", "Bb5"});
    CHECK(f.drain().back() == "@bob: Game #1: you are banned here by a moderator, so your "
                              "forecast did not answer Bb5 with a6. The decision is yours; the "
                              "forecast stays, its lines now starting with that reply.");
    CHECK(f.lines_of(Seat::Black) == Lines{{"a6"}});
}

TEST_CASE("A forecast follows turns of several decisions, and texts of several words",
          "[bot][forecast]") {
    Fixture f;
    // Ghost Chess: the Ghost's capture of a pawn asks the Paradigm for a Respawn in her turn,
    // then it is his move; her capture of a knight has her place the rescued knight.
    f.start_game({"e4", "Qd4", "Nc3"}, "", "ghost");
    f.dm("alice", "!forecast 1 Qxf2 Respawn d1 a3 Qxg1 N@d8 h3");
    CHECK(f.lines_of(Seat::White) == Lines{{"Qxf2", "Respawn d1", "a3", "Qxg1", "N@d8", "h3"}});
    f.post("bob", "Qxf2");
    CHECK(f.log_texts() == Texts{"e4", "Qd4", "Nc3", "Qxf2", "Respawn d1", "a3"});
    f.post("bob", "Qxg1");
    CHECK(f.log_texts().back() == "Qxg1"); // she places her knight before he answers
    f.post("bob", "N@d8");
    CHECK(f.log_texts() ==
          Texts{"e4", "Qd4", "Nc3", "Qxf2", "Respawn d1", "a3", "Qxg1", "N@d8", "h3"});
    CHECK(f.store->forecasts(1).empty());
}
