// The Haunted Chess position: two layers on one 8x8 board. The living layer is FIDE chess; the
// spirit layer holds at most one spirit per square. A spirit that shares its square with a
// living piece is "virtual" (inert, it waits under its captor); a spirit alone on its square
// is "released". A released spirit is "invoked" while a living piece of its own side attacks
// its square. See docs/variants/haunted.md for every rule and reading.
#pragma once

#include "chess/bitboard.h"
#include "ghostpost/rules/setup.h"
#include "ghostpost/rules/types.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace ghostpost::rules::haunted {

using chess::Bitboard;
using chess::Sq;

// Which layer acts: a living piece, a released spirit moving, or a spirit pawn on its last
// rank reborn where it stands.
enum class Layer : std::uint8_t { Living, Spirit, Rebirth };

struct HMove {
    std::uint8_t from = 0;
    std::uint8_t to = 0;
    Layer layer = Layer::Living;
    bool en_passant = false;
    bool castle = false;
    PieceKind promotion = PieceKind::None; // a pawn's promotion, or a spirit pawn's new life
    constexpr bool operator==(const HMove&) const = default;
};

// A fixed-capacity list: spirits add moves to the living ones, so room for 1024.
class MoveBuf {
public:
    void push(HMove m) { moves_[size_++] = m; }
    void clear() { size_ = 0; }
    std::size_t size() const { return size_; }
    const HMove* begin() const { return moves_.data(); }
    const HMove* end() const { return moves_.data() + size_; }
    const HMove& operator[](std::size_t i) const { return moves_[i]; }

private:
    std::array<HMove, 1024> moves_;
    std::size_t size_ = 0;
};

// The spirit that stays when two meet on one square: the higher of Q > R > B > N > P; on a
// tie the one already there ("the oldest in the place wins").
int hierarchy(PieceKind k);

// What a move did, for the events a game reports.
struct MoveReport {
    Piece captured; // the living piece taken, if any
    Sq captured_on = -1;
    bool annihilated = false; // taken by a spirit: it leaves the game
    Piece spirit_kept;        // the spirit on the contested square afterwards
    Piece spirit_lost;        // a spirit that left the game through the hierarchy
    Piece released;           // a virtual spirit set free because its captor left
};

// Haunted Chess's FEN: the chess core's, with the spirits in brackets after the placement.
inline constexpr FenShape fen_shape{.brackets = true};

class Board {
public:
    // The start position of FIDE chess, without spirits.
    Board();
    // Reads FEN with an optional spirit list after the placement in brackets: upper case for
    // white spirits, lower case for black, each followed by its square, separated by commas
    // ("...RNBQKBNR[Bc6,nd4] w KQkq - 0 1"). Returns an error text, empty on success.
    std::string set_fen(std::string_view fen);
    // The board a Setup describes (its bracketed list the spirits), or every reason it is none.
    static Checked<Board> from_setup(const Setup& setup);
    std::string fen() const;

    Seat side_to_move() const { return stm_; }
    Piece living(Sq s) const { return living_[static_cast<std::size_t>(s)]; }
    Piece spirit(Sq s) const { return spirit_[static_cast<std::size_t>(s)]; }
    Bitboard living_of(Seat s) const { return live_seat_[index(s)]; }
    Bitboard living_all() const { return live_seat_[0] | live_seat_[1]; }
    Bitboard spirits_of(Seat s) const { return spirit_seat_[index(s)]; }
    Bitboard spirits_all() const { return spirit_seat_[0] | spirit_seat_[1]; }
    // Spirits of `s` alone on their squares.
    Bitboard released(Seat s) const { return spirit_seat_[index(s)] & ~living_all(); }
    // Everything that stops a slider or a step: living pieces and spirits alike.
    Bitboard occupied() const { return living_all() | spirits_all(); }
    std::uint8_t castling() const { return castling_; }
    int ep_square() const { return ep_; }
    int halfmove_clock() const { return halfmove_; }
    int fullmove_number() const { return fullmove_; }

    // Squares the living pieces of `s` attack (a ray stops on, and includes, its first blocker).
    Bitboard living_attacks(Seat s) const;
    // Released spirits of `s` whose square a living piece of `s` attacks.
    Bitboard invoked(Seat s) const { return released(s) & living_attacks(s); }
    // Whether `by` attacks `s` with a living piece or an invoked spirit.
    bool attacked(Sq s, Seat by) const;
    Sq king_square(Seat s) const;
    bool in_check(Seat s) const;

    // Moves that follow the pieces' and spirits' movement, without regard to the own king.
    void generate_pseudo(MoveBuf& out) const;
    void generate_legal(MoveBuf& out) const;
    bool is_legal(const HMove& m) const;

    MoveReport make(const HMove& m);

    // A hash of what repetition compares: both layers, side, castling, a usable e.p. square.
    std::uint64_t key() const;
    // No spirit anywhere and too little living material for any mate (FIDE's dead positions).
    bool insufficient_material() const;
    std::uint64_t perft(int depth) const;

    // Every internal invariant: each layer's bitboards agree with its mailbox, one living king a
    // side and no spirit king, pawns where they may stand, castling rights with their king and
    // rook at home, an en passant square on the rank the side to move takes on, the side not to
    // move not in check.
    bool is_consistent() const;

private:
    struct Empty {};
    explicit Board(Empty) {}
    void put_living(Piece p, Sq s);
    void remove_living(Sq s);
    void put_spirit(Piece p, Sq s);
    void remove_spirit(Sq s);
    // A new spirit arrives on `s`: the hierarchy decides which of two stays.
    void contest(Piece newcomer, Sq s, MoveReport& report);
    // The generator writes to a sink: `push(HMove)` for one move, `many(from, targets)` for a
    // living piece's plain moves (no pawn's), which perft's last ply counts as a set.
    template <class Sink> void generate_into(Sink& out) const;
    template <class Sink> void add_spirit_moves(Sq from, Bitboard invoked_here, Sink& out) const;
    struct LegalCounter;
    // What decides most moves' legality without playing them, found once a node.
    struct KingSafety;
    KingSafety king_safety() const;
    // is_legal(m), for a pseudo-legal `m`, without playing it where that is safe.
    bool legal_in_perft(const HMove& m, const KingSafety& safety) const;
    struct PerftFrame;
    std::uint64_t perft_from(int depth, PerftFrame* frames) const;

    std::array<Piece, 64> living_{};
    std::array<Piece, 64> spirit_{};
    std::array<Bitboard, 2> live_seat_{};
    std::array<Bitboard, 11> live_kind_{};
    std::array<Bitboard, 2> spirit_seat_{};
    std::array<Bitboard, 11> spirit_kind_{};
    Seat stm_ = Seat::White;
    std::uint8_t castling_ = 15; // 1 = K, 2 = Q, 4 = k, 8 = q
    int ep_ = -1;
    int halfmove_ = 0;
    int fullmove_ = 1;
};

} // namespace ghostpost::rules::haunted
