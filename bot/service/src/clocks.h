// Correspondence clocks of the games one post works on (service_clock.cpp): read from a
// challenge's options, charged after each action, started and stopped to match who must decide,
// and run out. Private to the service.
#pragma once

#include "games.h"
#include "handler.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace ghostpost::bot {

// The options of a challenge that belong to the service, not the variant.
struct ServiceOptions {
    std::string time_control;  // canonical ("3d", "none")
    std::optional<bool> rated; // as rated= said; empty: the service's default
};

class Clocks {
public:
    Clocks(PostContext& ctx, Replies& out, People& people, Games& games)
        : ctx_(ctx), out_(out), people_(people), games_(games) {}

    // Takes tc= and rated= out of `given`; replies and returns nullopt when one cannot be read.
    std::optional<ServiceOptions> take_service_options(rules::Options& given);
    std::array<storage::ClockRecord, 2> clock_rows(const storage::GameRecord& g);
    // The clocks of a game under way as a sentence with absolute deadlines, after a space;
    // empty once the game is over.
    Text clock_line(const Loaded& l);
    // Starts and stops the clocks of `l` to match who must decide now, vacations and pauses;
    // tells a player who opted in when a decision becomes theirs.
    void sync_clocks(Loaded& l);
    // Stores when the time-driven job must next look at `l`.
    void store_deadline(const Loaded& l);
    // After `seat` acted (`decision`: one of its legal actions, not an anytime one): charges
    // and credits its clock, then starts and stops clocks to match who must decide now.
    void clocks_after_action(Loaded& l, rules::Seat seat, bool decision);
    // Before `seat` acts in `l`: false, after replying, when the author is banned, the game is
    // paused, or a clock of the game ran out (the game then ends on time).
    bool may_act(Loaded& l, rules::Seat seat);
    // Ends the game on time when a running clock has run out; true when it did.
    bool flag_if_out(Loaded& l);
    // An unanswered challenge past its expiry is cancelled and the channel told; true then.
    bool lapse_challenge(storage::GameRecord& g);
    // One game's clocks moved on by downtime from `from` to `to`; its line for the notice
    // ("Game #4. Clock ..."), or nullopt when no clock ran.
    std::optional<std::string> forgive_game(std::int64_t game_id, std::int64_t from,
                                            std::int64_t to);
    // The player whose forecast answers the action being applied: the decision is theirs for
    // no time at all, so sync_clocks sends them no reminder of it.
    void set_answering(std::optional<std::int64_t> player) { answering_ = player; }

private:
    PostContext& ctx_;
    Replies& out_;
    People& people_;
    Games& games_;
    std::optional<std::int64_t> answering_;
};

void cmd_vacation(PostParts& run, const Args& args);

} // namespace ghostpost::bot
