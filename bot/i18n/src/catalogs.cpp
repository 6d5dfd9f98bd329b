#include "ghostpost/i18n/catalogs.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <gettext-po.h>
#include <memory>
#include <stdexcept>
#include <unicode/locid.h>
#include <unicode/messagepattern.h>
#include <unicode/msgfmt.h>
#include <unicode/plurrule.h>
#include <unicode/strenum.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <variant>

namespace ghostpost::i18n {

Arg::Arg(std::string name_, Text value_)
    : name(std::move(name_)), value(std::make_shared<const Text>(std::move(value_))) {}

Text Text::message(std::string_view source, std::vector<Arg> args, std::string_view context) {
    Text t;
    t.pieces_.push_back({false, std::string(source), std::string(context), std::move(args)});
    return t;
}

Text Text::verbatim(std::string text) {
    Text t;
    if (!text.empty())
        t.pieces_.push_back({true, std::move(text), {}, {}});
    return t;
}

Text Text::capitalized(Text text) {
    if (!text.pieces_.empty())
        text.pieces_.front().capital = true;
    return text;
}

Text& Text::operator+=(const Text& more) {
    pieces_.insert(pieces_.end(), more.pieces_.begin(), more.pieces_.end());
    return *this;
}

const std::vector<std::string>& shipped_languages() {
    static const std::vector<std::string> all{"de", "fr", "es", "ru", "pt_BR", "zh_CN"};
    return all;
}

std::string negotiated_language(std::string_view accept_language) {
    struct Choice {
        double weight;
        std::size_t order;
        std::string language;
    };
    std::vector<Choice> choices;
    std::size_t order = 0;
    while (!accept_language.empty() && order < 64) {
        const std::size_t comma = std::min(accept_language.find(','), accept_language.size());
        std::string_view item = accept_language.substr(0, comma);
        accept_language.remove_prefix(std::min(comma + 1, accept_language.size()));
        const std::size_t semicolon = std::min(item.find(';'), item.size());
        std::string_view tag = item.substr(0, semicolon);
        while (!tag.empty() && (tag.front() == ' ' || tag.front() == '\t'))
            tag.remove_prefix(1);
        while (!tag.empty() && (tag.back() == ' ' || tag.back() == '\t'))
            tag.remove_suffix(1);
        double weight = 1.0;
        if (const std::size_t q = item.find("q=", semicolon); q != std::string_view::npos) {
            const std::string value(item.substr(q + 2, 5));
            char* end = nullptr;
            weight = std::strtod(value.c_str(), &end);
            if (end == value.c_str() || weight < 0 || weight > 1)
                weight = 0;
        }
        ++order;
        const auto language = supported_language(tag);
        if (weight > 0 && language && *language != pseudo_language)
            choices.push_back({weight, order, *language});
    }
    std::stable_sort(choices.begin(), choices.end(),
                     [](const Choice& a, const Choice& b) { return a.weight > b.weight; });
    return choices.empty() ? std::string("en") : choices.front().language;
}

std::string capitalized(std::string_view text) {
    icu::UnicodeString u = icu::UnicodeString::fromUTF8(
        icu::StringPiece(text.data(), static_cast<std::int32_t>(text.size())));
    if (u.isEmpty())
        return std::string(text);
    const UChar32 first = u.char32At(0);
    const UChar32 upper = u_toupper(first);
    if (upper == first)
        return std::string(text);
    u.replace(0, first <= 0xFFFF ? 1 : 2, upper);
    std::string out;
    u.toUTF8String(out);
    return out;
}

std::optional<std::string> supported_language(std::string_view tag) {
    std::string t;
    for (char c : tag)
        t += c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::string primary = t.substr(0, t.find('_'));
    if (t == pseudo_language)
        return std::string(pseudo_language);
    if (primary == "en")
        return std::string("en");
    if (primary == "pt")
        return std::string("pt_BR"); // the one Portuguese shipped
    if (primary == "zh") {
        // Traditional script is not shipped: Simplified would be the wrong writing.
        if (t.find("hant") != std::string::npos || t == "zh_tw" || t == "zh_hk" || t == "zh_mo")
            return std::nullopt;
        return std::string("zh_CN");
    }
    for (const auto& l : shipped_languages())
        if (l == primary)
            return l;
    return std::nullopt;
}

namespace {

[[noreturn]] void fatal_catalog(const char* filename, std::size_t lineno, const char* text) {
    // libgettextpo requires a fatal error's handler not to return, and cannot be unwound
    // through: the daemon stops with the file and line, as for a broken configuration.
    std::fprintf(stderr, "ghostpost: catalog %s:%zu: %s\n", filename ? filename : "?", lineno,
                 text ? text : "unreadable");
    std::exit(2);
}

void on_error(int severity, po_message_t, const char* filename, std::size_t lineno, std::size_t,
              int, const char* text) {
    if (severity == PO_SEVERITY_FATAL_ERROR)
        fatal_catalog(filename, lineno, text);
    std::fprintf(stderr, "ghostpost: catalog %s:%zu: %s\n", filename ? filename : "?", lineno,
                 text ? text : "");
}

void on_error2(int severity, po_message_t, const char* filename1, std::size_t lineno1, std::size_t,
               int, const char* text1, po_message_t, const char*, std::size_t, std::size_t, int,
               const char*) {
    on_error(severity, nullptr, filename1, lineno1, 0, 0, text1);
}

std::string key_of(std::string_view context, std::string_view source) {
    std::string key(context);
    if (!key.empty())
        key += '\x04'; // gettext's own separator of a context from its msgid
    key += source;
    return key;
}

icu::UnicodeString unicode(std::string_view s) {
    return icu::UnicodeString::fromUTF8(icu::StringPiece(s.data(), static_cast<int32_t>(s.size())));
}

std::string utf8(const icu::UnicodeString& s) {
    std::string out;
    s.toUTF8String(out);
    return out;
}

icu::Locale locale_of(std::string_view language) {
    return icu::Locale(std::string(language == pseudo_language ? "en" : language).c_str());
}

} // namespace

Catalogs Catalogs::load(const std::string& dir) {
    Catalogs out;
    std::vector<std::string> files{"ghostpost.pot"};
    for (const auto& language : shipped_languages())
        files.push_back(language + ".po");
    for (const auto& name : files) {
        const std::string language = name.substr(0, name.find('.'));
        const bool pot = name.ends_with(".pot");
        const std::string path = dir + "/" + name;
        if (!std::filesystem::exists(path))
            continue;
        const po_xerror_handler handler{on_error, on_error2};
        po_file_t file = po_file_read(path.c_str(), &handler);
        if (file == nullptr)
            throw std::runtime_error("cannot read the catalog " + path);
        po_message_iterator_t it = po_message_iterator(file, nullptr);
        while (po_message_t m = po_next_message(it)) {
            const char* id = po_message_msgid(m);
            const char* str = po_message_msgstr(m);
            if (pot) {
                if (id != nullptr && *id != '\0' && !po_message_is_obsolete(m)) {
                    const char* ctx = po_message_msgctxt(m);
                    out.sources_[key_of(ctx ? ctx : "", id)] = true;
                }
                continue;
            }
            auto& messages = out.by_language_[language];
            if (po_message_is_obsolete(m) || po_message_is_fuzzy(m) || id == nullptr ||
                *id == '\0' || str == nullptr || *str == '\0')
                continue;
            const char* ctx = po_message_msgctxt(m);
            messages[key_of(ctx ? ctx : "", id)] = str;
        }
        po_message_iterator_free(it);
        po_file_free(file);
    }
    return out;
}

const std::string* Catalogs::translation(std::string_view language, std::string_view source,
                                         std::string_view context) const {
    auto lang = by_language_.find(std::string(language));
    if (lang == by_language_.end())
        return nullptr;
    auto m = lang->second.find(key_of(context, source));
    return m == lang->second.end() ? nullptr : &m->second;
}

namespace {

// An argument as it is formatted: text (a nested message already written), or a number.
using Value = std::variant<std::string, std::int64_t>;

// `pattern` formatted with `values`; nullopt when the pattern is invalid or its placeholders are
// not exactly the names given.
std::optional<std::string> format(std::string_view pattern, std::string_view language,
                                  const std::vector<std::string>& names,
                                  const std::vector<Value>& given_values) {
    PatternShape shape;
    try {
        shape = pattern_shape(pattern);
    } catch (const std::invalid_argument&) {
        return std::nullopt;
    }
    std::vector<std::string> given = names;
    std::sort(given.begin(), given.end());
    given.erase(std::unique(given.begin(), given.end()), given.end());
    if (given != shape.names)
        return std::nullopt;
    // A number is formatted as one (1,500 or 1 500) only where it is counted; elsewhere it is
    // an identifier, as game #1234, and written in plain digits in every language.
    std::vector<icu::Formattable> values;
    for (std::size_t i = 0; i < given_values.size(); ++i)
        if (const auto* text = std::get_if<std::string>(&given_values[i]))
            values.emplace_back(unicode(*text));
        else if (const std::int64_t n = std::get<std::int64_t>(given_values[i]);
                 std::find(shape.plurals.begin(), shape.plurals.end(), names[i]) !=
                 shape.plurals.end())
            values.emplace_back(static_cast<int64_t>(n));
        else
            values.emplace_back(unicode(std::to_string(n)));
    if (names.empty()) {
        // No placeholder: a pattern still reads '' as one apostrophe.
        UErrorCode status = U_ZERO_ERROR;
        icu::MessageFormat mf(unicode(pattern), locale_of(language), status);
        icu::UnicodeString out;
        icu::FieldPosition pos;
        mf.format(nullptr, 0, out, pos, status);
        if (U_FAILURE(status))
            return std::nullopt;
        return utf8(out);
    }
    UErrorCode status = U_ZERO_ERROR;
    icu::MessageFormat mf(unicode(pattern), locale_of(language), status);
    if (U_FAILURE(status))
        return std::nullopt;
    std::vector<icu::UnicodeString> unames;
    for (const auto& n : names)
        unames.push_back(unicode(n));
    icu::UnicodeString out;
    mf.format(unames.data(), values.data(), static_cast<int32_t>(values.size()), out, status);
    if (U_FAILURE(status))
        return std::nullopt;
    return utf8(out);
}

} // namespace

std::string Catalogs::render_piece(const Text::Piece& piece, std::string_view language) const {
    if (piece.verbatim)
        return piece.text;
    std::vector<std::string> names;
    std::vector<Value> values;
    for (const auto& a : piece.args) {
        names.push_back(a.name);
        if (const auto* s = std::get_if<std::string>(&a.value))
            values.emplace_back(*s);
        else if (const auto* n = std::get_if<std::int64_t>(&a.value))
            values.emplace_back(*n);
        else
            values.emplace_back(render(*std::get<std::shared_ptr<const Text>>(a.value), language));
    }
    if (const std::string* t = translation(language, piece.text, piece.context))
        if (auto done = format(*t, language, names, values))
            return *done;
    auto source = format(piece.text, language, names, values);
    if (!source)
        // A message whose placeholders differ from what the code gives is a bug of the code:
        // the tests render every message they reach.
        throw std::logic_error("message \"" + piece.text + "\" does not fit its placeholders");
    if (language == pseudo_language &&
        (sources_.empty() || sources_.count(key_of(piece.context, piece.text)) != 0))
        return "\u27e6" + *source + "\u27e7";
    return *source;
}

std::string Catalogs::render(const Text& text, std::string_view language) const {
    std::string out;
    for (const auto& p : text.pieces())
        out += p.capital ? capitalized(render_piece(p, language)) : render_piece(p, language);
    return out;
}

PatternShape pattern_shape(std::string_view pattern) {
    UErrorCode status = U_ZERO_ERROR;
    icu::MessagePattern mp(unicode(pattern), nullptr, status);
    if (U_FAILURE(status))
        throw std::invalid_argument("not a message pattern: " + std::string(pattern));
    PatternShape shape;
    // The placeholders open at this point, innermost last: a keyword belongs to the innermost,
    // so one after a placeholder nested in a branch ("one {game {games}} other ...") is still
    // its plural's.
    std::vector<std::string> open;
    bool plural_follows = false;
    for (int32_t i = 0; i < mp.countParts(); ++i) {
        const icu::MessagePattern::Part& part = mp.getPart(i);
        const auto type = part.getType();
        if (type == UMSGPAT_PART_TYPE_ARG_START) {
            plural_follows = part.getArgType() == UMSGPAT_ARG_TYPE_PLURAL;
            open.emplace_back();
        } else if (type == UMSGPAT_PART_TYPE_ARG_LIMIT) {
            if (!open.empty())
                open.pop_back();
        } else if (type == UMSGPAT_PART_TYPE_ARG_NAME) {
            const std::string name = utf8(mp.getSubstring(part));
            if (!open.empty())
                open.back() = name;
            shape.names.push_back(name);
            if (plural_follows)
                shape.plurals.push_back(name);
            plural_follows = false;
        } else if (type == UMSGPAT_PART_TYPE_ARG_SELECTOR && !open.empty()) {
            shape.keywords[open.back()].push_back(utf8(mp.getSubstring(part)));
        } else if (type == UMSGPAT_PART_TYPE_ARG_NUMBER) {
            throw std::invalid_argument("a numbered placeholder in: " + std::string(pattern));
        }
    }
    std::sort(shape.names.begin(), shape.names.end());
    shape.names.erase(std::unique(shape.names.begin(), shape.names.end()), shape.names.end());
    for (auto& [name, words] : shape.keywords)
        std::sort(words.begin(), words.end());
    return shape;
}

std::vector<std::string> plural_categories(std::string_view language) {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::PluralRules> rules(
        icu::PluralRules::forLocale(locale_of(language), status));
    std::vector<std::string> out;
    if (U_FAILURE(status))
        return out;
    std::unique_ptr<icu::StringEnumeration> words(rules->getKeywords(status));
    while (const icu::UnicodeString* w = words->snext(status))
        out.push_back(utf8(*w));
    std::sort(out.begin(), out.end());
    return out;
}

namespace {

struct Entry {
    std::string translation;
    bool fuzzy = false;
};

// The messages of a catalog or template by key, obsolete ones left out.
std::map<std::string, Entry> read_entries(const std::string& path) {
    std::map<std::string, Entry> out;
    const po_xerror_handler handler{on_error, on_error2};
    po_file_t file = po_file_read(path.c_str(), &handler);
    if (file == nullptr)
        return out;
    po_message_iterator_t it = po_message_iterator(file, nullptr);
    while (po_message_t m = po_next_message(it)) {
        const char* id = po_message_msgid(m);
        if (po_message_is_obsolete(m) || id == nullptr || *id == '\0')
            continue;
        const char* ctx = po_message_msgctxt(m);
        const char* str = po_message_msgstr(m);
        out[key_of(ctx ? ctx : "", id)] = {str ? str : "", po_message_is_fuzzy(m) != 0};
    }
    po_message_iterator_free(it);
    po_file_free(file);
    return out;
}

std::string source_of(const std::string& key) {
    const auto eot = key.find('\x04');
    return eot == std::string::npos ? key : key.substr(eot + 1) + " [" + key.substr(0, eot) + "]";
}

} // namespace

std::vector<std::string> catalog_problems(const std::string& dir, const std::string& language) {
    std::vector<std::string> problems;
    const std::string path = dir + "/" + language + ".po";
    if (!std::filesystem::exists(path))
        return {"no catalog " + path};
    const auto sources = read_entries(dir + "/ghostpost.pot");
    const auto catalog = read_entries(path);
    const auto categories = plural_categories(language);
    for (const auto& [key, unused] : sources) {
        const std::string source = source_of(key);
        auto found = catalog.find(key);
        if (found == catalog.end() || found->second.translation.empty()) {
            problems.push_back("missing: " + source);
            continue;
        }
        if (found->second.fuzzy)
            problems.push_back("fuzzy: " + source);
        const std::string msgid =
            key.substr(key.find('\x04') == std::string::npos ? 0 : key.find('\x04') + 1);
        PatternShape want;
        PatternShape got;
        try {
            want = pattern_shape(msgid);
            got = pattern_shape(found->second.translation);
        } catch (const std::invalid_argument& e) {
            problems.push_back(std::string("not a message pattern: ") + source);
            continue;
        }
        if (want.names != got.names)
            problems.push_back("placeholders differ: " + source);
        std::sort(want.plurals.begin(), want.plurals.end());
        std::sort(got.plurals.begin(), got.plurals.end());
        if (want.plurals != got.plurals)
            problems.push_back("counted placeholders differ: " + source);
        for (const auto& name : got.plurals) {
            const auto& offered = got.keywords[name];
            for (const auto& category : categories)
                if (std::find(offered.begin(), offered.end(), category) == offered.end())
                    problems.push_back("{" + name + "} lacks the plural form \"" + category +
                                       "\": " + source);
        }
    }
    for (const auto& [key, unused] : catalog)
        if (sources.count(key) == 0)
            problems.push_back("not in the template: " + source_of(key));
    return problems;
}

std::string catalog_dir() {
    if (const char* env = std::getenv("GHOSTPOST_CATALOGS"); env != nullptr && *env != '\0')
        return env;
    for (const char* dir : {GHOSTPOST_SOURCE_CATALOGS, GHOSTPOST_INSTALLED_CATALOGS})
        if (std::filesystem::exists(std::string(dir) + "/de.po"))
            return dir;
    return {};
}

const Catalogs& catalogs() {
    static const Catalogs loaded = [] {
        const std::string dir = catalog_dir();
        return dir.empty() ? Catalogs() : Catalogs::load(dir);
    }();
    return loaded;
}

} // namespace ghostpost::i18n
