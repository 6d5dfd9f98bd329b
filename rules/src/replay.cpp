#include "ghostpost/rules/replay.h"

#include "ghostpost/rules/notation.h"

namespace ghostpost::rules {

Result<int> replay(Game& game, const std::vector<LoggedAction>& log, RandomSource& rng) {
    int ply = 0;
    for (const auto& entry : log) {
        ++ply;
        auto action = parse_action(game, entry.seat, entry.text);
        if (!action) {
            RuleError e = action.error();
            e.message = "ply " + std::to_string(ply) + " (" + entry.text + "): " + e.message;
            return e;
        }
        auto applied = game.apply(entry.seat, action->action, rng);
        if (!applied) {
            RuleError e = applied.error();
            e.message = "ply " + std::to_string(ply) + " (" + entry.text + "): " + e.message;
            return e;
        }
    }
    return ply;
}

} // namespace ghostpost::rules
