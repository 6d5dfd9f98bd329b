// Building the positions the engine thinks in from what its seat knows.
#include "ghostpost/rules/notation.h"
#include "variant_play.h"

#include <algorithm>
#include <stdexcept>

namespace ghostpost::engine {

using rules::PieceKind;
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

// Phantom Chess. Everything but the other side's Phantom is on the seat's board; castling
// rights, the en passant square and which Phantoms are in hand follow from the board, its notes
// and the announcements. The other Phantom, when it is in play, stands where its last
// announcement put it (F@e4, Fxd5: the square is public, only unseen); when no announcement
// says (a game from a position), on any empty square that leaves the seat's board as it is.
namespace {

char fen_letter(rules::Piece p) {
    const char c = rules::piece_letter(p.kind);
    return p.seat == Seat::White ? c : static_cast<char>(c - 'A' + 'a');
}

std::string placement(const rules::BoardView& b, std::optional<rules::Piece> extra,
                      rules::Square extra_at) {
    std::string out;
    for (int r = 7; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < 8; ++f) {
            const rules::Square s{f, r};
            std::optional<rules::Piece> p;
            if (!b.at(s).figures.empty())
                p = b.at(s).figures.front().piece;
            else if (extra && s == extra_at)
                p = extra;
            if (!p) {
                ++empty;
                continue;
            }
            if (empty)
                out += std::to_string(empty);
            empty = 0;
            out += fen_letter(*p);
        }
        if (empty)
            out += std::to_string(empty);
        if (r)
            out += '/';
    }
    return out;
}

enum class PhantomState { InHand, InPlay, Gone };

PhantomState phantom_state(const rules::BoardView& b, Seat seat) {
    const std::string who = seat == Seat::White ? "White " : "Black ";
    for (const auto& note : b.notes) {
        if (!note.starts_with("Phantoms:"))
            continue;
        if (note.find(who + "in hand") != std::string::npos)
            return PhantomState::InHand;
        if (note.find(who + "in play") != std::string::npos)
            return PhantomState::InPlay;
    }
    return PhantomState::Gone;
}

// Castling rights no announcement has taken away: the king and rook at home, and no king move,
// castling or rook move announced for that side (any rook move counts against both rooks: the
// announcement does not always say which rook).
std::string castling(const rules::BoardView& b, const PublicRecord& record) {
    std::string out;
    for (Seat s : {Seat::White, Seat::Black}) {
        bool king_moved = false, rook_moved = false;
        for (const auto& a : record.actions) {
            if (a.seat != s || a.text.empty())
                continue;
            king_moved = king_moved || a.text[0] == 'K' || a.text.starts_with("O-O");
            rook_moved = rook_moved || a.text[0] == 'R';
        }
        const int home = s == Seat::White ? 0 : 7;
        auto at = [&](int file, PieceKind k) {
            const auto& figs = b.at({file, home}).figures;
            return !figs.empty() && figs.front().piece == rules::Piece{k, s};
        };
        if (king_moved || rook_moved || !at(4, PieceKind::King))
            continue;
        const char k = s == Seat::White ? 'K' : 'k';
        const char q = s == Seat::White ? 'Q' : 'q';
        if (at(7, PieceKind::Rook))
            out += k;
        if (at(0, PieceKind::Rook))
            out += q;
    }
    return out.empty() ? "-" : out;
}

// The square the last move's double pawn step passed, when there was one.
std::string en_passant(const rules::BoardView& b) {
    if (!b.last_from.valid() || !b.last_to.valid() || b.last_from.file != b.last_to.file ||
        std::abs(b.last_from.rank - b.last_to.rank) != 2)
        return "-";
    const auto& figs = b.at(b.last_to).figures;
    if (figs.empty() || figs.front().piece.kind != PieceKind::Pawn)
        return "-";
    return rules::Square(b.last_to.file, (b.last_from.rank + b.last_to.rank) / 2).name();
}

// The square of the last announced move or entry of `seat`'s Phantom: "F@e4", "F@xe4", "Fe5",
// "Fxd5+" (a Phantom may be disambiguated by nothing: there is one per side).
std::optional<rules::Square> announced_phantom(const PublicRecord& record, Seat seat) {
    for (auto it = record.actions.rbegin(); it != record.actions.rend(); ++it) {
        if (it->seat != seat || it->text.empty() || it->text[0] != 'F')
            continue;
        std::string t = it->text;
        std::erase_if(t, [](char c) { return c == '+' || c == '#' || c == 'x' || c == '@'; });
        if (t.size() >= 3)
            return rules::parse_square(std::string_view(t).substr(t.size() - 2));
        return std::nullopt;
    }
    return std::nullopt;
}

} // namespace

Worlds phantom_worlds(const rules::Variant& variant, const rules::SeatView& view,
                      const PublicRecord& record, int count, std::mt19937_64& rng) {
    const rules::BoardView& b = view.board();
    const Seat us = view.seat();
    const Seat them = rules::opponent(us);
    std::string hand;
    for (Seat s : {Seat::White, Seat::Black})
        if (phantom_state(b, s) == PhantomState::InHand)
            hand += s == Seat::White ? 'F' : 'f';
    const std::string rest = std::string(" ") + (us == Seat::White ? "w " : "b ") +
                             castling(b, record) + " " + en_passant(b) + " 0 " +
                             std::to_string(b.move_number);
    auto fen_with = [&](std::optional<rules::Square> at) {
        std::optional<rules::Piece> extra;
        if (at)
            extra = rules::Piece{PieceKind::Phantom, them};
        return placement(b, extra, at ? *at : rules::Square{}) + "[" + hand + "]" + rest;
    };
    // A world fits when the seat's view of it shows what the seat was shown, check included.
    auto fits = [&](const rules::Game& g) {
        const auto seen = g.seat_view(us).board();
        return same_cells(seen, b) && seen.check == b.check;
    };

    Worlds w;
    if (phantom_state(b, them) != PhantomState::InPlay) {
        w.naming = start(variant, record.options, fen_with(std::nullopt));
        w.games.push_back(w.naming->clone());
        return w;
    }
    // The board without the unseen Phantom is no position of the game when the Phantom stands
    // between one of our pieces and their king: then the worlds name the actions themselves.
    if (auto seen = variant.start(record.options, fen_with(std::nullopt)))
        w.naming = std::move(*seen);
    std::vector<rules::Square> candidates;
    if (auto sq = announced_phantom(record, them); sq && b.at(*sq).figures.empty())
        candidates.push_back(*sq);
    else
        for (int r = 0; r < 8; ++r)
            for (int f = 0; f < 8; ++f)
                if (b.at({f, r}).figures.empty())
                    candidates.emplace_back(f, r);
    std::shuffle(candidates.begin(), candidates.end(), rng);
    for (const auto& sq : candidates) {
        if (static_cast<int>(w.games.size()) >= count)
            break;
        auto game = variant.start(record.options, fen_with(sq));
        if (game && fits(**game))
            w.games.push_back(std::move(*game));
    }
    if (w.games.empty())
        throw std::invalid_argument("no position fits the view given");
    return w;
}

} // namespace ghostpost::engine
