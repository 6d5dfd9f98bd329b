// Safe on the open internet (issue 33): per-player limits on games and commands, the bot's
// thinking shared fairly among players, bans that silence, invitation codes sent privately, a
// complete moderator log and user text made harmless in replies and stored names.
#include "../storage/temp_path.h"
#include "ghostpost/service/command.h"
#include "ghostpost/service/engine_player.h"
#include "ghostpost/service/service.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace ghostpost;
using bot::Post;
using ghostpost::testing::TempPath;

namespace {

// One service on one store, posts of several platforms, a clock the test moves.
class Room {
public:
    explicit Room(bot::ServiceSettings settings = {})
        : store_(storage::open_sqlite_store(path_.str())),
          service_(*store_, std::move(settings), [this] { return now; }) {}

    // Posts `text` as `user` of `platform` in channel "g" (direct: a direct message); returns
    // what went out, each "<destination>: <text>" ("dm <user>" for a direct message).
    std::vector<std::string> say(const std::string& user, const std::string& text,
                                 bool direct = false, const std::string& platform = "console",
                                 const std::string& name = {}) {
        Post p;
        p.platform = platform;
        p.direct = direct;
        p.channel = direct ? user : "g";
        p.message_id = std::to_string(++sequence_);
        p.author_id = user;
        p.author_name = name.empty() ? user : name;
        p.author_handle = name.empty() ? user : "";
        p.text = text;
        service_.handle(p);
        return replies();
    }
    std::vector<std::string> replies() {
        std::vector<std::string> out;
        for (const std::string platform : {"console", "telegram", "discord"})
            for (const auto& e : store_->due(platform, 2000000000, 1000)) {
                out.push_back((e.message.to_user ? "dm " : "") + e.message.destination + ": " +
                              e.message.text +
                              (e.message.code.empty() ? "" : "\n" + e.message.code));
                store_->mark_sent(e.id, 0);
            }
        return out;
    }
    // The moderator log's rows, sorted (rows of one second come in no particular order).
    std::vector<std::string> mod_log() {
        std::vector<std::string> out;
        for (const auto& e : store_->mod_actions("console", 100))
            out.push_back(e.action);
        std::sort(out.begin(), out.end());
        return out;
    }
    // The id of the game made last, as text.
    std::string newest_game() {
        std::int64_t id = 0;
        while (store_->game(id + 1))
            ++id;
        return std::to_string(id);
    }
    storage::Store& store() { return *store_; }
    bot::Service& service() { return service_; }
    std::int64_t now = 1700000000;

private:
    TempPath path_;
    std::unique_ptr<storage::Store> store_;
    bot::Service service_;
    int sequence_ = 0;
};

std::string code_in(const std::string& text) {
    std::smatch m;
    REQUIRE(std::regex_search(text, m, std::regex("[A-Z2-9]{4}-[A-Z2-9]{4}")));
    return m.str();
}

std::size_t moves_in(Room& room, std::int64_t game) {
    return room.store().actions(game).size();
}

} // namespace

TEST_CASE("A player may have three games against the bot under way, and the fourth is refused "
          "with the limit",
          "[bot][limits]") {
    Room room;
    for (int i = 0; i < 3; ++i)
        REQUIRE(room.say("alice", "!new chess bot black level=1 tc=none")
                    .front()
                    .starts_with("g: @alice plays ghostpost (level 1), game #"));
    CHECK(room.say("alice", "!new chess bot black level=1 tc=none") ==
          std::vector<std::string>{
              "g: You have 3 games against the bot under way (#1, #2, #3), as many as one "
              "player may have (3): finish one first. Nothing was created."});
    CHECK_FALSE(room.store().game(4));
    // Another player is not held back by alice's games.
    CHECK(room.say("bob", "!new chess bot black level=1 tc=none")
              .front()
              .starts_with("g: @bob plays ghostpost (level 1), game #4."));
    // A game over makes room.
    room.say("alice", "!resign 2");
    CHECK(room.say("alice", "!new chess bot black level=1 tc=none")
              .front()
              .starts_with("g: @alice plays ghostpost (level 1), game #5."));
}

TEST_CASE("Games under way and open challenges are capped per player, on !new and on !accept",
          "[bot][limits]") {
    bot::ServiceSettings settings;
    settings.max_open_games = 2;
    Room room(settings);
    room.say("alice", "!new chess @bob");
    room.say("alice", "!new chess @carol");
    CHECK(room.say("alice", "!new chess @dave") ==
          std::vector<std::string>{"g: You have 2 games under way and open challenges, as many "
                                   "as one player may have (2): finish or cancel one first. "
                                   "Nothing was created."});
    room.say("bob", "!new chess @erin");
    room.say("bob", "!new chess @frank");
    CHECK(room.say("bob", "!accept 1") ==
          std::vector<std::string>{"g: You have 2 games under way and open challenges, as many "
                                   "as one player may have (2): finish or cancel one first. "
                                   "Challenge #1 stays open."});
    CHECK(room.store().game(1)->status == storage::GameStatus::Challenge);
    room.say("bob", "!cancel 3");
    CHECK(room.say("bob", "!accept 1").front().starts_with("g: @bob accepts."));
}

namespace {

// alice's six games against the bot and then bob's one, the bot playing White in each.
void six_and_one(Room& room) {
    for (int i = 0; i < 6; ++i)
        room.say("alice", "!new chess bot black level=1 tc=none");
    room.say("bob", "!new chess bot black level=1 tc=none");
    REQUIRE(room.store().game(7));
}

} // namespace

TEST_CASE("The bot's thoughts take the players in turn: one player's many games do not hold up "
          "another's",
          "[bot][limits][engine]") {
    bot::ServiceSettings settings;
    settings.max_bot_games = 10;
    for (const bool synchronous : {true, false}) {
        INFO((synchronous ? "synchronous" : "on a worker"));
        Room room(settings);
        six_and_one(room);
        std::mutex m;
        std::vector<std::int64_t> order; // games, in the order they were thought about
        bot::EngineQueueOptions options;
        options.workers = 1;
        options.think = [&](const bot::EngineTurn& turn) {
            const std::lock_guard lock(m);
            order.push_back(turn.game_id);
            return "move " + std::to_string(turn.game_id) + " e4";
        };
        bot::EnginePlayer engine(synchronous, options);
        for (int i = 0; i < 2000 && moves_in(room, 7) == 0; ++i) {
            engine.step(room.service(), "console");
            std::this_thread::sleep_for(std::chrono::milliseconds(synchronous ? 0 : 2));
        }
        CHECK(engine.take_failures().empty());
        // bob's game had its move second, while four of alice's still waited.
        CHECK(moves_in(room, 7) == 1);
        const std::lock_guard lock(m);
        CHECK(std::vector<std::int64_t>(order.begin(), order.begin() + 2) ==
              std::vector<std::int64_t>{1, 7});
        if (!synchronous) {
            std::size_t answered = 0;
            for (std::int64_t g = 1; g <= 6; ++g)
                answered += moves_in(room, g);
            CHECK(answered <= 2);
        }
    }
}

TEST_CASE("The bot thinks about at most `workers` decisions at once and queues at most "
          "max_waiting; every decision is answered in the end",
          "[bot][limits][engine]") {
    bot::ServiceSettings settings;
    settings.max_bot_games = 10;
    Room room(settings);
    six_and_one(room);
    std::atomic<int> thinking{0};
    std::atomic<int> most{0};
    bot::EngineQueueOptions options;
    options.workers = 2;
    options.max_waiting = 3;
    options.think = [&](const bot::EngineTurn& turn) {
        const int now = ++thinking;
        int seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        --thinking;
        return "move " + std::to_string(turn.game_id) + " e4";
    };
    bot::EnginePlayer engine(false, options);
    std::size_t most_waiting = 0;
    auto all_moved = [&] {
        for (std::int64_t g = 1; g <= 7; ++g)
            if (moves_in(room, g) == 0)
                return false;
        return true;
    };
    for (int i = 0; i < 3000 && !all_moved(); ++i) {
        engine.step(room.service(), "console");
        most_waiting = std::max(most_waiting, engine.waiting());
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    CHECK(all_moved());
    CHECK(most.load() == 2);
    CHECK(most_waiting == 3);
    CHECK(engine.take_failures().empty());
}

TEST_CASE("Past commands_per_minute an account gets one notice, then silence until the minute "
          "is over",
          "[bot][limits]") {
    bot::ServiceSettings settings;
    settings.commands_per_minute = 3;
    Room room(settings);
    const std::vector<std::string> none{"g: @alice has no game under way and no open challenge."};
    for (int i = 0; i < 3; ++i)
        CHECK(room.say("alice", "!games") == none);
    CHECK(room.say("alice", "!games") ==
          std::vector<std::string>{"g: @alice: that is more than 3 commands in a minute. I "
                                   "answer your commands again from 2023-11-14 22:14 UTC; until "
                                   "then they are not read."});
    room.now += 30;
    CHECK(room.say("alice", "!games").empty());
    CHECK(room.say("alice", "!new chess @bob").empty());
    CHECK_FALSE(room.store().game(1));
    // Another account is answered meanwhile.
    CHECK(room.say("bob", "!games") ==
          std::vector<std::string>{"g: @bob has no game under way and no open challenge."});
    room.now += 30;
    CHECK(room.say("alice", "!games") == none);
}

TEST_CASE("A banned account's posts get no reply at all, on every account linked to the player",
          "[bot][limits][mod]") {
    bot::ServiceSettings settings;
    settings.moderators = {"carol"};
    Room room(settings);
    room.say("bob", "!new chess @alice tc=none");
    room.say("alice", "!accept 1");
    // alice's Telegram account joins her console one.
    const auto code = code_in(room.say("alice", "!link", true).front());
    REQUIRE(room.say("900", "!link " + code, true, "telegram", "alice_tg").size() == 1);
    CHECK(room.say("carol", "!mod ban @alice flooding") ==
          std::vector<std::string>{"g: @alice is banned by moderator @carol (flooding): their "
                                   "commands and moves are refused until !mod unban @alice."});
    CHECK(room.say("alice", "!games").empty());
    CHECK(room.say("alice", "!help", true).empty());
    CHECK(room.say("alice", "hello", true).empty());
    room.say("bob", "e4");
    CHECK(room.say("alice", "e5").empty());
    CHECK(room.say("900", "!games", true, "telegram", "alice_tg").empty());
    CHECK(room.store().actions(1).size() == 1);
    room.say("carol", "!mod unban @alice");
    CHECK(room.say("alice", "e5").size() == 1);
    CHECK(room.store().actions(1).size() == 2);
    CHECK(room.say("900", "!games", true, "telegram", "alice_tg").size() == 1);
}

TEST_CASE("!games answers ten games to a page", "[bot][limits]") {
    bot::ServiceSettings settings;
    settings.max_open_challenges = 20;
    Room room(settings);
    for (int i = 1; i <= 12; ++i)
        room.say("alice", "!new chess @p" + std::to_string(i));
    auto out = room.say("alice", "!games");
    REQUIRE(out.size() == 1);
    CHECK(out[0].starts_with("g: Games of @alice, those waiting for them first, page 1 of 2 "
                             "(!games page=2 for the next):\n#1 chess: challenge to @p1, "));
    CHECK(std::count(out[0].begin(), out[0].end(), '\n') == 11);
    CHECK(
        room.say("alice", "!games page=2") ==
        std::vector<std::string>{"g: Games of @alice, those waiting for them first, page 2 of 2:\n"
                                 "#11 chess: challenge to @p11, waiting for an answer\n"
                                 "#12 chess: challenge to @p12, waiting for an answer\n"});
    CHECK(room.say("alice", "!games page=3") ==
          std::vector<std::string>{"g: There are 2 pages of games, not 3."});
}

TEST_CASE("!invite sends its code privately; the channel hears only that it was sent",
          "[bot][limits][link]") {
    Room room;
    room.say("bob", "!new chess @alice tc=none");
    room.say("alice", "!accept 1");
    const auto out = room.say("alice", "!invite telegram");
    REQUIRE(out.size() == 2);
    const std::string code = code_in(out[0]);
    CHECK(out[0] == "dm alice: To follow game #1 in a telegram channel, post !join " + code +
                        " there within 15 minutes: it will get every public reply of the game, "
                        "and its players may play from there.");
    CHECK(out[1] == "g: @alice: I sent you the invitation code for game #1 privately.");
}

TEST_CASE("Every action a moderator's rights made possible is in the moderator log, for every "
          "command of the table",
          "[bot][limits][mod]") {
    bot::ServiceSettings settings;
    settings.moderators = {"carol"};
    Room room(settings);
    // What a moderator may do to what is not theirs, by command, with the log rows it leaves.
    using Scenario = std::function<std::vector<std::string>()>;
    const std::map<std::string, Scenario> moderated{
        {"abort",
         [&] {
             room.say("alice", "!new chess @bob tc=none");
             const std::string g = room.newest_game();
             room.say("bob", "!accept " + g);
             room.say("carol", "!abort " + g);
             CHECK(room.store().game(std::stoll(g))->status == storage::GameStatus::Aborted);
             return std::vector<std::string>{"abort #" + g};
         }},
        {"cancel",
         [&] {
             room.say("alice", "!new chess @bob tc=none");
             const std::string g = room.newest_game();
             room.say("carol", "!cancel " + g);
             CHECK(room.store().game(std::stoll(g))->status == storage::GameStatus::Cancelled);
             return std::vector<std::string>{"cancel #" + g};
         }},
        {"channel",
         [&] {
             room.say("carol", "!channel settings orientation=black");
             return std::vector<std::string>{"channel g orientation=black"};
         }},
        {"mod",
         [&] {
             room.say("alice", "!new chess @bob tc=1d");
             const std::string g = room.newest_game();
             room.say("bob", "!accept " + g);
             for (const std::string& c :
                  {"pause " + g, "resume " + g, "extend " + g + " 1d", std::string("ban @dave"),
                   std::string("unban @dave"), "adjudicate " + g + " 1-0"})
                 room.say("carol", "!mod " + c);
             return std::vector<std::string>{"adjudicate #" + g + " 1-0",
                                             "ban @dave",
                                             "extend #" + g + " 1d",
                                             "pause #" + g,
                                             "resume #" + g,
                                             "unban @dave"};
         }},
        {"team",
         [&] {
             room.say("alice", "!team join");
             room.say("carol", "!team name Owls");
             return std::vector<std::string>{"team g name Owls"};
         }},
        {"tourney",
         [&] {
             room.say("alice", "!tourney create cup chess roundrobin next=manual");
             for (const char* who : {"alice", "bob", "erin"})
                 room.say(who, "!tourney join cup");
             room.say("carol", "!tourney start cup");
             // Round 1's one game ends; carol, neither its creator nor a player, starts round 2.
             const auto games = room.store().games_with_status({storage::GameStatus::Ongoing});
             REQUIRE(games.size() == 1);
             const auto& g = games.front();
             const auto white = room.store().player(*g.white);
             room.say(white->user_id, "!resign " + std::to_string(g.id));
             room.say("carol", "!tourney next cup");
             return std::vector<std::string>{"tourney start cup", "tourney next cup round 2"};
         }},
    };
    // Commands whose every use is of the author's own things, or reads only.
    const std::set<std::string> own_only{
        "new",      "accept",  "decline",     "move", "forecast", "peek", "board",
        "games",    "history", "pgn",         "fen",  "resign",   "draw", "takeback",
        "rules",    "verify",  "help",        "link", "invite",   "join", "settings",
        "vacation", "rating",  "leaderboard", "vote"};
    room.say("dave", "hello"); // known, to be banned
    for (const auto& command : bot::command_menu()) {
        INFO(command.name);
        if (own_only.contains(command.name))
            continue;
        const auto it = moderated.find(command.name);
        REQUIRE(it != moderated.end()); // a new command must say whether moderators use it
        const auto before = room.mod_log();
        auto expected = it->second();
        std::sort(expected.begin(), expected.end());
        const auto after = room.mod_log();
        std::vector<std::string> added;
        std::set_difference(after.begin(), after.end(), before.begin(), before.end(),
                            std::back_inserter(added));
        CHECK(added == expected);
    }
    CHECK(room.mod_log().size() == 12);
}

TEST_CASE("Control characters are not echoed, and invisible or direction-changing characters "
          "in names show",
          "[bot][limits]") {
    Room room;
    const auto out = room.say("alice", "!zz\x1b[2J\x07", true);
    REQUIRE(out.size() == 1);
    CHECK(out[0].find('\x1b') == std::string::npos);
    CHECK(out[0].find('\x07') == std::string::npos);
    CHECK(out[0].starts_with("dm alice: There is no command !zz[2j"));
    CHECK(room.say("bob", "!zz\u202Eevil", true)[0].find("\u202E") == std::string::npos);

    room.say("u1", "hello", false, "console", "ali\u200Bce");
    CHECK(room.store().player_by_account("console", "u1")->name == "ali\uFFFDce");
    room.say("u2", "hello", false, "console", "bob\u202Egnp.exe");
    CHECK(room.store().player_by_account("console", "u2")->name == "bob\uFFFDgnp.exe");
    room.say("u3", "hello", false, "console", "eve\nline\x1b[31m");
    CHECK(room.store().player_by_account("console", "u3")->name == "eveline[31m");
    CHECK(room.say("u1", "!new chess @bob", false, "console", "ali\u200Bce").front() ==
          "g: ali\uFFFDce challenges @bob to FIDE chess, game #1. ali\uFFFDce would play White. "
          "Options: none. Clock: 3d per move; rated. @bob: answer !accept 1 or !decline 1.");

    CHECK(bot::harmless_text("a\tb\nc\rd\x7f\xc2\x85"
                             "e\u2028f") == "a\tb\ncdef");
    CHECK(bot::harmless_text("\xff ok") == "\uFFFD ok");
    CHECK(bot::harmless_name("\u2066x\u2069\u00AD") == "\uFFFDx\uFFFD\uFFFD");
}
