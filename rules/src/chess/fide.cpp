#include "chess/fide.h"

#include "chess/san.h"

namespace ghostpost::rules::chess {

Outcome fide_outcome(const Position& pos, const MoveList& legal) {
    const Seat stm = pos.side_to_move();
    if (legal.size() == 0) {
        if (pos.in_check())
            return {stm == Seat::White ? Status::BlackWins : Status::WhiteWins, "checkmate"};
        return {Status::Draw, "stalemate"};
    }
    if (pos.insufficient_material())
        return {Status::Draw, "insufficient material"};
    if (pos.halfmove_clock() >= 150)
        return {Status::Draw, "75-move rule"};
    if (pos.repetitions() >= 4)
        return {Status::Draw, "fivefold repetition"};
    return {};
}

std::optional<std::string> fide_claimable_draw(const Position& pos) {
    if (pos.halfmove_clock() >= 100)
        return "50-move rule";
    if (pos.repetitions() >= 2)
        return "threefold repetition";
    return std::nullopt;
}

BoardView fide_board(const Position& pos, std::string variant, bool over) {
    BoardView v(std::move(variant), 8, 8);
    fide_board_into(pos, v.variant, over, v);
    return v;
}

void fide_board_into(const Position& pos, std::string_view variant, bool over, BoardView& v) {
    if (v.variant != variant)
        v.variant = variant;
    v.files = 8;
    v.ranks = 8;
    v.cells.resize(64);
    for (Sq s = 0; s < 64; ++s) {
        Cell& cell = v.at(to_square(s));
        cell.figures.clear();
        cell.tint = Tint::Chequer;
        Piece p = pos.piece_on(s);
        if (p.kind != PieceKind::None)
            cell.figures.push_back(Figure{p, FigureStyle::Living});
    }
    v.last_from = v.last_to = v.check = Square{};
    if (const Move* m = pos.last_move()) {
        v.last_from = m->type == MoveType::Drop ? Square{} : to_square(m->from);
        v.last_to = to_square(m->to);
    }
    if (Sq k = pos.king_square(pos.side_to_move()); k >= 0 && pos.in_check())
        v.check = to_square(k);
    v.deciding.clear();
    if (!over)
        v.deciding.push_back(pos.side_to_move());
    v.ply = pos.plies_played();
    v.move_number = pos.fullmove_number();
    v.notes.clear();
    v.note_phrases.clear();
}

std::optional<Move> find_move(const Position& pos, const MoveList& legal, const Action& action) {
    for (const Move& m : legal)
        if (to_action(pos, m) == action)
            return m;
    return std::nullopt;
}

RuleError explain_fide_illegal(Position& pos, const ActionSyntax& syntax, std::string_view text) {
    const std::string t(text);
    auto illegal = [&](Phrase why) {
        return make_error(ErrorKind::Illegal, phrase(N_("{move} is not possible: {why}"),
                                                     {{"move", t}, {"why", std::move(why)}}));
    };
    auto square = [](const Square& s) { return Phrase::Arg{"square", s.name()}; };
    const Seat us = pos.side_to_move();
    MoveList pseudo;
    pos.generate_pseudo_legal(pseudo);

    if (syntax.castle != 0) {
        const bool short_side = syntax.castle == 1;
        const int base = us == Seat::White ? 0 : 56;
        const std::uint8_t right = us == Seat::White ? (short_side ? WhiteShort : WhiteLong)
                                                     : (short_side ? BlackShort : BlackLong);
        if (!(pos.castling() & right))
            return illegal(phrase(N_("castling on that side is no longer allowed (the king or that "
                                     "rook has moved)")));
        const Bitboard path =
            short_side ? bb(base + 5) | bb(base + 6) : bb(base + 1) | bb(base + 2) | bb(base + 3);
        if (pos.pieces() & path)
            return illegal(phrase(N_("there are pieces between the king and the rook")));
        if (pos.in_check())
            return illegal(phrase(N_("you cannot castle out of check")));
        const int step = short_side ? 1 : -1;
        for (Sq s = base + 4 + step; s != base + 4 + 3 * step; s += step)
            if (pos.attacked(s, opponent(us)))
                return illegal(s == base + 4 + step
                                   ? phrase(N_("cannot castle through check: {square} is attacked"),
                                            {square(to_square(s))})
                                   : phrase(N_("the king would be in check on {square}"),
                                            {square(to_square(s))}));
        return illegal(phrase(N_("castling is not allowed now")));
    }
    if (syntax.drop)
        return illegal(
            phrase(N_("you have no {piece} to enter"), {{"piece", piece_word(syntax.piece)}}));

    // Pseudo-legal moves that fit what was written: if some exist, the king is the reason.
    int fitting = 0;
    for (const Move& m : pseudo) {
        if (m.type == MoveType::Drop || to_square(m.to) != syntax.to)
            continue;
        Action a = to_action(pos, m);
        if ((syntax.piece != PieceKind::None && a.piece != syntax.piece) ||
            (syntax.from_file >= 0 && a.from.file != syntax.from_file) ||
            (syntax.from_rank >= 0 && a.from.rank != syntax.from_rank))
            continue;
        if (syntax.piece == PieceKind::Pawn && !syntax.capture && syntax.from_file < 0 &&
            a.from.file != a.to.file)
            continue; // a bare pawn push never means a capture (notation.cpp)
        if (a.promotion != syntax.promotion) {
            if (a.promotion != PieceKind::None && syntax.promotion == PieceKind::None)
                return illegal(
                    phrase(N_("a pawn reaching the last rank must promote: add =Q, =R, =B or =N")));
            if (a.promotion == PieceKind::None)
                return illegal(phrase(N_("only a pawn reaching the last rank promotes")));
            return illegal(phrase(N_("a pawn promotes to a queen, rook, bishop or knight")));
        }
        ++fitting;
    }
    if (fitting > 0) {
        if (pos.in_check())
            return illegal(phrase(N_("you are in check and it does not answer the check")));
        return illegal(phrase(N_("that leaves your king in check")));
    }
    const Piece target = pos.piece_on(from_square(syntax.to));
    if (target.kind != PieceKind::None && target.seat == us)
        return illegal(phrase(N_("your own {piece} stands on {square}"),
                              {{"piece", piece_word(target.kind)}, square(syntax.to)}));
    if (syntax.from_file >= 0 && syntax.from_rank >= 0) {
        const Piece from = pos.piece_on(make_sq(syntax.from_file, syntax.from_rank));
        const Square fs(syntax.from_file, syntax.from_rank);
        if (from.kind == PieceKind::None)
            return illegal(phrase(N_("there is no piece on {square}"), {square(fs)}));
        if (from.seat != us)
            return illegal(phrase(N_("the piece on {square} is not yours"), {square(fs)}));
        if (syntax.piece != PieceKind::None && syntax.piece != from.kind)
            return illegal(phrase(
                N_("there is no {piece} on {square}: your {own} stands there"),
                {{"piece", piece_word(syntax.piece)}, square(fs), {"own", piece_word(from.kind)}}));
        return illegal(
            phrase(N_("the {piece} on {from} cannot reach {square}"),
                   {{"piece", piece_word(from.kind)}, {"from", fs.name()}, square(syntax.to)}));
    }
    const Phrase who = piece_word(syntax.piece); // "piece" when none was written
    if (syntax.piece == PieceKind::Pawn && syntax.capture && target.kind == PieceKind::None)
        return illegal(phrase(N_("there is nothing to capture on {square}"), {square(syntax.to)}));
    return illegal(
        syntax.capture
            ? phrase(N_("no {piece} can capture on {square}"), {{"piece", who}, square(syntax.to)})
            : phrase(N_("no {piece} can reach {square}"), {{"piece", who}, square(syntax.to)}));
}

} // namespace ghostpost::rules::chess
