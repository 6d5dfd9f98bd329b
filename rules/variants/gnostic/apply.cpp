// How Gnostic Chess actions change the state: moves (a move onto an enemy starts a HyperPig
// combat instead of capturing), the rounds of a combat with their hidden choices, the Queen's
// spells, and the end of a turn (track step, prisons released).
#include "chess/position.h"
#include "gnostic.h"

#include <algorithm>

namespace ghostpost::rules::gnostic {
namespace {

using chess::file_of;
using chess::make_sq;
using chess::rank_of;

Unit& at(State& st, Sq s) {
    return st.board[static_cast<std::size_t>(s)];
}

// Which castling rights a square being vacated, entered or changed takes away.
std::uint8_t rights_lost(Sq s) {
    switch (s) {
    case 0:
        return chess::WhiteLong;
    case 7:
        return chess::WhiteShort;
    case 4:
        return chess::WhiteShort | chess::WhiteLong;
    case 56:
        return chess::BlackLong;
    case 63:
        return chess::BlackShort;
    case 60:
        return chess::BlackShort | chess::BlackLong;
    default:
        return 0;
    }
}

void touch(State& st, Sq s) {
    st.castling &= static_cast<std::uint8_t>(~rights_lost(s));
}

void kill(State& st, Sq s) {
    Unit& u = at(st, s);
    if (u.kind != PieceKind::King)
        ++st.dead[index(u.seat)][static_cast<std::size_t>(u.kind)];
    touch(st, s);
    u = Unit{};
}

void release_prisoners(State& st, Log& log) {
    for (Sq s = 0; s < 64; ++s) {
        Unit& u = at(st, s);
        // Each side's own extreme: E for the light (White) side, A for the dark (Black) side.
        const int own_extreme = u.seat == Seat::White ? 4 : 0;
        if (u.imprisoned && st.track == own_extreme) {
            u.imprisoned = false;
            log.add([&] {
                return public_event(
                    EventKind::Special,
                    phrase(N_("the track reached {track}: the {unit} on {square} is free again"),
                           {{"track", std::string(1, track_letter(st.track))},
                            {"unit", unit_phrase(u)},
                            {"square", sq_name(s)}}));
            });
        }
    }
}

Phrase track_line(const State& st) {
    return phrase(N_("the track moves to {track}, next toward {direction}"),
                  {{"track", std::string(1, track_letter(st.track))},
                   {"direction", direction_word(st.direction)}});
}

// After the mover's decision is complete: the clocks, the track after a full round, the turn.
void end_turn(State& st, Log& log) {
    if (st.side == Seat::Black) {
        ++st.fullmove;
        st.track += st.direction;
        if (st.track == 0 || st.track == 4)
            st.direction = -st.direction; // bounce at either end
        log.add([&] { return public_event(EventKind::Note, track_line(st)); });
        release_prisoners(st, log);
    }
    st.side = opponent(st.side);
}

// The attacking move lands: the piece goes to its square (en passant: the passed pawn is already
// gone), promotion included; the castling rights of the squares touched go.
void land(State& st, const chess::Move& m, Sq rook_from = -1, Sq rook_to = -1) {
    Unit mover = at(st, m.from);
    at(st, m.from) = Unit{};
    if (m.type == chess::MoveType::Promotion)
        mover.kind = m.piece;
    at(st, m.to) = mover;
    if (rook_from >= 0) {
        at(st, rook_to) = at(st, rook_from);
        at(st, rook_from) = Unit{};
    }
    touch(st, m.from);
    touch(st, m.to);
}

void finish_combat(State& st, int winner, Log& log) {
    Combat c = *st.combat;
    st.combat.reset();
    Fighter& att = c.fighters[0];
    Fighter& def = c.fighters[1];
    // The fighters as they were before the combat changes the board, for the event's words.
    const Unit attacker_unit = at(st, att.square), defender_unit = at(st, def.square);
    const Sq contested = c.contested;
    // The loser's turn ends with the combat and counts as held: its points are damage.
    if (winner == 0) {
        at(st, att.square).damage += def.banked + def.turn;
        kill(st, def.square);
        land(st, c.move);
        log.add([&] {
            return public_event(
                EventKind::Special,
                phrase(N_("the {winner} wins the combat on {square} and kills the {loser}"),
                       {{"winner", unit_phrase(attacker_unit)},
                        {"square", sq_name(contested)},
                        {"loser", unit_phrase(defender_unit)}}));
        });
    } else if (winner == 1) {
        at(st, def.square).damage += att.banked + att.turn;
        kill(st, att.square);
        log.add([&] {
            return public_event(EventKind::Special,
                                phrase(N_("the {winner} wins the combat on {square} and kills the "
                                          "attacking {loser}"),
                                       {{"winner", unit_phrase(defender_unit)},
                                        {"square", sq_name(contested)},
                                        {"loser", unit_phrase(attacker_unit)}}));
        });
    } else {
        kill(st, att.square);
        kill(st, def.square);
        log.add([&] {
            return public_event(
                EventKind::Special,
                phrase(N_("the combat on {square} is a draw: the {attacker} and the {defender} are "
                          "both killed"),
                       {{"square", sq_name(contested)},
                        {"attacker", unit_phrase(attacker_unit)},
                        {"defender", unit_phrase(defender_unit)}}));
        });
    }
    st.halfmove = 0;
    st.ep = -1;
    end_turn(st, log);
}

chess::Move to_move(const State& st, const Action& a) {
    chess::Move m;
    m.from = static_cast<std::uint8_t>(chess::from_square(a.from));
    m.to = static_cast<std::uint8_t>(chess::from_square(a.to));
    m.piece = a.promotion;
    if (a.promotion != PieceKind::None)
        m.type = chess::MoveType::Promotion;
    else if (a.piece == PieceKind::King && std::abs(a.from.file - a.to.file) == 2)
        m.type = chess::MoveType::Castle;
    else if (a.piece == PieceKind::Pawn && m.to == st.ep && a.from.file != a.to.file)
        m.type = chess::MoveType::EnPassant;
    return m;
}

void start_combat(State& st, const chess::Move& m, Log& log) {
    Combat c;
    c.move = m;
    c.contested = m.type == chess::MoveType::EnPassant
                      ? (st.side == Seat::White ? m.to - 8 : m.to + 8)
                      : m.to;
    // Both fighters' hit points are counted on the defender's square (rules-decisions row 2).
    const Tint t = shade(c.contested, st.track);
    auto hp = [&](Sq s) {
        const Unit& u = st.board[static_cast<std::size_t>(s)];
        return full_hp(u.kind, u.seat, t) - u.damage;
    };
    const int hp_att = hp(m.from), hp_def = hp(c.contested);
    c.fighters[0] = Fighter{m.from, hp_def, 0, 0, true, std::nullopt};
    c.fighters[1] = Fighter{c.contested, hp_att, 0, 0, true, std::nullopt};
    const Unit att = st.board[m.from], def = st.board[static_cast<std::size_t>(c.contested)];
    st.combat = c;
    log.add([&] {
        return public_event(
            EventKind::Note,
            phrase(N_("combat on {square}: the {attacker} ({attacker_hp} HP) needs {defender_hp} "
                      "points, the {defender} ({defender_hp} HP) needs {attacker_hp}"),
                   {{"square", sq_name(c.contested)},
                    {"attacker", unit_phrase(att)},
                    {"attacker_hp", std::to_string(hp_att)},
                    {"defender_hp", std::to_string(hp_def)},
                    {"defender", unit_phrase(def)}}));
    });
    // A piece already at 0 HP or less on this square loses without a roll.
    if (hp_att <= 0 || hp_def <= 0)
        finish_combat(st, hp_att <= 0 && hp_def <= 0 ? 2 : hp_att <= 0 ? 1 : 0, log);
}

void play_move(State& st, const Action& a, Log& log) {
    const chess::Move m = to_move(st, a);
    st.last_from = m.from;
    st.last_to = m.to;
    const bool attack =
        at(st, m.to).kind != PieceKind::None || m.type == chess::MoveType::EnPassant;
    if (attack) {
        start_combat(st, m, log);
        return;
    }
    const bool pawn = a.piece == PieceKind::Pawn;
    Sq rook_from = -1, rook_to = -1;
    if (m.type == chess::MoveType::Castle) {
        const int r = rank_of(m.from);
        rook_from = make_sq(file_of(m.to) == 6 ? 7 : 0, r);
        rook_to = make_sq(file_of(m.to) == 6 ? 5 : 3, r);
    }
    land(st, m, rook_from, rook_to);
    st.ep = pawn && std::abs(m.to - m.from) == 16 ? (m.from + m.to) / 2 : -1;
    st.halfmove = pawn ? 0 : st.halfmove + 1;
    end_turn(st, log);
}

// Both choices are in: reveal them, roll, and see who reached the target.
void resolve_round(State& st, RandomSource& rng, Log& log) {
    Combat& c = *st.combat;
    // Words of each event of the round (made only when the log keeps them).
    auto square = [&] { return Phrase::Arg{"square", sq_name(c.contested)}; };
    auto round = [&] { return Phrase::Arg{"round", std::to_string(c.round)}; };
    log.add([&] {
        std::optional<Phrase> reveal;
        for (const Fighter& f : c.fighters) {
            if (!f.active)
                continue;
            const Unit& u = st.board[static_cast<std::size_t>(f.square)];
            const Phrase::Arg seat{"seat", seat_word(u.seat)};
            Phrase one = *f.commit == 0 ? phrase(N_("{seat} holds"), {seat})
                                        : phrase(N_("{seat} rolls {dice}"),
                                                 {seat, {"dice", dice_words(*f.commit)}});
            reveal = reveal ? phrase(N_("{first}, {second}"), {{"first", *reveal}, {"second", one}})
                            : one;
        }
        return public_event(EventKind::Reveal,
                            phrase(N_("combat on {square}, round {round}: {choices}"),
                                   {square(),
                                    round(),
                                    {"choices", reveal ? std::variant<std::string, Phrase>(*reveal)
                                                       : std::string()}}));
    });
    // The attacker's dice are drawn first, then the defender's: the order !verify replays.
    for (Fighter& f : c.fighters) {
        if (!f.active)
            continue;
        const Unit& u = st.board[static_cast<std::size_t>(f.square)];
        auto who = [&] { return Phrase::Arg{"unit", unit_phrase(u)}; };
        if (*f.commit == 0) {
            f.banked += f.turn;
            f.turn = 0;
            f.active = false;
            log.add([&] {
                return public_event(
                    EventKind::Roll,
                    phrase(N_("combat on {square}, round {round}: the {unit} holds: "
                              "{points}"),
                           {square(), round(), who(), {"points", points_phrase(f)}}));
            });
            continue;
        }
        std::string faces;
        int sum = 0;
        bool bust = false;
        for (int i = 0; i < *f.commit; ++i) {
            const int face = static_cast<int>(rng.uniform(6)) + 1;
            if (!log.quiet)
                faces += (i ? " " : "") + std::to_string(face);
            sum += face;
            bust = bust || face == 1;
        }
        if (bust) {
            f.turn = 0;
            f.active = false;
        } else {
            f.turn += sum;
        }
        log.add([&] {
            const Phrase::Arg rolled{"faces", faces};
            const Phrase::Arg points{"points", points_phrase(f)};
            return public_event(
                EventKind::Roll,
                bust ? phrase(N_("combat on {square}, round {round}: the {unit} rolls {faces}, a 1 "
                                 "loses the turn: {points}"),
                              {square(), round(), who(), rolled, points})
                     : phrase(N_("combat on {square}, round {round}: the {unit} rolls {faces} = "
                                 "{sum}: {points}"),
                              {square(),
                               round(),
                               who(),
                               rolled,
                               {"sum", std::to_string(sum)},
                               points}));
        });
    }
    for (Fighter& f : c.fighters)
        f.commit.reset();
    const bool reached0 = c.fighters[0].banked + c.fighters[0].turn >= c.fighters[0].target;
    const bool reached1 = c.fighters[1].banked + c.fighters[1].turn >= c.fighters[1].target;
    if (reached0 || reached1) {
        finish_combat(st, reached0 && reached1 ? 2 : reached0 ? 0 : 1, log);
        return;
    }
    ++c.round;
    if (!c.fighters[0].active && !c.fighters[1].active) {
        // Both turns ended: a new turn for both.
        for (Fighter& f : c.fighters) {
            f.active = true;
            f.turn = 0;
        }
    }
}

// Whether the running combat makes `f`'s choice without its owner: a standing policy is set,
// or the piece has one legal answer (a pawn at the start of its turn can only roll 1 die).
bool automatic(const State& st, const Fighter& f) {
    const Unit& u = st.board[static_cast<std::size_t>(f.square)];
    return st.policy[index(u.seat)].has_value() || (conventional_value(u.kind) == 1 && f.turn == 0);
}

int choice_value(const Action& a) {
    return a.special == code::hold ? 0 : a.number;
}

// Correspondence pace (docs/variants/gnostic.md): a round waits only for choices someone must
// really make. Whatever is automatic is made as soon as the round needs it; when every choice
// of a round is, the round is rolled at once, and so on to the end of the combat. A choice
// made while the other side must still choose is told only to its owner, like a typed one.
// The cap only guards against a broken random source that never lets a combat end.
void automatic_choices(State& st, RandomSource& rng, Log& log) {
    for (int rounds = 0; st.combat && rounds < 10000; ++rounds) {
        Combat& c = *st.combat;
        std::vector<Fighter*> waiting, ready;
        for (Fighter& f : c.fighters) {
            if (!f.active || f.commit)
                continue;
            waiting.push_back(&f);
            if (automatic(st, f))
                ready.push_back(&f);
        }
        if (ready.empty())
            return;
        for (Fighter* f : ready) {
            const Unit& u = st.board[static_cast<std::size_t>(f->square)];
            f->commit = choice_value(policy_choice(st, u.seat));
        }
        if (ready.size() < waiting.size()) {
            const Fighter& f = *ready.front();
            const Unit& u = st.board[static_cast<std::size_t>(f.square)];
            log.add([&] {
                const Phrase::Arg what{
                    "choice", *f.commit == 0 ? "hold" : "roll " + std::to_string(*f.commit)};
                const Phrase::Arg square{"square", sq_name(c.contested)};
                return private_event(
                    u.seat, EventKind::Note,
                    st.policy[index(u.seat)]
                        ? phrase(N_("your standing policy chose {choice} in the combat on "
                                    "{square}; it "
                                    "is revealed when the other side has chosen"),
                                 {what, square})
                        : phrase(N_("{choice}, the only choice of your {piece}, in the combat on "
                                    "{square}; it is revealed when the other side has chosen"),
                                 {what, {"piece", piece_word(u.kind)}, square}));
            });
            return;
        }
        resolve_round(st, rng, log);
    }
}

void commit(State& st, Seat seat, int choice, RandomSource& rng, bool by_default, Log& log) {
    Combat& c = *st.combat;
    Fighter* mine = nullptr;
    for (Fighter& f : c.fighters)
        if (st.board[static_cast<std::size_t>(f.square)].seat == seat)
            mine = &f;
    mine->commit = choice;
    auto what = [&] {
        return Phrase::Arg{"choice", choice == 0 ? "hold" : "roll " + std::to_string(choice)};
    };
    const bool other_waiting = std::any_of(c.fighters.begin(), c.fighters.end(),
                                           [](const Fighter& f) { return f.active && !f.commit; });
    if (other_waiting) {
        // Only the chooser hears the number until the other side has chosen too.
        log.add([&] {
            const Phrase::Arg square{"square", sq_name(c.contested)};
            return private_event(
                seat, EventKind::Note,
                by_default
                    ? phrase(N_("your standing policy chose {choice} in the combat on {square}; "
                                "it is revealed when the other side has chosen"),
                             {what(), square})
                    : phrase(N_("you chose {choice} in the combat on {square}; it is revealed "
                                "when the other side has chosen"),
                             {what(), square}));
        });
        return;
    }
    // `default` may be typed as well as sent by the clock, so this says what chose, not why;
    // the service adds "did not answer in time" when the deadline passed.
    if (by_default)
        log.add([&] {
            return public_event(EventKind::Note,
                                phrase(N_("{seat}'s standing policy chose {choice}"),
                                       {{"seat", seat_word(seat)}, what()}));
        });
    resolve_round(st, rng, log);
    automatic_choices(st, rng, log);
}

void cast(State& st, Seat seat, const Action& a, Log& log) {
    const Spell s = static_cast<Spell>(a.special - code::spell_base);
    st.spells_used[index(seat)] |= static_cast<std::uint8_t>(1u << static_cast<int>(s));
    // The words every event of a spell starts with (made only when the log keeps them).
    auto caster = [&] { return Phrase::Arg{"seat", seat_word(seat)}; };
    auto spell = [&] { return Phrase::Arg{"spell", spell_word(s)}; };
    const Sq from = a.from.valid() ? chess::from_square(a.from) : -1;
    const Sq to = a.to.valid() ? chess::from_square(a.to) : -1;
    st.last_from = from;
    st.last_to = to;
    switch (s) {
    case Spell::Teleport: {
        const Unit u = at(st, from);
        at(st, to) = u;
        at(st, from) = Unit{};
        touch(st, from);
        log.add([&] {
            return public_event(
                EventKind::Special,
                phrase(N_("{seat}'s Queen casts {spell}: the {unit} goes from {from} to {to}"),
                       {caster(),
                        spell(),
                        {"unit", unit_phrase(u)},
                        {"from", sq_name(from)},
                        {"to", sq_name(to)}}));
        });
        break;
    }
    case Spell::Heal:
        log.add([&] {
            return public_event(
                EventKind::Special,
                phrase(
                    N_("{seat}'s Queen casts {spell}: the {unit} on {square} is healed of {damage} "
                       "damage"),
                    {caster(),
                     spell(),
                     {"unit", unit_phrase(at(st, from))},
                     {"square", sq_name(from)},
                     {"damage", std::to_string(at(st, from).damage)}}));
        });
        at(st, from).damage = 0;
        break;
    case Spell::ShiftTime:
        if (st.track == 0 || st.track == 4) {
            // At an extreme the track jumps to the other one and moves back from there.
            st.track = 4 - st.track;
            st.direction = st.track == 0 ? 1 : -1;
        } else {
            st.direction = -st.direction;
        }
        log.add([&] {
            return public_event(
                EventKind::Special,
                phrase(N_("{seat}'s Queen casts {spell}: the track stands at {track} and now moves "
                          "toward {direction}"),
                       {caster(),
                        spell(),
                        {"track", std::string(1, track_letter(st.track))},
                        {"direction", direction_word(st.direction)}}));
        });
        release_prisoners(st, log);
        break;
    case Spell::Exchange: {
        std::swap(at(st, from), at(st, to));
        touch(st, from);
        touch(st, to);
        log.add([&] {
            return public_event(
                EventKind::Special,
                phrase(
                    N_("{seat}'s Queen casts {spell}: the {first} and the {second} change places "
                       "({from}, {to})"),
                    {caster(),
                     spell(),
                     {"first", unit_phrase(at(st, to))},
                     {"second", unit_phrase(at(st, from))},
                     {"from", sq_name(from)},
                     {"to", sq_name(to)}}));
        });
        break;
    }
    case Spell::Revive:
        --st.dead[index(seat)][static_cast<std::size_t>(a.piece)];
        at(st, to) = Unit{a.piece, seat, 0, false};
        log.add([&] {
            return public_event(
                EventKind::Special,
                phrase(N_("{seat}'s Queen casts {spell}: the {unit} returns to life on {square}"),
                       {caster(),
                        spell(),
                        {"unit", unit_phrase(at(st, to))},
                        {"square", sq_name(to)}}));
        });
        break;
    case Spell::Imprison:
        at(st, to).imprisoned = true;
        log.add([&] {
            return public_event(
                EventKind::Special,
                phrase(
                    N_("{seat}'s Queen casts {spell}: the {unit} on {square} is imprisoned until "
                       "the track reaches {track}"),
                    {caster(),
                     spell(),
                     {"unit", unit_phrase(at(st, to))},
                     {"square", sq_name(to)},
                     {"track", at(st, to).seat == Seat::White ? "E" : "A"}}));
        });
        break;
    }
    st.ep = -1;
    st.halfmove += 1;
    end_turn(st, log);
}

} // namespace

void apply_action(State& st, Seat seat, const Action& a, RandomSource& rng, Log& log) {
    switch (a.kind) {
    case ActionKind::Move:
        play_move(st, a, log);
        automatic_choices(st, rng, log);
        return;
    case ActionKind::Pass:
        log.add([&] {
            return public_event(EventKind::Note, phrase(N_("{seat} has no move and passes"),
                                                        {{"seat", seat_word(seat)}}));
        });
        st.ep = -1;
        st.last_from = st.last_to = -1;
        st.halfmove += 1;
        end_turn(st, log);
        return;
    case ActionKind::Special:
        cast(st, seat, a, log);
        return;
    case ActionKind::Choice:
        break;
    case ActionKind::Drop:
        return;
    }
    switch (a.special) {
    case code::roll:
        commit(st, seat, a.number, rng, false, log);
        return;
    case code::hold:
        commit(st, seat, 0, rng, false, log);
        return;
    case code::policy:
        st.policy[index(seat)] = Policy{a.number / 1000, a.number % 1000};
        log.add([&] {
            return private_event(
                seat, EventKind::Note,
                phrase(
                    N_("your standing policy: roll {dice}, hold at {hold} points this turn (used "
                       "when you do not choose before the combat deadline)"),
                    {{"dice", dice_words(a.number / 1000)},
                     {"hold", std::to_string(a.number % 1000)}}));
        });
        return;
    case code::policy_off:
        st.policy[index(seat)].reset();
        log.add([&] {
            return private_event(
                seat, EventKind::Note,
                phrase(N_("your standing policy is cleared; the fallback is roll {dice}, hold at "
                          "{hold}"),
                       {{"dice", dice_words(policy_dice_fallback)},
                        {"hold", std::to_string(policy_hold_fallback)}}));
        });
        return;
    case code::use_default: {
        const Action chosen = policy_choice(st, seat);
        commit(st, seat, chosen.special == code::hold ? 0 : chosen.number, rng, true, log);
        return;
    }
    default:
        return;
    }
}

std::vector<Event> apply_action(State& st, Seat seat, const Action& a, RandomSource& rng) {
    Log log;
    apply_action(st, seat, a, rng, log);
    return std::move(log.events);
}

} // namespace ghostpost::rules::gnostic
