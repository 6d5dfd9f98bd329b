// libFuzzer target: the command grammar (parse_command, valid_utf8, shorten) on any bytes. Each
// function is checked against what its contract promises, and valid_utf8 against a second,
// table-driven reading of the Unicode standard (Table 3-7, well-formed byte sequences).
#include "ghostpost/service/command.h"
#include "invariant.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

using ghostpost::bot::parse_command;
using ghostpost::bot::shorten;
using ghostpost::bot::valid_utf8;

using ghostpost::fuzz::check;

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
bool is_alpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_continuation(char c) {
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// Unicode 15, Table 3-7: the lead byte fixes the length and the range of the second byte.
bool reference_utf8(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto b = static_cast<unsigned char>(s[i]);
        std::size_t length = 0;
        unsigned char low = 0x80, high = 0xBF;
        if (b <= 0x7F)
            length = 1;
        else if (b >= 0xC2 && b <= 0xDF)
            length = 2;
        else if (b == 0xE0)
            length = 3, low = 0xA0;
        else if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF)
            length = 3;
        else if (b == 0xED)
            length = 3, high = 0x9F;
        else if (b == 0xF0)
            length = 4, low = 0x90;
        else if (b >= 0xF1 && b <= 0xF3)
            length = 4;
        else if (b == 0xF4)
            length = 4, high = 0x8F;
        else
            return false;
        if (s.size() - i < length)
            return false;
        for (std::size_t k = 1; k < length; ++k) {
            const auto c = static_cast<unsigned char>(s[i + k]);
            const unsigned char lo = k == 1 ? low : 0x80, hi = k == 1 ? high : 0xBF;
            if (c < lo || c > hi)
                return false;
        }
        i += length;
    }
    return true;
}

// Characters as shorten counts them: every byte that does not continue a sequence.
std::size_t lead_bytes(std::string_view s) {
    return static_cast<std::size_t>(
        std::count_if(s.begin(), s.end(), [](char c) { return !is_continuation(c); }));
}

std::vector<std::string> words(std::string_view s) {
    std::vector<std::string> out;
    std::string word;
    for (char c : s) {
        if (is_space(c)) {
            if (!word.empty())
                out.push_back(word);
            word.clear();
        } else {
            word += c;
        }
    }
    if (!word.empty())
        out.push_back(word);
    return out;
}

std::string lower(std::string s) {
    for (char& c : s)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return s;
}

void check_parse(std::string_view text) {
    // An empty prefix is configuration nonsense and must be ignored, not match everything.
    static const std::vector<std::string> prefixes{"", "!", "/", "gp:"};
    const auto command = parse_command(text, prefixes);

    std::string_view rest = text;
    while (!rest.empty() && is_space(rest.front()))
        rest.remove_prefix(1);
    const std::string* used = nullptr;
    for (const auto& p : prefixes)
        if (!p.empty() && rest.size() > p.size() && rest.starts_with(p) &&
            is_alpha(rest[p.size()])) {
            used = &p;
            break;
        }
    check(command.has_value() == (used != nullptr),
          "a command exactly when a prefix meets a letter");
    if (!command)
        return;

    check(!command->name.empty(), "the command name is not empty");
    check(is_alpha(command->name.front()), "the command name starts with a letter");
    for (char c : command->name)
        check(!(c >= 'A' && c <= 'Z') && !is_space(c) && c != '@',
              "the name is one lower-case word");
    for (char c : command->addressee)
        check(!is_space(c), "the addressee is one word");
    for (const auto& arg : command->args)
        check(!arg.empty() && std::none_of(arg.begin(), arg.end(), is_space),
              "each argument is one word");

    // The words after the prefix are the head ("name@addressee") and the arguments, as written.
    const auto expected = words(rest.substr(used->size()));
    check(expected.size() == command->args.size() + 1,
          "every word after the command is an argument");
    const std::string& head = expected.front();
    const auto at = head.find('@');
    check(lower(head.substr(0, at)) == command->name, "the name is the head word in lower case");
    check(at == std::string::npos ? command->addressee.empty()
                                  : head.substr(at + 1) == command->addressee,
          "the addressee is what follows the first @");
    check(std::equal(command->args.begin(), command->args.end(), expected.begin() + 1),
          "the arguments are the words as written");
}

void check_shorten(std::string_view text, std::size_t max_chars, bool valid) {
    const std::string out = shorten(text, max_chars);
    if (lead_bytes(text) <= max_chars) {
        check(out == text, "text that fits is returned whole");
        return;
    }
    check(out.size() >= 3 && out.ends_with("..."), "a cut text ends with ...");
    const std::string_view kept = std::string_view(out).substr(0, out.size() - 3);
    check(text.starts_with(kept) && kept.size() < text.size(), "a cut text keeps a prefix");
    check(lead_bytes(kept) == max_chars, "a cut text keeps exactly max_chars characters");
    check(!is_continuation(text[kept.size()]), "the cut falls between characters");
    if (valid)
        check(valid_utf8(kept), "a cut of valid UTF-8 is valid UTF-8");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    const bool valid = valid_utf8(text);
    check(valid == reference_utf8(text), "valid_utf8 agrees with Table 3-7");

    check_parse(text);

    for (std::size_t max_chars : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{40}})
        check_shorten(text, max_chars, valid);
    if (size > 0)
        check_shorten(text.substr(1), data[0] % 64, valid_utf8(text.substr(1)));
    return 0;
}
