// The translations: one gettext catalog (.po) per language, read once at start-up, and the
// rendering of a Text in one language, chosen per reply (never per process: no setlocale).
#pragma once

#include "ghostpost/i18n/text.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ghostpost::i18n {

// The languages shipped, as the catalogs name them ("de", "pt_BR"); English is the source.
const std::vector<std::string>& shipped_languages();
// The pseudo-language that wraps every message in ⟦ ⟧: a reply with text outside the brackets
// was built without the catalog. For tests and translators.
inline constexpr std::string_view pseudo_language = "qps";

// The shipped language a tag asks for ("de-AT" -> "de", "pt" -> "pt_BR", "zh-Hans" ->
// "zh_CN", "EN_us" -> "en", "qps" -> "qps"); nullopt when none fits.
std::optional<std::string> supported_language(std::string_view tag);

// The language an HTTP Accept-Language header asks for most ("fr-CH, fr;q=0.9, de;q=0.8" ->
// "fr"), among those shipped and English; "en" when it names none of them. Never throws.
std::string negotiated_language(std::string_view accept_language);

// `text` with its first letter in upper case, in any script that has cases ("сыграть" ->
// "Сыграть"); unchanged when it has none.
std::string capitalized(std::string_view text);

class Catalogs {
public:
    // Reads `<dir>/<language>.po` for every shipped language, and the template
    // `<dir>/ghostpost.pot` for the messages the catalogs are made of; a missing file leaves that
    // language to English. Throws std::runtime_error naming the file on a file it cannot read.
    static Catalogs load(const std::string& dir);
    // Only the English sources (and the pseudo-language).
    Catalogs() = default;

    // `text` in `language` (a supported_language() name): each message's translation when the
    // catalog has one, else its English source.
    std::string render(const Text& text, std::string_view language) const;
    // The translation of a message's source, or nullptr.
    const std::string* translation(std::string_view language, std::string_view source,
                                   std::string_view context = {}) const;
    bool has(std::string_view language) const {
        return by_language_.count(std::string(language)) > 0;
    }

private:
    std::string render_piece(const Text::Piece& piece, std::string_view language) const;
    std::map<std::string, std::unordered_map<std::string, std::string>> by_language_;
    // The template's messages: in the pseudo-language a message that is not one of them (a word
    // of the rules looked up by kind, missing from the catalogs) is shown unwrapped, as missing.
    std::unordered_map<std::string, bool> sources_;
};

// The catalogs of this process: read on first use from $GHOSTPOST_CATALOGS, else from the
// first of the build's and the installation's catalog folders that exists.
const Catalogs& catalogs();
// Where catalogs() reads them from, "" when no folder was found (English only).
std::string catalog_dir();

// The placeholders of a pattern, sorted; the plural and select keywords it offers per
// placeholder. Throws std::invalid_argument when `pattern` is no valid MessageFormat.
struct PatternShape {
    std::vector<std::string> names;
    std::map<std::string, std::vector<std::string>> keywords;
    std::vector<std::string> plurals; // the placeholders counted with `plural`
};
PatternShape pattern_shape(std::string_view pattern);
// What is wrong with `<dir>/<language>.po` against the template `<dir>/ghostpost.pot`, one line
// a problem: a message missing, untranslated or fuzzy; placeholders that differ from the
// source's; a count without every plural category of the language; a pattern that does not
// parse; a message the template no longer has.
std::vector<std::string> catalog_problems(const std::string& dir, const std::string& language);
// The plural categories `language` needs ("one", "few", "many", "other" for "ru").
std::vector<std::string> plural_categories(std::string_view language);

} // namespace ghostpost::i18n
