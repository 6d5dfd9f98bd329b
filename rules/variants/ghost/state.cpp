// The Ghost Chess state machine: which actions each decision allows and what applying one does.
// Each function follows a clause of docs/variants/ghost.md; the clause is named where it applies.
#include "ghost.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace ghostpost::rules::ghost {

using chess::bb;
using chess::file_of;
using chess::lsb;
using chess::make_sq;
using chess::pop_lsb;
using chess::popcount;
using chess::rank_of;
using chess::tables;
using chess::to_square;

namespace {

Square sq(Sq s) {
    return to_square(s);
}
Sq sq_of(Square s) {
    return make_sq(s.file, s.rank);
}

void put(State& s, Piece p, Sq at) {
    s.board[static_cast<std::size_t>(at)] = p;
    (p.seat == Seat::White ? s.white : s.black) |= bb(at);
}

void remove(State& s, Sq at) {
    s.board[static_cast<std::size_t>(at)] = Piece{};
    s.origin[static_cast<std::size_t>(at)] = -1;
    s.home_pawns &= ~bb(at);
    s.white &= ~bb(at);
    s.black &= ~bb(at);
}

void move_piece(State& s, Sq from, Sq to) {
    const Piece p = s.board[static_cast<std::size_t>(from)];
    const std::int8_t origin = s.origin[static_cast<std::size_t>(from)];
    // A pawn stepping sideways along rank 2 has not left it.
    const bool home = (s.home_pawns & bb(from)) && rank_of(to) == 1;
    remove(s, to);
    remove(s, from);
    put(s, p, to);
    s.origin[static_cast<std::size_t>(to)] = origin;
    if (home)
        s.home_pawns |= bb(to);
}

Action move_action(const State& s, Sq from, Sq to, std::uint8_t code) {
    Action a;
    a.kind = ActionKind::Move;
    a.piece = s.board[static_cast<std::size_t>(from)].kind;
    a.from = sq(from);
    a.to = sq(to);
    a.special = code;
    return a;
}

Action coded(ActionKind kind, std::uint8_t code, Sq from = -1, Sq to = -1) {
    Action a;
    a.kind = kind;
    a.special = code;
    if (from >= 0)
        a.from = sq(from);
    if (to >= 0)
        a.to = sq(to);
    if (code == PlaceCode) {
        a.piece = PieceKind::Knight;
    } else if (code == ChooseCode) {
        a.piece = PieceKind::Knight;
    } else if (code == SearchCode || code == RespawnCode) {
        a.piece = PieceKind::Pawn;
    } else if (code == AssaultCode) {
        a.piece = PieceKind::Bishop;
    } else if (code == TranscendCode) {
        a.piece = PieceKind::Queen;
    }
    return a;
}

void add_targets(const State& s, std::vector<Action>& out, Sq from, Bitboard targets,
                 std::uint8_t code) {
    while (targets)
        out.push_back(move_action(s, from, pop_lsb(targets), code));
}

// What a piece moves to by its ordinary movement, before any special rule filters the targets.
Bitboard piece_reach(const State& s, Sq from) {
    const Piece p = s.board[static_cast<std::size_t>(from)];
    const Bitboard occ = s.occupied();
    switch (p.kind) {
    case PieceKind::Knight:
        return tables().knight[from];
    case PieceKind::Bishop:
        return chess::bishop_attacks(from, occ);
    case PieceKind::Rook:
        return chess::rook_attacks(from, occ);
    case PieceKind::Queen:
        return chess::queen_attacks(from, occ);
    default:
        return 0;
    }
}

// The Paradigm's pawns: forward one (two from rank 2), diagonal-forward captures, and once he
// has lost both knights one step sideways or back to an empty square. `enemies` are the pieces
// it may capture; `knights` whether the Paradigm still has a knight.
Bitboard pawn_reach(const State& s, Sq from, Bitboard enemies, bool knights) {
    const Bitboard occ = s.occupied();
    const int f = file_of(from), r = rank_of(from);
    Bitboard out = 0;
    if (r < 7) {
        if (!(occ & bb(from + 8))) {
            out |= bb(from + 8);
            if (r == 1 && (s.home_pawns & bb(from)) && !(occ & bb(from + 16)))
                out |= bb(from + 16);
        }
        out |= tables().pawn[0][from] & enemies;
    }
    if (!knights) {
        if (f > 0)
            out |= bb(from - 1) & ~occ;
        if (f < 7)
            out |= bb(from + 1) & ~occ;
        if (r > 0)
            out |= bb(from - 8) & ~occ;
    }
    return out;
}

Bitboard immune(const State& s) {
    return s.shadow | s.haunt | s.hidden;
}

// Light squares of the pawn's file, empty, other than its own: where Search may send it.
Bitboard search_targets(const State& s, Sq pawn) {
    return (chess::file_a << file_of(pawn)) & ~chess::dark_squares & ~s.occupied() & ~bb(pawn);
}

constexpr Bitboard queenside_block = bb(0) | bb(1) | bb(2) | bb(8) | bb(9) | bb(10);
constexpr Bitboard kingside_block = bb(5) | bb(6) | bb(7) | bb(13) | bb(14) | bb(15);

// Assault destinations of the bishop on `bishop` (c1 or f1): the block moves by the bishop's
// diagonal step, onto squares that are empty once the block is lifted.
Bitboard assault_targets(const State& s, Sq bishop) {
    const Bitboard block = bishop == sq_c1 ? queenside_block : kingside_block;
    const int df = bishop == sq_c1 ? 1 : -1;
    const Bitboard others = s.occupied() & ~block;
    Bitboard out = 0;
    for (int k = 1; k <= 5; ++k) {
        Bitboard dest = 0;
        Bitboard b = block;
        while (b) {
            const Sq from = pop_lsb(b);
            dest |= bb(make_sq(file_of(from) + df * k, rank_of(from) + k));
        }
        if (!(dest & others))
            out |= bb(make_sq(file_of(bishop) + df * k, k));
    }
    return out;
}

// The ordinary moves of a normal turn, each piece's targets given to `emit(from, targets, code)`
// as one set: listed as actions, or counted (perft's last ply).
template <class Emit> void white_moves(const State& s, const Relax& relax, Emit&& emit) {
    const Bitboard takeable = s.black & ~(relax.immunity ? 0 : immune(s));
    const bool nexus_bishops = shadow_nexus(s);
    const bool knights = s.of(Seat::White, PieceKind::Knight) != 0;
    Bitboard pieces = s.white;
    while (pieces) {
        const Sq from = pop_lsb(pieces);
        if (from == s.locked && !relax.lock)
            continue;
        const Piece p = s.board[static_cast<std::size_t>(from)];
        Bitboard ordinary = 0;
        if (p.kind == PieceKind::Pawn) {
            ordinary = pawn_reach(s, from, takeable, knights);
            if (relax.pawn_steps && knights) {
                const int f = file_of(from), r = rank_of(from);
                const Bitboard occ = s.occupied();
                if (f > 0)
                    ordinary |= bb(from - 1) & ~occ;
                if (f < 7)
                    ordinary |= bb(from + 1) & ~occ;
                if (r > 0)
                    ordinary |= bb(from - 8) & ~occ;
            }
        } else {
            ordinary = piece_reach(s, from) & (~s.occupied() | takeable);
        }
        emit(from, ordinary, Ordinary);
        const bool scouting = p.kind == PieceKind::Pawn &&
                              (from == sq_d1 + 8 || from == sq_e1 + 8) &&
                              (s.full_nexus || relax.modes);
        const bool nexus_bishop =
            (from == sq_c8 || from == sq_f8) && (nexus_bishops || relax.modes);
        if (!scouting && !nexus_bishop)
            continue;
        const Bitboard as_bishop =
            chess::bishop_attacks(from, s.occupied()) & (~s.occupied() | takeable) & ~ordinary;
        if (scouting)
            emit(from, as_bishop, Scouting);
        if (nexus_bishop)
            emit(from, as_bishop, NexusBishop);
    }
}

// Whether some piece of the Paradigm has an ordinary move, as white_moves finds them: enough to
// know that he can act, which every one of his turns asks, without counting all his actions.
bool white_can_move(const State& s) {
    const Bitboard takeable = s.black & ~immune(s);
    const bool knights = s.of(Seat::White, PieceKind::Knight) != 0;
    for (Bitboard pieces = s.white; pieces;) {
        const Sq from = pop_lsb(pieces);
        if (from == s.locked)
            continue;
        const bool pawn = s.board[static_cast<std::size_t>(from)].kind == PieceKind::Pawn;
        if (pawn ? pawn_reach(s, from, takeable, knights)
                 : piece_reach(s, from) & (~s.occupied() | takeable))
            return true;
    }
    return false;
}

template <class Emit> void black_moves(const State& s, const Relax& relax, Emit&& emit) {
    // In a Shadow Nexus the Ghost player enters her home row only to capture.
    const Bitboard barred = shadow_nexus(s) && !relax.home_row ? rank_8 & ~s.white : 0;
    Bitboard pieces = s.black;
    while (pieces) {
        const Sq from = pop_lsb(pieces);
        Bitboard t = piece_reach(s, from) & ~s.black;
        if (!(bb(from) & rank_8))
            t &= ~barred;
        emit(from, t, Ordinary);
    }
}

void white_move_actions(const State& s, std::vector<Action>& out, const Relax& relax) {
    white_moves(s, relax, [&](Sq from, Bitboard targets, std::uint8_t code) {
        add_targets(s, out, from, targets, code);
    });
}

void black_move_actions(const State& s, std::vector<Action>& out, const Relax& relax) {
    black_moves(s, relax, [&](Sq from, Bitboard targets, std::uint8_t code) {
        add_targets(s, out, from, targets, code);
    });
}

} // namespace

Bitboard State::of(Seat seat, PieceKind k) const {
    Bitboard out = 0;
    Bitboard b = seat == Seat::White ? white : black;
    while (b) {
        const Sq x = pop_lsb(b);
        if (board[static_cast<std::size_t>(x)].kind == k)
            out |= bb(x);
    }
    return out;
}

Sq State::ghost() const {
    const Bitboard q = of(Seat::Black, PieceKind::Queen);
    return q ? lsb(q) : -1;
}

State start_state() {
    State s;
    s.origin.fill(-1);
    const PieceKind back[8] = {PieceKind::Rook,   PieceKind::Knight, PieceKind::Bishop,
                               PieceKind::None,   PieceKind::None,   PieceKind::Bishop,
                               PieceKind::Knight, PieceKind::Rook};
    for (int f = 0; f < 8; ++f) {
        if (back[f] != PieceKind::None)
            put(s, Piece{back[f], Seat::White}, f);
        put(s, Piece{PieceKind::Pawn, Seat::White}, 8 + f);
    }
    s.home_pawns = 0xFF00ULL;
    for (Sq x : {0, 2, 5, 7})
        s.origin[static_cast<std::size_t>(x)] = static_cast<std::int8_t>(x);
    put(s, Piece{PieceKind::Queen, Seat::Black}, make_sq(3, 7));
    s.keys.push_back(position_key(s));
    return s;
}

Seat decider(const State& s) {
    switch (s.phase) {
    case Phase::RescuePlace:
    case Phase::RescueOffer:
    case Phase::TranscendKnights:
        return Seat::Black;
    case Phase::KnightChoice:
    case Phase::Reaction:
    case Phase::SearchOffer:
        return Seat::White;
    default:
        return s.turn;
    }
}

bool bishops_home(const State& s) {
    auto is_bishop = [&](Sq x) {
        return s.board[static_cast<std::size_t>(x)] == Piece{PieceKind::Bishop, Seat::White};
    };
    return is_bishop(sq_c1) && is_bishop(sq_f1);
}

bool shadow_nexus(const State& s) {
    return (s.full_nexus || bishops_home(s)) && (s.white & bb(sq_c8)) && (s.white & bb(sq_f8));
}

std::string nexus_name(const State& s) {
    return nexus_phrase(s).english();
}

Phrase nexus_phrase(const State& s) {
    Phrase base{"nexus",
                s.full_nexus      ? "Full Nexus"
                : bishops_home(s) ? "Half Nexus"
                                  : "no Nexus",
                {}};
    if (!shadow_nexus(s))
        return base;
    // TRANSLATORS: two Nexus formations at once, as in "Full Nexus and Shadow Nexus".
    return phrase(N_("{nexus} and {shadow}"),
                  {{"nexus", std::move(base)}, {"shadow", Phrase{"nexus", "Shadow Nexus", {}}}});
}

Bitboard immune_squares(const State& s) {
    return immune(s);
}

std::vector<Sq> search_squares(const State& s, Sq pawn) {
    std::vector<Sq> out;
    Bitboard t = search_targets(s, pawn);
    while (t)
        out.push_back(pop_lsb(t));
    return out;
}

std::vector<Action> reaction_actions(const State& s) {
    std::vector<Action> out;
    if (s.captured == PieceKind::Pawn && bishops_home(s))
        for (Sq x : {sq_d1, sq_e1})
            if (!(s.occupied() & bb(x)))
                out.push_back(coded(ActionKind::Special, RespawnCode, -1, x));
    if (s.nexus_shadow_at_capture) {
        // The Shadow Nexus move: "any non-capturing legal move that would leave that piece on a
        // non-black square". The moves the modes give are legal moves too: Scouting while the
        // Full Nexus holds (only the e2 pawn's bishop moves end on light squares) and the bishop
        // moves of the c8 piece while the Shadow Nexus still holds (f8's end on dark squares).
        const Bitboard light_empty = ~s.occupied() & ~chess::dark_squares;
        const bool nexus_bishops = shadow_nexus(s);
        Bitboard pieces = s.white;
        while (pieces) {
            const Sq from = pop_lsb(pieces);
            const Piece p = s.board[static_cast<std::size_t>(from)];
            Bitboard t = p.kind == PieceKind::Pawn
                             ? pawn_reach(s, from, 0, s.of(Seat::White, PieceKind::Knight) != 0)
                             : piece_reach(s, from);
            add_targets(s, out, from, t & light_empty, Ordinary);
            const Bitboard as_bishop = chess::bishop_attacks(from, s.occupied()) & light_empty & ~t;
            if (p.kind == PieceKind::Pawn && (from == sq_d1 + 8 || from == sq_e1 + 8) &&
                s.full_nexus)
                add_targets(s, out, from, as_bishop, Scouting);
            if ((from == sq_c8 || from == sq_f8) && nexus_bishops)
                add_targets(s, out, from, as_bishop, NexusBishop);
        }
    }
    return out;
}

std::vector<Action> moves_for(const State& s, Seat seat, const Relax& relax) {
    std::vector<Action> out;
    if (seat == Seat::White)
        white_move_actions(s, out, relax);
    else
        black_move_actions(s, out, relax);
    return out;
}

std::vector<Action> legal_actions(const State& s) {
    std::vector<Action> out;
    legal_actions(s, out);
    return out;
}

void legal_actions(const State& s, std::vector<Action>& out) {
    out.clear();
    switch (s.phase) {
    case Phase::Over:
        break;
    case Phase::Move:
        if (s.turn == Seat::White) {
            white_move_actions(s, out, Relax{});
            if (s.full_nexus)
                for (Sq b : {sq_c1, sq_f1}) {
                    Bitboard t = assault_targets(s, b);
                    while (t)
                        out.push_back(coded(ActionKind::Special, AssaultCode, b, pop_lsb(t)));
                }
            Bitboard pawns = s.of(Seat::White, PieceKind::Pawn) & rank_8;
            while (pawns) {
                const Sq p = pop_lsb(pawns);
                if (p == s.locked)
                    continue;
                Bitboard t = search_targets(s, p);
                while (t)
                    out.push_back(coded(ActionKind::Special, SearchCode, p, pop_lsb(t)));
            }
        } else {
            black_move_actions(s, out, Relax{});
            out.push_back(coded(ActionKind::Pass, HideCode));
            out.push_back(coded(ActionKind::Special, TranscendCode, s.ghost()));
        }
        break;
    case Phase::RescuePlace:
    case Phase::RescueOffer: {
        Bitboard t = rescue_squares & ~s.occupied();
        while (t)
            out.push_back(coded(ActionKind::Drop, PlaceCode, -1, pop_lsb(t)));
        if (s.phase == Phase::RescueOffer)
            out.push_back(coded(ActionKind::Pass, SkipCode));
        break;
    }
    case Phase::KnightChoice: {
        Bitboard t = s.of(Seat::White, PieceKind::Knight);
        while (t)
            out.push_back(coded(ActionKind::Choice, ChooseCode, pop_lsb(t)));
        break;
    }
    case Phase::Reaction:
        out = reaction_actions(s);
        out.push_back(coded(ActionKind::Pass, SkipCode));
        break;
    case Phase::SearchOffer: {
        Bitboard t = search_targets(s, s.search_pawn);
        while (t)
            out.push_back(coded(ActionKind::Special, SearchCode, s.search_pawn, pop_lsb(t)));
        out.push_back(coded(ActionKind::Pass, SkipCode));
        break;
    }
    case Phase::TranscendKnights: {
        Bitboard knights = s.of(Seat::Black, PieceKind::Knight) & ~s.moved_knights;
        while (knights) {
            const Sq from = pop_lsb(knights);
            add_targets(s, out, from, tables().knight[from] & ~s.black, Ordinary);
        }
        out.push_back(coded(ActionKind::Pass, SkipCode));
        break;
    }
    }
}

std::uint64_t count_actions(const State& s) {
    if (s.phase != Phase::Move)
        return s.phase == Phase::Over ? 0 : legal_actions(s).size();
    std::uint64_t n = 0;
    auto count = [&](Sq, Bitboard targets, std::uint8_t) {
        n += static_cast<std::uint64_t>(popcount(targets));
    };
    if (s.turn == Seat::Black) {
        black_moves(s, Relax{}, count);
        return n + 2; // Hide and Transcend
    }
    white_moves(s, Relax{}, count);
    if (s.full_nexus)
        n += static_cast<std::uint64_t>(popcount(assault_targets(s, sq_c1)) +
                                        popcount(assault_targets(s, sq_f1)));
    for (Bitboard pawns = s.of(Seat::White, PieceKind::Pawn) & rank_8; pawns;) {
        const Sq p = pop_lsb(pawns);
        if (p != s.locked)
            n += static_cast<std::uint64_t>(popcount(search_targets(s, p)));
    }
    return n;
}

std::uint64_t position_key(const State& s) {
    std::uint64_t h = 1469598103934665603ULL;
    auto mix = [&](std::uint64_t v) {
        h ^= v;
        h *= 1099511628211ULL;
    };
    // The board eight bytes at a time (perft makes a key every turn): a key is only compared
    // with the keys of the same game, so any hash of the same fields serves.
    static_assert(sizeof(s.board) == 128);
    const auto* bytes = reinterpret_cast<const unsigned char*>(s.board.data());
    for (std::size_t i = 0; i < sizeof(s.board); i += 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, bytes + i, sizeof word);
        mix(word);
        h ^= h >> 29;
    }
    mix(static_cast<std::uint64_t>(s.turn));
    mix(s.full_nexus);
    mix(immune(s));
    mix(static_cast<std::uint64_t>(s.locked + 1));
    mix(static_cast<std::uint64_t>(s.knights_lost));
    mix(s.home_pawns);
    return h;
}

int repetitions(const State& s) {
    if (s.keys.empty())
        return 0;
    return static_cast<int>(std::count(s.keys.begin(), s.keys.end() - 1, s.keys.back()));
}

namespace {

void note(std::vector<Event>* ev, EventKind kind, Phrase said) {
    if (ev)
        ev->push_back(public_event(kind, std::move(said)));
}

Phrase::Arg square_arg(Sq x) {
    return {"square", sq(x).name()};
}

void finish(State& s, Status status, std::string reason, std::vector<Event>* ev) {
    s.outcome = Outcome{status, std::move(reason)};
    s.phase = Phase::Over;
    note(ev, EventKind::GameOver, Phrase{"reason", s.outcome.reason, {}});
}

void start_turn(State& s, Seat next, std::vector<Event>* ev) {
    s.halfmove = s.irreversible ? 0 : s.halfmove + 1;
    s.irreversible = false;
    if (next == Seat::White)
        ++s.fullmove;
    s.turn = next;
    s.phase = Phase::Move;
    s.special_used = false;
    s.ghost_took_on_dark = false;
    s.nexus_shadow_at_capture = false;
    s.captured = PieceKind::None;
    s.captured_on = s.captured_origin = s.rescue_to = s.search_pawn = -1;
    s.keys.push_back(position_key(s));
    // Black can always Hide; a Paradigm without any action loses (decision 17).
    if (next == Seat::White && !white_can_move(s) && count_actions(s) == 0)
        finish(s, Status::BlackWins, "the Paradigm cannot move", ev);
    else if (s.halfmove >= 150)
        finish(s, Status::Draw, "75-move rule", ev);
    else if (repetitions(s) >= 4)
        finish(s, Status::Draw, "fivefold repetition", ev);
}

// End of Black's turn: what protects her pieces during the Paradigm's coming turn.
void finish_black_turn(State& s, std::vector<Event>* ev) {
    s.shadow = s.haunt = 0;
    const Sq g = s.ghost();
    if (g >= 0) {
        if (s.ghost_took_on_dark) {
            s.shadow |= bb(g);
            note(ev, EventKind::Special,
                 phrase(N_("{special}: the Ghost captured on a dark square and cannot be captured "
                           "next turn"),
                        {{"special", special_word("Shadow")}}));
        }
        const Bitboard knights = s.of(Seat::Black, PieceKind::Knight);
        if (dark(g) && popcount(knights) == 2) {
            const int f = file_of(g), r = rank_of(g);
            const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
            for (const auto& d : dirs) {
                const int f1 = f + d[0], r1 = r + d[1], f2 = f - d[0], r2 = r - d[1];
                if (f1 < 0 || f1 > 7 || r1 < 0 || r1 > 7 || f2 < 0 || f2 > 7 || r2 < 0 || r2 > 7)
                    continue;
                const Bitboard pair = bb(make_sq(f1, r1)) | bb(make_sq(f2, r2));
                if ((knights & pair) != pair)
                    continue;
                if (!(s.shadow & bb(g)))
                    note(ev, EventKind::Special,
                         phrase(N_("{special}: the Ghost is flanked by both knights and cannot be "
                                   "captured next turn"),
                                {{"special", special_word("Shadow")}}));
                s.shadow |= bb(g);
                if (d[0] != 0 && d[1] != 0) {
                    s.haunt |= pair;
                    note(ev, EventKind::Special,
                         phrase(N_("{special}: the knights on {first} and {second} cannot be "
                                   "captured next turn"),
                                {{"special", special_word("Haunt")},
                                 {"first", sq(lsb(pair)).name()},
                                 {"second", sq(chess::msb(pair)).name()}}));
                }
            }
        }
    }
    start_turn(s, Seat::White, ev);
}

void finish_white_turn(State& s, std::vector<Event>* ev) {
    s.shadow = s.haunt = s.hidden = 0;
    s.locked = -1;
    start_turn(s, Seat::Black, ev);
}

void resolve_transcend(State& s, std::vector<Event>* ev) {
    if (s.white == 0)
        finish(s, Status::BlackWins, "the Ghost transcended and no Paradigm piece remains", ev);
    else
        finish(s, Status::WhiteWins, "the Ghost transcended and Paradigm pieces remain", ev);
}

void continue_transcend(State& s, std::vector<Event>* ev) {
    if (s.white == 0) {
        resolve_transcend(s, ev);
        return;
    }
    // Only Skip left: nothing more to decide.
    if (legal_actions(s).size() == 1)
        resolve_transcend(s, ev);
}

// Transcend: the Ghost's sacrifice captures every Paradigm piece touching her square, the
// capturer too when she was captured. Then each of Black's knights may move once.
void transcend(State& s, Sq at, bool captured, std::vector<Event>* ev) {
    Bitboard blast = tables().king[at] & s.white;
    if (captured)
        blast |= bb(at) & s.white;
    else
        remove(s, at);
    std::string taken;
    Bitboard b = blast;
    while (b) {
        const Sq x = pop_lsb(b);
        taken += (taken.empty() ? "" : ", ") +
                 std::string(1, piece_letter(s.board[static_cast<std::size_t>(x)].kind)) +
                 sq(x).name();
        remove(s, x);
    }
    s.irreversible = true;
    s.special_used = true;
    s.phase = Phase::TranscendKnights;
    s.moved_knights = 0;
    const Phrase::Arg where = square_arg(at);
    const Phrase::Arg pieces{"pieces", taken};
    if (captured)
        note(ev, EventKind::Special,
             taken.empty() ? phrase(N_("The Ghost was captured and transcends on {square}: no "
                                       "Paradigm piece touches her"),
                                    {where})
                           : phrase(N_("The Ghost was captured and transcends on {square}, taking "
                                       "{pieces}"),
                                    {where, pieces}));
    else
        note(
            ev, EventKind::Special,
            taken.empty()
                ? phrase(N_("The Ghost transcends on {square}: no Paradigm piece touches her"),
                         {where})
                : phrase(N_("The Ghost transcends on {square}, taking {pieces}"), {where, pieces}));
    continue_transcend(s, ev);
}

void after_rescue(State& s, std::vector<Event>* ev) {
    if (!s.special_used && !reaction_actions(s).empty()) {
        s.phase = Phase::Reaction;
        return;
    }
    finish_black_turn(s, ev);
}

void place_knight(State& s, Sq at, std::vector<Event>* ev) {
    put(s, Piece{PieceKind::Knight, Seat::Black}, at);
    s.special_used = true;
    note(ev, EventKind::Special,
         phrase(N_("{special}: the knight enters on {square}"),
                {{"special", special_word("Rescue")}, square_arg(at)}));
}

// Rescue by exchange: the Paradigm's knight on `knight` joins Black on the chosen square and
// the captured rook or bishop goes back to its start square, if that square is empty.
void exchange(State& s, Sq knight, std::vector<Event>* ev) {
    if (s.full_nexus && (bb(knight) & nexus_squares))
        s.full_nexus = false;
    remove(s, knight);
    note(ev, EventKind::Special,
         phrase(N_("{special}: the knight from {square} changes sides"),
                {{"special", special_word("Rescue")}, square_arg(knight)}));
    place_knight(s, s.rescue_to, ev);
    const Phrase::Arg name{"piece", piece_word(s.captured)};
    if (s.captured_origin >= 0 && !(s.occupied() & bb(s.captured_origin))) {
        put(s, Piece{s.captured, Seat::White}, s.captured_origin);
        s.origin[static_cast<std::size_t>(s.captured_origin)] =
            static_cast<std::int8_t>(s.captured_origin);
        note(ev, EventKind::Special,
             phrase(N_("The captured {piece} returns to {square}"),
                    {name, square_arg(s.captured_origin)}));
    } else {
        note(ev, EventKind::Special,
             phrase(N_("The captured {piece} cannot return: its start square is taken"), {name}));
    }
    finish_black_turn(s, ev);
}

void play_black_move(State& s, Sq from, Sq to, std::vector<Event>* ev) {
    const bool nexus_shadow = shadow_nexus(s);
    const Piece mover = s.board[static_cast<std::size_t>(from)];
    const Piece taken = s.board[static_cast<std::size_t>(to)];
    const std::int8_t taken_origin = s.origin[static_cast<std::size_t>(to)];
    move_piece(s, from, to);
    if (taken.kind == PieceKind::None) {
        finish_black_turn(s, ev);
        return;
    }
    s.irreversible = true;
    if (s.full_nexus && (bb(to) & nexus_squares))
        s.full_nexus = false;
    s.captured = taken.kind;
    s.captured_on = to;
    s.captured_origin = taken_origin;
    if (s.white == 0) {
        finish(s, Status::BlackWins, "no Paradigm piece remains", ev);
        return;
    }
    const bool by_ghost = mover.kind == PieceKind::Queen;
    if (by_ghost && dark(to))
        s.ghost_took_on_dark = true;
    s.nexus_shadow_at_capture = by_ghost && nexus_shadow;
    const Bitboard free = rescue_squares & ~s.occupied();
    if (by_ghost && taken.kind == PieceKind::Knight) {
        if (free == 0) {
            note(ev, EventKind::Special,
                 phrase(N_("No dark square of the home row is free: the knight cannot be "
                           "rescued")));
        } else if (!chess::more_than_one(free)) {
            place_knight(s, lsb(free), ev);
        } else {
            s.phase = Phase::RescuePlace;
            return;
        }
    } else if (by_ghost && (taken.kind == PieceKind::Rook || taken.kind == PieceKind::Bishop) &&
               s.of(Seat::White, PieceKind::Knight) != 0 && free != 0) {
        s.phase = Phase::RescueOffer;
        return;
    }
    after_rescue(s, ev);
}

void play_white_move(State& s, const Action& a, std::vector<Event>* ev) {
    const Sq from = sq_of(a.from), to = sq_of(a.to);
    const Piece mover = s.board[static_cast<std::size_t>(from)];
    const Piece taken = s.board[static_cast<std::size_t>(to)];
    if (s.full_nexus && (bb(from) & nexus_squares))
        s.full_nexus = false;
    move_piece(s, from, to);
    if (mover.kind == PieceKind::Pawn)
        s.irreversible = true;
    if (a.special != Ordinary)
        s.special_used = true;
    if (taken.kind == PieceKind::Queen) {
        s.irreversible = true;
        transcend(s, to, true, ev);
        return;
    }
    if (taken.kind == PieceKind::Knight) {
        s.irreversible = true;
        if (++s.knights_lost == 2) {
            finish(s, Status::WhiteWins, "both of the Ghost's rescued knights were captured", ev);
            return;
        }
    }
    if (mover.kind == PieceKind::Pawn && rank_of(to) == 7 && rank_of(from) != 7 &&
        !s.special_used && search_targets(s, to) != 0) {
        s.phase = Phase::SearchOffer;
        s.search_pawn = to;
        return;
    }
    finish_white_turn(s, ev);
}

// What a Search tells: where the pawn went.
Phrase searched(Square to) {
    return phrase(N_("{special}: the pawn goes back to {square}"),
                  {{"special", special_word("Search")}, {"square", to.name()}});
}

void assault(State& s, Sq bishop, Sq to, std::vector<Event>* ev) {
    const Bitboard block = bishop == sq_c1 ? queenside_block : kingside_block;
    const int df = file_of(to) - file_of(bishop), dr = rank_of(to);
    // Each piece keeps its recorded start square: an exchanged rook or bishop returns there.
    struct Lifted {
        Sq at;
        Piece piece;
        std::int8_t origin;
    };
    std::vector<Lifted> lifted;
    Bitboard b = block;
    while (b) {
        const Sq x = pop_lsb(b);
        lifted.push_back({make_sq(file_of(x) + df, rank_of(x) + dr),
                          s.board[static_cast<std::size_t>(x)],
                          s.origin[static_cast<std::size_t>(x)]});
        remove(s, x);
    }
    for (const auto& l : lifted) {
        put(s, l.piece, l.at);
        s.origin[static_cast<std::size_t>(l.at)] = l.origin;
    }
    s.full_nexus = false;
    s.special_used = true;
    s.irreversible = true;
    note(ev, EventKind::Special,
         phrase(N_("{special}: the block of six moves with the bishop to {square}"),
                {{"special", special_word("Assault")}, square_arg(to)}));
    finish_white_turn(s, ev);
}

} // namespace

void play(State& s, const Action& a, std::vector<Event>* ev) {
    assert(s.phase != Phase::Over);
    ++s.plies;
    const Sq from = a.from.valid() ? sq_of(a.from) : -1;
    const Sq to = a.to.valid() ? sq_of(a.to) : -1;
    if (a.kind == ActionKind::Move) {
        s.last_from = a.from;
        s.last_to = a.to;
    }
    switch (s.phase) {
    case Phase::Over:
        return;
    case Phase::Move:
        if (s.turn == Seat::White) {
            if (a.special == AssaultCode) {
                s.last_from = a.from;
                s.last_to = a.to;
                assault(s, from, to, ev);
            } else if (a.special == SearchCode) {
                move_piece(s, from, to);
                s.special_used = s.irreversible = true;
                s.last_from = a.from;
                s.last_to = a.to;
                note(ev, EventKind::Special, searched(a.to));
                finish_white_turn(s, ev);
            } else {
                play_white_move(s, a, ev);
            }
        } else if (a.special == HideCode) {
            s.hidden = s.black & chess::dark_squares;
            s.special_used = true;
            note(ev, EventKind::Special,
                 phrase(N_("{special}: the Ghost's pieces on dark squares cannot be captured next "
                           "turn"),
                        {{"special", special_word("Hide")}}));
            finish_black_turn(s, ev);
        } else if (a.special == TranscendCode) {
            transcend(s, from, false, ev);
        } else {
            play_black_move(s, from, to, ev);
        }
        return;
    case Phase::RescuePlace:
        place_knight(s, to, ev);
        after_rescue(s, ev);
        return;
    case Phase::RescueOffer:
        if (a.special == SkipCode) {
            after_rescue(s, ev);
            return;
        }
        s.rescue_to = to;
        if (chess::more_than_one(s.of(Seat::White, PieceKind::Knight))) {
            s.phase = Phase::KnightChoice;
            return;
        }
        exchange(s, lsb(s.of(Seat::White, PieceKind::Knight)), ev);
        return;
    case Phase::KnightChoice:
        exchange(s, from, ev);
        return;
    case Phase::Reaction:
        if (a.special == RespawnCode) {
            put(s, Piece{PieceKind::Pawn, Seat::White}, to);
            s.special_used = s.irreversible = true;
            note(ev, EventKind::Special,
                 phrase(N_("{special}: the pawn comes back on {square}"),
                        {{"special", special_word("Respawn")}, {"square", a.to.name()}}));
        } else if (a.kind == ActionKind::Move) {
            if (s.full_nexus && (bb(from) & nexus_squares))
                s.full_nexus = false;
            if (s.board[static_cast<std::size_t>(from)].kind == PieceKind::Pawn)
                s.irreversible = true;
            move_piece(s, from, to);
            s.locked = to;
            s.special_used = true;
            note(ev, EventKind::Special,
                 phrase(N_("{special}: the piece on {square} cannot move next turn"),
                        {{"special", special_word("Shadow Nexus move")}, {"square", a.to.name()}}));
        }
        finish_black_turn(s, ev);
        return;
    case Phase::SearchOffer:
        if (a.special == SearchCode) {
            move_piece(s, from, to);
            s.special_used = true;
            s.last_from = a.from; // the last move shown is where the pawn went, not its arrival
            s.last_to = a.to;
            note(ev, EventKind::Special, searched(a.to));
        }
        finish_white_turn(s, ev);
        return;
    case Phase::TranscendKnights:
        if (a.special == SkipCode) {
            resolve_transcend(s, ev);
            return;
        }
        move_piece(s, from, to);
        s.moved_knights = (s.moved_knights & ~bb(from)) | bb(to);
        continue_transcend(s, ev);
        return;
    }
}

namespace {

// One state and one action list per ply, reused: copying into a state that already holds a
// repetition history reuses its memory.
struct PerftFrame {
    State state;
    std::vector<Action> list;
};

std::uint64_t perft_from(const State& s, int depth, std::vector<PerftFrame>& frames) {
    if (s.phase == Phase::Over)
        return 0;
    if (depth == 1)
        return count_actions(s);
    PerftFrame& frame = frames[static_cast<std::size_t>(depth - 1)];
    legal_actions(s, frame.list);
    std::uint64_t nodes = 0;
    for (const Action& a : frame.list) {
        frame.state = s;
        play(frame.state, a, nullptr);
        assert(is_consistent(frame.state));
        nodes += perft_from(frame.state, depth - 1, frames);
    }
    return nodes;
}

} // namespace

std::uint64_t perft(const State& s, int depth) {
    if (depth <= 0)
        return 1;
    std::vector<PerftFrame> frames(static_cast<std::size_t>(depth));
    return perft_from(s, depth, frames);
}

bool is_consistent(const State& s) {
    Bitboard w = 0, b = 0;
    for (Sq x = 0; x < 64; ++x) {
        const Piece p = s.board[static_cast<std::size_t>(x)];
        if (p.kind == PieceKind::None)
            continue;
        (p.seat == Seat::White ? w : b) |= bb(x);
        if (p.seat == Seat::White && (p.kind == PieceKind::Queen || p.kind == PieceKind::King))
            return false;
        if (p.seat == Seat::Black && p.kind != PieceKind::Queen && p.kind != PieceKind::Knight)
            return false;
    }
    // Only a Paradigm pawn still on rank 2 may step two squares; a piece's way home is
    // remembered only for a white rook or bishop; a locked piece is one of the Paradigm's.
    if (s.home_pawns & ~(s.of(Seat::White, PieceKind::Pawn) & 0xFF00ULL))
        return false;
    for (Sq x = 0; x < 64; ++x) {
        const Piece p = s.board[static_cast<std::size_t>(x)];
        if (s.origin[static_cast<std::size_t>(x)] >= 0 &&
            (p.seat != Seat::White || (p.kind != PieceKind::Rook && p.kind != PieceKind::Bishop)))
            return false;
    }
    if (s.locked >= 0 && !(s.white & bb(s.locked)))
        return false;
    if ((s.phase == Phase::Over) != s.outcome.over())
        return false;
    const int black_knights = popcount(s.of(Seat::Black, PieceKind::Knight));
    const int white_knights = popcount(s.of(Seat::White, PieceKind::Knight));
    return w == s.white && b == s.black && popcount(s.of(Seat::Black, PieceKind::Queen)) <= 1 &&
           black_knights + white_knights + s.knights_lost <= 2 && s.knights_lost <= 2;
}

} // namespace ghostpost::rules::ghost
