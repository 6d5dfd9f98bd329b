#include "ghostpost/rules/replay.h"

#include "ghostpost/rules/notation.h"

#include <cctype>

namespace ghostpost::rules {

std::string strip_movetext(std::string_view text) {
    std::string out;
    int depth = 0; // open variations
    bool line_start = true;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (line_start && c == '[' && depth == 0) {
            // A tag pair: the whole line. Its value may hold anything, brackets included.
            while (i < text.size() && text[i] != '\n')
                ++i;
            out += '\n';
            continue;
        }
        line_start = c == '\n';
        if (c == '{') {
            const std::size_t end = text.find('}', i);
            i = end == std::string_view::npos ? text.size() : end;
            out += ' ';
        } else if (c == ';') {
            while (i + 1 < text.size() && text[i + 1] != '\n')
                ++i;
        } else if (c == '(') {
            ++depth;
        } else if (c == ')') {
            if (depth > 0)
                --depth;
            out += ' ';
        } else if (depth > 0) {
            if (c == '\n')
                out += c;
        } else if (c == '$') {
            while (i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])))
                ++i;
            out += ' ';
        } else {
            out += c;
        }
    }
    return out;
}

Result<int> replay(Game& game, const std::vector<LoggedAction>& log, RandomSource& rng) {
    int ply = 0;
    for (const auto& entry : log) {
        ++ply;
        auto action = read_recorded_action(game, entry.seat, entry.text);
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
