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

namespace {

// The end of the brace group that opens at `open` (pattern[open] == '{'), or npos.
std::size_t group_end(std::string_view pattern, std::size_t open) {
    int depth = 0;
    for (std::size_t i = open; i < pattern.size(); ++i) {
        if (pattern[i] == '{')
            ++depth;
        else if (pattern[i] == '}' && --depth == 0)
            return i;
    }
    return std::string_view::npos;
}

std::string written(std::string_view pattern, const std::vector<Phrase::Arg>& args,
                    const std::string* count);

std::string value_of(const std::vector<Phrase::Arg>& args, std::string_view name) {
    for (const Phrase::Arg& a : args)
        if (a.name == name)
            return std::holds_alternative<std::string>(a.value)
                       ? std::get<std::string>(a.value)
                       : std::get<Phrase>(a.value).english();
    return {};
}

// "{n, plural, one {# die} other {# dice}}" in English: the branch "=N", "one" for 1, else
// "other", with # the count.
std::string plural(std::string_view body, const std::vector<Phrase::Arg>& args,
                   const std::string& count) {
    std::string chosen, other;
    bool exact = false;
    std::size_t i = 0;
    while (i < body.size()) {
        while (i < body.size() && body[i] == ' ')
            ++i;
        const std::size_t open = body.find('{', i);
        if (open == std::string_view::npos)
            break;
        std::string_view key = body.substr(i, open - i);
        while (!key.empty() && key.back() == ' ')
            key.remove_suffix(1);
        const std::size_t close = group_end(body, open);
        if (close == std::string_view::npos)
            break;
        const std::string branch(body.substr(open + 1, close - open - 1));
        if (key == "other")
            other = branch;
        else if (!exact && ((key == "one" && count == "1") ||
                            (key.starts_with("=") && key.substr(1) == count))) {
            chosen = branch;
            exact = key.starts_with("=");
        }
        i = close + 1;
    }
    const std::string& text = chosen.empty() ? other : chosen;
    return written(text, args, &count);
}

std::string written(std::string_view pattern, const std::vector<Phrase::Arg>& args,
                    const std::string* count) {
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] == '#' && count != nullptr) {
            out += *count;
            continue;
        }
        if (pattern[i] != '{') {
            out += pattern[i];
            continue;
        }
        const std::size_t end = group_end(pattern, i);
        if (end == std::string_view::npos) {
            out += pattern.substr(i);
            break;
        }
        const std::string_view inner = pattern.substr(i + 1, end - i - 1);
        const std::size_t comma = inner.find(',');
        if (comma == std::string_view::npos) {
            out += value_of(args, inner);
        } else {
            // "name, plural, branches": the only other syntax a pattern of the rules may use.
            const std::string_view name = inner.substr(0, comma);
            const std::size_t second = inner.find(',', comma + 1);
            if (second != std::string_view::npos)
                out += plural(inner.substr(second + 1), args, value_of(args, name));
        }
        i = end;
    }
    return out;
}

} // namespace

bool Phrase::operator==(const Phrase& other) const {
    return context == other.context && pattern == other.pattern && args == other.args;
}

bool Phrase::Arg::operator==(const Arg& other) const {
    return name == other.name && value == other.value;
}

std::string Phrase::english() const {
    return written(pattern, args, nullptr);
}

Phrase piece_word(PieceKind k) {
    return Phrase{"piece", std::string(piece_name(k)), {}};
}

} // namespace ghostpost::rules
