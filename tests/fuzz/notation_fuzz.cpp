// libFuzzer target: the notation parser over positions of every variant. The first byte picks
// the variant, the second a position and the seat; the rest is the text a player posted. The
// positions are fixed at start-up: each variant's start and the positions along a few seeded
// random games. An action the parser returns must be one of the seat's legal or anytime actions
// (with that action's canonical text), apply() must take it, and its canonical text must read
// back to it as the game's record.
#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"
#include "invariant.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace ghostpost::rules;

using ghostpost::fuzz::check;

// A fixed stream (SplitMix64): the same positions every run, and dice for the variants with chance.
class Stream final : public RandomSource {
public:
    explicit Stream(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    std::uint32_t uniform(std::uint32_t n) override {
        return static_cast<std::uint32_t>(next() % n);
    }

private:
    std::uint64_t state_;
};

using Positions = std::vector<std::vector<std::unique_ptr<Game>>>; // per variant

// Each variant's start, and the positions after 1, 2, 3, 5, 8, ... plies of three random games
// (the last position of a game that ended, too, for GameOver).
Positions make_positions() {
    Positions all;
    for (const Variant* v : variants()) {
        auto& list = all.emplace_back();
        auto start = v->start({});
        check(start.ok(), "every variant starts with its default options", v->info().name);
        list.push_back((*start)->clone());
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            Stream rng(seed * 7919 + list.size());
            std::unique_ptr<Game> game = (*start)->clone();
            int next_kept = 1, previous_kept = 1;
            for (int ply = 1; ply <= 160; ++ply) {
                const auto pending = game->pending();
                if (pending.empty())
                    break;
                const Seat seat =
                    pending[rng.uniform(static_cast<std::uint32_t>(pending.size()))].seat;
                const auto actions = game->notated_actions(seat);
                check(!actions.empty(), "a seat that must decide has actions", v->info().name);
                const auto& a = actions[rng.uniform(static_cast<std::uint32_t>(actions.size()))];
                check(game->apply(seat, a.action, rng).ok(), "a listed action applies", a.text);
                check(game->is_consistent(), "a listed action keeps the state consistent", a.text);
                if (ply == next_kept || game->pending().empty()) {
                    list.push_back(game->clone());
                    const int step = next_kept + previous_kept;
                    previous_kept = next_kept;
                    next_kept = step;
                }
            }
        }
    }
    return all;
}

bool same_list_entry(const std::vector<NotatedAction>& list, const NotatedAction& found) {
    for (const auto& a : list)
        if (a.action == found.action)
            return a.text == found.text;
    return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const Positions positions = make_positions();
    if (size < 2)
        return 0;
    const auto& list = positions[data[0] % positions.size()];
    const Game& game = *list[(data[1] >> 1) % list.size()];
    const Seat seat = (data[1] & 1) != 0 ? Seat::Black : Seat::White;
    const std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);

    const bool looks = looks_like_action(game, seat, text);
    if (auto syntax = parse_syntax(text, game.info().files, game.info().ranks);
        syntax && syntax->castle == 0) {
        check(syntax->to.valid() && syntax->to.file < game.info().files &&
                  syntax->to.rank < game.info().ranks,
              "a parsed move names a square on the board", text);
        check(syntax->from_file < game.info().files && syntax->from_rank < game.info().ranks,
              "a parsed origin is on the board", text);
    }

    const auto parsed = parse_action(game, seat, text);
    if (!parsed) {
        const RuleError& e = parsed.error();
        check(!e.message.empty(), "a refusal has words for the channel", text);
        if (e.kind == ErrorKind::Ambiguous)
            check(e.candidates.size() >= 2, "an ambiguity names its candidates", text);
        return 0;
    }
    check(looks, "text that parses looks like an action", text);
    const auto legal = game.notated_actions(seat);
    const auto anytime = game.anytime_actions(seat);
    check(same_list_entry(legal, *parsed) || same_list_entry(anytime, *parsed),
          "a parsed action is a legal or anytime action, with its canonical text", text);

    // The canonical text is written from the true board, so it reads back as a record does: a
    // player's post of it may be refused on the board they see (docs/variants/phantom.md: Nxa3
    // onto a Phantom the mover cannot see).
    const auto again = parse_action(game, seat, parsed->text);
    const auto recorded = again.ok() ? again : read_recorded_action(game, seat, parsed->text);
    check(recorded.ok() && recorded->action == parsed->action,
          "the canonical text reads back to the action", parsed->text);

    std::unique_ptr<Game> copy = game.clone();
    Stream rng(size);
    check(copy->apply(seat, parsed->action, rng).ok(), "apply takes a parsed action", parsed->text);
    check(copy->is_consistent(), "a parsed action keeps the state consistent", parsed->text);
    return 0;
}
