// The command grammar: a prefix, a command word, words separated by white space. Telegram
// writes "/new@ghostpost_bot chess"; the "@bot" suffix is split off so the service can ignore
// commands addressed to another bot.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ghostpost::bot {

struct Command {
    std::string name;              // lower case, without prefix or "@bot" suffix: "new", "m"
    std::string addressee;         // the "@bot" suffix without '@', empty when none
    std::vector<std::string> args; // the words after the command, as written
};

// The command in `text`, or nullopt when the text does not start (after spaces) with one of the
// prefixes directly followed by a letter: "!new chess" is a command, "! wow" and "!!" are not.
std::optional<Command> parse_command(std::string_view text,
                                     const std::vector<std::string>& prefixes);

// Whether `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF).
bool valid_utf8(std::string_view text);

// The text cut to at most `max_chars` characters (code points), with "..." when cut; for
// echoing user input in replies.
std::string shorten(std::string_view text, std::size_t max_chars = 40);

} // namespace ghostpost::bot
