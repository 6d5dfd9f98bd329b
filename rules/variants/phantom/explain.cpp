// Refused moves in Phantom Chess. The board is the truth (as the Phantom Card settles disputes
// over the board), so a move into or through an unseen Phantom is refused; but the channel must
// not learn where the Phantom stands, so such a refusal is public only as a refusal and its
// reason goes to the mover alone. Whenever a Phantom is among the reasons, the whole reason is
// private: a partial public reason could hint at what it leaves out.
#include "chess/fide.h"
#include "chess/san.h"
#include "ghostpost/variants/pieces.h"
#include "phantom.h"

#include <algorithm>
#include <cctype>

namespace ghostpost::rules::phantom {
namespace {

using chess::bb;
using chess::Bitboard;
using chess::Move;
using chess::MoveType;
using chess::Position;
using chess::Sq;

RuleError refused_privately(Phrase detail) {
    RuleError e = make_error(
        ErrorKind::Illegal, phrase(N_("that move was refused; the reason was sent to you by direct "
                                      "message (no peek was spent)")));
    e.private_detail = detail.english();
    e.private_phrase = std::move(detail);
    return e;
}

// The same for a refusal written already: its message becomes the private reason.
RuleError refused_privately(const RuleError& reason) {
    RuleError e = refused_privately(Phrase{});
    e.private_detail = reason.message;
    e.private_phrase = reason.phrase;
    return e;
}

// "{move} is not possible: {why}", the sentence of every refusal here.
Phrase not_possible(const std::string& move, Phrase why) {
    return phrase(N_("{move} is not possible: {why}"), {{"move", move}, {"why", std::move(why)}});
}

bool mentions_phantom(std::string_view text) {
    std::string low(text);
    for (char& c : low)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return low.find("phantom") != std::string::npos;
}

std::string square_name(Sq s) {
    return chess::to_square(s).name();
}

// A Phantom on the attack set `att` of the opponent of the side to move, named for the mover.
std::optional<Phrase> attacking_phantom(const Position& pos, Bitboard att, Seat us) {
    const Bitboard ph = att & pos.pieces(pieces::phantom);
    if (!ph)
        return std::nullopt;
    return phantom_on(pos, chess::lsb(ph), us);
}

// Castling refused because of a Phantom on the way or attacking the king's path.
std::optional<Phrase> hidden_castling_reason(Position& pos, bool short_side) {
    const Seat us = pos.side_to_move(), them = opponent(us);
    const int base = us == Seat::White ? 0 : 56;
    const std::uint8_t right = us == Seat::White
                                   ? (short_side ? chess::WhiteShort : chess::WhiteLong)
                                   : (short_side ? chess::BlackShort : chess::BlackLong);
    if (!(pos.castling() & right))
        return std::nullopt;
    const Bitboard path =
        short_side ? bb(base + 5) | bb(base + 6) : bb(base + 1) | bb(base + 2) | bb(base + 3);
    if (const Bitboard ph = path & pos.pieces(pieces::phantom))
        return phrase(N_("{phantom} stands between your king and rook"),
                      {{"phantom", phantom_on(pos, chess::lsb(ph), us)}});
    const int step = short_side ? 1 : -1;
    for (int i = 0; i <= 2; ++i) {
        const Sq s = base + 4 + i * step;
        if (auto who = attacking_phantom(pos, pos.attackers_to(s, pos.pieces(), them), us)) {
            const Phrase::Arg phantom{"phantom", std::move(*who)};
            if (i == 0)
                return phrase(
                    N_("you are in check from {phantom}, and castling never answers a check"),
                    {phantom});
            const Phrase::Arg square{"square", square_name(s)};
            return i == 1 ? phrase(N_("the king would pass through {square}, which {phantom} "
                                      "attacks"),
                                   {square, phantom})
                          : phrase(N_("the king would land on {square}, which {phantom} attacks"),
                                   {square, phantom});
        }
    }
    return std::nullopt;
}

// A move by one of our visible pieces that the board everyone sees allows in its movement but a
// Phantom forbids: standing on the target, in the way, or attacking the king afterwards.
std::optional<Phrase> hidden_move_reason(Position& pos, const ActionSyntax& syntax) {
    const Seat us = pos.side_to_move(), them = opponent(us);
    const chess::Tables& t = chess::tables();
    const Bitboard phantoms = pos.pieces(pieces::phantom);
    const Sq to = chess::from_square(syntax.to);
    const int up = us == Seat::White ? 8 : -8;
    const Bitboard start_rank = us == Seat::White ? chess::rank_1 << 8 : chess::rank_1 << 48;
    const Bitboard last_rank = us == Seat::White ? chess::rank_1 << 56 : chess::rank_1;

    Bitboard movers = pos.pieces(us) & ~phantoms;
    if (syntax.piece != PieceKind::None)
        movers &= pos.pieces(syntax.piece);
    while (movers) {
        const Sq from = chess::pop_lsb(movers);
        if ((syntax.from_file >= 0 && chess::file_of(from) != syntax.from_file) ||
            (syntax.from_rank >= 0 && chess::rank_of(from) != syntax.from_rank))
            continue;
        const PieceKind kind = pos.piece_on(from).kind;
        bool push = false, diagonal = false;
        if (kind == PieceKind::Pawn) {
            push = to == from + up || (to == from + 2 * up && (bb(from) & start_rank));
            diagonal = (t.pawn[index(us)][from] & bb(to)) != 0;
            if (!push && !diagonal)
                continue;
        } else if (!(chess::attacks_of(kind, us, from, visible(pos)) & bb(to))) {
            continue;
        }
        if (bb(to) & pos.pieces(us, pieces::phantom))
            return phrase(N_("your own Phantom stands on {square}"), {{"square", square_name(to)}});
        const Bitboard way = push ? t.between[from][to] | bb(to) : t.between[from][to];
        if (kind != PieceKind::Knight && kind != PieceKind::King && (way & phantoms))
            return phrase(N_("{phantom} is in the way"),
                          {{"phantom", phantom_on(pos, chess::lsb(way & phantoms), us)}});
        if (push && (pos.pieces() & way))
            continue; // a visible piece blocks the pawn: everyone can see that reason
        Move m{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to), MoveType::Normal,
               PieceKind::None};
        if (diagonal) {
            if (to == pos.ep_square())
                m.type = MoveType::EnPassant;
            else if (pos.piece_on(to).kind == PieceKind::None)
                continue; // nothing to capture, as everyone can see
        }
        if (pos.piece_on(to).kind != PieceKind::None && pos.piece_on(to).seat == us)
            continue;
        if (pos.piece_on(to).kind == PieceKind::King)
            continue;
        if (kind == PieceKind::Pawn && (bb(to) & last_rank)) {
            m.type = MoveType::Promotion;
            m.piece = syntax.promotion == PieceKind::None ? PieceKind::Queen : syntax.promotion;
        }
        const bool was_checked_by_phantom = (pos.checkers() & phantoms) != 0;
        pos.do_move(m);
        const Sq k = pos.king_square(us);
        const Bitboard att = k >= 0 ? pos.attackers_to(k, pos.pieces(), them) : 0;
        std::optional<Phrase> who = attacking_phantom(pos, att, us);
        pos.undo_move();
        if (who)
            return was_checked_by_phantom
                       ? phrase(N_("you are in check from {phantom}, and this move does not "
                                   "answer it"),
                                {{"phantom", std::move(*who)}})
                       : phrase(N_("your king would be attacked by {phantom}"),
                                {{"phantom", std::move(*who)}});
    }
    return std::nullopt;
}

} // namespace

RuleError explain_move(Position& pos, const ActionSyntax& syntax, std::string_view text) {
    const std::string t(text);
    const Seat us = pos.side_to_move();
    const Bitboard phantoms = pos.pieces(pieces::phantom);
    auto privately = [&](Phrase why) { return refused_privately(not_possible(t, std::move(why))); };
    RuleError fide = chess::explain_fide_illegal(pos, syntax, text);

    if (syntax.castle == 0 && syntax.piece == pieces::phantom) {
        // Whether the Phantom is in play is public (its entry was announced); where it is, is not.
        if (!pos.pieces(us, pieces::phantom)) {
            if (pos.in_hand(us, pieces::phantom))
                return make_error(
                    ErrorKind::Illegal,
                    not_possible(t, phrase(N_("your Phantom has not entered play yet (it enters "
                                              "with {entry})"),
                                           {{"entry", "F@" + syntax.to.name()}})));
            return make_error(ErrorKind::Illegal,
                              not_possible(t, phrase(N_("you have no Phantom any more"))));
        }
        return refused_privately(fide);
    }
    if (!phantoms)
        return fide;
    if (syntax.castle != 0) {
        if (auto why = hidden_castling_reason(pos, syntax.castle == 1))
            return privately(*why);
    } else {
        if (syntax.from_file >= 0 && syntax.from_rank >= 0) {
            // LAN from a Phantom's square: whatever the reason, it names where a Phantom is.
            const Sq from = chess::make_sq(syntax.from_file, syntax.from_rank);
            if (bb(from) & phantoms) {
                if (pos.piece_on(from).seat == us)
                    return refused_privately(fide);
                return privately(
                    phrase(N_("on {square} stands {seat}'s Phantom"),
                           {{"square", square_name(from)},
                            {"seat", Phrase{"seat", us == Seat::White ? "Black" : "White", {}}}}));
            }
        }
        if (auto why = hidden_move_reason(pos, syntax))
            return privately(*why);
    }
    if (mentions_phantom(fide.message))
        return refused_privately(fide);
    return fide;
}

RuleError explain_entry(const Position& pos, const ActionSyntax& syntax, EntryRules rules,
                        std::string_view text) {
    const std::string t(text);
    const Seat us = pos.side_to_move(), them = opponent(us);
    const chess::Tables& t_ = chess::tables();
    auto illegal = [&](Phrase why) {
        return make_error(ErrorKind::Illegal, not_possible(t, std::move(why)));
    };
    auto privately = [&](Phrase why) { return refused_privately(not_possible(t, std::move(why))); };
    const std::string where = syntax.to.name();
    const Phrase::Arg square{"square", where};

    if (syntax.piece != pieces::phantom)
        return illegal(phrase(N_("only the Phantom enters play ({entry}); no other piece is ever "
                                 "in hand"),
                              {{"entry", "F@" + where}}));
    if (pos.in_hand(us, pieces::phantom) == 0) {
        if (pos.pieces(us, pieces::phantom))
            return illegal(phrase(N_("your Phantom is already in play: it enters once, and moves "
                                     "as {move}"),
                                  {{"move", "F" + where}}));
        return illegal(phrase(N_("your Phantom was captured, and it never enters again")));
    }
    const Sq to = chess::from_square(syntax.to);
    const Piece target = pos.piece_on(to);
    // Reasons everyone can check come first, so a Phantom is named only when it is the reason.
    if (target.kind != PieceKind::None && target.kind != pieces::phantom) {
        if (target.seat == us)
            return illegal(phrase(N_("your own {piece} stands on {square}"),
                                  {{"piece", piece_word(target.kind)}, square}));
        if (target.kind == PieceKind::King)
            return illegal(phrase(N_("the Phantom cannot enter on the king")));
        if (!rules.capture)
            return illegal(phrase(N_("the Phantom enters only on an empty square in this game "
                                     "(phantom_entry_capture=no)")));
    }
    if (Sq k = pos.king_square(them);
        k >= 0 && !rules.check && ((t_.knight[to] | t_.ferz[to]) & bb(k)))
        return illegal(phrase(N_("entering on {square} would give check, which this game's entry "
                                 "rules forbid (phantom_entry_check=no)"),
                              {square}));
    const Bitboard checkers = pos.checkers();
    if (checkers & pos.pieces(pieces::phantom))
        return privately(phrase(
            N_("you are in check from {phantom}, and entering on {square} does not answer it"),
            {{"phantom", phantom_on(pos, chess::lsb(checkers & pos.pieces(pieces::phantom)), us)},
             square}));
    if (target.kind == pieces::phantom && !rules.capture)
        return privately(phrase(N_("{phantom} already stands there, and the Phantom enters only "
                                   "on an empty square (phantom_entry_capture=no)"),
                                {{"phantom", phantom_on(pos, to, us)}}));
    if (chess::more_than_one(checkers))
        return illegal(phrase(N_("you are in double check, and only a king move answers it")));
    if (checkers)
        return illegal(phrase(N_("you are in check, and entering on {square} neither blocks nor "
                                 "takes the checking piece"),
                              {square}));
    return illegal(phrase(N_("the Phantom cannot enter on {square} now"), {square}));
}

} // namespace ghostpost::rules::phantom

namespace ghostpost::rules::phantom {

bool allows(const Position& pos, EntryRules rules, const ActionSyntax& syntax) {
    chess::MoveList moves;
    generate(pos, rules, moves);
    for (const Move& m : moves) {
        if (m.type != MoveType::Drop && pos.piece_on(m.to).kind == PieceKind::King)
            continue;
        if (syntax.castle != 0) {
            if (m.type == MoveType::Castle && (syntax.castle == 1) == (m.to > m.from))
                return true;
            continue;
        }
        const Action a = chess::to_action(pos, m);
        if (syntax.drop != (a.kind == ActionKind::Drop) || a.to != syntax.to ||
            (syntax.piece != PieceKind::None && a.piece != syntax.piece) ||
            (syntax.from_file >= 0 && a.from.file != syntax.from_file) ||
            (syntax.from_rank >= 0 && a.from.rank != syntax.from_rank) ||
            a.promotion != syntax.promotion)
            continue;
        if (syntax.piece == PieceKind::Pawn && !syntax.capture && syntax.from_file < 0 &&
            a.kind == ActionKind::Move && a.from.file != a.to.file)
            continue; // a bare push never means a capture (notation.cpp)
        return true;
    }
    return false;
}

RuleError explain_seen(const Position& pos, const ActionSyntax& syntax, EntryRules rules,
                       std::string_view text) {
    const Seat us = pos.side_to_move();
    const Bitboard theirs = pos.pieces(opponent(us), pieces::phantom);
    const Bitboard mine = pos.pieces(us, pieces::phantom);
    Position seen = theirs ? pos.without(chess::lsb(theirs)) : pos;
    if (syntax.drop)
        return explain_entry(seen, syntax, rules, text);
    const bool from_mine = syntax.from_file >= 0 && syntax.from_rank >= 0 &&
                           (bb(chess::make_sq(syntax.from_file, syntax.from_rank)) & mine);
    if (syntax.castle == 0 && (syntax.piece == pieces::phantom || from_mine))
        return explain_move(seen, syntax, text); // whether it is in play is public, not where
    Position everyone = mine ? seen.without(chess::lsb(mine)) : seen;
    if (!mine || !allows(everyone, rules, syntax))
        return chess::explain_fide_illegal(everyone, syntax, text);
    // Only the mover's own Phantom forbids it: the reason names its square.
    RuleError e = explain_move(seen, syntax, text);
    return e.private_detail.empty() ? refused_privately(e) : e;
}

} // namespace ghostpost::rules::phantom
