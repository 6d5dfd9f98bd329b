// The FIDE position on 8x8 bitboards, shared by every 8x8 variant built on chess. It knows the
// FIDE pieces plus the knight_ferz (bitboard.h) and pieces in hand, so variants that add a
// piece or a drop compose it instead of copying it. Moves are made and unmade in place.
#pragma once

#include "chess/bitboard.h"
#include "ghostpost/rules/setup.h"
#include "ghostpost/rules/types.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ghostpost::rules::chess {

enum class MoveType : std::uint8_t { Normal, Promotion, EnPassant, Castle, Drop };

// A move in the core's own compact form. Castling is the king's move (e1g1); a drop has
// `from` equal to `to` and names the dropped kind in `piece`.
struct Move {
    std::uint8_t from = 0;
    std::uint8_t to = 0;
    MoveType type = MoveType::Normal;
    PieceKind piece = PieceKind::None; // promotion piece, or the dropped piece
    constexpr bool operator==(const Move&) const = default;
};

// A fixed-capacity list: no allocation on the hot path. 256 is more than any 8x8 position with
// one extra piece and drops can produce.
class MoveList {
public:
    void push(Move m) { moves_[size_++] = m; }
    std::size_t size() const { return size_; }
    const Move* begin() const { return moves_.data(); }
    const Move* end() const { return moves_.data() + size_; }
    const Move& operator[](std::size_t i) const { return moves_[i]; }
    void clear() { size_ = 0; }

private:
    std::array<Move, 256> moves_;
    std::size_t size_ = 0;
};

// Castling rights as four bits.
enum CastleRight : std::uint8_t { WhiteShort = 1, WhiteLong = 2, BlackShort = 4, BlackLong = 8 };

// The chess core's FEN: 8x8, pieces in hand in brackets after the placement.
inline constexpr FenShape fen_shape{.brackets = true};

class Position {
public:
    // The FIDE start position.
    Position();
    // Reads FEN (six fields; the last two may be missing). Pieces in hand, if any, follow the
    // placement in brackets as in crazyhouse FEN ("...RNBQKBNR[Ff] w KQkq - 0 1"); the letter is
    // the knight_ferz's (piece_letter). Returns an error text, empty on success.
    std::string set_fen(std::string_view fen);
    // The position a Setup describes (its bracketed list the pieces in hand), or every reason
    // it is none: a letter that is no piece of the core, more than one king of a side, a pawn on
    // the first or last rank, the side not to move in check, unreadable castling, en passant or
    // counters. Castling rights without their king and rook at home are dropped, not refused.
    static Checked<Position> from_setup(const Setup& setup);
    std::string fen() const;

    Seat side_to_move() const { return stm_; }
    Piece piece_on(Sq s) const { return board_[static_cast<std::size_t>(s)]; }
    Bitboard pieces() const { return by_seat_[0] | by_seat_[1]; }
    Bitboard pieces(Seat s) const { return by_seat_[index(s)]; }
    Bitboard pieces(PieceKind k) const { return by_kind_[static_cast<std::size_t>(k)]; }
    Bitboard pieces(Seat s, PieceKind k) const { return pieces(s) & pieces(k); }
    int in_hand(Seat s, PieceKind k) const { return hand_[index(s)][static_cast<std::size_t>(k)]; }
    std::uint8_t castling() const { return castling_; }
    int ep_square() const { return ep_; } // -1 when none
    int halfmove_clock() const { return halfmove_; }
    int fullmove_number() const { return fullmove_; }
    std::uint64_t key() const { return key_; }
    int plies_played() const { return static_cast<int>(history_.size()); }
    // The move that led here, or nullptr at the start.
    const Move* last_move() const { return history_.empty() ? nullptr : &history_.back().move; }

    // Pieces of `by` attacking `s` with occupancy `occ`.
    Bitboard attackers_to(Sq s, Bitboard occ, Seat by) const;
    bool attacked(Sq s, Seat by) const { return attackers_to(s, pieces(), by) != 0; }
    // The king of `s`, or -1 when that side has none.
    Sq king_square(Seat s) const {
        Bitboard k = pieces(s, PieceKind::King);
        return k ? lsb(k) : -1;
    }
    Bitboard checkers() const;
    bool in_check() const { return checkers() != 0; }

    // All legal moves of the side to move (drops are left to the variant that has them).
    void generate_legal(MoveList& out) const;
    // How many legal moves the side to move has (what generate_legal would list).
    std::uint64_t count_legal() const;
    // Moves that follow the pieces' movement without regard to the own king's safety.
    void generate_pseudo_legal(MoveList& out) const;
    // Whether a pseudo-legal move (or a drop) keeps the mover's king safe.
    bool leaves_king_safe(const Move& m);

    void do_move(const Move& m);
    void undo_move();
    // A copy with the piece on `s` lifted off and no history: a side's view of a board with a
    // piece only its owner sees. The copy may be no reachable position (a king left en prise),
    // so it is for generating what that side believes it may do, never for play.
    Position without(Sq s) const;

    // The number of times the current position occurred before (same placement, side to move,
    // castling rights, en passant square and hands), counting back to the last irreversible move.
    int repetitions() const;
    bool insufficient_material() const;

    std::uint64_t perft(int depth);

    // Every internal invariant: bitboards agree with the mailbox, no overlaps, one king or none
    // per side, pawns off the back ranks, the side not to move not in check, castling rights
    // with their king and rook at home, an en passant square a pawn of the side to move could
    // take on, the key matches a recomputation.
    bool is_consistent() const;

private:
    struct Empty {};
    explicit Position(Empty) {}

    struct Undo {
        Move move;
        Piece captured;
        std::uint8_t castling;
        int ep;
        int halfmove;
        std::uint64_t key;
    };

    // generate_legal's work, handing each move (or each piece's set of targets) to `sink`.
    template <class Sink> void generate_legal_into(Sink& sink) const;

    void put(Piece p, Sq s); // place or lift, and the key updated
    void remove(Sq s);
    void place(Piece p, Sq s); // the board and bitboards only
    Piece lift(Sq s);
    std::uint64_t compute_key() const;

    std::array<Piece, 64> board_{};
    std::array<Bitboard, 11> by_kind_{};
    std::array<Bitboard, 2> by_seat_{};
    std::array<std::array<std::uint8_t, 11>, 2> hand_{};
    Seat stm_ = Seat::White;
    std::uint8_t castling_ = 0;
    int ep_ = -1;
    int halfmove_ = 0;
    int fullmove_ = 1;
    std::uint64_t key_ = 0;
    std::vector<Undo> history_;
};

} // namespace ghostpost::rules::chess
