// Moves typed with a language's own piece letters (issue #38): German "Sf3" for Nf3, French
// "Cf3", Russian "Кf3". The notation the service writes stays the English one everyone in a
// channel shares; only what a player types is read more kindly.
#include "ghostpost/rules/notation.h"

#include <array>
#include <cctype>
#include <utility>

namespace ghostpost::rules {

namespace {

struct Letter {
    std::string_view local;
    char english;
};

struct Letters {
    std::string_view language;
    std::string_view name; // as said in an explanation: "in French letters"
    // The longest letters first: Russian "Кр" (king) before "К" (knight).
    std::array<Letter, 5> letters;
};

// FIDE's pieces only, as each language writes them in its own algebraic notation; a letter
// that is the English one for the same piece (German K, Portuguese B) is left out.
constexpr std::array<Letters, 6> tables{{
    {"de", "German", {{{"D", 'Q'}, {"T", 'R'}, {"L", 'B'}, {"S", 'N'}, {"", 0}}}},
    {"fr", "French", {{{"R", 'K'}, {"D", 'Q'}, {"T", 'R'}, {"F", 'B'}, {"C", 'N'}}}},
    {"es", "Spanish", {{{"R", 'K'}, {"D", 'Q'}, {"T", 'R'}, {"A", 'B'}, {"C", 'N'}}}},
    {"pt_BR", "Portuguese", {{{"R", 'K'}, {"D", 'Q'}, {"T", 'R'}, {"C", 'N'}, {"", 0}}}},
    {"ru",
     "Russian",
     {{{"\u041a\u0440", 'K'}, {"\u0424", 'Q'}, {"\u041b", 'R'}, {"\u0421", 'B'}, {"\u041a", 'N'}}}},
    {"zh_CN",
     "Chinese",
     {{{"\u738b", 'K'}, {"\u540e", 'Q'}, {"\u8f66", 'R'}, {"\u8c61", 'B'}, {"\u9a6c", 'N'}}}},
}};

const Letters* letters_of(std::string_view language) {
    for (const auto& t : tables)
        if (t.language == language)
            return &t;
    return nullptr;
}

// The local letter at `text[at]`, if any.
const Letter* letter_at(const Letters& t, std::string_view text, std::size_t at) {
    for (const auto& l : t.letters)
        if (!l.local.empty() && text.substr(at, l.local.size()) == l.local)
            return &l;
    return nullptr;
}

// `text` with the piece letter that leads it and the one it promotes to (after "=" or right
// after the last rank) rewritten by `swap`, which returns how many bytes it read and what it
// wrote, or 0 when no letter is there.
template <class Swap> std::optional<std::string> rewrite(std::string_view text, Swap swap) {
    std::size_t b = 0;
    while (b < text.size() && std::isspace(static_cast<unsigned char>(text[b])))
        ++b;
    std::string out(text.substr(0, b));
    bool changed = false;
    if (auto [read, wrote] = swap(text, b); read > 0) {
        out += wrote;
        b += read;
        changed = true;
    }
    for (std::size_t i = b; i < text.size(); ++i) {
        const bool after_rank = i > 0 && std::isdigit(static_cast<unsigned char>(text[i - 1]));
        const bool after_equals = i > 0 && text[i - 1] == '=';
        if (after_rank || after_equals) {
            if (auto [read, wrote] = swap(text, i); read > 0) {
                // A promotion letter ends the move (annotations aside): "e8D", "e8=D+".
                std::size_t end = i + read;
                while (end < text.size() && !std::isalnum(static_cast<unsigned char>(text[end])) &&
                       static_cast<unsigned char>(text[end]) < 0x80)
                    ++end;
                if (end == text.size()) {
                    out += wrote;
                    out += text.substr(i + read);
                    return out;
                }
            }
        }
        out += text[i];
    }
    if (!changed)
        return std::nullopt;
    return out;
}

} // namespace

namespace {

// with_english_letters, telling whether a letter it rewrote is also an English piece letter
// (French R, the king, is the English rook): only then may the text as typed mean another move.
std::optional<std::string> english_letters(std::string_view text, std::string_view language,
                                           bool& also_english) {
    also_english = false;
    const Letters* t = letters_of(language);
    if (!t)
        return std::nullopt;
    return rewrite(text, [&](std::string_view s, std::size_t at) {
        const Letter* l = letter_at(*t, s, at);
        if (!l)
            return std::pair<std::size_t, std::string>{0, ""};
        if (l->local.size() == 1 &&
            std::string_view("KQRBN").find(l->local[0]) != std::string_view::npos)
            also_english = true;
        return std::pair<std::size_t, std::string>{l->local.size(), std::string(1, l->english)};
    });
}

} // namespace

std::optional<std::string> with_english_letters(std::string_view text, std::string_view language) {
    bool also_english = false;
    return english_letters(text, language, also_english);
}

std::optional<std::string> with_local_letters(std::string_view text, std::string_view language) {
    const Letters* t = letters_of(language);
    if (!t)
        return std::nullopt;
    return rewrite(text, [&](std::string_view s, std::size_t at) {
        if (at < s.size())
            for (const auto& l : t->letters)
                if (!l.local.empty() && l.english == s[at])
                    return std::pair<std::size_t, std::string>{1, std::string(l.local)};
        return std::pair<std::size_t, std::string>{0, ""};
    });
}

Result<NotatedAction> parse_action(const Game& game, Seat seat, std::string_view text,
                                   std::string_view language) {
    bool also_english = false;
    const auto local = english_letters(text, language, also_english);
    if (!local)
        return parse_action(game, seat, text);
    auto read = parse_action(game, seat, *local);
    // A reading counts when it is a move of the position the mover sees: legal, or refused for
    // a reason only hidden pieces give. What the mover cannot see never picks the reading.
    const auto counts = [](const Result<NotatedAction>& r) {
        return r.ok() || !r.error().private_detail.empty();
    };
    auto typed = parse_action(game, seat, text);
    if (!also_english) {
        // A letter that is no English piece letter (German S, Spanish C) means the player's
        // piece, refusal and reason included: a forgiving reading of the text as typed ("Cc3"
        // as the pawn move c3) is not what was meant. A variant's word that begins with such a
        // letter (German T of "Transcend") is that word: the action it names is written so.
        const std::string shown = strip_annotations(text);
        if (!counts(read) && typed.ok() && !typed->text.empty() && !shown.empty() &&
            typed->text.front() == shown.front())
            return typed;
        return read;
    }
    if (!counts(read))
        return typed;
    if (!counts(typed))
        return read;
    if (typed.ok() && read.ok() && typed->action == read->action)
        return typed;
    // Both readings are moves here (French "Rf3": a rook's in English letters, the king's in
    // French ones): the player says which with letters that have one meaning.
    const std::string shown(strip_annotations(text));
    const std::string english = strip_annotations(*local);
    const auto own = with_local_letters(shown, language);
    RuleError e = make_error(
        ErrorKind::Ambiguous,
        phrase(N_("{move} reads as {move} in English piece letters and as {english} in {language} "
                  "ones: write {own} or {english} to say which"),
               {{"move", shown},
                {"english", english},
                {"language", Phrase{"language", std::string(letters_of(language)->name), {}}},
                {"own", own ? *own : shown}}));
    if (typed.ok())
        e.candidates.push_back(typed->text);
    if (read.ok())
        e.candidates.push_back(read->text);
    return e;
}

bool looks_like_action(const Game& game, Seat seat, std::string_view text,
                       std::string_view language) {
    if (looks_like_action(game, seat, text))
        return true;
    const auto local = with_english_letters(text, language);
    return local && looks_like_action(game, seat, *local);
}

} // namespace ghostpost::rules
