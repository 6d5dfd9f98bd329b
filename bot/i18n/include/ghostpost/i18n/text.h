// What a person reads, before it is put into their language. A Text is a list of catalog
// messages (an English source pattern with named placeholders, in ICU MessageFormat) and
// verbatim pieces (a move, a name, a board), rendered in a language only when the reply knows
// who reads it: one Text can go to a German player and a French channel.
#pragma once

#include <concepts>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace ghostpost::i18n {

class Text;

// One named placeholder's value: words shown as they are (a name, a move, "#12"), a number
// (counted: "{n, plural, one {# move} other {# moves}}"), or another Text, rendered in the same
// language first.
struct Arg {
    using Value = std::variant<std::string, std::int64_t, std::shared_ptr<const Text>>;
    Arg(std::string name_, std::string value_) : name(std::move(name_)), value(std::move(value_)) {}
    Arg(std::string name_, const char* value_)
        : name(std::move(name_)), value(std::string(value_)) {}
    template <std::integral T>
    Arg(std::string name_, T value_)
        : name(std::move(name_)), value(static_cast<std::int64_t>(value_)) {}
    Arg(std::string name_, Text value_);
    std::string name;
    Value value;
};

class Text {
public:
    Text() = default;
    // The catalog's message `source` (its msgid), in `context` when the same English words
    // need two translations.
    static Text message(std::string_view source, std::vector<Arg> args = {},
                        std::string_view context = {});
    // Shown as written in every language: notation, a name, a board, a player's own words.
    static Text verbatim(std::string text);
    // `text` with its first letter in upper case once written, in whichever language: a clause
    // of the rules ("your piece now stands on c3") begins a sentence.
    static Text capitalized(Text text);

    Text& operator+=(const Text& more);
    friend Text operator+(Text a, const Text& b) { return a += b; }
    bool empty() const { return pieces_.empty(); }

    struct Piece {
        bool verbatim = false;
        std::string text; // the message's source, or the verbatim words
        std::string context;
        std::vector<Arg> args;
        bool capital = false; // written with its first letter in upper case
    };
    const std::vector<Piece>& pieces() const { return pieces_; }

private:
    std::vector<Piece> pieces_;
};

// A catalog message: the name xgettext extracts (`--keyword=tr --keyword=trc:1c,2`).
inline Text tr(std::string_view source, std::vector<Arg> args = {}) {
    return Text::message(source, std::move(args));
}
inline Text trc(std::string_view context, std::string_view source, std::vector<Arg> args = {}) {
    return Text::message(source, std::move(args), context);
}
// Marks a source kept in a table (a command's help) as a catalog message, for tr() later.
constexpr const char* N_(const char* source) {
    return source;
}
inline Text verbatim(std::string text) {
    return Text::verbatim(std::move(text));
}

} // namespace ghostpost::i18n
