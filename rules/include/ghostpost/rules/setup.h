// A position as a FEN writes it, before any variant has judged it (shakmaty's Setup): the letters
// on the squares, the side to move and the fields that follow, which may describe no position a
// game could reach. One reader, read_fen, does the syntax every variant shares (ranks and digits,
// the field count, the side, a list in brackets after the placement); each variant then turns a
// Setup into its own state through one constructor that names every reason it cannot
// (Checked<T>), so a FEN with three faults is told all three.
#pragma once

#include "ghostpost/rules/types.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace ghostpost::rules {

struct Setup {
    int files = 8;
    int ranks = 8;
    // The letter on each square as written (upper case White, lower case Black), a1 first, rank
    // by rank; '\0' on an empty square. Letters no variant knows stay letters: the variant judges.
    std::vector<char> squares;
    // What stood in brackets right after the placement (pieces in hand "[Ff]", or a
    // variant's own list such as "[Bc6,nd4]"), without the brackets; nullopt when there were none.
    std::optional<std::string> bracketed;
    Seat side = Seat::White;
    // What followed the side letter after a colon (a variant's pending decision, "b:w-Reaction"),
    // without the colon; nullopt when the side field was the letter alone.
    std::optional<std::string> side_note;
    // The fields after the side, as written.
    std::vector<std::string> fields;

    char at(int file, int rank) const {
        return squares[static_cast<std::size_t>(rank * files + file)];
    }
    // How many times `letter` stands on the board.
    int count(char letter) const;
    // How many times `letter` stands in the bracketed list.
    int count_bracketed(char letter) const;
    // The piece a letter names, with its seat from its case; None for what names no piece.
    static Piece piece_of(char letter);
};

// What a variant's FEN looks like to the shared reader.
struct FenShape {
    int files = 8;
    int ranks = 8;
    bool brackets = false;      // a list in brackets may follow the placement
    bool side_note = false;     // the side may be followed by a colon and a note
    std::size_t max_fields = 6; // placement and side included
    // The variant's own wording of two refusals (empty: the shared reader's): too few or too many
    // fields, and a side that is not w or b.
    std::string_view field_count{};
    std::string_view bad_side{};
};

// Reads the shared syntax of `text`. Errors (BadSetup, the reason as message): fewer than two
// fields or more than the shape allows, a rank of the wrong length, a character that is neither
// a letter, a digit nor '/', an unclosed bracket, a side other than w or b.
Result<Setup> read_fen(std::string_view text, const FenShape& shape = {});

// The four fields of the FIDE layout after the side: castling rights, the en passant square and
// the two move counters; a missing field reads as "-", "-", 0, 1.
struct StandardFields {
    std::uint8_t castling = 0; // bits: 1 K, 2 Q, 4 k, 8 q
    std::optional<Square> ep;  // a square of rank 3 or 6 (not yet checked against the side)
    int halfmove = 0;
    int fullmove = 1;
};

// Reads `fields` (the Setup's, or their first ones) as the FIDE layout. Errors (BadSetup): a
// castling letter other than K Q k q, an en passant field that is no square of rank 3 or 6,
// counters that are no whole numbers from 0 to 1000 and from 1 to 10000.
Result<StandardFields> read_standard_fields(const std::vector<std::string>& fields);

// A value made from a Setup, or every reason the Setup cannot be one, in the order a reader finds
// them (the first is the one a reply shows).
template <class T> class [[nodiscard]] Checked {
public:
    Checked(T value) : v_(std::move(value)) {}
    Checked(std::vector<std::string> reasons) : v_(std::move(reasons)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() & { return std::get<0>(v_); }
    const T& value() const& { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    const std::vector<std::string>& reasons() const { return std::get<1>(v_); }
    // The first reason, what a one-line reply shows; empty when there is a value.
    std::string first_reason() const { return ok() ? std::string() : reasons().front(); }

private:
    std::variant<T, std::vector<std::string>> v_;
};

// Reads `text` in `shape` and judges the Setup with `judge` (a Setup -> Checked<T>): what the
// judge makes of it, or the syntax error alone when the text does not read.
template <class Judge>
auto read_checked(std::string_view text, const FenShape& shape, Judge judge)
    -> decltype(judge(std::declval<const Setup&>())) {
    auto setup = read_fen(text, shape);
    if (!setup)
        return std::vector<std::string>{setup.error().message};
    return judge(*setup);
}

// Adds `why` to `reasons` unless it is there already: a fault seen on several squares is told
// once.
inline void tell_once(std::vector<std::string>& reasons, std::string why) {
    for (const std::string& r : reasons)
        if (r == why)
            return;
    reasons.push_back(std::move(why));
}

} // namespace ghostpost::rules
