// One post's run: the parts it is made of (PostParts, post_parts.h) and the entry points the
// service and its time-driven job call. A post goes run() -> run_command (commands.cpp) -> the
// command's handler, a free function over the parts; whatever ends games leaves them to
// conclude(), which runs game_end_subscribers in their order. Private to bot/service/src.
#pragma once

#include "helpers.h"
#include "post_parts.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ghostpost::bot {

class PostRun {
public:
    PostRun(const ServiceParts& parts, const Post& post) : run_(parts, post) {}

    void run();
    void publish_cache();
    // What publish_cache would do, to be done later (after a group's commit).
    std::function<void()> take_publication();
    // The time-driven work for one game (service_clock.cpp); true when something changed or
    // was said. The caller settles and commits as after run().
    // An unanswered challenge past its expiry is cancelled and the channel told; true then.
    bool lapse_challenge(GameRecord& g) { return run_.clocks.lapse_challenge(g); }
    bool tick_game(std::int64_t game_id);
    // After downtime from `from` to `to`: the clocks that ran in the games (of one channel) are
    // moved on by the gap, and the channel told once; the number of games told of.
    int forgive_downtime(const std::vector<std::int64_t>& game_ids, std::int64_t from,
                         std::int64_t to);
    // One game's clocks moved on; its line for the notice ("Game #4. Clock ..."), or nullopt
    // when no clock ran.
    std::optional<std::string> forgive_game(std::int64_t game_id, std::int64_t from,
                                            std::int64_t to) {
        return run_.clocks.forgive_game(game_id, from, to);
    }
    // The daily digest `d` is due (service_digest.cpp): reschedules it for its next hour and,
    // when one of the player's games or challenges waits for their decision, sends it. True
    // when it was sent. The caller commits as after run().
    bool send_digest(const storage::DigestRecord& d);
    // What follows the end of the games that ended in this run, after the run's own replies
    // and before its commit: every subscriber of game_end_subscribers, in that order, over
    // all of them. Whoever ends games (a post, the time-driven job) calls it.
    void conclude();

    // The parts, for a run inside another (a seat's deadline answered, a team's vote played):
    // it acts as its own author, concludes, and leaves its games to the outer run's cache.
    PostParts& parts() { return run_; }

private:
    bool tick_due(Loaded& l); // tick_game's work once the clocks are in sync
    // True when the author's account posted more than commands_per_minute commands in the
    // minute that began with the first of them; the first such post gets a notice of when
    // commands are read again, the others no reply at all.
    bool over_command_limit();

    PostParts run_;
};

} // namespace ghostpost::bot
