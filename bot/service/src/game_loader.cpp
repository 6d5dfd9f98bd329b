#include "ghostpost/service/game_loader.h"

#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"

#include <stdexcept>
#include <string>

namespace ghostpost::bot {

GameReplay::GameReplay(const storage::GameRecord& game) {
    const rules::Variant* variant = rules::find_variant(game.variant);
    if (variant == nullptr)
        throw std::runtime_error("game #" + std::to_string(game.id) + ": unknown variant " +
                                 game.variant);
    auto started = variant->start(game.options);
    if (!started)
        throw std::runtime_error("game #" + std::to_string(game.id) +
                                 ": cannot start: " + started.error().message);
    game_ = std::move(started.value());
}

rules::Result<std::vector<rules::Event>> GameReplay::apply(const storage::ActionRecord& action,
                                                           rules::RandomSource& rng) {
    auto parsed = rules::read_recorded_action(*game_, action.seat, action.text);
    auto events = parsed ? game_->apply(action.seat, parsed->action, rng)
                         : rules::Result<std::vector<rules::Event>>(parsed.error());
    if (!events) {
        rules::RuleError e = events.error();
        e.message = "ply " + std::to_string(action.ply) + " (" + action.text +
                    ") is not possible: " + e.message;
        return e;
    }
    return events;
}

LoadedGame load_game(const storage::GameRecord& game, const std::vector<storage::ActionRecord>& log,
                     std::optional<std::size_t> plies) {
    const std::size_t count = plies.value_or(log.size());
    if (count > log.size())
        throw std::runtime_error("game #" + std::to_string(game.id) + " has " +
                                 std::to_string(log.size()) + " actions, not " +
                                 std::to_string(count));
    GameReplay replay(game);
    SeededRandom rng(game.seed);
    for (std::size_t i = 0; i < count; ++i)
        if (auto applied = replay.apply(log[i], rng); !applied)
            throw std::runtime_error("game #" + std::to_string(game.id) +
                                     ": the log does not replay: " + applied.error().message);
    return LoadedGame{replay.release(), std::move(rng), static_cast<int>(count)};
}

} // namespace ghostpost::bot
