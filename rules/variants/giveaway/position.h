// The giveaway core shared by the 8x8 `giveaway` variant (Fairy-Stockfish's giveaway rules) and
// the 10x10 `ghostarelay` variant: a board without royalty or check, compulsory capture, and a
// move generator fast enough for perft. Rules documents: docs/variants/giveaway.md and
// docs/variants/ghostarelay.md.
#pragma once

#include "ghostpost/rules/setup.h"
#include "ghostpost/rules/types.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace ghostpost::rules::giveaway {

// Which of the two games a position follows. They differ in the set of pieces, castling, en
// passant and promotion, and share everything else.
enum class Flavour : std::uint8_t {
    Giveaway,    // 8x8, FIDE pieces, FIDE castling with rights, en passant, promotion to Q R B N K
    Ghostarelay, // 10x10, Ghost/Relay/Warlord, free two-step castling, no e.p., promotion to W
};

// Squares are indices into a 14x14 mailbox: the board (at most 10x10) sits two cells in from
// each edge, so every knight leap or slide from a board square lands on a readable cell.
inline constexpr int stride = 14;
inline constexpr int cell_count = stride * stride;
using Sq = std::uint8_t;

constexpr Sq to_sq(int file, int rank) {
    return static_cast<Sq>((rank + 2) * stride + file + 2);
}
constexpr int file_of(Sq s) {
    return s % stride - 2;
}
constexpr int rank_of(Sq s) {
    return s / stride - 2;
}
inline Square to_square(Sq s) {
    return Square(file_of(s), rank_of(s));
}

// A cell holds 0 (empty), `off_board`, or a piece: the PieceKind in the low nibble and
// `black_bit` for Black.
inline constexpr std::uint8_t off_board = 0x80;
inline constexpr std::uint8_t black_bit = 0x10;
constexpr std::uint8_t encode(Piece p) {
    return static_cast<std::uint8_t>(static_cast<int>(p.kind) |
                                     (p.seat == Seat::Black ? black_bit : 0));
}
constexpr PieceKind kind_of(std::uint8_t c) {
    return static_cast<PieceKind>(c & 0x0F);
}
constexpr Seat seat_of(std::uint8_t c) {
    return (c & black_bit) ? Seat::Black : Seat::White;
}

enum MoveFlag : std::uint8_t {
    Capture = 1,
    EnPassant = 2,
    Castle = 4,
    DoublePush = 8,
};

// One move of the internal generator. For castling, `rook_from`/`rook_to` say where the rook
// jumps; `to` is always the king's destination.
struct Move {
    Sq from = 0;
    Sq to = 0;
    PieceKind piece = PieceKind::None;
    PieceKind promotion = PieceKind::None;
    std::uint8_t flags = 0;
    Sq rook_from = 0;
    Sq rook_to = 0;

    bool capture() const { return (flags & Capture) != 0; }
    auto tie() const { return std::tuple(from, to, promotion, flags & Castle); }
};

using MoveList = std::vector<Move>;

// Castling rights of the 8x8 giveaway, as in FEN.
enum CastleRight : std::uint8_t { WhiteShort = 1, WhiteLong = 2, BlackShort = 4, BlackLong = 8 };

// The FEN of the flavour: 8x8 or 10x10 (ten empty squares written "10"), six fields at most.
FenShape fen_shape(Flavour flavour);

class Position {
public:
    // The variant's start position.
    static Position start(Flavour flavour);
    // Reads a FEN of the flavour's dialect (10x10 ranks use multi-digit empty counts, as
    // Fairy-Stockfish writes them). The move counters may be left out. Errors: BadSetup naming
    // the field that cannot be used.
    static Result<Position> from_fen(Flavour flavour, std::string_view fen);
    // The position a Setup describes, or every reason it is none (letters that are no piece of
    // the flavour, castling rights without their king and rook, an en passant square no pawn
    // passed over, pawns on a rank they cannot stand on, an empty board).
    static Checked<Position> from_setup(Flavour flavour, const Setup& setup);

    std::string fen() const;
    // What makes two positions the same for repetition: placement, side to move, castling
    // rights and a usable en-passant square.
    std::string key() const;

    Flavour flavour() const { return flavour_; }
    int files() const { return files_; }
    int ranks() const { return ranks_; }
    Seat side() const { return side_; }
    std::uint8_t castling() const { return castling_; } // CastleRight bits
    int halfmove_clock() const { return halfmove_; }
    int fullmove_number() const { return fullmove_; }
    std::uint8_t at(Sq s) const { return board_[s]; }
    Piece piece_at(Square s) const;
    int piece_count(Seat s) const;
    bool on_board(Sq s) const { return board_[s] != off_board; }

    // The legal moves: the captures when there is one (capture is compulsory), otherwise the
    // quiet moves. Each move appears once.
    void legal_moves(MoveList& out) const;
    // Every move the pieces could make if capture were not compulsory, captures first.
    void captures(MoveList& out) const;
    void quiet_moves(MoveList& out) const;

    // Plays a move from legal_moves (unchecked), or passes the turn.
    void play(const Move& m);
    void pass();

    // Every internal invariant: cells off the board stay off it, only the flavour's pieces and
    // no pawn on a rank it cannot stand on, castling rights with their king and rook at home, an
    // en passant square a pawn just passed over with a pawn to take it, counters in range.
    bool is_consistent() const;

    // Leaf count of the move tree `depth` plies deep; a side without legal moves ends its
    // branch (no pass), as in Fairy-Stockfish.
    std::uint64_t perft(int depth) const;
    // How many legal moves there are, as legal_moves(...).size() says, found without listing
    // them where the flavour allows (perft's last ply).
    std::uint64_t count_legal_moves() const;
    std::uint64_t count_legal_moves(MoveList& scratch) const;

    // Canonical text of each move of `legal`, in the same order: SAN with this variant's piece
    // letters and disambiguation among `legal`.
    std::vector<std::string> san(const MoveList& legal) const;
    // The text of one move of `legal`.
    std::string san(const Move& m, const MoveList& legal) const;

private:
    void clear(Flavour flavour);
    void gen_piece(Sq from, bool want_captures, MoveList& out) const;
    void gen_relay_grants(bool want_captures, MoveList& out) const;
    void gen_castling(MoveList& out) const;
    void add_pawn_move(Sq from, Sq to, std::uint8_t flags, MoveList& out) const;
    bool promotes(Seat s, Sq to) const;
    std::uint64_t perft_inner(int depth, std::vector<MoveList>& lists) const;
    // legal_moves in the generator's order, duplicates removed only where relay grants can
    // cause them: the same moves, not sorted, for perft's inner plies.
    void perft_moves(MoveList& out) const;
    std::uint64_t count_giveaway_moves() const;
    // The 8x8 board as bitboards, and the count made from them.
    struct Boards;
    Boards boards() const;
    std::uint64_t count_giveaway_moves(const Boards& b) const;
    static void play_on(Boards& b, const Move& m, Seat mover);
    // The same count for Ghostarelay; `scratch` holds a list where one is needed.
    std::uint64_t count_ghostarelay_moves(MoveList& scratch) const;

    std::array<std::uint8_t, cell_count> board_{};
    Flavour flavour_ = Flavour::Giveaway;
    int files_ = 8;
    int ranks_ = 8;
    Seat side_ = Seat::White;
    std::uint8_t castling_ = 0;
    Sq ep_ = 0; // the square a double-stepping pawn passed over, when the reply may take e.p.
    int halfmove_ = 0;
    int fullmove_ = 1;
};

} // namespace ghostpost::rules::giveaway
