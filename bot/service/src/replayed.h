// What the rules made of each action of a game's log, read from the events they returned when
// the log is replayed. Secrecy is this data, never an action's or a reply's text: the engine's
// record (service_engine.cpp), !history, the web page and the PGN (service_verify.cpp) all read
// these flags, so a new variant's secret actions stay secret without the service knowing them.
#pragma once

#include "ghostpost/rules/game.h"
#include "ghostpost/service/random.h"
#include "ghostpost/storage/store.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ghostpost::bot::detail {

// Whether every event of an action went to one seat alone: the action was secret when made.
bool is_secret(const std::vector<rules::Event>& events);

struct ReplayedPly {
    // Secret when made: its events went to `told` alone (the seat that made it), so the other
    // side learnt neither what it was nor, for an anytime action, that it was made.
    bool secret = false;
    std::optional<rules::Seat> told;
    // A secret decision the game asked for that no later action has revealed yet. The rules
    // reveal it through the public events of the other side's next decision (the round is
    // resolved once the other side has chosen too), so an action of another seat that the
    // channel was told of ends it.
    bool still_secret = false;
    bool choice = false;  // an answer within a turn (dice), not a move of its own
    bool anytime = false; // not a decision the game asked for (a standing policy, a peek)
    // An anytime action whose events only show its seat a board (a peek): it moves nothing.
    bool only_shows = false;
    int move_number = 1;             // the board's full-move number before it
    std::uint64_t dice_after = 0;    // numbers drawn from the stream up to and with it
    std::vector<std::string> record; // the texts of its recorded events
    std::vector<rules::Phrase> said; // the same as the rules wrote them, for each reader
};

struct Replayed {
    std::vector<ReplayedPly> plies;
    std::string error; // the first action that did not replay; empty when all did
    std::unique_ptr<rules::Game> game;
    std::vector<std::uint32_t> draws;   // the numbers drawn from the stream, in order
    std::optional<SeededRandom> stream; // where the stream stands after the replay
    std::uint64_t dice() const { return draws.size(); }
};

// Replays `log` from the start of `g` with the stream of `seed`, keeping each ply's flags and
// events; stops at the first action that does not replay and names it in `error`. Errors:
// std::runtime_error when the variant is unknown or refuses the game's options.
Replayed replay_events(const storage::GameRecord& g, const std::vector<storage::ActionRecord>& log,
                       const std::vector<std::uint8_t>& seed);

} // namespace ghostpost::bot::detail
