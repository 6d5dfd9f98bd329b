// The command grammar: a prefix, a command word, words separated by white space. A platform
// may write the bot's name after the word ("/new@ghostpost_bot chess"); the "@bot" suffix is
// split off so the service can ignore commands addressed to another bot.
#pragma once

#include "ghostpost/platform/text.h"

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

// The text cut to at most `max_chars` characters (code points), with "..." when cut; for
// echoing user input in replies.
std::string shorten(std::string_view text, std::size_t max_chars = 40);

// Text made harmless for a reply: control characters (NUL, BEL, ESC, DEL, the C1 range, carriage
// returns, line and paragraph separators) and the bidirectional embeddings, overrides, isolates
// and marks are left out, so that echoed text cannot drive a terminal or reverse a line; line
// breaks and tabs stay. Bytes that are not UTF-8 become U+FFFD.
std::string harmless_text(std::string_view text);
// A display name or handle as it is stored and shown: control characters left out, and each
// invisible or direction-changing character (zero-width spaces and joiners, soft hyphen,
// bidirectional controls) shown as U+FFFD, so that "ali\u200Bce" cannot pass for "alice" and a
// name cannot reverse the line or table cell it is shown in.
std::string harmless_name(std::string_view name);

} // namespace ghostpost::bot
