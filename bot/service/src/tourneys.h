// Tournaments (service_tourney*.cpp): their rounds paired and started, their games' ends
// followed to the next round or the final table, and what an organiser controls. Private to the
// service.
#pragma once

#include "clocks.h"
#include "dice.h"
#include "games.h"
#include "handler.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ghostpost::bot {

namespace tourney {
struct Field;
struct PlannedBoard;
} // namespace tourney

// What an organiser's command is about: a tournament and the players it names.
struct ControlTarget {
    storage::TournamentRecord t;
    std::vector<storage::PlayerRecord> players; // the players named, in order
};

class Tourneys {
public:
    Tourneys(PostContext& ctx, Replies& out, People& people, Games& games, Clocks& clocks,
             Dice& dice)
        : ctx_(ctx), out_(out), people_(people), games_(games), clocks_(clocks), dice_(dice) {}

    // The tournament named at `args[at]`, or the channel's one; replies and returns nullopt
    // when there is none or several.
    std::optional<storage::TournamentRecord> pick_tournament(const std::vector<std::string>& args,
                                                             std::size_t at);
    // "[name] [@a [@b]]": the tournament and up to `mentions` players; replies and returns
    // nullopt when either is wrong (service_tourney_controls.cpp).
    std::optional<ControlTarget> control_target(const std::vector<std::string>& args,
                                                const std::string& command, std::size_t mentions);
    bool organiser_of(const storage::TournamentRecord& t) const;
    void tourney_late_entry(storage::TournamentRecord& t);
    // Pairs round `round` of a running tournament, creates its games and tells everyone.
    void start_round(storage::TournamentRecord& t, int round);
    // Every game of a round robin at once (schedule=allatonce): the channel is told once, each
    // player once with all their games.
    void start_all_rounds(storage::TournamentRecord& t);
    // A tournament game ended: announces a complete round (and starts the next unless the
    // tournament waits for !tourney next), or the final standings (service_tourney_rounds.cpp).
    void tourney_game_over(const storage::GameRecord& g);
    // The last game is over: the tournament is finished and the channel hears the final table.
    void finish_tournament(storage::TournamentRecord& t, tourney::Field& f);

private:
    PostContext& ctx_;
    Replies& out_;
    People& people_;
    Games& games_;
    Clocks& clocks_;
    Dice& dice_;
};

void cmd_tourney(PostParts& run, const Args& args);
void tourney_create(PostParts& run, const Args& args);
void tourney_entry(PostParts& run, const Args& args, bool join);
void tourney_start(PostParts& run, const Args& args);
void tourney_next(PostParts& run, const Args& args);
void tourney_pairings(PostParts& run, const Args& args);
void tourney_standings(PostParts& run, const Args& args);
void tourney_withdraw(PostParts& run, const Args& args);
void tourney_bye(PostParts& run, const Args& args);
void tourney_keep_apart(PostParts& run, const Args& args, bool apart);
void tourney_trf(PostParts& run, const Args& args);

} // namespace ghostpost::bot
