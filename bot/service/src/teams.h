// Team games (service_team.cpp): a channel plays as one, its members voting on each decision
// within a window. Private to the service.
#pragma once

#include "clocks.h"
#include "dice.h"
#include "games.h"
#include "handler.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ghostpost::bot {

class Teams {
public:
    Teams(const ServiceParts& parts, PostContext& ctx, Replies& out, People& people, Boards& boards,
          Games& games, Clocks& clocks, Dice& dice)
        : parts_(parts), ctx_(ctx), out_(out), people_(people), boards_(boards), games_(games),
          clocks_(clocks), dice_(dice) {}

    // The team of a channel, created if new.
    storage::PlayerRecord team_of(const std::string& platform, const std::string& channel);
    std::optional<storage::PlayerRecord> team_here(); // the post's channel's team, if any
    // What a vote is on: the decision under way, known by the game's revision.
    std::int64_t team_turn(const Loaded& l);
    // `g` (made by !new, not stored) as a challenge of this channel's team to another channel:
    // a code any channel may post with !join; `other_channel`, when named, hears of it.
    void new_team_challenge(storage::GameRecord g, const std::string& other_channel,
                            const std::string& window);
    void join_team_challenge(const storage::LinkCode& code);
    // A member's `text` as a vote on the team's decision (`game_arg`: the game named, if any);
    // false when it is no vote and `meant` is not set (a command always gets an answer).
    bool try_team_vote(const std::string& text, const std::vector<std::string>& game_arg,
                       bool meant);
    // Plays the vote's winner as the team (or resigns for it), saying why the vote closed.
    void close_team_vote(Loaded& l, rules::Seat seat, const storage::PlayerRecord& team,
                         const std::string& why);
    // For the time-driven job: closes the votes whose window ran out; true when one did.
    bool close_due_team_votes(Loaded& l);

private:
    // The author's vote `action` on the team's decision in `l`, told with the tally; the vote
    // closes when every member has voted.
    void record_vote(Loaded& l, rules::Seat seat, const storage::PlayerRecord& team,
                     const std::vector<std::int64_t>& members, const std::string& action);

    ServiceParts parts_; // a team's decision is played as a post of its own
    PostContext& ctx_;
    Replies& out_;
    People& people_;
    Boards& boards_;
    Games& games_;
    Clocks& clocks_;
    Dice& dice_;
};

void cmd_team(PostParts& run, const Args& args);
void cmd_vote(PostParts& run, const Args& args);

} // namespace ghostpost::bot
