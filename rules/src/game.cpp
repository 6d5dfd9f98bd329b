#include "ghostpost/rules/game.h"

#include "ghostpost/rules/notation.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace ghostpost::rules {

RuleError Game::explain_illegal(Seat, const ActionSyntax& syntax, std::string_view text) const {
    const std::string t(text);
    if (syntax.castle != 0)
        return make_error(
            ErrorKind::Illegal,
            phrase(N_("{move} is not possible now: castling is not allowed here"), {{"move", t}}));
    const Phrase::Arg piece{"piece", piece_word(syntax.piece)}; // "piece" when none was written
    const Phrase::Arg square{"square", syntax.to.name()};
    return make_error(
        ErrorKind::Illegal,
        phrase(
            N_("{move} is not possible: {why}"),
            {{"move", t},
             {"why", syntax.drop ? phrase(N_("no {piece} can enter on {square}"), {piece, square})
                     : syntax.capture
                         ? phrase(N_("no {piece} can capture on {square}"), {piece, square})
                         : phrase(N_("no {piece} can reach {square}"), {piece, square})}}));
}

std::optional<NotatedAction> Game::anytime_action(Seat seat, std::string_view key) const {
    if (key.empty())
        return std::nullopt;
    for (auto& a : anytime_actions(seat))
        if (!a.text.empty() &&
            static_cast<char>(std::tolower(static_cast<unsigned char>(a.text.front()))) ==
                key.front() &&
            word_key(a.text) == key)
            return std::move(a);
    return std::nullopt;
}

std::vector<Action> Game::legal_actions(Seat seat) const {
    std::vector<Action> out;
    for (auto& a : notated_actions(seat))
        if (std::find(out.begin(), out.end(), a.action) == out.end())
            out.push_back(a.action);
    return out;
}

std::uint64_t Game::perft(int depth) const {
    if (depth <= 0)
        return 1;
    std::uint64_t nodes = 0;
    NoRandomness no_dice;
    for (const Decision& d : pending()) {
        auto actions = notated_actions(d.seat);
        if (depth == 1) {
            nodes += actions.size();
            continue;
        }
        for (const auto& a : actions) {
            auto next = clone();
            auto applied = next->apply(d.seat, a.action, no_dice);
            if (!applied)
                throw std::logic_error("perft: a listed action was refused: " + a.text);
            nodes += next->perft(depth - 1);
        }
    }
    return nodes;
}

Result<Options> resolve_options(const VariantInfo& info, const Options& given) {
    Options out;
    for (const auto& spec : info.options)
        out[spec.name] = spec.default_value;
    for (const auto& [name, value] : given) {
        // An init-capture: clang before 16 (the fuzz build) cannot capture a structured binding.
        auto spec = std::find_if(info.options.begin(), info.options.end(),
                                 [&key = name](const OptionSpec& s) { return s.name == key; });
        if (spec == info.options.end()) {
            std::string known;
            for (const auto& s : info.options)
                known += (known.empty() ? "" : ", ") + s.name;
            const Phrase::Arg game{"variant", Phrase{"variant", info.title, {}}};
            return make_error(
                ErrorKind::BadSetup,
                known.empty()
                    ? phrase(N_("{variant} has no option \"{option}\" (it has none)"),
                             {game, {"option", name}})
                    : phrase(N_("{variant} has no option \"{option}\" (its options: {options})"),
                             {game, {"option", name}, {"options", known}}));
        }
        bool fits = false;
        if (spec->allowed.empty()) {
            fits = !value.empty() && value.size() <= 6 &&
                   std::all_of(value.begin(), value.end(),
                               [](char c) { return c >= '0' && c <= '9'; });
        } else {
            fits =
                std::find(spec->allowed.begin(), spec->allowed.end(), value) != spec->allowed.end();
        }
        if (!fits) {
            const Phrase::Arg option{"option", name + "=" + value};
            if (spec->allowed.empty())
                return make_error(
                    ErrorKind::BadSetup,
                    phrase(N_("option {option} is not allowed: use a whole number"), {option}));
            std::string allowed;
            for (const auto& a : spec->allowed)
                allowed += (allowed.empty() ? "" : " or ") + a;
            // TRANSLATORS: {values} are the values typed, as "no or yes".
            return make_error(ErrorKind::BadSetup,
                              phrase(N_("option {option} is not allowed: use {values}"),
                                     {option, {"values", allowed}}));
        }
        out[name] = value;
    }
    return out;
}

void check_consistent([[maybe_unused]] const Game& game) {
#ifndef NDEBUG
    if (!game.is_consistent())
        throw std::logic_error(game.info().name + ": an action left the state inconsistent" +
                               (game.fen().empty() ? std::string() : " (" + game.fen() + ")"));
#endif
}

std::vector<std::string> Variant::fen_reasons(const Options& options, std::string_view fen) const {
    auto game = start(options, fen);
    if (game)
        return {};
    return {game.error().message};
}

std::uint32_t NoRandomness::uniform(std::uint32_t) {
    throw std::logic_error("a game without chance asked for a random number");
}

} // namespace ghostpost::rules
