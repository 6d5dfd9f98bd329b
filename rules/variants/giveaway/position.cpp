// The giveaway core: board, move generation, FEN and SAN for giveaway and Ghostarelay. Neither
// game has check, so every generated move is legal apart from the compulsory-capture filter.
#include "position.h"

#include "chess/bitboard.h"
#include "ghostpost/variants/pieces.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cstring>

namespace ghostpost::rules::giveaway {

namespace {

constexpr int north = stride;
constexpr std::array<int, 4> rook_dirs{stride, -stride, 1, -1};
constexpr std::array<int, 4> bishop_dirs{stride + 1, stride - 1, -stride + 1, -stride - 1};
constexpr std::array<int, 8> king_dirs{stride,     -stride,    1,           -1,
                                       stride + 1, stride - 1, -stride + 1, -stride - 1};
constexpr std::array<int, 8> knight_jumps{2 * stride + 1, 2 * stride - 1,  stride + 2,
                                          stride - 2,     -2 * stride + 1, -2 * stride - 1,
                                          -stride + 2,    -stride - 2};

constexpr std::array<PieceKind, 5> giveaway_promotions{
    PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight, PieceKind::King};
constexpr std::array<PieceKind, 1> ghostarelay_promotions{pieces::warlord};

constexpr std::string_view giveaway_start =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
constexpr std::string_view ghostarelay_start =
    "rnbxqkgbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBXQKGBNR w - - 0 1";

Sq step(Sq s, int d) {
    return static_cast<Sq>(s + d);
}

bool allowed_piece(Flavour f, PieceKind k) {
    switch (k) {
    case PieceKind::Pawn:
    case PieceKind::Knight:
    case PieceKind::Bishop:
    case PieceKind::Rook:
    case PieceKind::Queen:
    case PieceKind::King:
        return true;
    case pieces::ghost:
    case pieces::relay:
    case pieces::warlord:
        return f == Flavour::Ghostarelay;
    default:
        return false;
    }
}

RuleError bad_fen(std::string what) {
    return make_error(ErrorKind::BadSetup, "bad FEN: " + std::move(what));
}

} // namespace

struct Position::Boards {
    chess::Bitboard seat[2] = {0, 0};
    chess::Bitboard kind[8] = {}; // by PieceKind, both seats
};

void Position::clear(Flavour flavour) {
    flavour_ = flavour;
    files_ = flavour == Flavour::Ghostarelay ? 10 : 8;
    ranks_ = files_;
    board_.fill(off_board);
    for (int r = 0; r < ranks_; ++r)
        for (int f = 0; f < files_; ++f)
            board_[to_sq(f, r)] = 0;
    side_ = Seat::White;
    castling_ = 0;
    ep_ = 0;
    halfmove_ = 0;
    fullmove_ = 1;
}

Position Position::start(Flavour flavour) {
    auto p = from_fen(flavour, flavour == Flavour::Giveaway ? giveaway_start : ghostarelay_start);
    return p.value();
}

FenShape fen_shape(Flavour flavour) {
    const int size = flavour == Flavour::Ghostarelay ? 10 : 8;
    return FenShape{.files = size,
                    .ranks = size,
                    .field_count = "expected the placement, the side to move, castling, en "
                                   "passant and the two move counters"};
}

Result<Position> Position::from_fen(Flavour flavour, std::string_view fen) {
    auto setup = read_fen(fen, fen_shape(flavour));
    if (!setup)
        return bad_fen(setup.error().message);
    auto p = from_setup(flavour, *setup);
    if (!p)
        return bad_fen(p.first_reason());
    return std::move(p).value();
}

Checked<Position> Position::from_setup(Flavour flavour, const Setup& setup) {
    Position p;
    p.clear(flavour);
    if (setup.files != p.files_ || setup.ranks != p.ranks_)
        return std::vector<std::string>{"the placement must have " + std::to_string(p.ranks_) +
                                        " ranks of " + std::to_string(p.files_) + " squares"};
    std::vector<std::string> reasons;
    auto tell = [&reasons](std::string why) { tell_once(reasons, std::move(why)); };
    for (int rank = p.ranks_ - 1; rank >= 0; --rank)
        for (int file = 0; file < p.files_; ++file) {
            const char c = setup.at(file, rank);
            if (c == '\0')
                continue;
            const Piece piece = Setup::piece_of(c);
            if (!allowed_piece(flavour, piece.kind)) {
                tell(std::string("'") + c + "' is not a piece of this variant");
                continue;
            }
            p.board_[to_sq(file, rank)] = encode(piece);
        }
    p.side_ = setup.side;

    // Ghostarelay has neither castling nor en passant: say so before reading either field.
    std::vector<std::string> fields = setup.fields;
    if (flavour == Flavour::Ghostarelay) {
        if (fields.size() > 0 && fields[0] != "-") {
            tell("Ghostarelay has no castling rights: use -");
            fields[0] = "-";
        }
        if (fields.size() > 1 && fields[1] != "-") {
            tell("Ghostarelay has no en passant: use -");
            fields[1] = "-";
        }
    }
    auto read = read_standard_fields(fields);
    if (!read) {
        tell(read.error().message);
    } else {
        for (int i = 0; i < 4; ++i) {
            if (!(read->castling & (1 << i)))
                continue;
            Seat s = i < 2 ? Seat::White : Seat::Black;
            int r = s == Seat::White ? 0 : 7;
            if (p.board_[to_sq(4, r)] != encode(Piece{PieceKind::King, s}) ||
                p.board_[to_sq(i % 2 == 0 ? 7 : 0, r)] != encode(Piece{PieceKind::Rook, s}))
                tell(std::string("castling right ") + "KQkq"[i] +
                     " needs its king and rook on their start squares");
            else
                p.castling_ |= static_cast<std::uint8_t>(1 << i);
        }
        if (read->ep) {
            const Square sq = *read->ep;
            int want_rank = p.side_ == Seat::White ? 5 : 2;
            int back = p.side_ == Seat::White ? -north : north;
            Sq passed = to_sq(sq.file, sq.rank);
            Sq pawn = step(passed, back);
            if (sq.rank != want_rank)
                tell("the en-passant square must be on rank " + std::to_string(want_rank + 1));
            else if (p.board_[passed] != 0 ||
                     p.board_[pawn] != encode(Piece{PieceKind::Pawn, opponent(p.side_)}))
                tell("no pawn has just passed over " + sq.name());
            else
                // Kept only when a pawn can take, so that FEN and repetition agree with the moves.
                for (int d : {-1, 1})
                    if (p.board_[step(pawn, d)] == encode(Piece{PieceKind::Pawn, p.side_}))
                        p.ep_ = passed;
        }
        p.halfmove_ = read->halfmove;
        p.fullmove_ = read->fullmove;
    }
    for (int f = 0; f < p.files_; ++f) {
        for (Seat s : {Seat::White, Seat::Black}) {
            // A pawn may never stand on its own last rank; in 8x8 giveaway not on its first either.
            int last = s == Seat::White ? p.ranks_ - 1 : 0;
            if (p.board_[to_sq(f, last)] == encode(Piece{PieceKind::Pawn, s}))
                tell(std::string(seat_name(s)) + " pawn on its last rank");
            if (flavour == Flavour::Giveaway &&
                p.board_[to_sq(f, p.ranks_ - 1 - last)] == encode(Piece{PieceKind::Pawn, s}))
                tell(std::string(seat_name(s)) + " pawn on its first rank");
        }
    }
    if (p.piece_count(Seat::White) == 0 && p.piece_count(Seat::Black) == 0)
        tell("the board is empty");
    if (!reasons.empty())
        return reasons;
    return p;
}

std::string Position::fen() const {
    std::string out;
    for (int r = ranks_ - 1; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < files_; ++f) {
            std::uint8_t c = board_[to_sq(f, r)];
            if (c == 0) {
                ++empty;
                continue;
            }
            if (empty > 0)
                out += std::to_string(empty);
            empty = 0;
            char l = piece_letter(kind_of(c));
            out += seat_of(c) == Seat::White
                       ? l
                       : static_cast<char>(std::tolower(static_cast<unsigned char>(l)));
        }
        if (empty > 0)
            out += std::to_string(empty);
        if (r > 0)
            out += '/';
    }
    out += side_ == Seat::White ? " w " : " b ";
    if (castling_ == 0)
        out += '-';
    for (int i = 0; i < 4; ++i)
        if (castling_ & (1 << i))
            out += "KQkq"[i];
    out += ' ';
    out += ep_ ? to_square(ep_).name() : "-";
    out += ' ' + std::to_string(halfmove_) + ' ' + std::to_string(fullmove_);
    return out;
}

std::string Position::key() const {
    std::string out;
    out.reserve(static_cast<std::size_t>(files_ * ranks_ + 3));
    for (int r = 0; r < ranks_; ++r)
        for (int f = 0; f < files_; ++f)
            out += static_cast<char>(board_[to_sq(f, r)]);
    out += static_cast<char>(side_ == Seat::White ? 'w' : 'b');
    out += static_cast<char>(castling_);
    out += static_cast<char>(ep_);
    return out;
}

Piece Position::piece_at(Square s) const {
    std::uint8_t c = board_[to_sq(s.file, s.rank)];
    if (c == 0 || c == off_board)
        return Piece{};
    return Piece{kind_of(c), seat_of(c)};
}

int Position::piece_count(Seat s) const {
    int n = 0;
    for (int r = 0; r < ranks_; ++r)
        for (int f = 0; f < files_; ++f) {
            std::uint8_t c = board_[to_sq(f, r)];
            n += c != 0 && seat_of(c) == s;
        }
    return n;
}

bool Position::promotes(Seat s, Sq to) const {
    return rank_of(to) == (s == Seat::White ? ranks_ - 1 : 0);
}

void Position::add_pawn_move(Sq from, Sq to, std::uint8_t flags, MoveList& out) const {
    if (!promotes(side_, to)) {
        out.push_back(Move{from, to, PieceKind::Pawn, PieceKind::None, flags, 0, 0});
        return;
    }
    if (flavour_ == Flavour::Giveaway)
        for (PieceKind k : giveaway_promotions)
            out.push_back(Move{from, to, PieceKind::Pawn, k, flags, 0, 0});
    else
        for (PieceKind k : ghostarelay_promotions)
            out.push_back(Move{from, to, PieceKind::Pawn, k, flags, 0, 0});
}

void Position::gen_piece(Sq from, bool want_captures, MoveList& out) const {
    const PieceKind kind = kind_of(board_[from]);
    auto enemy = [&](std::uint8_t c) { return c != 0 && c != off_board && seat_of(c) != side_; };
    auto leap = [&](Sq to) {
        std::uint8_t c = board_[to];
        if (want_captures ? enemy(c) : c == 0)
            out.push_back(Move{from, to, kind, PieceKind::None,
                               want_captures ? std::uint8_t{Capture} : std::uint8_t{0}, 0, 0});
    };
    auto slide = [&](int d) {
        Sq to = step(from, d);
        while (board_[to] == 0) {
            if (!want_captures)
                out.push_back(Move{from, to, kind, PieceKind::None, 0, 0, 0});
            to = step(to, d);
        }
        if (want_captures && enemy(board_[to]))
            out.push_back(Move{from, to, kind, PieceKind::None, Capture, 0, 0});
    };
    switch (kind) {
    case PieceKind::Pawn: {
        const int fwd = side_ == Seat::White ? north : -north;
        if (want_captures) {
            for (int d : {-1, 1}) {
                Sq to = step(from, fwd + d);
                if (enemy(board_[to]))
                    add_pawn_move(from, to, Capture, out);
                else if (ep_ != 0 && to == ep_)
                    out.push_back(Move{from, to, PieceKind::Pawn, PieceKind::None,
                                       static_cast<std::uint8_t>(Capture | EnPassant), 0, 0});
            }
        } else {
            Sq to = step(from, fwd);
            if (board_[to] == 0) {
                add_pawn_move(from, to, 0, out);
                int start_rank = side_ == Seat::White ? 1 : ranks_ - 2;
                Sq two = step(to, fwd);
                if (rank_of(from) == start_rank && board_[two] == 0)
                    out.push_back(
                        Move{from, two, PieceKind::Pawn, PieceKind::None, DoublePush, 0, 0});
            }
        }
        break;
    }
    case PieceKind::Knight:
        for (int d : knight_jumps)
            leap(step(from, d));
        break;
    case PieceKind::Bishop:
        for (int d : bishop_dirs)
            slide(d);
        break;
    case PieceKind::Rook:
        for (int d : rook_dirs)
            slide(d);
        break;
    case PieceKind::Queen:
        for (int d : king_dirs)
            slide(d);
        break;
    case PieceKind::King:
        for (int d : king_dirs)
            leap(step(from, d));
        break;
    case pieces::ghost:
        // Anywhere empty; it never captures by itself.
        if (!want_captures)
            for (int r = 0; r < ranks_; ++r)
                for (int f = 0; f < files_; ++f)
                    if (board_[to_sq(f, r)] == 0)
                        out.push_back(Move{from, to_sq(f, r), kind, PieceKind::None, 0, 0, 0});
        break;
    case pieces::relay:
        // A king step or a knight leap onto an empty square; it never captures by itself.
        if (!want_captures) {
            for (int d : king_dirs)
                leap(step(from, d));
            for (int d : knight_jumps)
                leap(step(from, d));
        }
        break;
    case pieces::warlord:
        // Only captures, but any enemy piece anywhere.
        if (want_captures)
            for (int r = 0; r < ranks_; ++r)
                for (int f = 0; f < files_; ++f)
                    if (enemy(board_[to_sq(f, r)]))
                        out.push_back(
                            Move{from, to_sq(f, r), kind, PieceKind::None, Capture, 0, 0});
        break;
    default:
        break;
    }
}

// An enemy Relay lets each of our pieces next to it move straight away from it: orthogonally
// as a rook without capturing, diagonally as a bishop that may also capture. Grants stack.
void Position::gen_relay_grants(bool want_captures, MoveList& out) const {
    const std::uint8_t their_relay = encode(Piece{pieces::relay, opponent(side_)});
    for (int r = 0; r < ranks_; ++r) {
        for (int f = 0; f < files_; ++f) {
            const Sq relay = to_sq(f, r);
            if (board_[relay] != their_relay)
                continue;
            for (std::size_t i = 0; i < king_dirs.size(); ++i) {
                const int d = king_dirs[i];
                const bool diagonal = i >= 4;
                const Sq from = step(relay, d);
                const std::uint8_t c = board_[from];
                if (c == 0 || c == off_board || seat_of(c) != side_)
                    continue;
                const PieceKind kind = kind_of(c);
                // The Warlord never moves without capturing; its captures already reach everything.
                const bool quiets = !want_captures && kind != pieces::warlord;
                Sq to = step(from, d);
                while (board_[to] == 0) {
                    if (quiets) {
                        if (kind == PieceKind::Pawn)
                            add_pawn_move(from, to, 0, out);
                        else
                            out.push_back(Move{from, to, kind, PieceKind::None, 0, 0, 0});
                    }
                    to = step(to, d);
                }
                const std::uint8_t t = board_[to];
                if (want_captures && diagonal && t != off_board && seat_of(t) != side_) {
                    if (kind == PieceKind::Pawn)
                        add_pawn_move(from, to, Capture, out);
                    else
                        out.push_back(Move{from, to, kind, PieceKind::None, Capture, 0, 0});
                }
            }
        }
    }
}

void Position::gen_castling(MoveList& out) const {
    const std::uint8_t king = encode(Piece{PieceKind::King, side_});
    if (flavour_ == Flavour::Giveaway) {
        const int r = side_ == Seat::White ? 0 : 7;
        const int shift = side_ == Seat::White ? 0 : 2;
        const Sq k = to_sq(4, r);
        if ((castling_ & (WhiteShort << shift)) && board_[to_sq(5, r)] == 0 &&
            board_[to_sq(6, r)] == 0)
            out.push_back(Move{k, to_sq(6, r), PieceKind::King, PieceKind::None, Castle,
                               to_sq(7, r), to_sq(5, r)});
        if ((castling_ & (WhiteLong << shift)) && board_[to_sq(1, r)] == 0 &&
            board_[to_sq(2, r)] == 0 && board_[to_sq(3, r)] == 0)
            out.push_back(Move{k, to_sq(2, r), PieceKind::King, PieceKind::None, Castle,
                               to_sq(0, r), to_sq(3, r)});
        return;
    }
    // Ghostarelay: two empty squares in any orthogonal direction, and the first piece beyond,
    // at any distance, is a rook of either side; it jumps to the square the king passed over.
    for (int r = 0; r < ranks_; ++r) {
        for (int f = 0; f < files_; ++f) {
            const Sq k = to_sq(f, r);
            if (board_[k] != king)
                continue;
            for (int d : rook_dirs) {
                const Sq over = step(k, d);
                const Sq dest = step(over, d);
                if (board_[over] != 0 || board_[dest] != 0)
                    continue;
                Sq beyond = step(dest, d);
                while (board_[beyond] == 0)
                    beyond = step(beyond, d);
                if (board_[beyond] != off_board && kind_of(board_[beyond]) == PieceKind::Rook)
                    out.push_back(
                        Move{k, dest, PieceKind::King, PieceKind::None, Castle, beyond, over});
            }
        }
    }
}

void Position::captures(MoveList& out) const {
    for (int r = 0; r < ranks_; ++r)
        for (int f = 0; f < files_; ++f) {
            std::uint8_t c = board_[to_sq(f, r)];
            if (c != 0 && seat_of(c) == side_)
                gen_piece(to_sq(f, r), true, out);
        }
    if (flavour_ == Flavour::Ghostarelay)
        gen_relay_grants(true, out);
}

void Position::quiet_moves(MoveList& out) const {
    for (int r = 0; r < ranks_; ++r)
        for (int f = 0; f < files_; ++f) {
            std::uint8_t c = board_[to_sq(f, r)];
            if (c != 0 && seat_of(c) == side_)
                gen_piece(to_sq(f, r), false, out);
        }
    if (flavour_ == Flavour::Ghostarelay)
        gen_relay_grants(false, out);
    gen_castling(out);
}

void Position::legal_moves(MoveList& out) const {
    out.clear();
    captures(out);
    if (out.empty())
        quiet_moves(out);
    if (flavour_ == Flavour::Ghostarelay) {
        // Relay grants and the Warlord can repeat a move a piece has anyway.
        std::sort(out.begin(), out.end(),
                  [](const Move& a, const Move& b) { return a.tie() < b.tie(); });
        out.erase(std::unique(out.begin(), out.end(),
                              [](const Move& a, const Move& b) { return a.tie() == b.tie(); }),
                  out.end());
    }
}

void Position::play(const Move& m) {
    const std::uint8_t moving = board_[m.from];
    const int fwd = side_ == Seat::White ? north : -north;
    const bool pawn = kind_of(moving) == PieceKind::Pawn;
    halfmove_ = (m.capture() || pawn) ? 0 : halfmove_ + 1;
    board_[m.from] = 0;
    board_[m.to] = m.promotion != PieceKind::None ? encode(Piece{m.promotion, side_}) : moving;
    if (m.flags & EnPassant)
        board_[step(m.to, -fwd)] = 0;
    if (m.flags & Castle) {
        board_[m.rook_to] = board_[m.rook_from];
        board_[m.rook_from] = 0;
    }
    if (castling_ != 0) {
        // Any move from or to a king's or rook's start square ends the rights it carries.
        auto touch = [&](Sq s) {
            if (s == to_sq(4, 0))
                castling_ &= static_cast<std::uint8_t>(~(WhiteShort | WhiteLong));
            else if (s == to_sq(7, 0))
                castling_ &= static_cast<std::uint8_t>(~WhiteShort);
            else if (s == to_sq(0, 0))
                castling_ &= static_cast<std::uint8_t>(~WhiteLong);
            else if (s == to_sq(4, 7))
                castling_ &= static_cast<std::uint8_t>(~(BlackShort | BlackLong));
            else if (s == to_sq(7, 7))
                castling_ &= static_cast<std::uint8_t>(~BlackShort);
            else if (s == to_sq(0, 7))
                castling_ &= static_cast<std::uint8_t>(~BlackLong);
        };
        touch(m.from);
        touch(m.to);
    }
    ep_ = 0;
    if ((m.flags & DoublePush) && flavour_ == Flavour::Giveaway) {
        const std::uint8_t their_pawn = encode(Piece{PieceKind::Pawn, opponent(side_)});
        if (board_[step(m.to, 1)] == their_pawn || board_[step(m.to, -1)] == their_pawn)
            ep_ = step(m.from, fwd);
    }
    if (side_ == Seat::Black)
        ++fullmove_;
    side_ = opponent(side_);
}

void Position::pass() {
    ++halfmove_;
    ep_ = 0;
    if (side_ == Seat::Black)
        ++fullmove_;
    side_ = opponent(side_);
}

bool Position::is_consistent() const {
    if (files_ != (flavour_ == Flavour::Ghostarelay ? 10 : 8) || ranks_ != files_)
        return false;
    if (halfmove_ < 0 || fullmove_ < 1)
        return false;
    int pieces = 0;
    for (int cell = 0; cell < cell_count; ++cell) {
        const auto s = static_cast<Sq>(cell);
        const bool inside =
            file_of(s) >= 0 && file_of(s) < files_ && rank_of(s) >= 0 && rank_of(s) < ranks_;
        const std::uint8_t c = board_[s];
        if (!inside) {
            if (c != off_board)
                return false;
            continue;
        }
        if (c == 0)
            continue;
        // Nothing but a kind and the black bit, and only the flavour's pieces.
        if ((c & ~(0x0F | black_bit)) != 0 || !allowed_piece(flavour_, kind_of(c)))
            return false;
        ++pieces;
        if (kind_of(c) == PieceKind::Pawn) {
            const int last = seat_of(c) == Seat::White ? ranks_ - 1 : 0;
            if (rank_of(s) == last ||
                (flavour_ == Flavour::Giveaway && rank_of(s) == ranks_ - 1 - last))
                return false;
        }
    }
    if (pieces == 0)
        return false;
    // A castling right stands only while its king and rook are at home; Ghostarelay has none.
    if (flavour_ == Flavour::Ghostarelay && castling_ != 0)
        return false;
    for (int i = 0; i < 4; ++i) {
        if (!(castling_ & (1 << i)))
            continue;
        const Seat s = i < 2 ? Seat::White : Seat::Black;
        const int r = s == Seat::White ? 0 : 7;
        if (board_[to_sq(4, r)] != encode(Piece{PieceKind::King, s}) ||
            board_[to_sq(i % 2 == 0 ? 7 : 0, r)] != encode(Piece{PieceKind::Rook, s}))
            return false;
    }
    if (ep_ != 0) {
        // The square a pawn of the side not to move just passed over, with a pawn to take it.
        const int back = side_ == Seat::White ? -north : north;
        const Sq pawn = step(ep_, back);
        const std::uint8_t mine = encode(Piece{PieceKind::Pawn, side_});
        if (flavour_ != Flavour::Giveaway || rank_of(ep_) != (side_ == Seat::White ? 5 : 2) ||
            file_of(ep_) < 0 || file_of(ep_) >= files_ || board_[ep_] != 0 ||
            board_[pawn] != encode(Piece{PieceKind::Pawn, opponent(side_)}) ||
            (board_[step(pawn, 1)] != mine && board_[step(pawn, -1)] != mine))
            return false;
    }
    return true;
}

std::uint64_t Position::perft(int depth) const {
    if (depth <= 0)
        return 1;
    std::vector<MoveList> lists(static_cast<std::size_t>(depth));
    return perft_inner(depth, lists);
}

std::uint64_t Position::perft_inner(int depth, std::vector<MoveList>& lists) const {
    MoveList& moves = lists[static_cast<std::size_t>(depth - 1)];
    if (depth == 1)
        return count_legal_moves(moves);
    perft_moves(moves);
    std::uint64_t nodes = 0;
    if (depth == 2 && flavour_ == Flavour::Giveaway) {
        // The last ply counted on bitboards, which each move changes in a few bits. The
        // positions of this ply are not checked for consistency: the cost would be most of a
        // debug build's perft; the plies above are.
        const Boards here = boards();
        for (const Move& m : moves) {
            Position next = *this;
            next.play(m);
            Boards after = here;
            play_on(after, m, side_);
            nodes += next.count_giveaway_moves(after);
        }
        return nodes;
    }
    for (const Move& m : moves) {
        Position next = *this;
        next.play(m);
        assert(next.is_consistent());
        nodes += next.perft_inner(depth - 1, lists);
    }
    return nodes;
}

void Position::perft_moves(MoveList& out) const {
    out.clear();
    if (flavour_ == Flavour::Giveaway) {
        legal_moves(out);
        return;
    }
    // Only a relay grant can repeat a move a piece has anyway (the Warlord's captures are its
    // own and each target once): without one the list needs no sorting to be unique.
    for (int r = 0; r < ranks_; ++r)
        for (int f = 0; f < files_; ++f) {
            std::uint8_t c = board_[to_sq(f, r)];
            if (c != 0 && seat_of(c) == side_)
                gen_piece(to_sq(f, r), true, out);
        }
    std::size_t own = out.size();
    gen_relay_grants(true, out);
    if (out.empty()) {
        for (int r = 0; r < ranks_; ++r)
            for (int f = 0; f < files_; ++f) {
                std::uint8_t c = board_[to_sq(f, r)];
                if (c != 0 && seat_of(c) == side_)
                    gen_piece(to_sq(f, r), false, out);
            }
        own = out.size();
        gen_relay_grants(false, out);
        gen_castling(out);
    }
    if (out.size() == own)
        return;
    std::sort(out.begin(), out.end(),
              [](const Move& a, const Move& b) { return a.tie() < b.tie(); });
    out.erase(std::unique(out.begin(), out.end(),
                          [](const Move& a, const Move& b) { return a.tie() == b.tie(); }),
              out.end());
}

std::uint64_t Position::count_legal_moves() const {
    MoveList scratch;
    return count_legal_moves(scratch);
}

std::uint64_t Position::count_legal_moves(MoveList& scratch) const {
    return flavour_ == Flavour::Giveaway ? count_giveaway_moves()
                                         : count_ghostarelay_moves(scratch);
}

// gen_piece, gen_castling and the capture filter, counting instead of listing. The Ghost's
// moves (every empty square) and the Warlord's (every enemy piece) are the long lists, and
// counted once for all. A relay grant can repeat a move a piece has anyway: with one possible,
// the list is made and its duplicates removed.
std::uint64_t Position::count_ghostarelay_moves(MoveList& scratch) const {
    const std::uint8_t their_relay = encode(Piece{pieces::relay, opponent(side_)});
    int empty = 0, enemies = 0;
    bool granted = false;
    for (int r = 0; r < ranks_; ++r)
        for (int f = 0; f < files_; ++f) {
            const Sq s = to_sq(f, r);
            const std::uint8_t c = board_[s];
            if (c == 0) {
                ++empty;
            } else if (seat_of(c) != side_) {
                ++enemies;
                if (c == their_relay)
                    for (int d : king_dirs) {
                        const std::uint8_t n = board_[step(s, d)];
                        granted |= n != 0 && n != off_board && seat_of(n) == side_;
                    }
            }
        }
    if (granted) {
        perft_moves(scratch);
        return scratch.size();
    }
    auto enemy = [&](std::uint8_t c) { return c != 0 && c != off_board && seat_of(c) != side_; };
    const int fwd = side_ == Seat::White ? north : -north;
    const int start_rank = side_ == Seat::White ? 1 : ranks_ - 2;
    std::uint64_t captures = 0, quiets = 0;
    auto leaps = [&](Sq from, const auto& dirs) {
        for (int d : dirs) {
            const std::uint8_t c = board_[step(from, d)];
            captures += enemy(c);
            quiets += c == 0;
        }
    };
    auto slides = [&](Sq from, const auto& dirs) {
        for (int d : dirs) {
            Sq to = step(from, d);
            while (board_[to] == 0) {
                ++quiets;
                to = step(to, d);
            }
            captures += enemy(board_[to]);
        }
    };
    bool king = false;
    for (int r = 0; r < ranks_; ++r)
        for (int f = 0; f < files_; ++f) {
            const Sq from = to_sq(f, r);
            const std::uint8_t c = board_[from];
            if (c == 0 || seat_of(c) != side_)
                continue;
            switch (kind_of(c)) {
            case PieceKind::Pawn: {
                // Promotion has one choice here, the Warlord: a pawn move is one move.
                captures += enemy(board_[step(from, fwd + 1)]);
                captures += enemy(board_[step(from, fwd - 1)]);
                const Sq one = step(from, fwd);
                if (board_[one] == 0) {
                    ++quiets;
                    quiets += rank_of(from) == start_rank && board_[step(one, fwd)] == 0;
                }
                break;
            }
            case PieceKind::Knight:
                leaps(from, knight_jumps);
                break;
            case PieceKind::Bishop:
                slides(from, bishop_dirs);
                break;
            case PieceKind::Rook:
                slides(from, rook_dirs);
                break;
            case PieceKind::Queen:
                slides(from, king_dirs);
                break;
            case PieceKind::King:
                leaps(from, king_dirs);
                king = true;
                break;
            case pieces::ghost:
                quiets += static_cast<std::uint64_t>(empty);
                break;
            case pieces::relay:
                for (int d : king_dirs)
                    quiets += board_[step(from, d)] == 0;
                for (int d : knight_jumps)
                    quiets += board_[step(from, d)] == 0;
                break;
            case pieces::warlord:
                captures += static_cast<std::uint64_t>(enemies);
                break;
            default:
                break;
            }
        }
    if (captures > 0)
        return captures;
    if (king) {
        scratch.clear();
        gen_castling(scratch);
        quiets += scratch.size();
    }
    return quiets;
}

Position::Boards Position::boards() const {
    Boards b;
    for (int r = 0; r < 8; ++r)
        for (int f = 0; f < 8; ++f) {
            const std::uint8_t c = board_[to_sq(f, r)];
            if (c == 0)
                continue;
            const chess::Bitboard at = chess::bb(chess::make_sq(f, r));
            b.seat[index(seat_of(c))] |= at;
            b.kind[static_cast<std::size_t>(kind_of(c))] |= at;
        }
    return b;
}

namespace {

chess::Sq square64(Sq s) {
    return chess::make_sq(file_of(s), rank_of(s));
}

} // namespace

// The bitboards after `m`, a move of `mover`'s, as play() changes the board.
void Position::play_on(Boards& b, const Move& m, Seat mover) {
    const std::size_t us = index(mover), them = index(opponent(mover));
    const chess::Bitboard from = chess::bb(square64(m.from)), to = chess::bb(square64(m.to));
    if (m.flags & EnPassant) {
        const chess::Bitboard taken = mover == Seat::White ? to >> 8 : to << 8;
        b.seat[them] &= ~taken;
        b.kind[static_cast<std::size_t>(PieceKind::Pawn)] &= ~taken;
    } else if (m.flags & Capture) {
        b.seat[them] &= ~to;
        for (auto& k : b.kind)
            k &= ~to;
    }
    b.seat[us] ^= from | to;
    b.kind[static_cast<std::size_t>(m.piece)] &= ~from;
    b.kind[static_cast<std::size_t>(m.promotion != PieceKind::None ? m.promotion : m.piece)] |= to;
    if (m.flags & Castle) {
        const chess::Bitboard rook =
            chess::bb(square64(m.rook_from)) | chess::bb(square64(m.rook_to));
        b.seat[us] ^= rook;
        b.kind[static_cast<std::size_t>(PieceKind::Rook)] ^= rook;
    }
}

std::uint64_t Position::count_giveaway_moves() const {
    return count_giveaway_moves(boards());
}

// Every piece's targets counted as a set: what gen_piece, gen_castling and the
// compulsory-capture filter of legal_moves list, one by one.
std::uint64_t Position::count_giveaway_moves(const Boards& bb) const {
    using chess::Bitboard;
    const chess::Tables& t = chess::tables();
    const Bitboard own = bb.seat[index(side_)], enemy = bb.seat[index(opponent(side_))];
    auto mine = [&](PieceKind k) { return bb.kind[static_cast<std::size_t>(k)] & own; };
    const Bitboard pawns = mine(PieceKind::Pawn), knights = mine(PieceKind::Knight),
                   kings = mine(PieceKind::King), queens = mine(PieceKind::Queen);
    const Bitboard diagonal = mine(PieceKind::Bishop) | queens;
    const Bitboard straight = mine(PieceKind::Rook) | queens;
    const Bitboard occ = own | enemy;
    const bool white = side_ == Seat::White;
    const Bitboard last = white ? chess::rank_1 << 56 : chess::rank_1;
    const Bitboard file_h = chess::file_a << 7;
    auto forward = [&](Bitboard b, int shift) { return white ? b << shift : b >> shift; };
    // A pawn move to the last rank is one move per promotion choice: Q, R, B, N or K.
    auto pawn_count = [&](Bitboard to) {
        return static_cast<std::uint64_t>(chess::popcount(to & ~last) +
                                          5 * chess::popcount(to & last));
    };
    // Each piece's targets once, split into captures and quiet moves: the quiet ones count only
    // when there is no capture at all.
    const Bitboard empty = ~occ;
    std::uint64_t captures = 0, quiets = 0;
    auto add = [&](Bitboard targets) {
        captures += static_cast<std::uint64_t>(chess::popcount(targets & enemy));
        quiets += static_cast<std::uint64_t>(chess::popcount(targets & empty));
    };
    for (Bitboard b = knights; b;)
        add(t.knight[chess::pop_lsb(b)]);
    for (Bitboard b = kings; b;)
        add(t.king[chess::pop_lsb(b)]);
    for (Bitboard b = diagonal; b;)
        add(chess::bishop_attacks(chess::pop_lsb(b), occ));
    for (Bitboard b = straight; b;)
        add(chess::rook_attacks(chess::pop_lsb(b), occ));
    captures += pawn_count(forward(pawns & ~file_h, white ? 9 : 7) & enemy);
    captures += pawn_count(forward(pawns & ~chess::file_a, white ? 7 : 9) & enemy);
    if (ep_ != 0) {
        const chess::Sq ep = chess::make_sq(file_of(ep_), rank_of(ep_));
        captures +=
            static_cast<std::uint64_t>(chess::popcount(t.pawn[index(opponent(side_))][ep] & pawns));
    }
    if (captures > 0)
        return captures;

    std::uint64_t n = quiets;
    const Bitboard single = forward(pawns, 8) & empty;
    n += pawn_count(single);
    const Bitboard second = white ? chess::rank_1 << 8 : chess::rank_1 << 48;
    n += pawn_count(forward(forward(pawns & second, 8) & empty, 8) & empty);
    const int r = white ? 0 : 7;
    const int shift = white ? 0 : 2;
    if ((castling_ & (WhiteShort << shift)) && board_[to_sq(5, r)] == 0 && board_[to_sq(6, r)] == 0)
        ++n;
    if ((castling_ & (WhiteLong << shift)) && board_[to_sq(1, r)] == 0 &&
        board_[to_sq(2, r)] == 0 && board_[to_sq(3, r)] == 0)
        ++n;
    return n;
}

std::vector<std::string> Position::san(const MoveList& legal) const {
    std::vector<std::string> out;
    out.reserve(legal.size());
    for (const Move& m : legal)
        out.push_back(san(m, legal));
    return out;
}

std::string Position::san(const Move& m, const MoveList& legal) const {
    const Square from = to_square(m.from);
    const Square to = to_square(m.to);
    std::string text;
    if ((m.flags & Castle) && flavour_ == Flavour::Giveaway)
        return file_of(m.rook_from) > file_of(m.from) ? "O-O" : "O-O-O";
    // Another legal move of the same kind of piece to the same square, from elsewhere;
    // or, for a relay-granted king slide, the castling move with the same squares.
    bool same_file = false, same_rank = false, clash = false, castle_twin = false;
    for (const Move& o : legal) {
        if (o.piece != m.piece || o.to != m.to)
            continue;
        if (o.from == m.from) {
            castle_twin |= (o.flags & Castle) != 0 && (m.flags & Castle) == 0;
            continue;
        }
        if (m.piece == PieceKind::Pawn &&
            (m.capture() != o.capture() || (m.capture() && file_of(o.from) != file_of(m.from))))
            continue; // pawn texts already differ
        clash = true;
        same_file |= file_of(o.from) == file_of(m.from);
        same_rank |= rank_of(o.from) == rank_of(m.from);
    }
    if (m.piece == PieceKind::Pawn) {
        if (clash)
            text = from.name();
        else if (m.capture())
            text = std::string(1, static_cast<char>('a' + from.file));
    } else {
        text = piece_letter(m.piece);
        if (castle_twin)
            text += from.name();
        else if (clash)
            text += !same_file   ? std::string(1, static_cast<char>('a' + from.file))
                    : !same_rank ? std::to_string(from.rank + 1)
                                 : from.name();
    }
    if (m.capture())
        text += 'x';
    text += to.name();
    if (m.promotion != PieceKind::None) {
        text += '=';
        text += piece_letter(m.promotion);
    }
    return text;
}

} // namespace ghostpost::rules::giveaway
