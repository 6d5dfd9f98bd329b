// Conditional moves (service_forecast.cpp): the lines a player stored for a game, followed or
// dropped after each action, and what their owners hear of it. Private to the service.
#pragma once

#include "boards.h"
#include "handler.h"
#include "people.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ghostpost::bot {

class Session;

class Forecasts {
public:
    Forecasts(PostContext& ctx, Replies& out, People& people)
        : ctx_(ctx), out_(out), people_(people) {}

    // After `seat`'s action `canonical` was logged in `l` (l.plies counts it): each stored
    // forecast of the game keeps the lines that foresaw it, without it, and drops the others
    // (its owner hears why when a move of the opponent's was not foreseen). Returns the seat
    // whose forecast answers now, unless its owner must decide for themselves (an open draw
    // offer of the opponent's, a ban).
    std::optional<rules::Seat> follow_forecasts(Loaded& l, rules::Seat seat,
                                                const std::string& canonical);
    // Plays through `session` the replies of forecasts from `answering` on, as their owners'
    // actions (each may be answered by the other side's forecast in turn); returns their public
    // sentences, each after a space, and notes for each owner what was played.
    Text answer_forecasts(Session& session, Loaded& l, std::optional<rules::Seat> answering);
    // Deletes the game's forecasts; with `why`, tells each owner that theirs is gone and why.
    void clear_forecasts(const storage::GameRecord& g, const Text& why = {});
    // Tells forecasts' owners privately what was played for them, after the channel's message
    // about it.
    void tell_forecast_notes(const storage::GameRecord& g);

private:
    PostContext& ctx_;
    Replies& out_;
    People& people_;
    // What forecasts' owners are told about the action being played (player id, text).
    std::vector<std::pair<std::int64_t, Text>> forecast_notes_;
};

void cmd_forecast(PostParts& run, const Args& args);

} // namespace ghostpost::bot
