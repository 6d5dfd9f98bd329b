#include "ghostpost/rules/types.h"

#include "ghostpost/rules/art.h"

namespace ghostpost::rules {

std::string_view seat_name(Seat s) {
    return s == Seat::White ? "white" : "black";
}

std::string Square::name() const {
    if (!valid())
        return "-";
    std::string out(1, static_cast<char>('a' + file));
    out += std::to_string(rank + 1);
    return out;
}

std::optional<Square> parse_square(std::string_view text, int files, int ranks) {
    if (text.size() < 2 || text.size() > 3 || text[0] < 'a' || text[0] >= 'a' + files)
        return std::nullopt;
    int rank = 0;
    for (char c : text.substr(1)) {
        if (c < '0' || c > '9')
            return std::nullopt;
        rank = rank * 10 + (c - '0');
    }
    if (text[1] == '0' || rank < 1 || rank > ranks)
        return std::nullopt;
    return Square(text[0] - 'a', rank - 1);
}

char piece_letter(PieceKind k) {
    switch (k) {
    case PieceKind::Pawn:
        return 'P';
    case PieceKind::Knight:
        return 'N';
    case PieceKind::Bishop:
        return 'B';
    case PieceKind::Rook:
        return 'R';
    case PieceKind::Queen:
        return 'Q';
    case PieceKind::King:
        return 'K';
    case PieceKind::None:
        break;
    default:
        if (const ExtraPiece* extra = extra_piece(k))
            return extra->letter;
        break;
    }
    return ' ';
}

PieceKind piece_from_letter(char upper) {
    switch (upper) {
    case 'P':
        return PieceKind::Pawn;
    case 'N':
        return PieceKind::Knight;
    case 'B':
        return PieceKind::Bishop;
    case 'R':
        return PieceKind::Rook;
    case 'Q':
        return PieceKind::Queen;
    case 'K':
        return PieceKind::King;
    default:
        for (const ExtraPiece& extra : extra_pieces())
            if (extra.letter == upper)
                return extra.kind;
        return PieceKind::None;
    }
}

std::string_view piece_name(PieceKind k) {
    switch (k) {
    case PieceKind::Pawn:
        return "pawn";
    case PieceKind::Knight:
        return "knight";
    case PieceKind::Bishop:
        return "bishop";
    case PieceKind::Rook:
        return "rook";
    case PieceKind::Queen:
        return "queen";
    case PieceKind::King:
        return "king";
    case PieceKind::None:
        break;
    default:
        if (const ExtraPiece* extra = extra_piece(k))
            return extra->name;
        break;
    }
    return "piece";
}

} // namespace ghostpost::rules

namespace ghostpost::rules {

std::string Phrase::english() const {
    // A pattern of the rules has named placeholders and no other MessageFormat syntax.
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] == '{') {
            const std::size_t end = pattern.find('}', i);
            if (end != std::string::npos) {
                const std::string name = pattern.substr(i + 1, end - i - 1);
                for (const Arg& a : args)
                    if (a.name == name) {
                        out += std::holds_alternative<std::string>(a.value)
                                   ? std::get<std::string>(a.value)
                                   : std::get<Phrase>(a.value).english();
                        break;
                    }
                i = end;
                continue;
            }
        }
        out += pattern[i];
    }
    return out;
}

Phrase piece_word(PieceKind k) {
    return Phrase{"piece", std::string(piece_name(k)), {}};
}

} // namespace ghostpost::rules
