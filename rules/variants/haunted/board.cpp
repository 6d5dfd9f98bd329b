#include "board.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <sstream>
#include <vector>

namespace ghostpost::rules::haunted {
namespace {

using chess::bb;
using chess::file_of;
using chess::lsb;
using chess::make_sq;
using chess::pop_lsb;
using chess::rank_of;
using chess::tables;

constexpr std::size_t k(PieceKind kind) {
    return static_cast<std::size_t>(kind);
}
constexpr std::size_t u(Sq s) {
    return static_cast<std::size_t>(s);
}

constexpr PieceKind rebirth_kinds[] = {PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop,
                                       PieceKind::Knight};

// Which castling rights a move touching this square takes away.
std::uint8_t rights_lost(Sq s) {
    switch (s) {
    case 0:
        return 2;
    case 4:
        return 3;
    case 7:
        return 1;
    case 56:
        return 8;
    case 60:
        return 12;
    case 63:
        return 4;
    default:
        return 0;
    }
}

Piece piece_of_char(char c) {
    const bool white = c >= 'A' && c <= 'Z';
    const char up = white ? c : static_cast<char>(c - 'a' + 'A');
    PieceKind kind = PieceKind::None;
    switch (up) {
    case 'P':
        kind = PieceKind::Pawn;
        break;
    case 'N':
        kind = PieceKind::Knight;
        break;
    case 'B':
        kind = PieceKind::Bishop;
        break;
    case 'R':
        kind = PieceKind::Rook;
        break;
    case 'Q':
        kind = PieceKind::Queen;
        break;
    case 'K':
        kind = PieceKind::King;
        break;
    default:
        break;
    }
    return Piece{kind, white ? Seat::White : Seat::Black};
}

char char_of(Piece p) {
    char c = piece_letter(p.kind);
    return p.seat == Seat::White ? c : static_cast<char>(c - 'A' + 'a');
}

int last_rank(Seat s) {
    return s == Seat::White ? 7 : 0;
}

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}

} // namespace

int hierarchy(PieceKind kind) {
    switch (kind) {
    case PieceKind::Queen:
        return 5;
    case PieceKind::Rook:
        return 4;
    case PieceKind::Bishop:
        return 3;
    case PieceKind::Knight:
        return 2;
    case PieceKind::Pawn:
        return 1;
    default:
        return 0;
    }
}

Board::Board() {
    [[maybe_unused]] std::string err =
        set_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert(err.empty());
}

void Board::put_living(Piece p, Sq s) {
    living_[u(s)] = p;
    live_seat_[index(p.seat)] |= bb(s);
    live_kind_[k(p.kind)] |= bb(s);
}

void Board::remove_living(Sq s) {
    Piece p = living_[u(s)];
    living_[u(s)] = Piece{};
    live_seat_[index(p.seat)] &= ~bb(s);
    live_kind_[k(p.kind)] &= ~bb(s);
}

void Board::put_spirit(Piece p, Sq s) {
    spirit_[u(s)] = p;
    spirit_seat_[index(p.seat)] |= bb(s);
    spirit_kind_[k(p.kind)] |= bb(s);
}

void Board::remove_spirit(Sq s) {
    Piece p = spirit_[u(s)];
    spirit_[u(s)] = Piece{};
    spirit_seat_[index(p.seat)] &= ~bb(s);
    spirit_kind_[k(p.kind)] &= ~bb(s);
}

void Board::contest(Piece newcomer, Sq s, MoveReport& report) {
    const Piece there = spirit_[u(s)];
    if (there.kind == PieceKind::None) {
        put_spirit(newcomer, s);
        report.spirit_kept = newcomer;
        return;
    }
    if (hierarchy(newcomer.kind) > hierarchy(there.kind)) {
        remove_spirit(s);
        put_spirit(newcomer, s);
        report.spirit_kept = newcomer;
        report.spirit_lost = there;
    } else {
        report.spirit_kept = there;
        report.spirit_lost = newcomer;
    }
}

std::string Board::set_fen(std::string_view text) {
    auto board = read_checked(text, fen_shape, from_setup);
    if (!board)
        return board.first_reason();
    *this = std::move(board).value();
    return {};
}

Checked<Board> Board::from_setup(const Setup& setup) {
    if (setup.files != 8 || setup.ranks != 8)
        return std::vector<std::string>{"the placement must have 8 ranks of 8 squares"};
    Board fresh{Empty{}};
    std::vector<std::string> reasons;
    auto tell = [&reasons](std::string why) { tell_once(reasons, std::move(why)); };
    for (int rank = 7; rank >= 0; --rank)
        for (int file = 0; file < 8; ++file) {
            const char c = setup.at(file, rank);
            if (c == '\0')
                continue;
            Piece p = piece_of_char(c);
            if (p.kind == PieceKind::None)
                tell(std::string("unknown piece letter '") + c + "'");
            else
                fresh.put_living(p, make_sq(file, rank));
        }
    std::istringstream list(setup.bracketed.value_or(""));
    std::string item;
    while (std::getline(list, item, ',')) {
        if (item.size() < 3) {
            tell("a spirit is written as a letter and a square, like Bc6 or nd4");
            continue;
        }
        Piece p = piece_of_char(item[0]);
        auto sq = parse_square(item.substr(1));
        if (p.kind == PieceKind::None || p.kind == PieceKind::King || !sq) {
            tell("cannot read the spirit \"" + item + "\"");
            continue;
        }
        const Sq s = chess::from_square(*sq);
        if (fresh.spirit(s).kind != PieceKind::None)
            tell("two spirits on " + sq->name());
        else if (p.kind == PieceKind::Pawn && sq->rank == last_rank(opponent(p.seat)))
            tell("a spirit pawn cannot stand on its own first rank (" + sq->name() + ")");
        else
            fresh.put_spirit(p, s);
    }
    fresh.stm_ = setup.side;
    fresh.castling_ = 0;
    fresh.ep_ = -1;
    auto fields = read_standard_fields(setup.fields);
    if (!fields) {
        tell(fields.error().message);
    } else {
        fresh.castling_ = fields->castling;
        // Rights only stay where the king and rook still stand at home.
        auto home = [&](Sq s, PieceKind kind, Seat seat) {
            return fresh.living(s) == Piece{kind, seat};
        };
        if (!home(4, PieceKind::King, Seat::White) || !home(7, PieceKind::Rook, Seat::White))
            fresh.castling_ &= static_cast<std::uint8_t>(~1u);
        if (!home(4, PieceKind::King, Seat::White) || !home(0, PieceKind::Rook, Seat::White))
            fresh.castling_ &= static_cast<std::uint8_t>(~2u);
        if (!home(60, PieceKind::King, Seat::Black) || !home(63, PieceKind::Rook, Seat::Black))
            fresh.castling_ &= static_cast<std::uint8_t>(~4u);
        if (!home(60, PieceKind::King, Seat::Black) || !home(56, PieceKind::Rook, Seat::Black))
            fresh.castling_ &= static_cast<std::uint8_t>(~8u);
        if (fields->ep) {
            if (fields->ep->rank != (fresh.stm_ == Seat::White ? 5 : 2))
                tell("the en passant square must be on the sixth (or third) rank");
            else
                fresh.ep_ = chess::from_square(*fields->ep);
        }
        fresh.halfmove_ = fields->halfmove;
        fresh.fullmove_ = fields->fullmove;
    }
    bool kings = true;
    for (Seat s : {Seat::White, Seat::Black})
        if (chess::popcount(fresh.living_of(s) & fresh.live_kind_[k(PieceKind::King)]) != 1)
            kings = false;
    if (!kings)
        tell("each side needs exactly one king");
    if (fresh.live_kind_[k(PieceKind::Pawn)] & (chess::rank_1 | (chess::rank_1 << 56)))
        tell("a living pawn cannot stand on the first or last rank");
    if (kings && fresh.in_check(opponent(fresh.stm_)))
        tell("the side not to move is in check");
    if (!reasons.empty())
        return reasons;
    return fresh;
}

bool Board::is_consistent() const {
    // Each layer's bitboards are its mailbox, seat by seat and kind by kind: rebuilt from the
    // mailbox in one pass and compared, cheap enough for every perft node.
    auto layer = [](const std::array<Piece, 64>& box, const std::array<Bitboard, 2>& seat,
                    const std::array<Bitboard, 11>& kind) {
        std::array<Bitboard, 2> by_seat{};
        std::array<Bitboard, 11> by_kind{};
        for (Sq s = 0; s < 64; ++s) {
            const Piece p = box[u(s)];
            if (p.kind == PieceKind::None)
                continue;
            by_seat[index(p.seat)] |= bb(s);
            by_kind[k(p.kind)] |= bb(s);
        }
        return by_seat == seat && by_kind == kind;
    };
    if (!layer(living_, live_seat_, live_kind_) || !layer(spirit_, spirit_seat_, spirit_kind_))
        return false;
    for (Seat s : {Seat::White, Seat::Black})
        if (chess::popcount(living_of(s) & live_kind_[k(PieceKind::King)]) != 1)
            return false;
    if (spirit_kind_[k(PieceKind::King)] ||
        (live_kind_[k(PieceKind::Pawn)] & (chess::rank_1 | (chess::rank_1 << 56))))
        return false;
    for (Seat s : {Seat::White, Seat::Black}) {
        const Bitboard own_first = chess::rank_1 << (8 * last_rank(opponent(s)));
        if (spirit_seat_[index(s)] & spirit_kind_[k(PieceKind::Pawn)] & own_first)
            return false;
    }
    auto home = [&](Sq s, PieceKind kind, Seat seat) { return living(s) == Piece{kind, seat}; };
    if (((castling_ & 1) &&
         (!home(4, PieceKind::King, Seat::White) || !home(7, PieceKind::Rook, Seat::White))) ||
        ((castling_ & 2) &&
         (!home(4, PieceKind::King, Seat::White) || !home(0, PieceKind::Rook, Seat::White))) ||
        ((castling_ & 4) &&
         (!home(60, PieceKind::King, Seat::Black) || !home(63, PieceKind::Rook, Seat::Black))) ||
        ((castling_ & 8) &&
         (!home(60, PieceKind::King, Seat::Black) || !home(56, PieceKind::Rook, Seat::Black))) ||
        castling_ > 15)
        return false;
    if (ep_ != -1 && (ep_ < 0 || ep_ > 63 || rank_of(ep_) != (stm_ == Seat::White ? 5 : 2)))
        return false;
    if (halfmove_ < 0 || fullmove_ < 1)
        return false;
    return !in_check(opponent(stm_));
}

std::string Board::fen() const {
    std::string out;
    for (int r = 7; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < 8; ++f) {
            Piece p = living(make_sq(f, r));
            if (p.kind == PieceKind::None) {
                ++empty;
                continue;
            }
            if (empty)
                out += static_cast<char>('0' + empty);
            empty = 0;
            out += char_of(p);
        }
        if (empty)
            out += static_cast<char>('0' + empty);
        if (r > 0)
            out += '/';
    }
    if (spirits_all()) {
        out += '[';
        bool first = true;
        for (Bitboard b = spirits_all(); b;) {
            Sq s = pop_lsb(b);
            if (!first)
                out += ',';
            first = false;
            out += char_of(spirit(s));
            out += chess::to_square(s).name();
        }
        out += ']';
    }
    out += stm_ == Seat::White ? " w " : " b ";
    std::string rights;
    for (int i = 0; i < 4; ++i)
        if (castling_ & (1u << i))
            rights += "KQkq"[i];
    out += rights.empty() ? "-" : rights;
    out += ' ';
    out += ep_ >= 0 ? chess::to_square(ep_).name() : "-";
    out += ' ' + std::to_string(halfmove_) + ' ' + std::to_string(fullmove_);
    return out;
}

Bitboard Board::living_attacks(Seat s) const {
    const Bitboard occ = occupied();
    Bitboard out = 0;
    for (Bitboard b = living_of(s); b;) {
        Sq sq = pop_lsb(b);
        out |= chess::attacks_of(living(sq).kind, s, sq, occ);
    }
    return out;
}

bool Board::attacked(Sq s, Seat by) const {
    const auto& t = tables();
    const Bitboard occ = occupied();
    const Bitboard diag = chess::bishop_attacks(s, occ);
    const Bitboard orth = chess::rook_attacks(s, occ);
    auto hits = [&](Bitboard mine, const std::array<Bitboard, 11>& kind) {
        return (t.pawn[index(opponent(by))][s] & mine & kind[k(PieceKind::Pawn)]) ||
               (t.knight[s] & mine & kind[k(PieceKind::Knight)]) ||
               (t.king[s] & mine & kind[k(PieceKind::King)]) ||
               (diag & mine & (kind[k(PieceKind::Bishop)] | kind[k(PieceKind::Queen)])) ||
               (orth & mine & (kind[k(PieceKind::Rook)] | kind[k(PieceKind::Queen)]));
    };
    if (hits(living_of(by), live_kind_))
        return true;
    // Spirits only threaten while invoked; finding the invocation costs a full attack map, so
    // it is only paid when a released spirit could reach the square at all.
    const Bitboard free = released(by);
    if (!free || !hits(free, spirit_kind_))
        return false;
    return hits(free & living_attacks(by), spirit_kind_);
}

Sq Board::king_square(Seat s) const {
    Bitboard kb = living_of(s) & live_kind_[k(PieceKind::King)];
    return kb ? lsb(kb) : -1;
}

bool Board::in_check(Seat s) const {
    Sq king = king_square(s);
    return king >= 0 && attacked(king, opponent(s));
}

template <class Sink>
void Board::add_spirit_moves(Sq from, Bitboard invoked_here, Sink& out) const {
    const Seat us = stm_;
    const Piece sp = spirit(from);
    const Bitboard occ = occupied();
    const Bitboard prey = living_of(opponent(us)) & ~live_kind_[k(PieceKind::King)];
    const bool can_capture = (invoked_here & bb(from)) != 0;
    auto push = [&](Sq to) {
        HMove m{static_cast<std::uint8_t>(from),
                static_cast<std::uint8_t>(to),
                Layer::Spirit,
                false,
                false,
                PieceKind::None};
        if (sp.kind == PieceKind::Pawn && rank_of(to) == last_rank(us)) {
            // New life needs the arrival square invoked; a spirit pawn that loses a
            // hierarchy contest on arrival is gone and has nothing to be reborn from.
            Board after = *this;
            after.make(m);
            if (after.spirit(to) == sp && (after.living_attacks(us) & bb(to))) {
                for (PieceKind kind : rebirth_kinds) {
                    m.promotion = kind;
                    out.push(m);
                }
                m.promotion = PieceKind::None;
            }
        }
        out.push(m);
    };
    if (sp.kind == PieceKind::Pawn) {
        const int step = us == Seat::White ? 8 : -8;
        const Sq one = from + step;
        if (one >= 0 && one < 64 && !(occ & bb(one))) {
            push(one);
            const int start = us == Seat::White ? 1 : 6;
            if (rank_of(from) == start && !(occ & bb(one + step)))
                push(one + step);
        }
        if (can_capture)
            for (Bitboard b = tables().pawn[index(us)][from] & prey; b;)
                push(pop_lsb(b));
        return;
    }
    Bitboard reach = chess::attacks_of(sp.kind, us, from, occ);
    for (Bitboard b = reach & ~occ; b;)
        push(pop_lsb(b));
    if (can_capture)
        for (Bitboard b = reach & prey; b;)
            push(pop_lsb(b));
}

namespace {

struct ListSink {
    static constexpr bool counts_pawns = false;
    MoveBuf& out;
    Bitboard plain_pawns(Bitboard) const { return 0; }
    void pawn_targets(Bitboard, Bitboard) {}
    void push(HMove m) { out.push(m); }
    void many(Sq from, Bitboard targets) {
        while (targets)
            out.push(HMove{static_cast<std::uint8_t>(from),
                           static_cast<std::uint8_t>(pop_lsb(targets)), Layer::Living, false, false,
                           PieceKind::None});
    }
};

} // namespace

void Board::generate_pseudo(MoveBuf& out) const {
    ListSink sink{out};
    generate_into(sink);
}

template <class Sink> void Board::generate_into(Sink& out) const {
    const Seat us = stm_, them = opponent(us);
    const auto& t = tables();
    const Bitboard occ = occupied();
    const Bitboard prey = living_of(them) & ~live_kind_[k(PieceKind::King)];
    auto add = [&](Sq from, Sq to, bool ep = false, bool castle = false) {
        out.push(HMove{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to),
                       Layer::Living, ep, castle, PieceKind::None});
    };
    auto add_pawn = [&](Sq from, Sq to) {
        if (rank_of(to) == last_rank(us)) {
            for (PieceKind kind : rebirth_kinds)
                out.push(HMove{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to),
                               Layer::Living, false, false, kind});
        } else {
            add(from, to);
        }
    };
    Bitboard movers = living_of(us);
    if constexpr (Sink::counts_pawns) {
        // Counting: the pawns that checks alone decide (no pin, no spirit of theirs under
        // them) are counted as sets, every push and capture at once; en passant is one move.
        const Bitboard pawns = out.plain_pawns(movers & live_kind_[k(PieceKind::Pawn)]);
        movers &= ~pawns;
        const bool white = us == Seat::White;
        auto forward = [&](Bitboard b, int shift) { return white ? b << shift : b >> shift; };
        const Bitboard empty = ~occ, file_h = chess::file_a << 7;
        const Bitboard last = white ? chess::rank_1 << 56 : chess::rank_1;
        const Bitboard single = forward(pawns, 8) & empty;
        const Bitboard twice =
            forward(single & (white ? chess::rank_1 << 16 : chess::rank_1 << 40), 8) & empty;
        const Bitboard east = forward(pawns & ~file_h, white ? 9 : 7) & prey;
        const Bitboard west = forward(pawns & ~chess::file_a, white ? 7 : 9) & prey;
        out.pawn_targets(single, last);
        out.pawn_targets(twice, last);
        out.pawn_targets(east, last);
        out.pawn_targets(west, last);
        if (ep_ >= 0)
            for (Bitboard b = t.pawn[index(them)][ep_] & pawns; b;)
                add(pop_lsb(b), ep_, true);
    }
    for (Bitboard b = movers; b;) {
        const Sq from = pop_lsb(b);
        const PieceKind kind = living(from).kind;
        if (kind == PieceKind::Pawn) {
            const int step = us == Seat::White ? 8 : -8;
            const Sq one = from + step;
            if (!(occ & bb(one))) {
                add_pawn(from, one);
                if (rank_of(from) == (us == Seat::White ? 1 : 6) && !(occ & bb(one + step)))
                    add(from, one + step);
            }
            for (Bitboard c = t.pawn[index(us)][from] & prey; c;)
                add_pawn(from, pop_lsb(c));
            if (ep_ >= 0 && (t.pawn[index(us)][from] & bb(ep_)))
                add(from, ep_, true);
            continue;
        }
        out.many(from, chess::attacks_of(kind, us, from, occ) & (~occ | prey));
    }
    // Castling: the squares between king and rook must be free of pieces and spirits, and the
    // king may not start in or pass through an attacked square (its landing square is checked
    // by legality like any move).
    const Sq base = us == Seat::White ? 0 : 56;
    const std::uint8_t short_right = us == Seat::White ? 1 : 4,
                       long_right = us == Seat::White ? 2 : 8;
    if ((castling_ & (short_right | long_right)) && !in_check(us)) {
        if ((castling_ & short_right) && !(occ & (bb(base + 5) | bb(base + 6))) &&
            !attacked(base + 5, them))
            add(base + 4, base + 6, false, true);
        if ((castling_ & long_right) && !(occ & (bb(base + 1) | bb(base + 2) | bb(base + 3))) &&
            !attacked(base + 3, them))
            add(base + 4, base + 2, false, true);
    }
    const Bitboard free = released(us);
    if (!free)
        return;
    const Bitboard invoked_here = free & living_attacks(us);
    for (Bitboard b = free; b;) {
        const Sq from = pop_lsb(b);
        if (spirit(from).kind == PieceKind::Pawn && rank_of(from) == last_rank(us)) {
            if (invoked_here & bb(from))
                for (PieceKind kind : rebirth_kinds)
                    out.push(HMove{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(from),
                                   Layer::Rebirth, false, false, kind});
            continue;
        }
        add_spirit_moves(from, invoked_here, out);
    }
}

bool Board::is_legal(const HMove& m) const {
    Board after = *this;
    after.make(m);
    return !after.in_check(stm_);
}

void Board::generate_legal(MoveBuf& out) const {
    MoveBuf pseudo;
    generate_pseudo(pseudo);
    for (const HMove& m : pseudo)
        if (is_legal(m))
            out.push(m);
}

MoveReport Board::make(const HMove& m) {
    MoveReport report;
    const Seat us = stm_;
    const Sq from = m.from, to = m.to;
    bool irreversible = false;
    if (m.layer == Layer::Living) {
        const Piece mover = living(from);
        const Sq taken_on = m.en_passant ? (us == Seat::White ? to - 8 : to + 8) : to;
        const Piece taken = living(taken_on);
        remove_living(from);
        if (spirit(from).kind != PieceKind::None)
            report.released = spirit(from);
        if (taken.kind != PieceKind::None) {
            remove_living(taken_on);
            report.captured = taken;
            report.captured_on = taken_on;
            contest(taken, taken_on, report);
            irreversible = true;
        }
        put_living(m.promotion != PieceKind::None ? Piece{m.promotion, us} : mover, to);
        if (m.castle) {
            const bool short_side = to > from;
            const Sq rook_from = short_side ? from + 3 : from - 4,
                     rook_to = short_side ? from + 1 : from - 1;
            const Piece rook = living(rook_from);
            remove_living(rook_from);
            put_living(rook, rook_to);
        }
        irreversible = irreversible || mover.kind == PieceKind::Pawn;
        ep_ = mover.kind == PieceKind::Pawn && (to - from == 16 || from - to == 16)
                  ? (from + to) / 2
                  : -1;
    } else if (m.layer == Layer::Spirit) {
        const Piece sp = spirit(from);
        remove_spirit(from);
        const Piece taken = living(to);
        if (taken.kind != PieceKind::None) {
            // What a spirit captures is annihilated: it leaves no spirit of its own.
            remove_living(to);
            report.captured = taken;
            report.captured_on = to;
            report.annihilated = true;
        }
        if (m.promotion != PieceKind::None)
            put_living(Piece{m.promotion, sp.seat}, to);
        else
            contest(sp, to, report);
        irreversible = taken.kind != PieceKind::None || sp.kind == PieceKind::Pawn;
        ep_ = -1;
    } else {
        remove_spirit(from);
        put_living(Piece{m.promotion, us}, from);
        irreversible = true;
        ep_ = -1;
    }
    castling_ &= static_cast<std::uint8_t>(~(rights_lost(from) | rights_lost(to)));
    halfmove_ = irreversible ? 0 : halfmove_ + 1;
    if (us == Seat::Black)
        ++fullmove_;
    stm_ = opponent(us);
    return report;
}

std::uint64_t Board::key() const {
    std::uint64_t h = stm_ == Seat::White ? 1 : 2;
    for (std::size_t s = 0; s < 64; ++s) {
        h = mix(h, static_cast<std::uint64_t>(living_[s].kind) * 2 + index(living_[s].seat));
        h = mix(h, static_cast<std::uint64_t>(spirit_[s].kind) * 2 + index(spirit_[s].seat));
    }
    h = mix(h, castling_);
    // The e.p. square only makes positions differ when a pawn could take there.
    const bool usable = ep_ >= 0 && (tables().pawn[index(opponent(stm_))][ep_] & living_of(stm_) &
                                     live_kind_[k(PieceKind::Pawn)]);
    return mix(h, usable ? static_cast<std::uint64_t>(ep_) + 1 : 0);
}

bool Board::insufficient_material() const {
    if (spirits_all())
        return false;
    const Bitboard heavy = live_kind_[k(PieceKind::Pawn)] | live_kind_[k(PieceKind::Rook)] |
                           live_kind_[k(PieceKind::Queen)];
    if (heavy)
        return false;
    const Bitboard knights = live_kind_[k(PieceKind::Knight)];
    const Bitboard bishops = live_kind_[k(PieceKind::Bishop)];
    if (chess::popcount(knights | bishops) <= 1)
        return true;
    // Bishops only, all on one colour: no mate is possible.
    return knights == 0 &&
           ((bishops & chess::dark_squares) == 0 || (bishops & ~chess::dark_squares) == 0);
}

// One pseudo-legal list a ply, made once: a MoveBuf is large, and perft visits many nodes.
struct Board::PerftFrame {
    MoveBuf moves;
};

// The opponent's spirits can only threaten the king once released. A living move other than
// castling and en passant releases none of theirs unless one waits under the mover: it covers
// what it captures, and its captive's spirit stays under it. So while none of theirs is
// released, such a move is legal as in chess, by the living pieces' checks and pins, with one
// difference: a piece standing on a spirit pins nothing, as the spirit still blocks once it left.
namespace {

// The whole line through two aligned squares, else 0. Not chess::Tables::line, which pairs
// each diagonal ray with the perpendicular one (NE with SE): a pawn pinned on e7 to the king on
// d6 would step to e5 on it.
using Lines = std::array<std::array<Bitboard, 64>, 64>;
constexpr Lines build_lines() {
    const chess::Tables& t = chess::detail::table_data;
    // The rays are N, E, NE, NW, S, W, SE, SW: the opposite of each.
    constexpr int opposite[8] = {4, 5, 7, 6, 0, 1, 3, 2};
    Lines out{};
    for (Sq a = 0; a < 64; ++a)
        for (int d = 0; d < 8; ++d) {
            const Bitboard whole = t.ray[d][a] | t.ray[opposite[d]][a] | bb(a);
            for (Bitboard r = t.ray[d][a]; r;) {
                const Sq b = std::countr_zero(r);
                r &= r - 1;
                out[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] = whole;
            }
        }
    return out;
}
constexpr Lines lines = build_lines();

} // namespace

struct Board::KingSafety {
    bool quick = false; // no spirit of the opponent is released
    Sq king = -1;
    Bitboard pinned = 0;  // pieces of ours that may only move along the line to the king
    Bitboard evasion = 0; // where a move other than the king's must land: all, or the check's
    // Where a piece other than the king, which no spirit of theirs waits under, may go and leave
    // the king safe.
    Bitboard reach(Sq from) const {
        return (pinned & bb(from))
                   ? evasion & lines[static_cast<std::size_t>(king)][static_cast<std::size_t>(from)]
                   : evasion;
    }
    bool allows(Sq from, Sq to) const { return (reach(from) & bb(to)) != 0; }
};

Board::KingSafety Board::king_safety() const {
    KingSafety k;
    const Seat us = stm_, them = opponent(us);
    if (released(them))
        return k;
    const auto& t = tables();
    k.quick = true;
    k.king = king_square(us);
    const Bitboard occ = occupied();
    const Bitboard theirs = living_of(them);
    auto of = [&](PieceKind kind) { return theirs & live_kind_[static_cast<std::size_t>(kind)]; };
    const Bitboard queens = of(PieceKind::Queen);
    const Bitboard diagonal = of(PieceKind::Bishop) | queens;
    const Bitboard straight = of(PieceKind::Rook) | queens;
    const Bitboard checkers = (t.pawn[index(us)][k.king] & of(PieceKind::Pawn)) |
                              (t.knight[k.king] & of(PieceKind::Knight)) |
                              (t.king[k.king] & of(PieceKind::King)) |
                              (chess::bishop_attacks(k.king, occ) & diagonal) |
                              (chess::rook_attacks(k.king, occ) & straight);
    k.evasion = checkers == 0                    ? ~Bitboard{0}
                : chess::more_than_one(checkers) ? 0
                                                 : t.between[k.king][lsb(checkers)] | checkers;
    const Bitboard blockers = living_of(us) & ~spirits_all();
    Bitboard snipers =
        (chess::bishop_attacks(k.king, 0) & diagonal) | (chess::rook_attacks(k.king, 0) & straight);
    while (snipers) {
        const Bitboard between = t.between[k.king][pop_lsb(snipers)] & occ;
        if (between && !chess::more_than_one(between) && (between & blockers))
            k.pinned |= between;
    }
    return k;
}

bool Board::legal_in_perft(const HMove& m, const KingSafety& safety) const {
    const Seat us = stm_, them = opponent(us);
    if (!safety.quick || m.layer != Layer::Living || m.castle || m.en_passant ||
        (spirit_seat_[index(them)] & bb(m.from)))
        return is_legal(m);
    const Sq from = m.from, to = m.to;
    if (living(from).kind != PieceKind::King)
        return safety.allows(from, to);
    const auto& t = tables();
    Bitboard occ = occupied();
    if (spirit(from).kind == PieceKind::None)
        occ &= ~bb(from);
    occ |= bb(to);
    const Bitboard theirs = living_of(them) & ~bb(to);
    auto of = [&](PieceKind kind) { return theirs & live_kind_[k(kind)]; };
    const Bitboard queens = of(PieceKind::Queen);
    return !((t.pawn[index(us)][to] & of(PieceKind::Pawn)) ||
             (t.knight[to] & of(PieceKind::Knight)) || (t.king[to] & of(PieceKind::King)) ||
             (chess::bishop_attacks(to, occ) & (of(PieceKind::Bishop) | queens)) ||
             (chess::rook_attacks(to, occ) & (of(PieceKind::Rook) | queens)));
}

// Counts the legal moves of perft's last ply as the generator finds them, a piece's plain moves
// as one set where its checks and pins decide them all.
struct Board::LegalCounter {
    static constexpr bool counts_pawns = true;
    const Board& board;
    KingSafety safety;
    std::uint64_t n = 0;
    // Of `pawns`, those that checks alone decide: all but the pinned and those with a spirit of
    // the opponent under them.
    Bitboard plain_pawns(Bitboard pawns) const {
        if (!safety.quick)
            return 0;
        return pawns & ~safety.pinned & ~board.spirit_seat_[index(opponent(board.stm_))];
    }
    // Moves of such pawns to `to`: four on the last rank, one per new piece.
    void pawn_targets(Bitboard to, Bitboard last) {
        to &= safety.evasion;
        n += static_cast<std::uint64_t>(chess::popcount(to & ~last) +
                                        4 * chess::popcount(to & last));
    }
    // Whether checks and pins alone decide the moves of the living piece on `from`.
    bool plain(Sq from) const {
        return safety.quick && board.living(from).kind != PieceKind::King &&
               !(board.spirit_seat_[index(opponent(board.stm_))] & bb(from));
    }
    void push(HMove m) {
        if (m.layer == Layer::Living && !m.castle && !m.en_passant && plain(m.from))
            n += safety.allows(m.from, m.to);
        else
            n += board.legal_in_perft(m, safety);
    }
    void many(Sq from, Bitboard targets) {
        if (!plain(from)) {
            while (targets)
                push(HMove{static_cast<std::uint8_t>(from),
                           static_cast<std::uint8_t>(pop_lsb(targets)), Layer::Living, false, false,
                           PieceKind::None});
            return;
        }
        targets &= safety.reach(from);
        n += static_cast<std::uint64_t>(chess::popcount(targets));
    }
};

std::uint64_t Board::perft_from(int depth, PerftFrame* frames) const {
    if (depth == 1) {
        LegalCounter counter{*this, king_safety()};
        generate_into(counter);
        return counter.n;
    }
    MoveBuf& moves = frames[depth - 1].moves;
    moves.clear();
    generate_pseudo(moves);
    const KingSafety safety = king_safety();
    std::uint64_t nodes = 0;
    for (const HMove& m : moves) {
        if (!legal_in_perft(m, safety))
            continue;
        if (depth == 1) {
            ++nodes;
            continue;
        }
        Board next = *this;
        next.make(m);
        assert(next.is_consistent());
        nodes += next.perft_from(depth - 1, frames);
    }
    return nodes;
}

std::uint64_t Board::perft(int depth) const {
    if (depth <= 0)
        return 1;
    std::vector<PerftFrame> frames(static_cast<std::size_t>(depth));
    return perft_from(depth, frames.data());
}

} // namespace ghostpost::rules::haunted
