// The small helpers the service's replies share: command usages, names, results, movetext and
// wrapped lines, and the buttons under a board. Private to the service.
#pragma once

#include "ghostpost/league/clock.h"
#include "ghostpost/rules/game.h"
#include "ghostpost/service/service.h"
#include "people.h"
#include "replies.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ghostpost::bot {

using rules::Seat;
using storage::GameRecord;
using storage::GameStatus;
using storage::OfferKind;
using storage::PlayerRecord;

namespace detail {

// One command's form (after the prefix) and its line in !help.
struct Usage {
    const char* name;
    const char* form;
    const char* help;
};
// The usage of a command or sub-command ("tourney join"), by its name or an alias; nullptr for
// none (commands.cpp).
const Usage* find_usage(const std::string& name);
std::string canonical_command(const std::string& name); // "m" -> "move", ...

std::string lower(std::string_view s);
std::string strip_at(std::string_view s);
// How a player is named in replies: "@handle", or the display name when the account has no
// handle (then no "@": nobody could write it back).
std::string at(const PlayerRecord& p);
// "#12" or "12" as a game id; nullopt for anything else.
std::optional<std::int64_t> game_id_arg(const std::string& arg);
std::string result_text(rules::Status s); // "1-0", "0-1", "1/2-1/2", "*"
std::string capitalized(std::string s);
// Rules messages are clauses; a reply ends them as a sentence once.
std::string sentence_end(std::string s);
// A phrase of the rules as a message of the catalogs, written in each reader's language.
Text said(const rules::Phrase& phrase);
// Why the rules refused, ended as a sentence: the error's phrase while it is still its message,
// else the message as the rules wrote it.
Text reason_of(const rules::RuleError& e);
// `english` as the rules wrote it, in the reader's language when `phrase` still says it.
Text text_of(const std::string& english, const rules::Phrase& phrase);
// The reason only the mover may read (RuleError::private_detail), on the same terms.
Text private_reason_of(const rules::RuleError& e);
// Why `text` is no time control (parse_time_control), as a sentence; one that goes on
// another's words ("Not created: the cap...") when `clause`.
Text time_control_problem(const TimeControlParse& parsed, std::string_view text,
                          bool clause = false);
std::string join(const std::vector<std::string>& items, const std::string& sep);
std::string options_text(const rules::Options& options);
// Movetext "1. e4 e5 2. Nf3": a number before each turn of White's.
std::string movetext(const std::vector<storage::ActionRecord>& log);
// The public reveals, rolls and results that chance made of one action, one per line, as the
// action log keeps them for !verify (service_verify.cpp).
std::string chance_record(const std::vector<rules::Event>& events);
// Breaks text into lines of at most `width` characters at spaces.
std::string wrap(const std::string& text, std::size_t width);
// Movetext in lines of at most `width` characters, broken only before a move number, so "12."
// never stands apart from its moves (a turn longer than a line is broken at spaces).
std::string wrap_moves(const std::string& movetext, std::size_t width);
// Whether `text` names an action `seat` may take turn or no turn (Game::anytime_action).
bool names_anytime_action(const rules::Game& game, rules::Seat seat, const std::string& text);

// The buttons under a challenge: Accept, and Decline when it is addressed to someone
// (service_chat.cpp, as the next three). `prefix` is the command prefix.
std::vector<storage::ButtonRecord> challenge_buttons(const std::string& prefix,
                                                     const GameRecord& g);
// The buttons under a board of a game under way: Offer draw, and Resign (which asks first);
// none once the game is over.
std::vector<storage::ButtonRecord> game_buttons(const std::string& prefix, const GameRecord& g);
std::vector<storage::ButtonRecord> draw_offer_buttons(const std::string& prefix,
                                                      const GameRecord& g);
// Under the question a Resign press asks `asker`: Yes (for that seat only) and No.
std::vector<storage::ButtonRecord> resign_buttons(const std::string& prefix, const GameRecord& g,
                                                  Seat asker);
// Whether the channel's board of `g` leaves out a piece some seat sees.
inline bool hides_pieces(const rules::Game& g) {
    const rules::BoardView shown = g.public_view().board();
    return g.seat_view(Seat::White).board().cells != shown.cells ||
           g.seat_view(Seat::Black).board().cells != shown.cells;
}
Text service_options_text(const GameRecord& g); // "Clock: 3d per move; rated."
// The digest as !settings shows it: "08:00" (UTC), or "off" (service_digest.cpp).
std::string digest_words(const std::optional<storage::DigestRecord>& digest);
std::string new_code(); // "K7QD-M2XP": 8 characters nobody reads wrongly (service_link.cpp)

} // namespace detail

} // namespace ghostpost::bot
