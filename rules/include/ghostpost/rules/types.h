// Small value types shared by every variant: seats, squares, pieces and the result type for
// user mistakes. Boards are at most 10x10, so a square fits in two small ints.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace ghostpost::rules {

// The two sides. White (whatever a variant calls it: VariantInfo::seat_names) always decides
// first.
enum class Seat : std::uint8_t { White, Black };

constexpr Seat opponent(Seat s) {
    return s == Seat::White ? Seat::Black : Seat::White;
}
constexpr std::size_t index(Seat s) {
    return static_cast<std::size_t>(s);
}
std::string_view seat_name(Seat s); // "white" / "black"

inline constexpr int max_files = 10;
inline constexpr int max_ranks = 10;

// A square as (file, rank), both 0-based: a1 is {0, 0}, j10 is {9, 9}. A default square is
// "none" and prints as "-".
struct Square {
    std::int8_t file = -1;
    std::int8_t rank = -1;

    constexpr Square() = default;
    constexpr Square(int f, int r)
        : file(static_cast<std::int8_t>(f)), rank(static_cast<std::int8_t>(r)) {}
    constexpr bool valid() const { return file >= 0 && rank >= 0; }
    constexpr bool operator==(const Square&) const = default;
    std::string name() const; // "e4", "a10"; "-" when not valid
};

// Parses "e4" or "j10" against a board of the given size; nullopt for anything else.
std::optional<Square> parse_square(std::string_view text, int files = 8, int ranks = 8);

// Every kind of piece of every variant: chess's six (letters P N B R Q K in notation), then the
// pieces variants add. A variant that adds a piece gives it its letter, its name and its art
// (ExtraPiece, art.h) in its own folder, so no shared code knows what an extra piece is called.
enum class PieceKind : std::uint8_t {
    None,
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
    Extra1,
    Extra2,
    Extra3,
    Extra4,
};

char piece_letter(PieceKind k);           // 'P', 'N', ... ; ' ' for None
PieceKind piece_from_letter(char upper);  // None when the letter names no piece
std::string_view piece_name(PieceKind k); // "knight", ...; an extra piece's own name

struct Piece {
    PieceKind kind = PieceKind::None;
    Seat seat = Seat::White;
    constexpr bool operator==(const Piece&) const = default;
};

// What was wrong with a user's action, in words a reply can carry as they are.
enum class ErrorKind : std::uint8_t {
    NotAMove,    // the text is not an action at all
    Illegal,     // a well-formed action the position does not allow
    Ambiguous,   // several legal actions match; candidates lists them
    NotYourTurn, // the seat has no decision to make now
    GameOver,    // nothing can be decided any more
    BadSetup,    // a start position, FEN or game option that cannot be used
};

// Marks a pattern of the rules as a message of the catalogs (scripts/update-catalogs.sh finds
// it), and is the pattern itself.
constexpr const char* N_(const char* pattern) {
    return pattern;
}

// A sentence of the rules with named parts, "{move} is not possible: {why}", so that a reader
// gets it in their language: `pattern` is a catalog message in English (or, with `context`, a
// word such as a piece's name), each argument plain text or another phrase. english() is the
// sentence as RuleError::message holds it. A count is written as ICU's plural of its digits,
// "{count, plural, one {# die} other {# dice}}", so that each language has its own forms.
struct Phrase {
    struct Arg;
    std::string context;
    std::string pattern;
    std::vector<Arg> args;
    std::string english() const;
    bool operator==(const Phrase&) const;
};
struct Phrase::Arg {
    std::string name;
    std::variant<std::string, Phrase> value;
    bool operator==(const Arg&) const; // written out: clang 14 fails on a defaulted one here
};
inline Phrase phrase(const char* pattern, std::vector<Phrase::Arg> args = {}) {
    return Phrase{{}, pattern, std::move(args)};
}
// A piece's name ("knight"), looked up in the catalogs under "piece".
Phrase piece_word(PieceKind k);

struct RuleError {
    ErrorKind kind = ErrorKind::Illegal;
    std::string message;                 // safe for everyone to read
    std::string private_detail;          // only for the acting seat (hidden-information reasons)
    std::vector<std::string> candidates; // canonical texts, for Ambiguous
    // `message` as a phrase, when the rules wrote it as one; a reader's language is used only
    // while phrase.english() is still `message` (a message rewritten later keeps its English).
    Phrase phrase;
    Phrase private_phrase; // private_detail as a phrase, on the same terms
};

// A value or the reason there is none. Shaped like std::expected, which GCC 12 lacks in C++20.
template <class T> class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::move(value)) {}
    Result(RuleError error) : v_(std::move(error)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() & { return std::get<0>(v_); }
    const T& value() const& { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    T* operator->() { return &std::get<0>(v_); }
    const T* operator->() const { return &std::get<0>(v_); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    const RuleError& error() const { return std::get<1>(v_); }

private:
    std::variant<T, RuleError> v_;
};

inline RuleError make_error(ErrorKind kind, std::string message) {
    return RuleError{kind, std::move(message), {}, {}, {}, {}};
}
inline RuleError make_error(ErrorKind kind, Phrase said) {
    std::string message = said.english();
    return RuleError{kind, std::move(message), {}, {}, std::move(said), {}};
}

} // namespace ghostpost::rules
