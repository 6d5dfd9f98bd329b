// The Gnostic Chess state as data: the seed's square map and the multiplier table, the FEN
// dialect, the legal actions of a seat and their canonical texts.
#include "chess/position.h"
#include "gnostic.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <type_traits>

namespace ghostpost::rules::gnostic {
namespace {

using chess::bb;
using chess::Bitboard;
using chess::file_of;
using chess::make_sq;
using chess::rank_of;

// The seed's map, first printed row = rank 8 (rules-decisions: the only orientation in which
// every fixed square agrees with the ordinary chequer).
constexpr const char* square_map[8] = {
    "W*W**B*B", // rank 8
    "BW*WB*BW", // rank 7
    "WBW**BWB", // rank 6
    "********", // rank 5
    "********", // rank 4
    "BWB**WBW", // rank 3
    "WB*BW*WB", // rank 2
    "B*B**W*W", // rank 1
};

constexpr std::array<Tint, 5> track_tints{Tint::Dark100, Tint::Dark75, Tint::Neutral, Tint::Light75,
                                          Tint::Light100};

bool pawn_may_stand(PieceKind k, Sq s) {
    return k != PieceKind::Pawn || (rank_of(s) != 0 && rank_of(s) != 7);
}

Bitboard occupancy(const State& st, std::optional<Seat> seat = std::nullopt) {
    Bitboard b = 0;
    for (Sq s = 0; s < 64; ++s) {
        const Unit& u = st.board[static_cast<std::size_t>(s)];
        if (u.kind != PieceKind::None && (!seat || u.seat == *seat))
            b |= bb(s);
    }
    return b;
}

const Unit& at(const State& st, Sq s) {
    return st.board[static_cast<std::size_t>(s)];
}

bool has_caster(const State& st, Seat seat) {
    for (const Unit& u : st.board)
        if (u.kind == PieceKind::Queen && u.seat == seat && !u.imprisoned)
            return true;
    return false;
}

Action move_action(const State& st, Sq from, Sq to, PieceKind promotion = PieceKind::None) {
    Action a;
    a.kind = ActionKind::Move;
    a.piece = at(st, from).kind;
    a.from = chess::to_square(from);
    a.to = chess::to_square(to);
    a.promotion = promotion;
    return a;
}

Action spell_action(Spell s) {
    Action a;
    a.kind = ActionKind::Special;
    a.special = static_cast<std::uint8_t>(code::spell_base + static_cast<int>(s));
    return a;
}

// The actions are written to `out`: a list, or a Counter (perft's last ply), which takes the
// same actions and keeps only their number.
struct Counter {
    std::uint64_t n = 0;
    void push_back(const Action&) { ++n; }
};

template <class Out> void add_moves(const State& st, Out& out) {
    const Seat us = st.side;
    const Bitboard occ = occupancy(st);
    const Bitboard own = occupancy(st, us);
    const Bitboard enemy = occ & ~own;
    const int forward = us == Seat::White ? 8 : -8;
    const int last_rank = us == Seat::White ? 7 : 0;
    const int start_rank = us == Seat::White ? 1 : 6;
    auto pawn_to = [&](Sq from, Sq to) {
        if (rank_of(to) == last_rank) {
            for (PieceKind p :
                 {PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop, PieceKind::Knight})
                out.push_back(move_action(st, from, to, p));
        } else {
            out.push_back(move_action(st, from, to));
        }
    };
    for (Sq from = 0; from < 64; ++from) {
        const Unit& u = at(st, from);
        if (u.kind == PieceKind::None || u.seat != us || u.imprisoned)
            continue;
        if (u.kind == PieceKind::Pawn) {
            const Sq one = from + forward;
            if (!(occ & bb(one))) {
                pawn_to(from, one);
                const Sq two = one + forward;
                if (rank_of(from) == start_rank && !(occ & bb(two)))
                    pawn_to(from, two);
            }
            Bitboard hits = chess::attacks_of(PieceKind::Pawn, us, from, occ);
            for (Bitboard t = hits & enemy; t;)
                pawn_to(from, chess::pop_lsb(t));
            if (st.ep >= 0 && (hits & bb(st.ep)))
                out.push_back(move_action(st, from, st.ep));
            continue;
        }
        for (Bitboard t = chess::attacks_of(u.kind, us, from, occ) & ~own; t;)
            out.push_back(move_action(st, from, chess::pop_lsb(t)));
        if (u.kind == PieceKind::King) {
            // Castling without any condition about check (rules-decisions row 9).
            const int r = us == Seat::White ? 0 : 7;
            const auto short_right = us == Seat::White ? chess::WhiteShort : chess::BlackShort;
            const auto long_right = us == Seat::White ? chess::WhiteLong : chess::BlackLong;
            auto rook_ready = [&](int file) {
                const Unit& rook = at(st, make_sq(file, r));
                return rook.kind == PieceKind::Rook && rook.seat == us && !rook.imprisoned;
            };
            if (from == make_sq(4, r) && (st.castling & short_right) && rook_ready(7) &&
                !(occ & (bb(make_sq(5, r)) | bb(make_sq(6, r)))))
                out.push_back(move_action(st, from, make_sq(6, r)));
            if (from == make_sq(4, r) && (st.castling & long_right) && rook_ready(0) &&
                !(occ & (bb(make_sq(1, r)) | bb(make_sq(2, r)) | bb(make_sq(3, r)))))
                out.push_back(move_action(st, from, make_sq(2, r)));
        }
    }
}

template <class Out> void add_spells(const State& st, Out& out) {
    const Seat us = st.side;
    if (!has_caster(st, us))
        return;
    auto unused = [&](Spell s) {
        return !(st.spells_used[index(us)] & (1u << static_cast<int>(s)));
    };
    constexpr bool counting = std::is_same_v<Out, Counter>;
    if constexpr (counting) {
        // Teleport and Exchange are most of the list: counted by the squares, not one by one.
        if (unused(Spell::Teleport)) {
            const Bitboard empty = ~occupancy(st);
            const auto anywhere = static_cast<std::uint64_t>(chess::popcount(empty));
            const auto pawn_ranks = static_cast<std::uint64_t>(
                chess::popcount(empty & ~chess::rank_1 & ~(chess::rank_1 << 56)));
            for (const Unit& u : st.board)
                if (u.kind != PieceKind::None && u.seat == us && !u.imprisoned)
                    out.n += u.kind == PieceKind::Pawn ? pawn_ranks : anywhere;
        }
    }
    if (unused(Spell::Teleport) && !counting) {
        for (Sq from = 0; from < 64; ++from) {
            const Unit& u = at(st, from);
            if (u.kind == PieceKind::None || u.seat != us || u.imprisoned)
                continue;
            for (Sq to = 0; to < 64; ++to) {
                if (at(st, to).kind != PieceKind::None || !pawn_may_stand(u.kind, to))
                    continue;
                Action a = spell_action(Spell::Teleport);
                a.piece = u.kind;
                a.from = chess::to_square(from);
                a.to = chess::to_square(to);
                out.push_back(a);
            }
        }
    }
    if (unused(Spell::Heal)) {
        for (Sq s = 0; s < 64; ++s) {
            const Unit& u = at(st, s);
            if (u.kind != PieceKind::None && u.seat == us && u.damage > 0) {
                Action a = spell_action(Spell::Heal);
                a.piece = u.kind;
                a.from = chess::to_square(s);
                out.push_back(a);
            }
        }
    }
    if (unused(Spell::ShiftTime))
        out.push_back(spell_action(Spell::ShiftTime));
    if (unused(Spell::Exchange) && counting) {
        // The same pairs as below, visiting only the occupied squares.
        for (Bitboard first = occupancy(st); first;) {
            const Sq a = chess::pop_lsb(first);
            const Unit& ua = at(st, a);
            if (ua.imprisoned)
                continue;
            for (Bitboard second = first; second;) {
                const Sq b = chess::pop_lsb(second);
                const Unit& ub = at(st, b);
                if (ub.imprisoned || ub == ua || !pawn_may_stand(ua.kind, b) ||
                    !pawn_may_stand(ub.kind, a))
                    continue;
                out.push_back(Action{});
            }
        }
    }
    if (unused(Spell::Exchange) && !counting) {
        // Each pair once, the lower square first; notated_actions adds the other order as an
        // alias so that either order may be typed.
        for (Sq a = 0; a < 64; ++a) {
            const Unit& ua = at(st, a);
            if (ua.kind == PieceKind::None || ua.imprisoned)
                continue;
            for (Sq b = a + 1; b < 64; ++b) {
                const Unit& ub = at(st, b);
                if (ub.kind == PieceKind::None || ub.imprisoned || ub == ua)
                    continue;
                if (!pawn_may_stand(ua.kind, b) || !pawn_may_stand(ub.kind, a))
                    continue;
                Action x = spell_action(Spell::Exchange);
                x.from = chess::to_square(a);
                x.to = chess::to_square(b);
                out.push_back(x);
            }
        }
    }
    if (unused(Spell::Revive)) {
        Bitboard near = 0;
        for (Sq s = 0; s < 64; ++s) {
            const Unit& u = at(st, s);
            if (u.kind == PieceKind::Queen && u.seat == us && !u.imprisoned)
                near |= chess::tables().king[s];
        }
        near &= ~occupancy(st);
        for (PieceKind k : {PieceKind::Pawn, PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook,
                            PieceKind::Queen}) {
            if (st.dead[index(us)][static_cast<std::size_t>(k)] == 0)
                continue;
            for (Bitboard t = near; t;) {
                const Sq s = chess::pop_lsb(t);
                if (!pawn_may_stand(k, s))
                    continue;
                Action a = spell_action(Spell::Revive);
                a.piece = k;
                a.to = chess::to_square(s);
                out.push_back(a);
            }
        }
    }
    if (unused(Spell::Imprison)) {
        for (Sq s = 0; s < 64; ++s) {
            const Unit& u = at(st, s);
            if (u.kind != PieceKind::None && u.seat != us && !u.imprisoned) {
                Action a = spell_action(Spell::Imprison);
                a.piece = u.kind;
                a.to = chess::to_square(s);
                out.push_back(a);
            }
        }
    }
}

Action choice(std::uint8_t special, int number = 0) {
    Action a;
    a.kind = ActionKind::Choice;
    a.special = special;
    a.number = static_cast<std::int16_t>(number);
    return a;
}

std::optional<int> fighter_of(const State& st, Seat seat) {
    if (!st.combat)
        return std::nullopt;
    for (int i = 0; i < 2; ++i) {
        const Fighter& f = st.combat->fighters[static_cast<std::size_t>(i)];
        if (at(st, f.square).seat == seat)
            return i;
    }
    return std::nullopt;
}

std::string san(const State& st, const Action& a, const std::vector<Action>& legal) {
    const Sq from = chess::from_square(a.from);
    const Sq to = chess::from_square(a.to);
    if (a.piece == PieceKind::King && std::abs(file_of(from) - file_of(to)) == 2)
        return file_of(to) == 6 ? "O-O" : "O-O-O";
    const bool capture =
        at(st, to).kind != PieceKind::None ||
        (a.piece == PieceKind::Pawn && to == st.ep && file_of(from) != file_of(to));
    std::string out;
    if (a.piece == PieceKind::Pawn) {
        if (capture)
            out += static_cast<char>('a' + file_of(from));
    } else {
        out += piece_letter(a.piece);
        bool same_file = false, same_rank = false, other = false;
        for (const Action& b : legal) {
            if (b.kind != ActionKind::Move || b.piece != a.piece || b.to != a.to ||
                b.from == a.from)
                continue;
            other = true;
            same_file = same_file || b.from.file == a.from.file;
            same_rank = same_rank || b.from.rank == a.from.rank;
        }
        if (other) {
            if (!same_file)
                out += static_cast<char>('a' + a.from.file);
            else if (!same_rank)
                out += static_cast<char>('1' + a.from.rank);
            else
                out += a.from.name();
        }
    }
    if (capture)
        out += 'x';
    out += a.to.name();
    if (a.promotion != PieceKind::None) {
        out += '=';
        out += piece_letter(a.promotion);
    }
    return out;
}

} // namespace

std::string_view spell_name(Spell s) {
    switch (s) {
    case Spell::Teleport:
        return "Teleport";
    case Spell::Heal:
        return "Heal";
    case Spell::ShiftTime:
        return "Shift Time";
    case Spell::Exchange:
        return "Exchange";
    case Spell::Revive:
        return "Revive";
    case Spell::Imprison:
        return "Imprison";
    }
    return "";
}

char square_kind(Sq s) {
    return square_map[7 - rank_of(s)][file_of(s)];
}

Tint shade(Sq s, int track) {
    switch (square_kind(s)) {
    case 'W':
        return Tint::Light100;
    case 'B':
        return Tint::Dark100;
    default:
        return track_tints[static_cast<std::size_t>(track)];
    }
}

int conventional_value(PieceKind k) {
    switch (k) {
    case PieceKind::Pawn:
        return 1;
    case PieceKind::Knight:
        return 3;
    case PieceKind::Bishop:
        return 3;
    case PieceKind::Rook:
        return 5;
    case PieceKind::Queen:
        return 9;
    case PieceKind::King:
        return 10;
    default:
        return 0;
    }
}

int full_hp(PieceKind k, Seat seat, Tint t) {
    // The multiplier in quarters, from the light side's point of view; the dark side mirrors it.
    int quarters = 4;
    switch (t) {
    case Tint::Light100:
        quarters = 8;
        break;
    case Tint::Light75:
        quarters = 6;
        break;
    case Tint::Dark75:
        quarters = 3;
        break;
    case Tint::Dark100:
        quarters = 2;
        break;
    default:
        break;
    }
    if (seat == Seat::Black && quarters != 4)
        quarters = quarters == 8 ? 2 : quarters == 6 ? 3 : quarters == 3 ? 6 : 8;
    return (10 * conventional_value(k) * quarters + 2) / 4;
}

int effective_hp(const State& st, Sq s) {
    const Unit& u = at(st, s);
    return full_hp(u.kind, u.seat, shade(s, st.track)) - u.damage;
}

std::string unit_name(const Unit& u) {
    return unit_phrase(u).english();
}

Phrase unit_phrase(const Unit& u) {
    // TRANSLATORS: a piece of a side, as in "White knight".
    return phrase(N_("{seat} {piece}"),
                  {{"seat", seat_word(u.seat)}, {"piece", piece_word(u.kind)}});
}

Phrase dice_words(int n) {
    // TRANSLATORS: a number of dice from 1 to 10, as in "White rolls 3 dice".
    return phrase(N_("{count, plural, one {# die} other {# dice}}"),
                  {{"count", std::to_string(n)}});
}

Phrase points_phrase(const Fighter& f) {
    return phrase(N_("{banked} banked + {turn} this turn of {target}"),
                  {{"banked", std::to_string(f.banked)},
                   {"turn", std::to_string(f.turn)},
                   {"target", std::to_string(f.target)}});
}

Phrase dice_decision(const State& st, const Fighter& f) {
    const Unit& u = at(st, f.square);
    const int cv = conventional_value(u.kind);
    // The typed answers: "roll 1", "roll 1 to roll 5", and ", or hold" once a turn has points.
    std::variant<std::string, Phrase> choices = std::string("roll 1");
    if (cv > 1)
        // TRANSLATORS: what a player may type in a combat, "roll 1" to "roll 5"; keep "roll".
        choices = phrase(N_("roll 1 to roll {dice}"), {{"dice", std::to_string(cv)}});
    if (f.turn > 0)
        // TRANSLATORS: what a player may type in a combat, as in "roll 1 to roll 5, or hold";
        // keep "hold".
        choices = phrase(N_("{choices}, or hold"), {{"choices", std::move(choices)}});
    return phrase(N_("choose by direct message the dice of their {piece} in the combat on "
                     "{square}: {choices} (it has {points})"),
                  {{"piece", piece_word(u.kind)},
                   {"square", sq_name(st.combat->contested)},
                   {"choices", std::move(choices)},
                   {"points", points_phrase(f)}});
}

std::vector<Decision> decisions(const State& st) {
    std::vector<Decision> out;
    if (!st.combat)
        return {Decision{st.side, "move"}};
    const Combat& c = *st.combat;
    for (const Fighter& f : c.fighters) {
        if (!f.active || f.commit)
            continue;
        Phrase said = dice_decision(st, f);
        std::string what = said.english();
        out.push_back(Decision{at(st, f.square).seat, std::move(what), std::move(said)});
    }
    return out;
}

std::vector<Action> legal_actions(const State& st, Seat seat) {
    std::vector<Action> out;
    if (st.combat) {
        auto i = fighter_of(st, seat);
        if (!i)
            return out;
        const Fighter& f = st.combat->fighters[static_cast<std::size_t>(*i)];
        if (!f.active || f.commit)
            return out;
        const int cv = conventional_value(at(st, f.square).kind);
        for (int n = 1; n <= cv; ++n)
            out.push_back(choice(code::roll, n));
        if (f.turn > 0)
            out.push_back(choice(code::hold));
        return out;
    }
    if (seat != st.side)
        return out;
    add_moves(st, out);
    add_spells(st, out);
    if (out.empty()) {
        Action pass;
        pass.kind = ActionKind::Pass;
        out.push_back(pass);
    }
    return out;
}

std::uint64_t count_legal_actions(const State& st, Seat seat) {
    if (st.combat)
        return legal_actions(st, seat).size();
    if (seat != st.side)
        return 0;
    Counter out;
    add_moves(st, out);
    add_spells(st, out);
    return out.n == 0 ? 1 : out.n; // a side without any action passes
}

std::string action_text(const State& st, const Action& a, const std::vector<Action>& legal) {
    switch (a.kind) {
    case ActionKind::Move:
        return san(st, a, legal);
    case ActionKind::Pass:
        return "pass";
    case ActionKind::Choice:
        if (a.special == code::roll)
            return "roll " + std::to_string(a.number);
        if (a.special == code::hold)
            return "hold";
        return anytime_text(a);
    case ActionKind::Special:
        break;
    case ActionKind::Drop:
        return "?";
    }
    const Spell s = static_cast<Spell>(a.special - code::spell_base);
    std::string out(spell_name(s));
    switch (s) {
    case Spell::Teleport:
    case Spell::Exchange:
        return out + " " + a.from.name() + "-" + a.to.name();
    case Spell::Heal:
        return out + " " + a.from.name();
    case Spell::ShiftTime:
        return out;
    case Spell::Revive:
        return out + " " + piece_letter(a.piece) + a.to.name();
    case Spell::Imprison:
        return out + " " + a.to.name();
    }
    return out;
}

std::string anytime_text(const Action& a) {
    if (a.special == code::policy)
        return "policy roll " + std::to_string(a.number / 1000) + " hold " +
               std::to_string(a.number % 1000);
    if (a.special == code::policy_off)
        return "policy off";
    return "default";
}

Action policy_choice(const State& st, Seat seat) {
    const Policy p = st.policy[index(seat)].value_or(Policy{});
    const auto i = fighter_of(st, seat);
    const Fighter& f = st.combat->fighters[static_cast<std::size_t>(*i)];
    if (f.turn > 0 && f.turn >= p.hold)
        return choice(code::hold);
    const int cv = conventional_value(at(st, f.square).kind);
    return choice(code::roll, std::min(p.dice, cv));
}

std::string position_key(const State& st) {
    std::string key;
    key.reserve(64 * 4 + 40);
    for (const Unit& u : st.board) {
        if (u.kind == PieceKind::None) {
            key += '.';
            continue;
        }
        char c = piece_letter(u.kind);
        key += u.seat == Seat::White ? c : static_cast<char>(c - 'A' + 'a');
        if (u.damage)
            key += std::to_string(u.damage) + ';';
        if (u.imprisoned)
            key += '!';
    }
    key += st.side == Seat::White ? 'w' : 'b';
    key += static_cast<char>('0' + st.castling);
    // The en passant square counts only when a pawn could take it, as in FIDE.
    if (st.ep >= 0) {
        const Seat them = opponent(st.side);
        Bitboard takers = chess::tables().pawn[index(them)][st.ep];
        for (Bitboard t = takers; t;) {
            const Unit& u = at(st, chess::pop_lsb(t));
            if (u.kind == PieceKind::Pawn && u.seat == st.side && !u.imprisoned) {
                key += "e" + sq_name(st.ep);
                break;
            }
        }
    }
    key += track_letter(st.track);
    key += st.direction < 0 ? 'd' : 'l';
    key += static_cast<char>('a' + st.spells_used[0]);
    key += static_cast<char>('a' + st.spells_used[1]);
    for (const auto& side : st.dead)
        for (auto n : side)
            key += static_cast<char>('0' + n);
    return key;
}

// ---- FEN dialect ----------------------------------------------------------------------------

std::string read_fen(State& st, std::string_view fen) {
    auto out = read_checked(fen, fen_shape, state_from_setup);
    if (!out)
        return out.first_reason();
    st = std::move(out).value();
    return {};
}

Checked<State> state_from_setup(const Setup& setup) {
    if (setup.files != 8 || setup.ranks != 8)
        return std::vector<std::string>{"the placement must have 8 ranks of 8 squares"};
    State out;
    out.board = {};
    std::vector<std::string> reasons;
    auto tell = [&reasons](std::string why) { tell_once(reasons, std::move(why)); };
    for (int rank = 7; rank >= 0; --rank)
        for (int file = 0; file < 8; ++file) {
            const char c = setup.at(file, rank);
            if (c == '\0')
                continue;
            const Piece p = Setup::piece_of(c);
            if (conventional_value(p.kind) == 0) {
                tell(std::string("cannot read '") + c + "' in the placement");
                continue;
            }
            out.board[static_cast<std::size_t>(make_sq(file, rank))] =
                Unit{p.kind, p.seat, 0, false};
        }
    for (Seat s : {Seat::White, Seat::Black}) {
        int kings = 0;
        for (const Unit& u : out.board)
            kings += u.kind == PieceKind::King && u.seat == s;
        if (kings != 1)
            tell("each side needs exactly one king");
    }
    for (Sq s = 0; s < 64; ++s)
        if (!pawn_may_stand(out.board[static_cast<std::size_t>(s)].kind, s))
            tell("a pawn stands on " + sq_name(s));
    out.side = setup.side;
    // The FIDE fields come first; the dialect's own fields are key=value, after them.
    std::vector<std::string> standard, extra;
    for (const std::string& field : setup.fields)
        (standard.size() < 2 ||
                 (extra.empty() && field.find('=') == std::string::npos && standard.size() < 4)
             ? standard
             : extra)
            .push_back(field);
    auto fields = read_standard_fields(standard);
    if (!fields) {
        tell(fields.error().message);
    } else {
        out.castling = fields->castling;
        // A right stays only where its king and rook stand at home, as in the chess core.
        auto home = [&](Sq s, PieceKind k, Seat seat) {
            const Unit& u = out.board[static_cast<std::size_t>(s)];
            return u.kind == k && u.seat == seat;
        };
        if (!home(4, PieceKind::King, Seat::White) || !home(7, PieceKind::Rook, Seat::White))
            out.castling &= static_cast<std::uint8_t>(~chess::WhiteShort);
        if (!home(4, PieceKind::King, Seat::White) || !home(0, PieceKind::Rook, Seat::White))
            out.castling &= static_cast<std::uint8_t>(~chess::WhiteLong);
        if (!home(60, PieceKind::King, Seat::Black) || !home(63, PieceKind::Rook, Seat::Black))
            out.castling &= static_cast<std::uint8_t>(~chess::BlackShort);
        if (!home(60, PieceKind::King, Seat::Black) || !home(56, PieceKind::Rook, Seat::Black))
            out.castling &= static_cast<std::uint8_t>(~chess::BlackLong);
        if (fields->ep) {
            if (fields->ep->rank != (out.side == Seat::White ? 5 : 2))
                tell("cannot read the en passant square " + fields->ep->name());
            else
                out.ep = chess::from_square(*fields->ep);
        }
        out.halfmove = fields->halfmove;
        out.fullmove = fields->fullmove;
    }

    auto split = [](const std::string& s, char sep) {
        std::vector<std::string> parts;
        std::string part;
        std::istringstream ps(s);
        while (std::getline(ps, part, sep))
            parts.push_back(part);
        return parts;
    };
    for (const std::string& field : extra) {
        const auto eq = field.find('=');
        const std::string key = field.substr(0, eq), value = field.substr(eq + 1);
        if (key == "track") {
            if (value.size() != 2 || value[0] < 'A' || value[0] > 'E' ||
                (value[1] != 'd' && value[1] != 'l')) {
                tell("track= needs a position A-E and a direction d or l, like track=Cd");
                continue;
            }
            out.track = value[0] - 'A';
            out.direction = value[1] == 'd' ? -1 : 1;
            if ((out.track == 0 && out.direction < 0) || (out.track == 4 && out.direction > 0))
                tell("the track cannot move past its end");
        } else if (key == "used" || key == "dead") {
            const auto sides = split(value, '/');
            if (sides.size() != 2) {
                tell(key + "= needs two lists separated by /");
                continue;
            }
            for (std::size_t i = 0; i < 2; ++i) {
                if (sides[i] == "-")
                    continue;
                for (char c : sides[i]) {
                    if (key == "used") {
                        const char* p = std::strchr(spell_letters, c);
                        if (p == nullptr || c == '\0') {
                            tell(std::string("cannot read spell letter '") + c + "'");
                            continue;
                        }
                        out.spells_used[i] |= static_cast<std::uint8_t>(1u << (p - spell_letters));
                    } else {
                        const PieceKind k = piece_from_letter(c);
                        if (conventional_value(k) == 0 || k == PieceKind::King) {
                            tell(std::string("cannot read dead piece '") + c + "'");
                            continue;
                        }
                        ++out.dead[i][static_cast<std::size_t>(k)];
                    }
                }
            }
        } else if (key == "damage" || key == "jail") {
            for (const std::string& item : split(value, ',')) {
                const auto colon = item.find(':');
                auto sq = parse_square(item.substr(0, colon));
                if (!sq || out.board[static_cast<std::size_t>(chess::from_square(*sq))].kind ==
                               PieceKind::None) {
                    tell(key + "= names " + item + ", which is not a square with a piece");
                    continue;
                }
                Unit& u = out.board[static_cast<std::size_t>(chess::from_square(*sq))];
                if (key == "jail") {
                    u.imprisoned = true;
                    continue;
                }
                try {
                    u.damage = colon == std::string::npos ? -1 : std::stoi(item.substr(colon + 1));
                } catch (const std::exception&) {
                    u.damage = -1;
                }
                if (u.damage < 0 || u.damage > 200) {
                    tell("damage= needs square:points, like damage=e4:5");
                    u.damage = 0;
                }
            }
        } else {
            tell("unknown field " + field + " (known: track=, used=, dead=, damage=, jail=)");
        }
    }
    if (!reasons.empty())
        return reasons;
    return out;
}

bool is_consistent(const State& st) {
    int kings[2] = {0, 0};
    for (Sq s = 0; s < 64; ++s) {
        const Unit& u = st.board[static_cast<std::size_t>(s)];
        if (u.kind == PieceKind::None) {
            if (u.damage != 0 || u.imprisoned)
                return false;
            continue;
        }
        if (conventional_value(u.kind) == 0 || u.damage < 0 || u.damage > 200 ||
            !pawn_may_stand(u.kind, s))
            return false;
        kings[index(u.seat)] += u.kind == PieceKind::King;
    }
    if (kings[0] > 1 || kings[1] > 1)
        return false;
    // A castling right stands only while its king and rook are at home.
    auto home = [&](Sq s, PieceKind k, Seat seat) {
        const Unit& u = st.board[static_cast<std::size_t>(s)];
        return u.kind == k && u.seat == seat;
    };
    if (st.castling > 15 ||
        ((st.castling & chess::WhiteShort) &&
         (!home(4, PieceKind::King, Seat::White) || !home(7, PieceKind::Rook, Seat::White))) ||
        ((st.castling & chess::WhiteLong) &&
         (!home(4, PieceKind::King, Seat::White) || !home(0, PieceKind::Rook, Seat::White))) ||
        ((st.castling & chess::BlackShort) &&
         (!home(60, PieceKind::King, Seat::Black) || !home(63, PieceKind::Rook, Seat::Black))) ||
        ((st.castling & chess::BlackLong) &&
         (!home(60, PieceKind::King, Seat::Black) || !home(56, PieceKind::Rook, Seat::Black))))
        return false;
    if (st.ep != -1 && (st.ep < 0 || st.ep > 63 || (rank_of(st.ep) != 2 && rank_of(st.ep) != 5)))
        return false;
    if (st.halfmove < 0 || st.fullmove < 1)
        return false;
    // The track moves between A and E and turns at its ends.
    if (st.track < 0 || st.track > 4 || (st.direction != -1 && st.direction != 1) ||
        (st.track == 0 && st.direction < 0) || (st.track == 4 && st.direction > 0))
        return false;
    for (Seat s : {Seat::White, Seat::Black}) {
        if (st.spells_used[index(s)] >= (1u << spell_count))
            return false;
        if (const auto& p = st.policy[index(s)];
            p && (p->dice < 1 || p->dice > 10 || p->hold < 1 || p->hold > max_hold))
            return false;
    }
    if (st.combat) {
        // The attacker is the mover's piece, the defender the other side's, both on the board.
        const Unit& attacker = at(st, st.combat->fighters[0].square);
        const Unit& defender = at(st, st.combat->fighters[1].square);
        if (attacker.kind == PieceKind::None || defender.kind == PieceKind::None ||
            attacker.seat != st.side || defender.seat == st.side || st.combat->round < 1)
            return false;
        for (const Fighter& f : st.combat->fighters)
            if (f.banked < 0 || f.turn < 0 || f.target < 0)
                return false;
    }
    return true;
}

std::string write_fen(const State& st) {
    std::string out;
    for (int r = 7; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < 8; ++f) {
            const Unit& u = at(st, make_sq(f, r));
            if (u.kind == PieceKind::None) {
                ++empty;
                continue;
            }
            if (empty)
                out += static_cast<char>('0' + empty);
            empty = 0;
            const char c = piece_letter(u.kind);
            out += u.seat == Seat::White ? c : static_cast<char>(c - 'A' + 'a');
        }
        if (empty)
            out += static_cast<char>('0' + empty);
        if (r)
            out += '/';
    }
    out += st.side == Seat::White ? " w " : " b ";
    std::string castle;
    if (st.castling & chess::WhiteShort)
        castle += 'K';
    if (st.castling & chess::WhiteLong)
        castle += 'Q';
    if (st.castling & chess::BlackShort)
        castle += 'k';
    if (st.castling & chess::BlackLong)
        castle += 'q';
    out += castle.empty() ? "-" : castle;
    out += ' ' + (st.ep >= 0 ? sq_name(st.ep) : "-");
    out += ' ' + std::to_string(st.halfmove) + ' ' + std::to_string(st.fullmove);
    out += std::string(" track=") + track_letter(st.track) + (st.direction < 0 ? 'd' : 'l');
    if (st.spells_used[0] || st.spells_used[1]) {
        out += " used=";
        for (int i = 0; i < 2; ++i) {
            std::string letters;
            for (int s = 0; s < spell_count; ++s)
                if (st.spells_used[static_cast<std::size_t>(i)] & (1u << s))
                    letters += spell_letters[s];
            out += (letters.empty() ? "-" : letters) + (i == 0 ? "/" : "");
        }
    }
    bool any_dead = false;
    for (const auto& side : st.dead)
        for (auto n : side)
            any_dead = any_dead || n > 0;
    if (any_dead) {
        out += " dead=";
        for (int i = 0; i < 2; ++i) {
            std::string letters;
            for (std::size_t k = 1; k < 7; ++k)
                letters += std::string(st.dead[static_cast<std::size_t>(i)][k],
                                       piece_letter(static_cast<PieceKind>(k)));
            out += (letters.empty() ? "-" : letters) + (i == 0 ? "/" : "");
        }
    }
    std::string damage, jail;
    for (Sq s = 0; s < 64; ++s) {
        const Unit& u = at(st, s);
        if (u.damage)
            damage += (damage.empty() ? "" : ",") + sq_name(s) + ":" + std::to_string(u.damage);
        if (u.imprisoned)
            jail += (jail.empty() ? "" : ",") + sq_name(s);
    }
    if (!damage.empty())
        out += " damage=" + damage;
    if (!jail.empty())
        out += " jail=" + jail;
    return out;
}

} // namespace ghostpost::rules::gnostic
