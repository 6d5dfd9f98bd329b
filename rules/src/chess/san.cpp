#include "chess/san.h"

namespace ghostpost::rules::chess {

std::string to_san(Position& pos, const Move& m, const MoveList& legal) {
    std::string out;
    if (m.type == MoveType::Castle) {
        out = m.to > m.from ? "O-O" : "O-O-O";
    } else if (m.type == MoveType::Drop) {
        out = std::string(1, piece_letter(m.piece)) + "@" + to_square(m.to).name();
    } else {
        const Piece moving = pos.piece_on(m.from);
        const bool capture =
            pos.piece_on(m.to).kind != PieceKind::None || m.type == MoveType::EnPassant;
        if (moving.kind == PieceKind::Pawn) {
            if (capture)
                out += static_cast<char>('a' + file_of(m.from));
        } else {
            out += piece_letter(moving.kind);
            // Other pieces of the same kind that can also go there legally.
            bool clash = false, same_file = false, same_rank = false;
            for (const Move& o : legal) {
                if (o.to != m.to || o.from == m.from || o.type == MoveType::Drop ||
                    pos.piece_on(o.from).kind != moving.kind)
                    continue;
                clash = true;
                same_file |= file_of(o.from) == file_of(m.from);
                same_rank |= rank_of(o.from) == rank_of(m.from);
            }
            if (clash) {
                if (!same_file)
                    out += static_cast<char>('a' + file_of(m.from));
                else if (!same_rank)
                    out += std::to_string(rank_of(m.from) + 1);
                else
                    out += to_square(m.from).name();
            }
        }
        if (capture)
            out += 'x';
        out += to_square(m.to).name();
        if (m.type == MoveType::Promotion) {
            out += '=';
            out += piece_letter(m.piece);
        }
    }
    pos.do_move(m);
    if (pos.in_check()) {
        MoveList replies;
        pos.generate_legal(replies);
        out += replies.size() == 0 ? '#' : '+';
    }
    pos.undo_move();
    return out;
}

Action to_action(const Position& pos, const Move& m) {
    Action a;
    a.to = to_square(m.to);
    if (m.type == MoveType::Drop) {
        a.kind = ActionKind::Drop;
        a.piece = m.piece;
        return a;
    }
    a.kind = ActionKind::Move;
    a.from = to_square(m.from);
    a.piece = pos.piece_on(m.from).kind;
    if (m.type == MoveType::Promotion)
        a.promotion = m.piece;
    return a;
}

std::vector<Action> to_actions(const Position& pos, const MoveList& legal) {
    std::vector<Action> out;
    out.reserve(legal.size());
    for (const Move& m : legal)
        out.push_back(to_action(pos, m));
    return out;
}

std::vector<NotatedAction> notate(Position& pos, const MoveList& legal) {
    std::vector<NotatedAction> out;
    out.reserve(legal.size());
    for (const Move& m : legal)
        out.push_back(NotatedAction{to_action(pos, m), to_san(pos, m, legal)});
    return out;
}

std::string to_lan(const Move& m) {
    if (m.type == MoveType::Drop)
        return std::string(1, piece_letter(m.piece)) + "@" + to_square(m.to).name();
    std::string out = to_square(m.from).name() + to_square(m.to).name();
    if (m.type == MoveType::Promotion)
        out += static_cast<char>(piece_letter(m.piece) - 'A' + 'a');
    return out;
}

} // namespace ghostpost::rules::chess
