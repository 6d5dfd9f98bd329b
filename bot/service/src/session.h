// Playing (service_play.cpp): one action read against what the mover may see, applied, logged
// and answered. Private to the service.
#pragma once

#include "clocks.h"
#include "dice.h"
#include "forecasts.h"
#include "games.h"
#include "handler.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ghostpost::bot {

// What Session::act did: the action's public notes ("Rescue: ..."), whether all its events
// were private (a secret decision), the seat whose forecast answers it at once, and whether
// the game ended with it.
struct Acted {
    std::vector<Text> public_notes;
    bool secret = false;
    std::optional<rules::Seat> answering;
    bool ended = false;
};

class Session {
public:
    Session(PostContext& ctx, Replies& out, People& people, Boards& boards, Games& games,
            Clocks& clocks, Dice& dice, Forecasts& forecasts)
        : ctx_(ctx), out_(out), people_(people), boards_(boards), games_(games), clocks_(clocks),
          dice_(dice), forecasts_(forecasts) {}

    // The author plays `text` as `seat` in `l`, and the channel hears of it (the mover alone
    // of what only the mover may know).
    void play(Loaded& l, rules::Seat seat, const std::string& text);
    // Applies `action` (one of `seat`'s legal or anytime actions, `decision` when legal) for
    // player `by` and logs it under `message_id`: clocks, offers, stored forecasts, private
    // events told, the game finished when it ended. Nothing is said in the channel. nullopt,
    // after replying, when the game refused the action.
    std::optional<Acted> act(Loaded& l, rules::Seat seat, const rules::NotatedAction& action,
                             std::int64_t by, const std::string& message_id, bool decision);

private:
    PostContext& ctx_;
    Replies& out_;
    People& people_;
    Boards& boards_;
    Games& games_;
    Clocks& clocks_;
    Dice& dice_;
    Forecasts& forecasts_;
};

void cmd_move(PostParts& run, const Args& args);
// A post that is no command as a move in the author's one game here that it fits; false when
// it is none (then a channel's post gets no answer).
bool try_bare_move(PostParts& run);

} // namespace ghostpost::bot
