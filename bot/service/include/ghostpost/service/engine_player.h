// ghostpost as a player in its own games. A game against the bot seats an engine account (one
// per level, "engine/level-5"); whenever such a seat must decide, the EnginePlayer thinks on a
// worker thread from what the seat knows (its SeatView and the public record, never the game)
// and enters the chosen action as a post of the engine's account through Service::handle, with
// the message id "engine:<game>:<ply>". The post runs in one transaction like any player's and
// the handled-post check makes it count once: a crash mid-thought loses the thought only, and
// the next start thinks again.
#pragma once

#include "ghostpost/engine/engine.h"
#include "ghostpost/platform/platform.h"
#include "ghostpost/rules/view.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ghostpost::bot {

class Service;

inline constexpr int default_engine_level = 5;

// The account of the engine at `level` (1..8), the same on every platform.
std::string engine_account(int level);
// The level of an engine account; nullopt for any other account.
std::optional<int> engine_level(const std::string& user_id);
// How the engine's account is shown: "ghostpost (level 5)".
std::string engine_name(const std::string& bot_name, int level);

// One decision an engine seat must make now, with all it may know. `view` is empty when the
// game, looked at under `key`, has no decision for the engine: nothing to think about then.
struct EngineTurn {
    std::string key; // "engine:<game>:<ply>": the message id of the post it answers with
    std::int64_t game_id = 0;
    // Whom the engine plays here (the other seat's player; 0 when both seats are engines):
    // thinking time is shared fairly among these players.
    std::int64_t opponent = 0;
    std::string platform;
    std::string channel;
    std::string account; // the engine account's user id
    std::string name;
    int level = default_engine_level;
    std::string prefix = "!"; // the command prefix of the service
    std::optional<rules::SeatView> view;
    engine::PublicRecord record;
    std::string fallback; // a legal action of the seat as it sees the board, if the engine fails
    // The decision is secret when made (its events tell only its seat, as a first dice choice): the
    // answer is sent by direct message, like a player's, so the channel learns nothing of it.
    bool secret = false;
    // The other player's open offers: a takeback is granted at once; a draw is accepted when
    // the engine, to decide, finds its position worse, and otherwise answered by playing on.
    bool takeback_offered = false;
    bool draw_offered = false;
};

// The post an engine seat answers `turn` with: "!move <game> <action>" or "!resign <game>".
Post engine_post(const EngineTurn& turn, const std::string& command);

// How an EnginePlayer spends its thinking time.
struct EngineQueueOptions {
    // Thoughts under way at once (worker threads); the other decisions wait their turn. 0: half
    // the machine's cores, at least one, so that posts and the web keep a core.
    std::size_t workers = 0;
    // Decisions waiting at most; more are left for a later step (they are not lost: the games
    // still ask for them).
    std::size_t max_waiting = 512;
    // What a thought is (tests replace it); default: think(turn, !synchronous).
    std::function<std::string(const EngineTurn&)> think;
};

// The engine's decisions wait in a bounded queue, one line per player it plays, and are
// thought a few at a time, taking the players in turn: one player's many games against the
// bot cost others one thought's wait at most, and never hold up anybody's posts (thinking runs
// off the post path, and at most `workers` thoughts share the machine with it).
class EnginePlayer {
public:
    // `synchronous`: think on the calling thread and answer within step() (the console, whose
    // transcripts must not depend on timing); otherwise on worker threads.
    explicit EnginePlayer(bool synchronous) : EnginePlayer(synchronous, EngineQueueOptions{}) {}
    EnginePlayer(bool synchronous, EngineQueueOptions options);
    ~EnginePlayer();
    EnginePlayer(const EnginePlayer&) = delete;
    EnginePlayer& operator=(const EnginePlayer&) = delete;

    // Enters every finished thought as a post of its engine account, queues each new decision
    // of an engine seat in `platform`'s games and starts thinking about the next ones, taking
    // the players in turn. Returns how many posts it entered. Errors: storage exceptions from
    // listing the games; a post that fails is logged.
    int step(Service& service, const std::string& platform);
    // Whether a thought is under way or waiting (the caller polls sooner then).
    bool thinking() const { return !inflight_.empty() || waiting_count_ > 0; }
    // How many decisions wait for a worker now.
    std::size_t waiting() const { return waiting_count_; }
    // The posts that failed since the last call ("<key>: <error>"), for the caller's log.
    std::vector<std::string> take_failures();

private:
    struct Thought {
        EngineTurn turn;
        std::future<std::string> command;
    };
    // The next waiting decision, taking the players in turn; nullopt when none waits.
    std::optional<EngineTurn> next_waiting();
    bool synchronous_;
    EngineQueueOptions options_;
    std::set<std::string> examined_;          // keys looked at: decided, thinking or nothing to do
    std::map<std::string, Thought> inflight_; // by key
    std::map<std::int64_t, std::deque<EngineTurn>> waiting_; // by the player the engine plays
    std::size_t waiting_count_ = 0;
    std::int64_t last_served_ = 0; // the player whose decision was started last
    std::vector<std::string> failures_;
};

// What the engine answers in `turn`: the command text after the prefix ("move 3 Nf3",
// "resign 3", "draw 3" accepting an offer, "takeback 3" granting one), empty when it has nothing to
// say. Runs on a worker thread: touches nothing but `turn`. Untimed, the level's node budget alone
// bounds the thought, so that the same turn is answered the same way on any machine (the console's
// transcripts).
std::string think(const EngineTurn& turn, bool timed = true);

} // namespace ghostpost::bot
