// Refusals in Haunted Chess terms. Most surprises come from spirits: a spirit standing on the
// target square or in the way (it can never be captured or crossed), a spirit move written
// without its S, and checks by invoked spirits.
#include "haunted.h"

#include <cctype>

namespace ghostpost::rules::haunted {
namespace {

using chess::bb;
using chess::pop_lsb;
using chess::to_square;

std::string where(Sq s) {
    return to_square(s).name();
}

std::string spirit_text(const Board& b, const HMove& m, const MoveBuf& legal) {
    // The short form is enough to show what to write; the parser accepts it when unambiguous.
    bool clash = false;
    for (const HMove& o : legal)
        if (o.layer == Layer::Spirit && o.to == m.to && o.from != m.from &&
            b.spirit(o.from).kind == b.spirit(m.from).kind)
            clash = true;
    return std::string("S") + piece_letter(b.spirit(m.from).kind) + (clash ? where(m.from) : "") +
           (b.living(m.to).kind != PieceKind::None ? "x" : "") + where(m.to) +
           (m.promotion != PieceKind::None ? std::string("=") + piece_letter(m.promotion) : "");
}

// Living checkers and invoked spirits giving check to `seat` on this board.
std::variant<std::string, Phrase> check_givers(const Board& b, Seat seat) {
    const Sq king = b.king_square(seat);
    const Seat them = opponent(seat);
    const Bitboard occ = b.occupied();
    std::optional<Phrase> out;
    auto add = [&](Phrase words) {
        out =
            out ? phrase(N_("{first} and {second}"), {{"first", *out}, {"second", words}}) : words;
    };
    for (Bitboard l = b.living_of(them); l;) {
        const Sq s = pop_lsb(l);
        if (chess::attacks_of(b.living(s).kind, them, s, occ) & bb(king))
            add(the_piece_on(piece_words(b.living(s)), to_square(s)));
    }
    for (Bitboard i = b.invoked(them); i;) {
        const Sq s = pop_lsb(i);
        if (chess::attacks_of(b.spirit(s).kind, them, s, occ) & bb(king))
            add(phrase(N_("the invoked {spirit} on {square}"),
                       {{"spirit", spirit_words(b.spirit(s))}, {"square", where(s)}}));
    }
    if (!out)
        return std::string();
    return *out;
}

Phrase not_possible(const std::string& text, Phrase why) {
    return phrase(N_("{move} is not possible: {why}"), {{"move", text}, {"why", std::move(why)}});
}

bool fits(const Board& b, const ActionSyntax& syntax, const HMove& m) {
    if (m.layer != Layer::Living || to_square(m.to) != syntax.to)
        return false;
    const Square from = to_square(m.from);
    return (syntax.piece == PieceKind::None || b.living(m.from).kind == syntax.piece) &&
           (syntax.from_file < 0 || from.file == syntax.from_file) &&
           (syntax.from_rank < 0 || from.rank == syntax.from_rank);
}

} // namespace

Phrase piece_words(Piece p) {
    return Phrase{
        "piece", std::string(seat_name(p.seat)) + " " + std::string(piece_name(p.kind)), {}};
}

Phrase spirit_words(Piece p) {
    return Phrase{
        "piece", std::string(seat_name(p.seat)) + " spirit " + std::string(piece_name(p.kind)), {}};
}

Phrase the_piece_on(Phrase piece, Square s) {
    return phrase(N_("the {piece} on {square}"),
                  {{"piece", std::move(piece)}, {"square", s.name()}});
}

RuleError explain(const Board& b, const MoveBuf& legal, const ActionSyntax& syntax,
                  std::string_view text) {
    const std::string t(text);
    auto illegal = [&](Phrase why) {
        return make_error(ErrorKind::Illegal, not_possible(t, std::move(why)));
    };
    const Seat us = b.side_to_move(), them = opponent(us);

    if (syntax.castle != 0) {
        const bool short_side = syntax.castle == 1;
        const Sq base = us == Seat::White ? 0 : 56;
        const std::uint8_t right =
            static_cast<std::uint8_t>((short_side ? 1 : 2) << (us == Seat::White ? 0 : 2));
        if (!(b.castling() & right))
            return illegal(phrase(N_("castling on that side is no longer allowed (the king or that "
                                     "rook has moved)")));
        const Bitboard path =
            short_side ? bb(base + 5) | bb(base + 6) : bb(base + 1) | bb(base + 2) | bb(base + 3);
        for (Bitboard p = path; p;) {
            const Sq s = pop_lsb(p);
            if (b.living(s).kind == PieceKind::None && b.spirit(s).kind != PieceKind::None)
                return illegal(
                    phrase(N_("the {spirit} on {square} stands between the king and the "
                              "rook, and spirits never move aside for castling"),
                           {{"spirit", spirit_words(b.spirit(s))}, {"square", where(s)}}));
        }
        if (b.living_all() & path)
            return illegal(phrase(N_("there are pieces between the king and the rook")));
        if (b.in_check(us))
            return illegal(phrase(N_("you cannot castle out of check (given by {pieces})"),
                                  {{"pieces", check_givers(b, us)}}));
        const int step = short_side ? 1 : -1;
        for (Sq s = base + 4 + step; s != base + 4 + 3 * step; s += step)
            if (b.attacked(s, them))
                return illegal(
                    phrase(N_("the king may not pass through or land on {square}, which is "
                              "attacked"),
                           {{"square", where(s)}}));
        return illegal(phrase(N_("castling is not allowed now")));
    }
    if (syntax.drop)
        return illegal(phrase(N_("{variant} has no drops"),
                              {{"variant", Phrase{"variant", "Haunted Chess", {}}}}));

    // Moves that fit what was written but leave the king attacked.
    MoveBuf pseudo;
    b.generate_pseudo(pseudo);
    int fitting = 0;
    const HMove* example = nullptr;
    for (const HMove& m : pseudo) {
        if (!fits(b, syntax, m))
            continue;
        if (m.promotion != syntax.promotion) {
            if (syntax.promotion == PieceKind::None)
                return illegal(
                    phrase(N_("a pawn reaching the last rank must promote: add =Q, =R, =B or =N")));
            if (m.promotion == PieceKind::None)
                return illegal(phrase(N_("only a pawn reaching the last rank promotes")));
            continue;
        }
        ++fitting;
        example = &m;
    }
    if (fitting > 0) {
        if (b.in_check(us))
            return illegal(phrase(N_("you are in check from {pieces} and it does not answer the "
                                     "check"),
                                  {{"pieces", check_givers(b, us)}}));
        Board after = b;
        after.make(*example);
        return illegal(phrase(N_("that leaves your king in check from {pieces}"),
                              {{"pieces", check_givers(after, us)}}));
    }

    const Sq target = chess::from_square(syntax.to);
    const Piece on_target = b.living(target), haunt = b.spirit(target);
    // A spirit move written like a living one: point at the S form. A rebirth in place (the
    // spirit pawn already on its last rank) is such a move too (docs/variants/haunted.md).
    for (const HMove& m : legal) {
        if (m.layer == Layer::Living || m.to != target || m.promotion != syntax.promotion)
            continue;
        const PieceKind kind = b.spirit(m.from).kind;
        const Square from = to_square(m.from);
        if ((syntax.piece != PieceKind::None && kind != syntax.piece) ||
            (syntax.from_file >= 0 && from.file != syntax.from_file) ||
            (syntax.from_rank >= 0 && from.rank != syntax.from_rank))
            continue;
        const Phrase::Arg piece{"piece", piece_word(kind)};
        const Phrase::Arg square{"square", where(target)};
        const Phrase::Arg spirit{"spirit", spirit_words(b.spirit(m.from))};
        const Phrase::Arg move{"move", spirit_text(b, m, legal)};
        if (m.layer == Layer::Rebirth)
            return illegal(phrase(N_("no living {piece} can go to {square}, but your {spirit} "
                                     "there can be reborn: write {move}"),
                                  {piece, square, spirit, move}));
        return illegal(phrase(N_("no living {piece} can go to {square}, but your {spirit} on "
                                 "{from} can: write {move}"),
                              {piece, square, spirit, {"from", where(m.from)}, move}));
    }
    const Phrase::Arg square{"square", where(target)};
    if (on_target.kind == PieceKind::None && haunt.kind != PieceKind::None)
        return illegal(phrase(N_("{square} is haunted by the {spirit}: spirits can never be "
                                 "captured and nothing may stand on them"),
                              {square, {"spirit", spirit_words(haunt)}}));
    if (on_target.kind != PieceKind::None && on_target.seat == us)
        return illegal(phrase(N_("your own {piece} stands on {square}"),
                              {{"piece", piece_word(on_target.kind)}, square}));
    if (on_target.kind == PieceKind::King)
        return illegal(phrase(N_("the king is never captured")));
    if (syntax.from_file >= 0 && syntax.from_rank >= 0) {
        const Sq from = chess::make_sq(syntax.from_file, syntax.from_rank);
        const Piece living = b.living(from), spirit = b.spirit(from);
        const Phrase::Arg from_arg{"from", where(from)};
        if (living.kind == PieceKind::None && spirit.kind != PieceKind::None) {
            const Phrase::Arg there{"spirit", spirit_words(spirit)};
            if (spirit.seat != us)
                return illegal(phrase(N_("on {from} stands the {spirit}, which is not yours"),
                                      {from_arg, there}));
            if (b.invoked(us) & bb(from) || on_target.kind == PieceKind::None)
                return illegal(phrase(N_("on {from} stands the {spirit}, which cannot reach "
                                         "{square}"),
                                      {from_arg, there, square}));
            return illegal(phrase(N_("on {from} stands the {spirit}, which captures only while "
                                     "invoked (a living piece of yours must attack {from})"),
                                  {from_arg, there}));
        }
        if (living.kind == PieceKind::None)
            return illegal(phrase(N_("there is no piece on {square}"), {{"square", where(from)}}));
        if (living.seat != us)
            return illegal(
                phrase(N_("the piece on {square} is not yours"), {{"square", where(from)}}));
    }
    // A living piece that would reach the square if no spirit stood in the way.
    const Bitboard without_spirits = b.living_all();
    for (Bitboard l = b.living_of(us); l;) {
        const Sq from = pop_lsb(l);
        const PieceKind kind = b.living(from).kind;
        if ((syntax.piece != PieceKind::None && kind != syntax.piece) || kind == PieceKind::Pawn ||
            kind == PieceKind::Knight || kind == PieceKind::King ||
            (syntax.from_file >= 0 && chess::file_of(from) != syntax.from_file) ||
            (syntax.from_rank >= 0 && chess::rank_of(from) != syntax.from_rank))
            continue;
        if (!(chess::attacks_of(kind, us, from, without_spirits) & bb(target)))
            continue;
        const Bitboard blockers =
            chess::tables().between[from][target] & b.spirits_all() & ~b.living_all();
        if (blockers) {
            const Sq s = chess::lsb(blockers);
            return illegal(phrase(N_("the {spirit} on {square} blocks the {piece} on {from}: "
                                     "spirits cannot be crossed"),
                                  {{"spirit", spirit_words(b.spirit(s))},
                                   {"square", where(s)},
                                   {"piece", piece_word(kind)},
                                   {"from", where(from)}}));
        }
    }
    const Phrase::Arg who{"piece", piece_word(syntax.piece)}; // "piece" when none was written
    if (syntax.piece == PieceKind::Pawn && syntax.capture && on_target.kind == PieceKind::None)
        return illegal(phrase(N_("there is nothing to capture on {square}"), {square}));
    return illegal(syntax.capture
                       ? phrase(N_("no living {piece} can capture on {square}"), {who, square})
                       : phrase(N_("no living {piece} can reach {square}"), {who, square}));
}

} // namespace ghostpost::rules::haunted

namespace ghostpost::rules::haunted {

std::optional<SpiritSyntax> parse_spirit(std::string_view raw) {
    std::string key;
    for (char c : raw) {
        if (c == ':' || c == '-' || c == ' ' || c == '=' || c == '+' || c == '#' || c == '!' ||
            c == '?')
            continue;
        if ((c == 'x' || c == 'X') && key.size() >= 2) {
            key += 'x';
            continue;
        }
        key += c;
    }
    if (key.size() < 4 || key.size() > 9 || (key[0] != 'S' && key[0] != 's'))
        return std::nullopt;
    SpiritSyntax out;
    out.kind =
        piece_from_letter(static_cast<char>(std::toupper(static_cast<unsigned char>(key[1]))));
    if (out.kind == PieceKind::None)
        return std::nullopt;
    std::string rest;
    for (std::size_t i = 2; i < key.size(); ++i) {
        if (key[i] == 'x') {
            out.capture = true;
            continue;
        }
        rest += key[i];
    }
    // A letter after the target square names the new life of a spirit pawn.
    if (rest.size() >= 3 && std::isalpha(static_cast<unsigned char>(rest.back())) &&
        std::isdigit(static_cast<unsigned char>(rest[rest.size() - 2]))) {
        out.promotion = piece_from_letter(
            static_cast<char>(std::toupper(static_cast<unsigned char>(rest.back()))));
        if (out.promotion == PieceKind::None || out.promotion == PieceKind::Pawn ||
            out.promotion == PieceKind::King)
            return std::nullopt;
        rest.pop_back();
    }
    if (rest.size() < 2)
        return std::nullopt;
    auto to = parse_square(rest.substr(rest.size() - 2));
    if (!to)
        return std::nullopt;
    out.to = *to;
    const std::string from = rest.substr(0, rest.size() - 2);
    if (from.size() > 2)
        return std::nullopt;
    for (char c : from) {
        if (c >= 'a' && c <= 'h' && out.from_file < 0 && out.from_rank < 0)
            out.from_file = c - 'a';
        else if (c >= '1' && c <= '8' && out.from_rank < 0)
            out.from_rank = c - '1';
        else
            return std::nullopt;
    }
    return out;
}

RuleError explain_spirit(const Board& b, const SpiritSyntax& syntax, std::string_view text) {
    const std::string t(text);
    auto illegal = [&](Phrase why) {
        return make_error(ErrorKind::Illegal, not_possible(t, std::move(why)));
    };
    const Seat us = b.side_to_move();
    const Phrase::Arg kind{"piece", piece_word(syntax.kind)};
    if (syntax.kind == PieceKind::King)
        return illegal(phrase(N_("a king never becomes a spirit")));
    const Sq target = chess::from_square(syntax.to);
    auto from_fits = [&](Sq s) {
        return (syntax.from_file < 0 || chess::file_of(s) == syntax.from_file) &&
               (syntax.from_rank < 0 || chess::rank_of(s) == syntax.from_rank);
    };
    Bitboard mine = 0, waiting = 0;
    for (Bitboard s = b.spirits_of(us); s;) {
        const Sq sq = pop_lsb(s);
        if (b.spirit(sq).kind != syntax.kind || !from_fits(sq))
            continue;
        (b.living(sq).kind == PieceKind::None ? mine : waiting) |= bb(sq);
    }
    const Phrase::Arg square{"square", where(target)};
    if (!mine && waiting) {
        const Sq s = chess::lsb(waiting);
        return illegal(phrase(N_("your spirit {piece} on {square} waits under the {living} and is "
                                 "released only when that square is left"),
                              {kind, {"square", where(s)}, {"living", piece_words(b.living(s))}}));
    }
    if (!mine)
        return illegal(syntax.from_file >= 0 || syntax.from_rank >= 0
                           ? phrase(N_("you have no spirit {piece} there"), {kind})
                           : phrase(N_("you have no spirit {piece}"), {kind}));

    // A rebirth in place: the spirit pawn stands on the named square.
    if (syntax.kind == PieceKind::Pawn && (mine & bb(target)) &&
        syntax.promotion != PieceKind::None)
        return illegal(phrase(N_("your spirit pawn on {square} is reborn only while invoked: a "
                                 "living piece of yours must attack {square}"),
                              {square}));

    MoveBuf pseudo;
    b.generate_pseudo(pseudo);
    for (const HMove& m : pseudo) {
        if (m.layer != Layer::Spirit || m.to != target || !(mine & bb(m.from)) ||
            m.promotion != syntax.promotion)
            continue;
        Board after = b;
        after.make(m);
        if (b.in_check(us))
            return illegal(phrase(N_("you are in check from {pieces} and it does not answer the "
                                     "check"),
                                  {{"pieces", check_givers(b, us)}}));
        return illegal(phrase(N_("that leaves your king in check from {pieces}"),
                              {{"pieces", check_givers(after, us)}}));
    }
    if (syntax.promotion != PieceKind::None)
        for (const HMove& m : pseudo)
            if (m.layer == Layer::Spirit && m.to == target && (mine & bb(m.from)))
                return illegal(chess::rank_of(target) == (us == Seat::White ? 7 : 0)
                                   ? phrase(N_("a spirit pawn is reborn only if it is invoked on "
                                               "{square} (a living piece of yours must attack "
                                               "it)"),
                                            {square})
                                   : phrase(N_("only a spirit pawn on its last rank is reborn")));
    const Piece on_target = b.living(target), haunt = b.spirit(target);
    if (on_target.kind == PieceKind::None && haunt.kind != PieceKind::None)
        return illegal(phrase(N_("{square} is haunted by the {spirit}: a spirit never moves onto "
                                 "another spirit"),
                              {square, {"spirit", spirit_words(haunt)}}));
    if (on_target.kind != PieceKind::None && on_target.seat == us)
        return illegal(phrase(N_("your own {piece} stands on {square}"),
                              {{"piece", piece_word(on_target.kind)}, square}));
    if (on_target.kind == PieceKind::King)
        return illegal(phrase(N_("the king is never captured")));
    const Bitboard occ = b.occupied();
    const Bitboard invoked = b.invoked(us);
    for (Bitboard s = mine; s;) {
        const Sq from = pop_lsb(s);
        const Bitboard reach = syntax.kind == PieceKind::Pawn
                                   ? chess::tables().pawn[index(us)][from]
                                   : chess::attacks_of(syntax.kind, us, from, occ);
        if (on_target.kind != PieceKind::None && (reach & bb(target)) && !(invoked & bb(from)))
            return illegal(phrase(N_("the spirit {piece} on {square} is not invoked, so it cannot "
                                     "capture: a living piece of yours must attack {square}"),
                                  {kind, {"square", where(from)}}));
    }
    return illegal(
        on_target.kind != PieceKind::None
            ? phrase(N_("no spirit {piece} of yours can capture on {square}"), {kind, square})
            : phrase(N_("no spirit {piece} of yours can reach {square}"), {kind, square}));
}

} // namespace ghostpost::rules::haunted
