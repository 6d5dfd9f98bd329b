// The service's time-driven job (Service::tick, Service::start_up) and the moderators' audit
// log, driven through a Service on a real SQLite store with a clock the test moves.
#include "../storage/temp_path.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/service/service.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

using namespace ghostpost;
using bot::Post;
using bot::Service;
using ghostpost::testing::TempPath;

namespace {

constexpr std::int64_t start = 1700000000; // 2023-11-14 22:13:20 UTC
constexpr std::int64_t day = 86400;

struct Fixture {
    TempPath path;
    std::unique_ptr<storage::Store> store = storage::open_sqlite_store(path.str());
    std::shared_ptr<std::int64_t> now = std::make_shared<std::int64_t>(start);
    Service service;
    int next_id = 1;

    explicit Fixture(bot::ServiceSettings settings = {})
        : service(*store, std::move(settings), [n = now] { return *n; }) {}

    void post(const std::string& user, const std::string& text,
              const std::string& channel = "lobby") {
        Post p;
        p.platform = "console";
        p.channel = channel;
        p.message_id = std::to_string(next_id++);
        p.author_id = user;
        p.author_name = user;
        p.author_handle = user;
        p.text = text;
        service.handle(p);
    }
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
    // alice (White) and bob play game #1; alice has moved, so bob's clock runs.
    void start_game(const std::string& tc) {
        post("alice", "!new chess @bob tc=" + tc);
        post("bob", "!accept");
        post("alice", "e4");
        drain();
    }
    // The same, with both sides' first moves and alice's second: a timeout now is a loss, no
    // longer the abort of a game that never began.
    void start_game_both_moved(const std::string& tc) {
        start_game(tc);
        post("bob", "e5");
        post("alice", "Nf3");
        drain();
    }
};

} // namespace

TEST_CASE("The job ends a game on time only once the clock of the seat to move has run out",
          "[bot][clock]") {
    Fixture f;
    f.start_game_both_moved("1d");
    *f.now = start + day - 1;
    CHECK(f.service.tick() == 0);
    CHECK(f.store->game(1)->status == storage::GameStatus::Ongoing);
    CHECK(f.drain().empty());

    *f.now = start + day + 3600;
    CHECK(f.service.tick() == 1);
    auto g = f.store->game(1);
    CHECK(g->status == storage::GameStatus::Finished);
    CHECK(g->result == "1-0");
    CHECK(g->reason == "timeout");
    auto replies = f.drain();
    REQUIRE_FALSE(replies.empty());
    // The flag fell at the deadline, not when the job happened to look.
    CHECK(replies.front() == "#lobby: @bob (Black) ran out of time in game #1 at 2023-11-15 "
                             "22:13 UTC. Game #1 is over: @alice (White) wins by timeout (1-0).");
    CHECK(f.service.tick() == 0);
}

TEST_CASE("A move after the deadline is refused and the game ends on time", "[bot][clock]") {
    Fixture f;
    f.start_game_both_moved("1d");
    *f.now = start + 2 * day; // the job did not run meanwhile
    f.post("bob", "!move Nc6");
    CHECK(f.store->action_count(1) == 3);
    CHECK(f.store->game(1)->reason == "timeout");
    auto replies = f.drain();
    REQUIRE_FALSE(replies.empty());
    CHECK(replies.front().starts_with("#lobby: @bob (Black) ran out of time in game #1 at "
                                      "2023-11-15 22:13 UTC."));
}

TEST_CASE("A side that could not mate does not win when the other runs out of time",
          "[bot][clock][variant:chess]") {
    const rules::Variant* chess = rules::find_variant("chess");
    REQUIRE(chess != nullptr);
    auto could_win = [&](const char* fen, rules::Seat seat) {
        auto g = chess->start({}, fen);
        REQUIRE(g);
        return g.value()->could_win(seat);
    };
    // A lone king against a rook: only the rook's side can win.
    CHECK_FALSE(could_win("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", rules::Seat::Black));
    CHECK(could_win("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", rules::Seat::White));
    // A knight against a bare king cannot mate; against a pawn a helpmate exists.
    CHECK_FALSE(could_win("8/8/8/4k3/8/8/8/N3K3 w - - 0 1", rules::Seat::White));
    CHECK(could_win("8/8/8/4k3/8/4p3/8/N3K3 w - - 0 1", rules::Seat::White));
    CHECK(
        could_win("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", rules::Seat::Black));
}

TEST_CASE("Per-move time refills after a move and increments stop at the cap", "[bot][clock]") {
    Fixture f;
    f.start_game("2d+1d/3d");
    *f.now = start + 3600;
    f.post("bob", "e5");
    auto clocks = f.store->clocks(1);
    REQUIRE(clocks.size() == 2);
    // bob spent an hour, got a day back, and the cap holds him at 3 days.
    CHECK(clocks[1].seat == rules::Seat::Black);
    CHECK(clocks[1].remaining == 2 * day + day - 3600);
    CHECK(clocks[1].running_since == 0);
    CHECK(clocks[0].running_since == start + 3600);
    CHECK(clocks[0].remaining == 3 * day);
}

TEST_CASE("The 80 percent reminder goes out once, and only to a player who opted in",
          "[bot][clock]") {
    Fixture f;
    f.post("bob", "!settings reminders=on");
    f.start_game("5d");
    *f.now = start + 4 * day - 60;
    f.service.tick();
    CHECK(f.drain().empty());
    *f.now = start + 4 * day;
    CHECK(f.service.tick() == 1);
    CHECK(f.drain() == std::vector<std::string>{
                           "@bob: Game #1, FIDE chess: 80 % of your time for this decision is "
                           "used. Your time runs out at 2023-11-19 22:13 UTC (1d 0h from now)."});
    *f.now = start + 4 * day + 3600;
    CHECK(f.service.tick() == 0);
    CHECK(f.drain().empty());
    // alice did not opt in: her turn comes and goes without a private word.
    f.post("bob", "e5");
    *f.now += 4 * day + 3600;
    f.service.tick();
    for (const auto& r : f.drain())
        CHECK_FALSE(r.starts_with("@alice"));
}

TEST_CASE("The job writes a heartbeat; start-up forgives only a gap longer than the threshold",
          "[bot][clock]") {
    Fixture f;
    f.start_game("2d");
    f.service.tick();
    CHECK(f.store->heartbeat() == start);

    *f.now = start + 60; // a quick restart is ordinary time
    CHECK(f.service.start_up() == 0);
    CHECK(f.store->clocks(1)[1].running_since == start);
    CHECK(f.store->heartbeat() == start + 60);

    *f.now = start + 60 + day;
    CHECK(f.service.start_up() == 1);
    CHECK(f.store->clocks(1)[1].running_since == start + day);
    auto replies = f.drain();
    REQUIRE(replies.size() == 1);
    CHECK(replies[0].starts_with("#lobby: I was down from 2023-11-14 22:14 UTC to "
                                 "2023-11-15 22:14 UTC (1d 0h). That time is charged to nobody: "
                                 "the clocks stood still.\nGame #1. Clock (2d per move; rated): "));
    CHECK(f.store->heartbeat() == start + 60 + day);
}

TEST_CASE("After downtime each channel is told once, whatever number of its games it concerns",
          "[bot][clock]") {
    Fixture f;
    f.start_game("2d"); // game #1 in the lobby
    f.post("carol", "!new chess @dave tc=2d");
    f.post("dave", "!accept 2");
    f.post("carol", "!move 2 d4");
    f.post("erin", "!new chess @fred tc=2d", "annex");
    f.post("fred", "!accept 3", "annex");
    f.post("erin", "!move 3 c4", "annex");
    f.service.tick();
    f.drain();
    *f.now = start + day;
    CHECK(f.service.start_up() == 3);
    const auto replies = f.drain();
    REQUIRE(replies.size() == 2);
    const std::string notice = "I was down from 2023-11-14 22:13 UTC to 2023-11-15 22:13 UTC (1d "
                               "0h). That time is charged to nobody: the clocks stood still.\n";
    CHECK(replies[0] == "#annex: " + notice +
                            "Game #3. Clock (2d per move; rated): @erin (White) 2d 0h left; @fred "
                            "(Black) 2d 0h left, until 2023-11-17 22:13 UTC.");
    CHECK(replies[1] == "#lobby: " + notice +
                            "Game #1. Clock (2d per move; rated): @alice (White) 2d 0h left; @bob "
                            "(Black) 2d 0h left, until 2023-11-17 22:13 UTC.\n"
                            "Game #2. Clock (2d per move; rated): @carol (White) 2d 0h left; @dave "
                            "(Black) 2d 0h left, until 2023-11-17 22:13 UTC.");
}

TEST_CASE("A vacation stops the clock and its unused days go back to the allowance",
          "[bot][clock]") {
    Fixture f;
    f.start_game("2d");
    f.post("bob", "!vacation 3d");
    CHECK(f.store->clocks(1)[1].running_since == 0);
    CHECK(f.store->player_by_handle("console", "bob")->vacation_used == 3 * day);
    *f.now = start + day;
    f.post("bob", "!vacation off");
    auto bob = f.store->player_by_handle("console", "bob");
    CHECK(bob->vacation_used == day);
    CHECK(bob->vacation_until == start + day);
    CHECK(f.store->clocks(1)[1].running_since == start + day);
    CHECK(f.store->clocks(1)[1].remaining == 2 * day);
    f.drain();
    f.post("bob", "!vacation 30d");
    CHECK(f.drain() == std::vector<std::string>{"#lobby: Not enough vacation left: @bob has 29 of "
                                                "30 vacation days left in 2023."});
}

TEST_CASE("At the combat deadline the job answers default for the seats still choosing",
          "[bot][clock][variant:gnostic]") {
    bot::ServiceSettings settings;
    settings.combat_deadline = 6 * 3600;
    Fixture f(settings);
    f.post("alice", "!new gnostic @bob tc=3d");
    f.post("bob", "!accept");
    f.post("alice", "Nc3");
    f.post("bob", "Nf6");
    f.post("alice", "Nd5");
    // A combat on d5 between knights: both must choose their dice (a pawn's only choice, roll
    // 1, would be made for it at once).
    f.post("bob", "Nxd5");
    f.drain();
    *f.now = start + 6 * 3600 - 1;
    f.service.tick();
    CHECK(f.store->action_count(1) == 4);
    *f.now = start + 6 * 3600;
    CHECK(f.service.tick() == 1);
    auto log = f.store->actions(1);
    REQUIRE(log.size() == 6);
    CHECK(log[4].text == "default");
    CHECK(log[5].text == "default");
    CHECK(log[4].seat != log[5].seat);
    bool noted = false;
    for (const auto& r : f.drain())
        noted = noted || (r.starts_with("#lobby: ") &&
                          r.find("did not answer in time") != std::string::npos);
    CHECK(noted);
}

TEST_CASE("Every moderator action is in the audit log with who, what and when; others are not",
          "[bot][mod]") {
    bot::ServiceSettings settings;
    settings.moderators = {"carol"};
    Fixture f(settings);
    f.start_game("3d");
    f.post("bob", "!mod pause 1");
    CHECK(f.drain() == std::vector<std::string>{"#lobby: Only moderators may use !mod, and @bob "
                                                "is not one here. Nothing was done."});
    CHECK_FALSE(f.store->game(1)->paused);
    CHECK(f.store->mod_actions("console", 10).empty());

    *f.now = start + 100;
    f.post("carol", "!mod pause 1");
    *f.now = start + 200;
    f.post("carol", "!mod adjudicate 1 0-1");
    f.post("carol", "!mod pause 7"); // no such game: refused, not logged
    auto log = f.store->mod_actions("console", 10);
    REQUIRE(log.size() == 2);
    CHECK(log[0].moderator == "carol");
    CHECK(log[0].action == "pause #1");
    CHECK(log[0].at == start + 100);
    CHECK(log[1].action == "adjudicate #1 0-1");
    CHECK(log[1].at == start + 200);
    CHECK(f.store->game(1)->result == "0-1");
    CHECK(f.store->game(1)->reason == "adjudication");
    CHECK(f.store->mod_actions("telegram", 10).empty());
}

TEST_CASE("The audit log lists the latest entries of a platform, oldest first", "[storage][mod]") {
    TempPath path;
    auto store = storage::open_sqlite_store(path.str());
    for (int i = 1; i <= 4; ++i)
        store->log_mod_action({0, "console", "carol", "void #" + std::to_string(i), start + i});
    store->log_mod_action({0, "telegram", "dave", "log", start});
    auto latest = store->mod_actions("console", 2);
    REQUIRE(latest.size() == 2);
    CHECK(latest[0].action == "void #3");
    CHECK(latest[1].action == "void #4");
    CHECK(latest[1].at == start + 4);
    CHECK(store->mod_actions("telegram", 5).size() == 1);
}
