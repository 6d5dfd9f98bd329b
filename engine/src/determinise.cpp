// Building the positions the engine thinks in from what its seat knows.
#include "ghostpost/rules/notation.h"
#include "variant_play.h"

#include <algorithm>
#include <stdexcept>

namespace ghostpost::engine {

using rules::Seat;

namespace {

// Plays back the announced dice, in order; asking past their end is a broken record.
class Playback final : public rules::RandomSource {
public:
    explicit Playback(const std::vector<std::uint32_t>& draws) : draws_(draws) {}
    std::uint32_t uniform(std::uint32_t n) override {
        if (next_ >= draws_.size() || draws_[next_] >= n)
            throw std::invalid_argument("the record's dice do not match its actions");
        return draws_[next_++];
    }

private:
    const std::vector<std::uint32_t>& draws_;
    std::size_t next_ = 0;
};

std::unique_ptr<rules::Game> start(const rules::Variant& variant, const rules::Options& options,
                                   std::string_view fen = {}) {
    auto game = variant.start(options, fen);
    if (!game)
        throw std::invalid_argument("cannot start the game: " + game.error().message);
    return std::move(*game);
}

bool same_cells(const rules::BoardView& a, const rules::BoardView& b) {
    return a.files == b.files && a.ranks == b.ranks && a.cells == b.cells;
}

} // namespace

Worlds replay_world(const rules::Variant& variant, const rules::SeatView& view,
                    const PublicRecord& record, int, std::mt19937_64&) {
    auto game = start(variant, record.options, record.start_fen);
    Playback dice(record.draws);
    Worlds w;
    const bool keyed = !variant.info().uses_chance;
    if (keyed)
        w.history.push_back(position_key(*game));
    for (const auto& action : record.actions) {
        auto replayed = rules::replay(*game, {action}, dice);
        if (!replayed)
            throw std::invalid_argument("the record does not replay: " + replayed.error().message);
        if (keyed)
            w.history.push_back(position_key(*game));
    }
    if (!same_cells(game->seat_view(view.seat()).board(), view.board()))
        throw std::invalid_argument("the record does not lead to the view given");
    std::sort(w.history.begin(), w.history.end());
    w.games.push_back(std::move(game));
    return w;
}

Worlds placed_worlds(const rules::Variant& variant, const rules::HiddenPlacements& hidden,
                     const rules::SeatView& view, const PublicRecord& record, int count,
                     std::mt19937_64& rng) {
    const rules::BoardView& b = view.board();
    const Seat us = view.seat();
    // A world fits when the seat's view of it shows what the seat was shown, check included.
    auto fits = [&](const rules::Game& g) {
        const auto seen = g.seat_view(us).board();
        return same_cells(seen, b) && seen.check == b.check;
    };

    Worlds w;
    if (hidden.possible.empty()) {
        w.naming = start(variant, record.options, hidden.seen);
        w.games.push_back(w.naming->clone());
        return w;
    }
    // The board without the hidden pieces is no position of the game when one stands between a
    // piece of ours and their king: then the worlds name the actions themselves.
    if (auto seen = variant.start(record.options, hidden.seen))
        w.naming = std::move(*seen);
    std::vector<std::string> possible = hidden.possible;
    std::shuffle(possible.begin(), possible.end(), rng);
    for (const auto& fen : possible) {
        if (static_cast<int>(w.games.size()) >= count)
            break;
        auto game = variant.start(record.options, fen);
        if (game && fits(**game))
            w.games.push_back(std::move(*game));
    }
    if (w.games.empty())
        throw std::invalid_argument("no position fits the view given");
    return w;
}

} // namespace ghostpost::engine
