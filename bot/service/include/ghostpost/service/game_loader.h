// The one way a stored game becomes a rules::Game: its variant started from the stored options,
// then its action log replayed in order with the stream of its seed. The service's cache, a
// board at an earlier ply, !verify and the command line all go through here, so they cannot
// disagree about what a log means.
#pragma once

#include "ghostpost/rules/game.h"
#include "ghostpost/service/random.h"
#include "ghostpost/storage/store.h"

#include <memory>
#include <optional>
#include <vector>

namespace ghostpost::bot {

// A replay in progress, one action at a time, for callers that look at the game between
// actions (!verify, the takeback of a peek).
class GameReplay {
public:
    // Starts the game's variant with its stored options. Errors: std::runtime_error naming the
    // game when the variant is unknown or refuses the options.
    explicit GameReplay(const storage::GameRecord& game);
    rules::Game& game() { return *game_; }
    std::unique_ptr<rules::Game> release() { return std::move(game_); }
    // Reads one logged action against the game and applies it with `rng`; the events it
    // caused. Errors (a value): the action no longer parses or applies; the message names its
    // ply and text.
    rules::Result<std::vector<rules::Event>> apply(const storage::ActionRecord& action,
                                                   rules::RandomSource& rng);

private:
    std::unique_ptr<rules::Game> game_;
};

struct LoadedGame {
    std::unique_ptr<rules::Game> game;
    SeededRandom rng; // where the game's stream stands after the replay
    int plies = 0;    // actions replayed
};

// The game after the first `plies` actions of `log` (all of them when nullopt), replayed with the
// stream of the game's seed. Errors: std::runtime_error naming the game when the variant is
// unknown, `plies` exceeds the log, or an action does not replay (a broken log).
LoadedGame load_game(const storage::GameRecord& game, const std::vector<storage::ActionRecord>& log,
                     std::optional<std::size_t> plies = std::nullopt);

} // namespace ghostpost::bot
