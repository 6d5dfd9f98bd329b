#include "chess/position.h"

#include <cassert>
#include <cctype>
#include <sstream>

namespace ghostpost::rules::chess {
namespace {

constexpr std::size_t kinds = 11;
constexpr int max_hand = 16;

// Zobrist keys from a fixed SplitMix64 stream, so keys are the same in every run.
struct Keys {
    std::uint64_t piece[2][kinds][64];
    std::uint64_t castling[16];
    std::uint64_t ep_file[8];
    std::uint64_t hand[2][kinds][max_hand + 1];
    std::uint64_t black_to_move;
};

constexpr Keys make_keys() {
    Keys out{};
    std::uint64_t state = 0x67686f7374706f73ULL; // "ghostpos"
    auto next = [&state] {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    };
    for (auto& seat : out.piece)
        for (auto& kind : seat)
            for (auto& sq : kind)
                sq = next();
    for (auto& c : out.castling)
        c = next();
    for (auto& e : out.ep_file)
        e = next();
    for (auto& seat : out.hand)
        for (auto& kind : seat)
            for (auto& n : kind)
                n = next();
    out.black_to_move = next();
    return out;
}

constexpr Keys key_data = make_keys(); // built at compile time

const Keys& keys() {
    return key_data;
}

std::size_t kind_index(PieceKind k) {
    return static_cast<std::size_t>(k);
}

// Which castling rights survive a move touching this square.
std::uint8_t castle_mask(Sq s) {
    switch (s) {
    case 0:
        return static_cast<std::uint8_t>(~WhiteLong & 0xF);
    case 4:
        return static_cast<std::uint8_t>(~(WhiteShort | WhiteLong) & 0xF);
    case 7:
        return static_cast<std::uint8_t>(~WhiteShort & 0xF);
    case 56:
        return static_cast<std::uint8_t>(~BlackLong & 0xF);
    case 60:
        return static_cast<std::uint8_t>(~(BlackShort | BlackLong) & 0xF);
    case 63:
        return static_cast<std::uint8_t>(~BlackShort & 0xF);
    default:
        return 0xF;
    }
}

Piece piece_of_fen_char(char c) {
    PieceKind k = piece_from_letter(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    return Piece{k, std::isupper(static_cast<unsigned char>(c)) ? Seat::White : Seat::Black};
}

char fen_char(Piece p) {
    char c = piece_letter(p.kind);
    return p.seat == Seat::White ? c
                                 : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

} // namespace

Position::Position() {
    std::string err = set_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert(err.empty());
}

void Position::place(Piece p, Sq s) {
    board_[static_cast<std::size_t>(s)] = p;
    by_kind_[kind_index(p.kind)] |= bb(s);
    by_seat_[index(p.seat)] |= bb(s);
}

Piece Position::lift(Sq s) {
    Piece p = board_[static_cast<std::size_t>(s)];
    board_[static_cast<std::size_t>(s)] = Piece{};
    by_kind_[kind_index(p.kind)] &= ~bb(s);
    by_seat_[index(p.seat)] &= ~bb(s);
    return p;
}

void Position::put(Piece p, Sq s) {
    place(p, s);
    key_ ^= keys().piece[index(p.seat)][kind_index(p.kind)][s];
}

void Position::remove(Sq s) {
    const Piece p = lift(s);
    key_ ^= keys().piece[index(p.seat)][kind_index(p.kind)][s];
}

Position Position::without(Sq s) const {
    Position out = *this;
    if (out.piece_on(s).kind != PieceKind::None)
        out.remove(s);
    out.history_.clear();
    return out;
}

std::string Position::set_fen(std::string_view fen) {
    auto pos = read_checked(fen, fen_shape, from_setup);
    if (!pos)
        return pos.first_reason();
    *this = std::move(pos).value();
    return {};
}

Checked<Position> Position::from_setup(const Setup& setup) {
    std::vector<std::string> reasons;
    if (setup.files != 8 || setup.ranks != 8)
        return std::vector<std::string>{"the placement must have 8 ranks of 8 squares"};
    Position fresh{Empty{}};
    std::string unknown;
    for (int r = 0; r < 8; ++r)
        for (int f = 0; f < 8; ++f) {
            const char c = setup.at(f, r);
            if (c == '\0')
                continue;
            const Piece p = Setup::piece_of(c);
            // The core moves FIDE's six and the knight_ferz, no other extra kind.
            if (p.kind == PieceKind::None ||
                (p.kind >= PieceKind::Extra1 && p.kind != knight_ferz)) {
                if (unknown.find(c) == std::string::npos)
                    reasons.push_back(std::string("unknown piece letter '") + c + "'");
                unknown += c;
                continue;
            }
            fresh.put(p, make_sq(f, r));
        }
    bool hand_full = false;
    for (char c : setup.bracketed.value_or("")) {
        Piece p = piece_of_fen_char(c);
        if (p.kind != knight_ferz) {
            std::string held(piece_name(knight_ferz));
            held[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(held[0])));
            reasons.push_back("only a " + held + " (" + piece_letter(knight_ferz) +
                              ") can be in hand, not '" + c + "'");
            continue;
        }
        auto& n = fresh.hand_[index(p.seat)][kind_index(p.kind)];
        if (n >= max_hand) {
            if (!hand_full)
                reasons.push_back("too many pieces in hand");
            hand_full = true;
            continue;
        }
        ++n;
    }
    fresh.stm_ = setup.side;
    const auto fields = read_standard_fields(setup.fields);
    if (!fields)
        reasons.push_back(fields.error().message);
    else {
        fresh.castling_ = fields->castling;
        fresh.halfmove_ = fields->halfmove;
        fresh.fullmove_ = fields->fullmove;
    }
    // A castling right needs its king and rook at home; drop rights that cannot be used.
    auto at = [&](Sq s, Seat seat, PieceKind k) {
        return fresh.board_[static_cast<std::size_t>(s)] == Piece{k, seat};
    };
    if (!at(4, Seat::White, PieceKind::King) || !at(7, Seat::White, PieceKind::Rook))
        fresh.castling_ &= static_cast<std::uint8_t>(~WhiteShort);
    if (!at(4, Seat::White, PieceKind::King) || !at(0, Seat::White, PieceKind::Rook))
        fresh.castling_ &= static_cast<std::uint8_t>(~WhiteLong);
    if (!at(60, Seat::Black, PieceKind::King) || !at(63, Seat::Black, PieceKind::Rook))
        fresh.castling_ &= static_cast<std::uint8_t>(~BlackShort);
    if (!at(60, Seat::Black, PieceKind::King) || !at(56, Seat::Black, PieceKind::Rook))
        fresh.castling_ &= static_cast<std::uint8_t>(~BlackLong);
    if (fields && fields->ep) {
        Sq s = from_square(*fields->ep);
        // Keep it only when a pawn of the side to move could take there (as the key assumes).
        if (tables().pawn[index(opponent(fresh.stm_))][s] &
            fresh.pieces(fresh.stm_, PieceKind::Pawn))
            fresh.ep_ = s;
    }
    for (Seat s : {Seat::White, Seat::Black})
        if (popcount(fresh.pieces(s, PieceKind::King)) > 1)
            reasons.push_back(std::string(seat_name(s)) + " has more than one king");
    if (fresh.pieces(PieceKind::Pawn) & (rank_1 | (rank_1 << 56)))
        reasons.push_back("pawns cannot stand on the first or last rank");
    Sq their_king = fresh.king_square(opponent(fresh.stm_));
    if (their_king >= 0 && fresh.attacked(their_king, fresh.stm_))
        reasons.push_back("the side not to move is in check");
    if (!reasons.empty())
        return reasons;
    fresh.key_ = fresh.compute_key();
    return fresh;
}

std::string Position::fen() const {
    std::string out;
    for (int r = 7; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < 8; ++f) {
            Piece p = piece_on(make_sq(f, r));
            if (p.kind == PieceKind::None) {
                ++empty;
                continue;
            }
            if (empty)
                out += static_cast<char>('0' + empty);
            empty = 0;
            out += fen_char(p);
        }
        if (empty)
            out += static_cast<char>('0' + empty);
        if (r)
            out += '/';
    }
    std::string hand;
    for (Seat s : {Seat::White, Seat::Black})
        for (std::size_t k = 0; k < kinds; ++k)
            hand += std::string(hand_[index(s)][k], fen_char(Piece{static_cast<PieceKind>(k), s}));
    if (!hand.empty() || hand_ != decltype(hand_){})
        out += "[" + hand + "]";
    out += stm_ == Seat::White ? " w " : " b ";
    std::string c;
    if (castling_ & WhiteShort)
        c += 'K';
    if (castling_ & WhiteLong)
        c += 'Q';
    if (castling_ & BlackShort)
        c += 'k';
    if (castling_ & BlackLong)
        c += 'q';
    out += c.empty() ? "-" : c;
    out += ' ';
    out += ep_ >= 0 ? to_square(ep_).name() : "-";
    out += ' ' + std::to_string(halfmove_) + ' ' + std::to_string(fullmove_);
    return out;
}

std::uint64_t Position::compute_key() const {
    const Keys& k = keys();
    std::uint64_t key = 0;
    for (Sq s = 0; s < 64; ++s) {
        Piece p = piece_on(s);
        if (p.kind != PieceKind::None)
            key ^= k.piece[index(p.seat)][kind_index(p.kind)][s];
    }
    key ^= k.castling[castling_];
    if (ep_ >= 0)
        key ^= k.ep_file[file_of(ep_)];
    for (int s = 0; s < 2; ++s)
        for (std::size_t kind = 0; kind < kinds; ++kind)
            key ^= k.hand[s][kind][hand_[static_cast<std::size_t>(s)][kind]];
    if (stm_ == Seat::Black)
        key ^= k.black_to_move;
    return key;
}

Bitboard Position::attackers_to(Sq s, Bitboard occ, Seat by) const {
    const Tables& t = tables();
    Bitboard leapers = pieces(knight_ferz);
    Bitboard diag = pieces(PieceKind::Bishop) | pieces(PieceKind::Queen);
    Bitboard orth = pieces(PieceKind::Rook) | pieces(PieceKind::Queen);
    Bitboard a = (t.pawn[index(opponent(by))][s] & pieces(PieceKind::Pawn)) |
                 (t.knight[s] & (pieces(PieceKind::Knight) | leapers)) |
                 (t.king[s] & pieces(PieceKind::King)) | (t.ferz[s] & leapers);
    if (diag)
        a |= bishop_attacks(s, occ) & diag;
    if (orth)
        a |= rook_attacks(s, occ) & orth;
    return a & pieces(by) & occ;
}

Bitboard Position::checkers() const {
    Sq k = king_square(stm_);
    return k < 0 ? 0 : attackers_to(k, pieces(), opponent(stm_));
}

void Position::generate_pseudo_legal(MoveList& out) const {
    const Tables& t = tables();
    const Seat us = stm_, them = opponent(us);
    const Bitboard occ = pieces(), own = pieces(us), enemy = pieces(them);
    const int up = us == Seat::White ? 8 : -8;
    const Bitboard promo_rank = us == Seat::White ? rank_1 << 56 : rank_1;
    const Bitboard start_rank = us == Seat::White ? rank_1 << 8 : rank_1 << 48;

    auto add_pawn = [&](Sq from, Sq to, MoveType type) {
        if (bb(to) & promo_rank) {
            for (PieceKind k :
                 {PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight})
                out.push({static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to),
                          MoveType::Promotion, k});
        } else {
            out.push({static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to), type,
                      PieceKind::None});
        }
    };
    for (Bitboard b = pieces(us, PieceKind::Pawn); b;) {
        Sq from = pop_lsb(b);
        Sq one = from + up;
        if (!(occ & bb(one))) {
            add_pawn(from, one, MoveType::Normal);
            if ((bb(from) & start_rank) && !(occ & bb(one + up)))
                add_pawn(from, one + up, MoveType::Normal);
        }
        for (Bitboard c = t.pawn[index(us)][from] & enemy; c;)
            add_pawn(from, pop_lsb(c), MoveType::Normal);
        if (ep_ >= 0 && (t.pawn[index(us)][from] & bb(ep_)))
            add_pawn(from, ep_, MoveType::EnPassant);
    }
    for (PieceKind k : {PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen,
                        PieceKind::King, knight_ferz}) {
        for (Bitboard b = pieces(us, k); b;) {
            Sq from = pop_lsb(b);
            for (Bitboard to = attacks_of(k, us, from, occ) & ~own; to;)
                out.push({static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(pop_lsb(to)),
                          MoveType::Normal, PieceKind::None});
        }
    }
    // Castling: path empty here; attacked squares are checked in leaves_king_safe.
    const int base = us == Seat::White ? 0 : 56;
    const std::uint8_t short_right = us == Seat::White ? WhiteShort : BlackShort;
    const std::uint8_t long_right = us == Seat::White ? WhiteLong : BlackLong;
    if ((castling_ & short_right) && !(occ & (bb(base + 5) | bb(base + 6))))
        out.push({static_cast<std::uint8_t>(base + 4), static_cast<std::uint8_t>(base + 6),
                  MoveType::Castle, PieceKind::None});
    if ((castling_ & long_right) && !(occ & (bb(base + 1) | bb(base + 2) | bb(base + 3))))
        out.push({static_cast<std::uint8_t>(base + 4), static_cast<std::uint8_t>(base + 2),
                  MoveType::Castle, PieceKind::None});
}

bool Position::leaves_king_safe(const Move& m) {
    const Seat us = stm_;
    if (m.type == MoveType::Castle) {
        const Seat them = opponent(us);
        int step = m.to > m.from ? 1 : -1;
        for (int s = m.from; s != m.to + step; s += step)
            if (attacked(s, them))
                return false;
        return true;
    }
    Sq k = king_square(us);
    if (k < 0)
        return true;
    do_move(m);
    bool safe = !attacked(m.from == k && m.type != MoveType::Drop ? m.to : k, opponent(us));
    undo_move();
    return safe;
}

namespace {

// Where generate_legal_into puts what it finds: the moves themselves, or only their number
// (perft's last ply, which needs no list).
struct ListSink {
    static constexpr bool counts_only = false;
    MoveList& out;
    void one(Sq from, Sq to, MoveType type, PieceKind piece) {
        out.push({static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to), type, piece});
    }
    void many(Sq from, Bitboard targets) {
        while (targets)
            one(from, pop_lsb(targets), MoveType::Normal, PieceKind::None);
    }
    void list(const MoveList& moves) {
        for (const Move& m : moves)
            out.push(m);
    }
};

struct CountSink {
    static constexpr bool counts_only = true;
    std::uint64_t n = 0;
    void add(int moves) { n += static_cast<std::uint64_t>(moves); }
    void one(Sq, Sq, MoveType, PieceKind) { ++n; }
    void many(Sq, Bitboard targets) { n += static_cast<std::uint64_t>(popcount(targets)); }
    void list(const MoveList& moves) { n += moves.size(); }
};

} // namespace

void Position::generate_legal(MoveList& out) const {
    ListSink sink{out};
    generate_legal_into(sink);
}

std::uint64_t Position::count_legal() const {
    CountSink sink;
    generate_legal_into(sink);
    return sink.n;
}

template <class Sink> void Position::generate_legal_into(Sink& out) const {
    const Tables& t = tables();
    const Seat us = stm_, them = opponent(us);
    const Sq ksq = king_square(us);
    if (ksq < 0) { // no king to keep safe: every move that follows the pieces' movement is legal
        MoveList all;
        generate_pseudo_legal(all);
        out.list(all);
        return;
    }
    const Bitboard occ = pieces(), own = pieces(us), enemy = pieces(them);
    const Bitboard chk = attackers_to(ksq, occ, them);

    // King moves: the destination must be safe with the king lifted off its square.
    const Bitboard occ_without_king = occ ^ bb(ksq);
    for (Bitboard to = t.king[ksq] & ~own; to;) {
        Sq s = pop_lsb(to);
        if (!attackers_to(s, occ_without_king, them))
            out.one(ksq, s, MoveType::Normal, PieceKind::None);
    }
    if (more_than_one(chk))
        return;

    // Pinned pieces: our pieces alone between our king and an enemy slider on a line.
    Bitboard pinned = 0;
    Bitboard snipers =
        ((rook_attacks(ksq, 0) & (pieces(PieceKind::Rook) | pieces(PieceKind::Queen))) |
         (bishop_attacks(ksq, 0) & (pieces(PieceKind::Bishop) | pieces(PieceKind::Queen)))) &
        enemy;
    while (snipers) {
        Sq s = pop_lsb(snipers);
        Bitboard b = t.between[ksq][s] & occ;
        if (b && !more_than_one(b) && (b & own))
            pinned |= b;
    }
    const Bitboard target = chk ? (t.between[ksq][lsb(chk)] | chk) : ~Bitboard{0};
    auto allowed = [&](Sq from) { return (bb(from) & pinned) ? t.line[ksq][from] : ~Bitboard{0}; };

    // Pawns.
    const int up = us == Seat::White ? 8 : -8;
    const Bitboard promo_rank = us == Seat::White ? rank_1 << 56 : rank_1;
    const Bitboard start_rank = us == Seat::White ? rank_1 << 8 : rank_1 << 48;
    auto add_pawn = [&](Sq from, Sq to) {
        if (bb(to) & promo_rank) {
            for (PieceKind k :
                 {PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight})
                out.one(from, to, MoveType::Promotion, k);
        } else {
            out.one(from, to, MoveType::Normal, PieceKind::None);
        }
    };
    // En passant is rare enough to verify by the occupancy after the capture (which catches
    // the horizontal pin of both pawns on the fifth rank too).
    auto en_passant = [&](Sq from) {
        Sq captured = ep_ - up;
        Bitboard after = (occ ^ bb(from) ^ bb(captured)) | bb(ep_);
        Bitboard att =
            ((rook_attacks(ksq, after) & (pieces(PieceKind::Rook) | pieces(PieceKind::Queen))) |
             (bishop_attacks(ksq, after) & (pieces(PieceKind::Bishop) | pieces(PieceKind::Queen))) |
             (t.knight[ksq] & (pieces(PieceKind::Knight) | pieces(knight_ferz))) |
             (t.ferz[ksq] & pieces(knight_ferz)) |
             (t.pawn[index(us)][ksq] & pieces(PieceKind::Pawn) & ~bb(captured))) &
            enemy & after;
        if (!att)
            out.one(from, ep_, MoveType::EnPassant, PieceKind::None);
    };
    Bitboard one_by_one = pieces(us, PieceKind::Pawn);
    if constexpr (Sink::counts_only) {
        // Counting only (perft's last ply): the pawns no pin holds are counted as sets, every
        // push and capture of them at once; a promotion counts as its four choices.
        const Bitboard free = one_by_one & ~pinned;
        one_by_one &= pinned;
        const bool white = us == Seat::White;
        auto forward = [&](Bitboard b, int shift) { return white ? b << shift : b >> shift; };
        const Bitboard empty = ~occ, file_h = file_a << 7;
        const Bitboard single = forward(free, 8) & empty;
        const Bitboard twice = forward(single & (white ? rank_1 << 16 : rank_1 << 40), 8) & empty;
        const Bitboard east = forward(free & ~file_h, white ? 9 : 7) & enemy;
        const Bitboard west = forward(free & ~file_a, white ? 7 : 9) & enemy;
        for (Bitboard to : {single, twice, east, west})
            out.add(popcount(to & target & ~promo_rank) + 4 * popcount(to & target & promo_rank));
        if (ep_ >= 0)
            for (Bitboard b = t.pawn[index(them)][ep_] & free; b;)
                en_passant(pop_lsb(b));
    }
    for (Bitboard b = one_by_one; b;) {
        Sq from = pop_lsb(b);
        Bitboard ok = target & allowed(from);
        Sq one = from + up;
        if (!(occ & bb(one))) {
            if (ok & bb(one))
                add_pawn(from, one);
            if ((bb(from) & start_rank) && !(occ & bb(one + up)) && (ok & bb(one + up)))
                add_pawn(from, one + up);
        }
        for (Bitboard c = t.pawn[index(us)][from] & enemy & ok; c;)
            add_pawn(from, pop_lsb(c));
        if (ep_ >= 0 && (t.pawn[index(us)][from] & bb(ep_)))
            en_passant(from);
    }
    // Pieces, each kind's attacks inlined. A pinned knight never has a move.
    auto piece_moves = [&](Bitboard set, auto attacks) {
        for (Bitboard b = set; b;) {
            Sq from = pop_lsb(b);
            out.many(from, attacks(from) & ~own & target & allowed(from));
        }
    };
    piece_moves(pieces(us, PieceKind::Knight) & ~pinned, [&](Sq s) { return t.knight[s]; });
    piece_moves(pieces(us, PieceKind::Bishop), [&](Sq s) { return bishop_attacks(s, occ); });
    piece_moves(pieces(us, PieceKind::Rook), [&](Sq s) { return rook_attacks(s, occ); });
    piece_moves(pieces(us, PieceKind::Queen), [&](Sq s) { return queen_attacks(s, occ); });
    piece_moves(pieces(us, knight_ferz), [&](Sq s) { return t.knight[s] | t.ferz[s]; });
    // Castling.
    if (!chk) {
        const int base = us == Seat::White ? 0 : 56;
        const std::uint8_t short_right = us == Seat::White ? WhiteShort : BlackShort;
        const std::uint8_t long_right = us == Seat::White ? WhiteLong : BlackLong;
        if ((castling_ & short_right) && !(occ & (bb(base + 5) | bb(base + 6))) &&
            !attackers_to(base + 5, occ, them) && !attackers_to(base + 6, occ, them))
            out.one(base + 4, base + 6, MoveType::Castle, PieceKind::None);
        if ((castling_ & long_right) && !(occ & (bb(base + 1) | bb(base + 2) | bb(base + 3))) &&
            !attackers_to(base + 3, occ, them) && !attackers_to(base + 2, occ, them))
            out.one(base + 4, base + 2, MoveType::Castle, PieceKind::None);
    }
}

void Position::do_move(const Move& m) {
    const Keys& k = keys();
    const Seat us = stm_, them = opponent(us);
    history_.push_back(Undo{m, Piece{}, castling_, ep_, halfmove_, key_});
    Undo& u = history_.back();
    key_ ^= k.castling[castling_];
    if (ep_ >= 0)
        key_ ^= k.ep_file[file_of(ep_)];
    ep_ = -1;
    ++halfmove_;

    if (m.type == MoveType::Drop) {
        auto& n = hand_[index(us)][kind_index(m.piece)];
        key_ ^= k.hand[index(us)][kind_index(m.piece)][n];
        --n;
        key_ ^= k.hand[index(us)][kind_index(m.piece)][n];
        if (piece_on(m.to).kind != PieceKind::None) {
            u.captured = piece_on(m.to);
            remove(m.to);
            halfmove_ = 0;
        }
        put(Piece{m.piece, us}, m.to);
        // An entry that takes a rook on its start square ends that rook's castling right, as a
        // move onto it does; castling does not look for the rook again.
        castling_ = static_cast<std::uint8_t>(castling_ & castle_mask(m.to));
    } else {
        Piece moving = piece_on(m.from);
        if (m.type == MoveType::EnPassant) {
            Sq cap = m.to + (us == Seat::White ? -8 : 8);
            u.captured = piece_on(cap);
            remove(cap);
        } else if (piece_on(m.to).kind != PieceKind::None) {
            u.captured = piece_on(m.to);
            remove(m.to);
        }
        remove(m.from);
        put(m.type == MoveType::Promotion ? Piece{m.piece, us} : moving, m.to);
        if (m.type == MoveType::Castle) {
            Sq rook_from = m.to > m.from ? m.from + 3 : m.from - 4;
            Sq rook_to = m.to > m.from ? m.from + 1 : m.from - 1;
            Piece rook = piece_on(rook_from);
            remove(rook_from);
            put(rook, rook_to);
        }
        if (moving.kind == PieceKind::Pawn || u.captured.kind != PieceKind::None)
            halfmove_ = 0;
        if (moving.kind == PieceKind::Pawn && (m.to - m.from == 16 || m.from - m.to == 16)) {
            Sq mid = (m.from + m.to) / 2;
            if (tables().pawn[index(us)][mid] & pieces(them, PieceKind::Pawn))
                ep_ = mid;
        }
        castling_ = static_cast<std::uint8_t>(castling_ & castle_mask(m.from) & castle_mask(m.to));
    }
    key_ ^= k.castling[castling_];
    if (ep_ >= 0)
        key_ ^= k.ep_file[file_of(ep_)];
    if (us == Seat::Black)
        ++fullmove_;
    stm_ = them;
    key_ ^= k.black_to_move;
}

void Position::undo_move() {
    assert(!history_.empty());
    const Undo u = history_.back();
    history_.pop_back();
    stm_ = opponent(stm_);
    const Seat us = stm_;
    if (us == Seat::Black)
        --fullmove_;
    // The pieces go back without touching the key: it is restored whole below.
    const Move& m = u.move;
    if (m.type == MoveType::Drop) {
        lift(m.to);
        ++hand_[index(us)][kind_index(m.piece)];
        if (u.captured.kind != PieceKind::None)
            place(u.captured, m.to);
    } else {
        const Piece moved = lift(m.to);
        place(m.type == MoveType::Promotion ? Piece{PieceKind::Pawn, us} : moved, m.from);
        if (m.type == MoveType::Castle) {
            Sq rook_from = m.to > m.from ? m.from + 3 : m.from - 4;
            Sq rook_to = m.to > m.from ? m.from + 1 : m.from - 1;
            place(lift(rook_to), rook_from);
        }
        if (u.captured.kind != PieceKind::None)
            place(u.captured,
                  m.type == MoveType::EnPassant ? m.to + (us == Seat::White ? -8 : 8) : m.to);
    }
    castling_ = u.castling;
    ep_ = u.ep;
    halfmove_ = u.halfmove;
    key_ = u.key;
}

int Position::repetitions() const {
    int count = 0;
    const int n = static_cast<int>(history_.size());
    for (int back = 2; back <= halfmove_ && back <= n; back += 2)
        if (history_[static_cast<std::size_t>(n - back)].key == key_)
            ++count;
    return count;
}

bool Position::insufficient_material() const {
    if (pieces(PieceKind::Pawn) | pieces(PieceKind::Rook) | pieces(PieceKind::Queen) |
        pieces(knight_ferz))
        return false;
    if (hand_ != decltype(hand_){})
        return false;
    const Bitboard minors = pieces(PieceKind::Knight) | pieces(PieceKind::Bishop);
    if (popcount(minors) <= 1)
        return true;
    // Only bishops, all on squares of one colour: no mate is possible.
    if (pieces(PieceKind::Knight))
        return false;
    const Bitboard b = pieces(PieceKind::Bishop);
    return (b & dark_squares) == b || (b & ~dark_squares) == b;
}

std::uint64_t Position::perft(int depth) {
    if (depth <= 1)
        return depth == 1 ? count_legal() : 1;
    MoveList moves;
    generate_legal(moves);
    std::uint64_t nodes = 0;
    for (const Move& m : moves) {
        do_move(m);
        assert(is_consistent());
        nodes += perft(depth - 1);
        undo_move();
    }
    return nodes;
}

bool Position::is_consistent() const {
    Bitboard all = 0;
    for (std::size_t k = 1; k < kinds; ++k) {
        if (all & by_kind_[k])
            return false;
        all |= by_kind_[k];
    }
    if (all != pieces() || (by_seat_[0] & by_seat_[1]) || by_kind_[0])
        return false;
    for (Sq s = 0; s < 64; ++s) {
        Piece p = piece_on(s);
        bool here = (all & bb(s)) != 0;
        if (here != (p.kind != PieceKind::None))
            return false;
        if (here && (!(by_kind_[kind_index(p.kind)] & bb(s)) || !(by_seat_[index(p.seat)] & bb(s))))
            return false;
    }
    for (Seat s : {Seat::White, Seat::Black})
        if (popcount(pieces(s, PieceKind::King)) > 1)
            return false;
    if (pieces(PieceKind::Pawn) & (rank_1 | (rank_1 << 56)))
        return false;
    Sq their_king = king_square(opponent(stm_));
    if (their_king >= 0 && attacked(their_king, stm_))
        return false;
    // A castling right stands only while its king and rook are at home.
    auto at = [&](Sq s, Seat seat, PieceKind k) { return piece_on(s) == Piece{k, seat}; };
    if (castling_ > 15 ||
        ((castling_ & WhiteShort) &&
         (!at(4, Seat::White, PieceKind::King) || !at(7, Seat::White, PieceKind::Rook))) ||
        ((castling_ & WhiteLong) &&
         (!at(4, Seat::White, PieceKind::King) || !at(0, Seat::White, PieceKind::Rook))) ||
        ((castling_ & BlackShort) &&
         (!at(60, Seat::Black, PieceKind::King) || !at(63, Seat::Black, PieceKind::Rook))) ||
        ((castling_ & BlackLong) &&
         (!at(60, Seat::Black, PieceKind::King) || !at(56, Seat::Black, PieceKind::Rook))))
        return false;
    // An en passant square is kept only where a pawn of the side to move could take.
    if (ep_ >= 0 && (ep_ > 63 || rank_of(ep_) != (stm_ == Seat::White ? 5 : 2) ||
                     piece_on(ep_).kind != PieceKind::None ||
                     !(tables().pawn[index(opponent(stm_))][ep_] & pieces(stm_, PieceKind::Pawn))))
        return false;
    return key_ == compute_key();
}

} // namespace ghostpost::rules::chess
