// What a seat of Phantom Chess cannot see, for whoever must think about it (the engine): the
// positions the other side's Phantom may make, from the seat's view and the announcements.
#include "ghostpost/rules/replay.h"
#include "phantom.h"

#include <algorithm>
#include <cstdlib>

namespace ghostpost::rules::phantom {

// Everything but the other side's Phantom is on the seat's board; castling
// rights, the en passant square and which Phantoms are in hand follow from the board, its notes
// and the announcements. The other Phantom, when it is in play, stands where its last
// announcement put it (F@e4, Fxd5: the square is public, only unseen); when no announcement
// says (a game from a position), on any empty square that leaves the seat's board as it is.
namespace {

char fen_letter(Piece p) {
    const char c = piece_letter(p.kind);
    return p.seat == Seat::White ? c : static_cast<char>(c - 'A' + 'a');
}

std::string placement(const BoardView& b, std::optional<Piece> extra, Square extra_at) {
    std::string out;
    for (int r = 7; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < 8; ++f) {
            const Square s{f, r};
            std::optional<Piece> p;
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

PhantomState phantom_state(const BoardView& b, Seat seat) {
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
std::string castling(const BoardView& b, const std::vector<LoggedAction>& announced) {
    std::string out;
    for (Seat s : {Seat::White, Seat::Black}) {
        bool king_moved = false, rook_moved = false;
        for (const auto& a : announced) {
            if (a.seat != s || a.text.empty())
                continue;
            king_moved = king_moved || a.text[0] == 'K' || a.text.starts_with("O-O");
            rook_moved = rook_moved || a.text[0] == 'R';
        }
        const int home = s == Seat::White ? 0 : 7;
        auto at = [&](int file, PieceKind k) {
            const auto& figs = b.at({file, home}).figures;
            return !figs.empty() && figs.front().piece == Piece{k, s};
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
std::string en_passant(const BoardView& b) {
    if (!b.last_from.valid() || !b.last_to.valid() || b.last_from.file != b.last_to.file ||
        std::abs(b.last_from.rank - b.last_to.rank) != 2)
        return "-";
    const auto& figs = b.at(b.last_to).figures;
    if (figs.empty() || figs.front().piece.kind != PieceKind::Pawn)
        return "-";
    return Square(b.last_to.file, (b.last_from.rank + b.last_to.rank) / 2).name();
}

// The square of the last announced move or entry of `seat`'s Phantom: "F@e4", "F@xe4", "Fe5",
// "Fxd5+" (a Phantom may be disambiguated by nothing: there is one per side).
std::optional<Square> announced_phantom(const std::vector<LoggedAction>& announced, Seat seat) {
    for (auto it = announced.rbegin(); it != announced.rend(); ++it) {
        if (it->seat != seat || it->text.empty() || it->text[0] != 'F')
            continue;
        std::string t = it->text;
        std::erase_if(t, [](char c) { return c == '+' || c == '#' || c == 'x' || c == '@'; });
        if (t.size() >= 3)
            return parse_square(std::string_view(t).substr(t.size() - 2));
        return std::nullopt;
    }
    return std::nullopt;
}

} // namespace

std::optional<HiddenPlacements> phantom_placements(const SeatView& view,
                                                   const std::vector<LoggedAction>& announced) {
    const BoardView& b = view.board();
    const Seat us = view.seat();
    const Seat them = opponent(us);
    std::string hand;
    for (Seat s : {Seat::White, Seat::Black})
        if (phantom_state(b, s) == PhantomState::InHand)
            hand += s == Seat::White ? 'F' : 'f';
    const std::string rest = std::string(" ") + (us == Seat::White ? "w " : "b ") +
                             castling(b, announced) + " " + en_passant(b) + " 0 " +
                             std::to_string(b.move_number);
    auto fen_with = [&](std::optional<Square> at) {
        std::optional<Piece> extra;
        if (at)
            extra = Piece{pieces::phantom, them};
        return placement(b, extra, at ? *at : Square{}) + "[" + hand + "]" + rest;
    };
    HiddenPlacements hidden;
    hidden.seen = fen_with(std::nullopt);
    if (phantom_state(b, them) != PhantomState::InPlay)
        return hidden;
    if (auto sq = announced_phantom(announced, them); sq && b.at(*sq).figures.empty())
        hidden.possible.push_back(fen_with(*sq));
    else
        for (int r = 0; r < 8; ++r)
            for (int f = 0; f < 8; ++f)
                if (b.at({f, r}).figures.empty())
                    hidden.possible.push_back(fen_with(Square(f, r)));
    return hidden;
}

} // namespace ghostpost::rules::phantom
