#include "ghostpost/rules/setup.h"

#include <cctype>
#include <charconv>

namespace ghostpost::rules {
namespace {

RuleError bad(std::string why) {
    return make_error(ErrorKind::BadSetup, std::move(why));
}

std::vector<std::string> split_fields(std::string_view text) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
            ++i;
        std::size_t j = i;
        while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j])))
            ++j;
        if (j > i)
            out.emplace_back(text.substr(i, j - i));
        i = j;
    }
    return out;
}

// A whole number from `lo` to `hi`, nothing else in the field.
std::optional<int> read_count(std::string_view s, int lo, int hi) {
    int v = 0;
    if (s.empty() || s.size() > 6)
        return std::nullopt;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi)
        return std::nullopt;
    return v;
}

} // namespace

int Setup::count(char letter) const {
    int n = 0;
    for (char c : squares)
        n += c == letter;
    return n;
}

int Setup::count_bracketed(char letter) const {
    int n = 0;
    for (char c : bracketed.value_or(""))
        n += c == letter;
    return n;
}

Piece Setup::piece_of(char letter) {
    const auto c = static_cast<unsigned char>(letter);
    if (!std::isalpha(c))
        return Piece{};
    return Piece{piece_from_letter(static_cast<char>(std::toupper(c))),
                 std::isupper(c) ? Seat::White : Seat::Black};
}

Result<Setup> read_fen(std::string_view text, const FenShape& shape) {
    const std::vector<std::string> fields = split_fields(text);
    if (fields.size() < 2 || fields.size() > shape.max_fields) {
        if (!shape.field_count.empty())
            return bad(std::string(shape.field_count));
        return bad(fields.size() < 2
                       ? "a FEN needs at least the placement and the side to move"
                       : "a FEN has at most " + std::to_string(shape.max_fields) + " fields");
    }
    Setup out;
    out.files = shape.files;
    out.ranks = shape.ranks;
    out.squares.assign(static_cast<std::size_t>(shape.files * shape.ranks), '\0');

    std::string_view placement = fields[0];
    if (const auto open = placement.find('['); shape.brackets && open != std::string_view::npos) {
        if (placement.back() != ']')
            return bad("the list in brackets must close with ]");
        out.bracketed = std::string(placement.substr(open + 1, placement.size() - open - 2));
        placement = placement.substr(0, open);
    }
    const std::string files = std::to_string(shape.files);
    int rank = shape.ranks - 1, file = 0;
    auto more_than = [&] {
        return "rank " + std::to_string(rank + 1) + " has more than " + files + " squares";
    };
    for (std::size_t i = 0; i < placement.size(); ++i) {
        const char c = placement[i];
        if (c == '/') {
            if (file != shape.files)
                return bad("rank " + std::to_string(rank + 1) + " does not have " + files +
                           " squares");
            if (rank == 0)
                return bad("the placement has more than " + std::to_string(shape.ranks) + " ranks");
            --rank;
            file = 0;
        } else if (c >= '0' && c <= '9') {
            // Boards wider than nine squares write a run of ten empty squares as "10".
            int n = 0;
            while (i < placement.size() && placement[i] >= '0' && placement[i] <= '9' &&
                   n <= shape.files)
                n = n * 10 + (placement[i++] - '0');
            --i;
            if (n == 0 || c == '0' || file + n > shape.files)
                return bad(more_than());
            file += n;
        } else if (std::isalpha(static_cast<unsigned char>(c))) {
            if (file >= shape.files)
                return bad(more_than());
            out.squares[static_cast<std::size_t>(rank * shape.files + file)] = c;
            ++file;
        } else {
            return bad(std::string("unknown piece letter '") + c + "'");
        }
    }
    if (rank != 0 || file != shape.files)
        return bad("the placement must have " + std::to_string(shape.ranks) + " ranks of " + files +
                   " squares");

    std::string_view side = fields[1];
    if (const auto colon = side.find(':'); shape.side_note && colon != std::string_view::npos) {
        out.side_note = std::string(side.substr(colon + 1));
        side = side.substr(0, colon);
    }
    if (side != "w" && side != "b")
        return bad(shape.bad_side.empty() ? std::string("the side to move must be w or b")
                                          : std::string(shape.bad_side));
    out.side = side == "w" ? Seat::White : Seat::Black;
    out.fields.assign(fields.begin() + 2, fields.end());
    return out;
}

Result<StandardFields> read_standard_fields(const std::vector<std::string>& fields) {
    StandardFields out;
    const auto field = [&](std::size_t i) {
        return i < fields.size() ? std::string_view(fields[i]) : std::string_view("-");
    };
    if (field(0) != "-") {
        for (char c : field(0)) {
            const auto at = std::string_view("KQkq").find(c);
            if (at == std::string_view::npos)
                return bad(std::string("unknown castling right '") + c + "'");
            out.castling |= static_cast<std::uint8_t>(1u << at);
        }
    }
    if (field(1) != "-") {
        const auto sq = parse_square(field(1));
        if (!sq || (sq->rank != 2 && sq->rank != 5))
            return bad("the en passant square must be on rank 3 or 6");
        out.ep = sq;
    }
    const auto half = fields.size() > 2 ? read_count(fields[2], 0, 1000) : 0;
    const auto full = fields.size() > 3 ? read_count(fields[3], 1, 10000) : 1;
    // Bounded, so that playing on from the FEN cannot overflow the counters.
    if (!half || !full)
        return bad("the move counters must be a number from 0 to 1000 and a number from 1 to "
                   "10000");
    out.halfmove = *half;
    out.fullmove = *full;
    return out;
}

} // namespace ghostpost::rules
