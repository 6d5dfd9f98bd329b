// Issue 32, non-interference for Gnostic Chess: random scripts of posts (both players' legal and
// illegal moves, commands, a spectator, the bot, dice choices and standing policies by direct
// message) are run twice through the service, the two runs differing only in one player's
// hidden inputs: the standing policies that player sets and the first dice choices of rounds
// that player makes. Every message to anyone else (the channel, the opponent, the spectator)
// must be the same byte for byte in both runs. The one exception is what the rules make public:
// the post that completes a round in which the owner's secret choices differed reveals them
// (and rolls other dice); each script ends with that post, and it is the only one excused.
//
// To keep the runs comparable, a secret choice that differs is taken back before the round is
// completed (the takeback of a secret choice names it "{a secret choice}"), and before an attack
// both runs set the same standing policy: a policy that a combat uses is public from then on.
#include "../storage/temp_path.h"
#include "ghostpost/rules/game.h"
#include "ghostpost/service/engine_player.h"
#include "ghostpost/service/game_loader.h"
#include "ghostpost/service/service.h"
#include "ghostpost/storage/sqlite.h"

#include <array>
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

using namespace ghostpost;
using ghostpost::testing::TempPath;
using rules::Seat;

namespace {

std::int64_t fixed_clock() {
    return 1700000000;
}

struct Sent {
    bool to_user = false;
    std::string destination;
    std::string text; // text, code block and whether an image came with it
    bool operator==(const Sent&) const = default;
};

// One run: the service, the bot playing its seats, and what was sent after each post.
class Run {
public:
    Run()
        : store_(storage::open_sqlite_store(path_.str())),
          service_(*store_, settings(), fixed_clock) {}

    static bot::ServiceSettings settings() {
        bot::ServiceSettings s;
        s.fixed_seed = "noninterference";
        return s;
    }

    std::vector<Sent> post(const std::string& user, const std::string& text, bool dm) {
        bot::Post p;
        p.platform = "console";
        p.channel = dm ? "@" + user : "lobby";
        p.message_id = std::to_string(++sequence_);
        p.author_id = user;
        p.author_name = user;
        p.author_handle = user;
        p.text = text;
        p.direct = dm;
        service_.handle(p);
        engine_.step(service_, "console");
        CHECK(engine_.take_failures().empty());
        std::vector<Sent> out;
        for (const auto& e : store_->due("console", 2000000000, 1000)) {
            out.push_back({e.message.to_user, e.message.destination,
                           e.message.text + "\n" + e.message.code +
                               (e.message.png.empty() ? "" : "\n[image]")});
            store_->mark_sent(e.id, 0);
        }
        return out;
    }

    std::unique_ptr<rules::Game> game(std::int64_t id) {
        auto rec = store_->game(id);
        REQUIRE(rec);
        return bot::load_game(*rec, store_->actions(id)).game;
    }
    storage::Store& store() { return *store_; }

private:
    TempPath path_{"gnostic-ni"};
    std::unique_ptr<storage::Store> store_;
    bot::Service service_;
    bot::EnginePlayer engine_{true};
    int sequence_ = 0;
};

// What was sent to anyone but `owner`.
std::vector<Sent> seen_by_others(const std::vector<Sent>& sent, const std::string& owner) {
    std::vector<Sent> out;
    for (const auto& s : sent)
        if (!(s.to_user && s.destination == owner))
            out.push_back(s);
    return out;
}

std::string listing(const std::vector<Sent>& sent) {
    std::string out;
    for (const auto& s : sent)
        out += (s.to_user ? "@" : "#") + s.destination + ": " + s.text + "\n";
    return out;
}

struct Tally {
    int posts = 0, hidden = 0, takebacks = 0, combats = 0, reveals = 0, bot_games = 0;
};

class Script {
public:
    Script(std::uint32_t seed, bool against_bot, Tally& tally)
        : rng_(seed), bot_game_(against_bot), tally_(tally) {
        players_ = against_bot ? std::array<std::string, 2>{"dave", ""}
                               : std::array<std::string, 2>{"alice", "bob"};
        owner_ = against_bot || rng_() % 2 == 0 ? players_[0] : players_[1];
    }

    void play(int steps) {
        if (bot_game_) {
            same("dave", "!new gnostic bot white level=1 tc=none", false);
            ++tally_.bot_games;
        } else {
            same("alice", "!new gnostic @bob white tc=none", false);
            same("bob", "!accept", false);
        }
        for (int i = 0; i < steps && !over_; ++i)
            step();
    }

private:
    // A post that is the same in both runs: everything sent to others must be equal.
    void same(const std::string& user, const std::string& text, bool dm) {
        both(user, {text, text}, dm, false);
    }
    // A post whose text differs between the runs (the owner's hidden input), or the post that
    // reveals such a difference (`revealing`: excused, and the script ends after it).
    void both(const std::string& user, const std::array<std::string, 2>& text, bool dm,
              bool revealing) {
        const auto a = seen_by_others(runs_[0].post(user, text[0], dm), owner_);
        const auto b = seen_by_others(runs_[1].post(user, text[1], dm), owner_);
        ++tally_.posts;
        if (revealing) {
            ++tally_.reveals;
            over_ = true;
            return;
        }
        INFO("post by " << user << (dm ? " (direct)" : "") << ": " << text[0] << " / " << text[1]
                        << "\nrun A:\n"
                        << listing(a) << "run B:\n"
                        << listing(b));
        REQUIRE(a == b);
        if (runs_[0].game(1)->outcome().over())
            over_ = true;
    }

    std::string pick(const std::vector<std::string>& from) { return from[rng_() % from.size()]; }

    std::string random_policy() {
        return "policy roll " + std::to_string(rng_() % 10 + 1) + " hold " +
               std::to_string(rng_() % 60 + 1);
    }

    // The owner's hidden policy: different in the two runs, used by no combat.
    void hidden_policy() {
        both(owner_, {random_policy(), rng_() % 3 == 0 ? "policy off" : random_policy()}, true,
             false);
        ++tally_.hidden;
        policies_differ_ = true;
    }

    // Before anything that may start or advance a combat, both runs hold the same policies:
    // the one a combat uses is public from then on.
    void same_policies() {
        same(owner_, rng_() % 2 ? "policy off" : random_policy(), true);
        policies_differ_ = false;
    }

    std::string name(Seat s) const { return players_[rules::index(s)]; }

    void spectator() {
        const auto plies = runs_[0].store().action_count(1);
        same("carol",
             pick({"!board 1", "!history 1", "!pgn 1", "!verify 1", "!games",
                   "!board 1 " + std::to_string(rng_() % static_cast<unsigned>(plies + 2))}),
             false);
    }

    void step() {
        auto game = runs_[0].game(1);
        const auto pending = game->pending();
        if (pending.empty()) {
            over_ = true;
            return;
        }
        const int roll = static_cast<int>(rng_() % 12);
        if (roll == 0)
            return spectator();
        if (roll == 1)
            return hidden_policy();
        if (policies_differ_)
            same_policies();
        std::vector<Seat> humans;
        for (const auto& d : pending)
            if (!name(d.seat).empty())
                humans.push_back(d.seat);
        if (humans.empty())
            return spectator(); // the bot decides at once, within the post before
        const Seat seat = humans[rng_() % humans.size()];
        const std::string who = name(seat);
        const auto actions = game->notated_actions(seat);
        REQUIRE_FALSE(actions.empty());
        if (roll == 2) {
            // Something the rules refuse, in the channel: the same answer in both runs.
            return same(who, pick({"Ke5", "Qxh8", "roll 11", "hold", "Heal e4", "Nb5", "O-O"}),
                        false);
        }
        if (actions.front().action.kind == rules::ActionKind::Choice)
            return dice(seat, actions, pending.size() == 2);
        // A move: mostly attacks and pawn or piece moves, now and then a spell.
        std::vector<std::string> attacks, moves, spells;
        for (const auto& a : actions) {
            if (a.action.kind == rules::ActionKind::Special)
                spells.push_back(a.text);
            else if (a.text.find('x') != std::string::npos)
                attacks.push_back(a.text);
            else
                moves.push_back(a.text);
        }
        std::string text;
        if (!attacks.empty() && rng_() % 3 == 0)
            text = pick(attacks);
        else if (!spells.empty() && rng_() % 10 == 0)
            text = pick(spells);
        else if (!moves.empty())
            text = pick(moves);
        else
            text = actions[rng_() % actions.size()].text;
        if (text.find('x') != std::string::npos)
            ++tally_.combats;
        same(who, text, false);
    }

    void dice(Seat seat, const std::vector<rules::NotatedAction>& actions, bool first) {
        const std::string who = name(seat);
        std::vector<std::string> choices{"default"};
        for (const auto& a : actions)
            choices.push_back(a.text);
        if (!first) {
            // The second choice reveals both: the same in both runs, in the channel or not.
            return same(who, pick(choices), rng_() % 2 == 0);
        }
        // Against the bot the owner never chooses first: the bot answers within the post that
        // starts a round.
        if (who != owner_ || bot_game_)
            return same(who, pick(choices), true);
        // The owner chooses first, differently in the two runs: a secret.
        const std::string a = pick(choices);
        std::string b = pick(choices);
        for (int i = 0; i < 8 && b == a; ++i)
            b = pick(choices);
        both(who, {a, b}, true, false);
        ++tally_.hidden;
        const Seat other = rules::opponent(seat);
        if (rng_() % 4 != 0) {
            // Taken back and chosen again alike: the runs stay comparable.
            same(who, "!takeback 1", true);
            same(name(other), "!takeback 1", false);
            ++tally_.takebacks;
            same(who, pick(choices), true);
            return;
        }
        // The other side completes the round: the rules reveal both choices now.
        auto game = runs_[0].game(1);
        const auto theirs = game->notated_actions(other);
        REQUIRE_FALSE(theirs.empty());
        both(name(other), {theirs.front().text, theirs.front().text}, true, true);
    }

    std::mt19937 rng_;
    bool bot_game_;
    Tally& tally_;
    std::array<std::string, 2> players_;
    std::string owner_;
    std::array<Run, 2> runs_;
    bool over_ = false;
    bool policies_differ_ = false;
};

} // namespace

TEST_CASE("Two Gnostic Chess runs that differ only in one player's secret dice choices and "
          "policies look the same to everyone else",
          "[bot][leak][variant:gnostic]") {
    // Four scripts, one against the bot, so the suite's debug build runs it in well under a
    // minute (bench-length runs: raise the count and the steps by hand).
    Tally tally;
    for (std::uint32_t n = 0; n < 4; ++n) {
        INFO("script " << n);
        Script(3200 + n, n == 2, tally).play(40);
    }
    // The scripts are fixed: 192 posts, 16 hidden decisions, 18 combats, 5 takebacks.
    CHECK(tally.posts > 150);
    CHECK(tally.hidden > 10);
    CHECK(tally.combats > 5);
    CHECK(tally.takebacks > 0);
    CHECK(tally.bot_games == 1);
}
