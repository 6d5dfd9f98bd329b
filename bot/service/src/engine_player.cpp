#include "ghostpost/service/engine_player.h"

#include "ghostpost/service/service.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace ghostpost::bot {

namespace {

constexpr std::string_view account_prefix = "engine/level-";

// A position this bad is lost: a forced mate seen against the engine, or a deficit no
// reasonable game recovers from.
constexpr int resign_below = -2500;
// A draw offered is accepted from this far behind.
constexpr int accept_draw_below = -50;

} // namespace

std::string engine_account(int level) {
    return std::string(account_prefix) + std::to_string(level);
}

std::optional<int> engine_level(const std::string& user_id) {
    if (!user_id.starts_with(account_prefix) || user_id.size() != account_prefix.size() + 1)
        return std::nullopt;
    const char c = user_id.back();
    if (c < '0' + engine::min_level || c > '0' + engine::max_level)
        return std::nullopt;
    return c - '0';
}

std::string engine_name(const std::string& bot_name, int level) {
    return bot_name + " (level " + std::to_string(level) + ")";
}

Post engine_post(const EngineTurn& turn, const std::string& command) {
    Post p;
    p.platform = turn.platform;
    p.channel = turn.channel;
    p.message_id = turn.key;
    p.author_id = turn.account;
    p.author_name = turn.name;
    p.text = turn.prefix + command;
    if (turn.secret && command.starts_with("move ")) {
        p.direct = true;
        p.channel = "@" + turn.account;
    }
    return p;
}

std::string think(const EngineTurn& turn, bool timed) {
    const std::string game = std::to_string(turn.game_id);
    if (turn.takeback_offered)
        return "takeback " + game;
    if (!turn.view)
        return {};
    try {
        // The seed: the decision's key, so the same decision is thought the same way again
        // after a restart.
        const auto seed = std::hash<std::string>{}(turn.key);
        auto limits = engine::limits_for_level(turn.level, turn.record.variant);
        if (!timed)
            limits.max_seconds = 0;
        auto choice = engine::choose(*turn.view, turn.record, limits, seed);
        if (!choice)
            return {};
        if (choice->score <= resign_below && turn.view->board().ply >= 2)
            return "resign " + game;
        if (turn.draw_offered && choice->score <= accept_draw_below)
            return "draw " + game;
        return "move " + game + " " + choice->action.text;
    } catch (const std::exception&) {
        // What the engine could not read (a record it cannot replay) still gets an answer.
        return turn.fallback.empty() ? std::string() : "move " + game + " " + turn.fallback;
    }
}

EnginePlayer::EnginePlayer(bool synchronous, EngineQueueOptions options)
    : synchronous_(synchronous), options_(std::move(options)) {
    if (options_.workers == 0)
        options_.workers = std::max(1U, std::thread::hardware_concurrency() / 2);
    if (!options_.think)
        options_.think = [timed = !synchronous](const EngineTurn& turn) {
            return think(turn, timed);
        };
}

EnginePlayer::~EnginePlayer() {
    for (auto& [key, thought] : inflight_)
        if (thought.command.valid())
            thought.command.wait();
}

std::optional<EngineTurn> EnginePlayer::next_waiting() {
    if (waiting_.empty())
        return std::nullopt;
    // The first player after the one served last, round and round.
    auto line = waiting_.upper_bound(last_served_);
    if (line == waiting_.end())
        line = waiting_.begin();
    EngineTurn turn = std::move(line->second.front());
    line->second.pop_front();
    last_served_ = line->first;
    if (line->second.empty())
        waiting_.erase(line);
    --waiting_count_;
    return turn;
}

int EnginePlayer::step(Service& service, const std::string& platform) {
    int entered = 0;
    for (int round = 0; round < 64; ++round) {
        std::set<std::string> current;
        auto turns = service.engine_turns(platform, examined_);
        for (auto& turn : turns) {
            current.insert(turn.key);
            if (examined_.contains(turn.key))
                continue;
            if (!turn.view && !turn.takeback_offered) {
                examined_.insert(turn.key);
                continue;
            }
            if (waiting_count_ >= options_.max_waiting)
                continue; // not examined: asked for again once the queue has room
            examined_.insert(turn.key);
            waiting_[turn.opponent].push_back(std::move(turn));
            ++waiting_count_;
        }
        // A decision whose position changed while it waited (a takeback, the game over) is
        // dropped unthought.
        for (auto line = waiting_.begin(); line != waiting_.end();) {
            waiting_count_ -= std::erase_if(
                line->second, [&](const EngineTurn& t) { return !current.contains(t.key); });
            line = line->second.empty() ? waiting_.erase(line) : std::next(line);
        }
        bool any = false;
        do {
            while (inflight_.size() < options_.workers) {
                auto turn = next_waiting();
                if (!turn)
                    break;
                Thought t{*turn, {}};
                if (synchronous_) {
                    std::promise<std::string> done;
                    done.set_value(options_.think(*turn));
                    t.command = done.get_future();
                } else {
                    t.command = std::async(std::launch::async, options_.think, *turn);
                }
                inflight_.emplace(turn->key, std::move(t));
            }
            for (auto it = inflight_.begin(); it != inflight_.end();) {
                auto& [key, thought] = *it;
                if (thought.command.wait_for(std::chrono::seconds(0)) !=
                    std::future_status::ready) {
                    ++it;
                    continue;
                }
                const std::string command = thought.command.get();
                // A thought about a position that has changed since (a takeback) is dropped.
                if (!command.empty() && current.contains(key)) {
                    try {
                        service.handle(engine_post(thought.turn, command));
                        ++entered;
                        any = true;
                    } catch (const std::exception& e) {
                        failures_.push_back(key + ": " + e.what());
                    }
                }
                it = inflight_.erase(it);
            }
        } while (synchronous_ && (waiting_count_ > 0 || !inflight_.empty()));
        if (!synchronous_ || !any)
            break;
    }
    if (examined_.size() > 10'000 && waiting_count_ == 0 && inflight_.empty())
        examined_.clear();
    return entered;
}

std::vector<std::string> EnginePlayer::take_failures() {
    return std::exchange(failures_, {});
}

} // namespace ghostpost::bot
