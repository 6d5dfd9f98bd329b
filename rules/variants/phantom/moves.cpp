// Phantom Chess moves: the chess core already moves the Phantom (ferz + knight) and makes
// drops; this file decides where the Phantom may enter and how every move is announced.
#include "ghostpost/variants/pieces.h"
#include "phantom.h"

#include <cassert>

namespace ghostpost::rules::phantom {

using chess::bb;
using chess::Bitboard;
using chess::Move;
using chess::MoveList;
using chess::MoveType;
using chess::Position;
using chess::Sq;

Bitboard entry_squares(const Position& pos, EntryRules rules) {
    const Seat us = pos.side_to_move(), them = opponent(us);
    if (pos.in_hand(us, pieces::phantom) == 0)
        return 0;
    const chess::Tables& t = chess::tables();
    Bitboard targets = ~pos.pieces();
    if (rules.capture)
        targets |= pos.pieces(them) & ~pos.pieces(them, PieceKind::King);
    if (Sq their_king = pos.king_square(them); their_king >= 0 && !rules.check)
        targets &= ~(t.knight[their_king] | t.ferz[their_king]);
    if (Sq ksq = pos.king_square(us); ksq >= 0) {
        // A new piece never uncovers the king, so only a check already given matters: the
        // Phantom may block a slider's check, or take the checker when captures are allowed.
        const Bitboard checkers = pos.checkers();
        if (chess::more_than_one(checkers))
            return 0;
        if (checkers)
            targets &= t.between[ksq][chess::lsb(checkers)] | checkers;
    }
    return targets;
}

void generate(const Position& pos, EntryRules rules, MoveList& out) {
    pos.generate_legal(out);
    for (Bitboard b = entry_squares(pos, rules); b;) {
        const auto s = static_cast<std::uint8_t>(chess::pop_lsb(b));
        out.push({s, s, MoveType::Drop, pieces::phantom});
    }
}

std::uint64_t perft(Position& pos, EntryRules rules, int depth) {
    if (depth <= 0)
        return 1;
    MoveList moves;
    generate(pos, rules, moves);
    if (depth == 1)
        return moves.size();
    std::uint64_t nodes = 0;
    for (const Move& m : moves) {
        pos.do_move(m);
        assert(pos.is_consistent());
        nodes += perft(pos, rules, depth - 1);
        pos.undo_move();
    }
    return nodes;
}

std::string announce(Position& pos, const Move& m, EntryRules rules) {
    std::string out;
    const Seat us = pos.side_to_move();
    if (m.type == MoveType::Castle) {
        out = m.to > m.from ? "O-O" : "O-O-O";
    } else if (m.type == MoveType::Drop) {
        out = std::string(1, piece_letter(m.piece)) + "@" +
              (pos.piece_on(m.to).kind != PieceKind::None ? "x" : "") +
              chess::to_square(m.to).name();
    } else {
        const Piece moving = pos.piece_on(m.from);
        const bool capture =
            pos.piece_on(m.to).kind != PieceKind::None || m.type == MoveType::EnPassant;
        if (moving.kind == PieceKind::Pawn) {
            if (capture)
                out += static_cast<char>('a' + chess::file_of(m.from));
        } else {
            out += piece_letter(moving.kind);
            // Twins that could go there on the board everyone sees. This is a superset of the
            // twins that legally can (Phantoms only ever block), so texts stay unique, and it
            // depends on nothing hidden, so the announcement never hints at a Phantom.
            const Bitboard occ = visible(pos);
            bool clash = false, same_file = false, same_rank = false;
            Bitboard twins = pos.pieces(us, moving.kind) & ~bb(m.from);
            while (twins) {
                const Sq o = chess::pop_lsb(twins);
                if (!(chess::attacks_of(moving.kind, us, o, occ) & bb(m.to)))
                    continue;
                clash = true;
                same_file |= chess::file_of(o) == chess::file_of(m.from);
                same_rank |= chess::rank_of(o) == chess::rank_of(m.from);
            }
            if (clash) {
                if (!same_file)
                    out += static_cast<char>('a' + chess::file_of(m.from));
                else if (!same_rank)
                    out += std::to_string(chess::rank_of(m.from) + 1);
                else
                    out += chess::to_square(m.from).name();
            }
        }
        if (capture)
            out += 'x';
        out += chess::to_square(m.to).name();
        if (m.type == MoveType::Promotion) {
            out += '=';
            out += piece_letter(m.piece);
        }
    }
    pos.do_move(m);
    if (pos.in_check()) {
        // Mate only when no reply exists, entries included (an entry may block the check).
        MoveList replies;
        generate(pos, rules, replies);
        out += replies.size() == 0 ? '#' : '+';
    }
    pos.undo_move();
    return out;
}

Phrase phantom_on(const Position& pos, Sq s, Seat viewer) {
    const Seat owner = pos.piece_on(s).seat;
    const Phrase::Arg square{"square", chess::to_square(s).name()};
    if (owner == viewer)
        return phrase(N_("your Phantom on {square}"), {square});
    return phrase(N_("{seat}'s Phantom on {square}"),
                  {{"seat", Phrase{"seat", owner == Seat::White ? "White" : "Black", {}}}, square});
}

} // namespace ghostpost::rules::phantom
