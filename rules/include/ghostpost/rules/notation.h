// Reading actions people type. Parsing matches the text against the canonical texts of the
// legal actions, so one parser serves every variant: exact disambiguation and precise errors
// come from comparing with what is legal, not from a grammar per variant.
#pragma once

#include "ghostpost/rules/game.h"

#include <optional>
#include <string>
#include <string_view>

namespace ghostpost::rules {

// The legal action of `seat` that `text` means, with its canonical text. The text is read and
// disambiguated against Game::seen_actions (what the mover sees), then checked against the true
// legal actions; a move only hidden pieces forbid is Illegal with its reason in private_detail.
// Accepts the canonical text and forgiving forms:
// 0-0 for O-O, LAN (e2e4, e2-e4, Ng1f3, e7e8q), over-specified SAN, a missing x (bc3, never a
// bare push: c3 is no capture) or =, missing or
// extra + # ! ?, an "e.p." suffix, lower-case piece letters where unambiguous, surrounding
// spaces and punctuation, and special-action words in any case.
// Errors: NotYourTurn, GameOver, NotAMove (the text is not shaped like an action), Ambiguous
// (with the canonical candidates), Illegal (with the game's reason).
Result<NotatedAction> parse_action(const Game& game, Seat seat, std::string_view text);

// The action a game's own record names: a canonical text of `seat`'s true actions as written
// (the record was written from the truth; "Nxd4" may take a piece only its owner sees, which the
// mover did not see, which a typed "Nxd4" may not), otherwise what parse_action reads. For stored
// logs, PGN and replays, never for a player's post. Errors: those of parse_action.
Result<NotatedAction> read_recorded_action(const Game& game, Seat seat, std::string_view text);

// Whether `text` is meant as an action of this game: it parses, or it is shaped like a move
// (so a refusal with a reason is due). Plain chatter answers false.
bool looks_like_action(const Game& game, Seat seat, std::string_view text);

// A move typed in the piece letters of `language` (a catalog's name: "de", "fr", "es", "pt_BR",
// "ru", "zh_CN"), as German "Sf3" or "e8=D", written with the English letters: "Nf3", "e8=Q".
// Only the leading piece letter and the promotion letter change; nullopt when the language has
// no letters of its own or the text uses none of them.
std::optional<std::string> with_english_letters(std::string_view text, std::string_view language);
// The other way: "Rf3" written in French letters is "Tf3".
std::optional<std::string> with_local_letters(std::string_view text, std::string_view language);

// parse_action reading a player's own piece letters too: the text as typed, or in English
// letters when only that reading is a move here (judged by what the mover sees). When both
// readings are moves and differ (French "Rf3": a rook in English, the king in French), the
// answer is Ambiguous, naming a spelling of each that has one meaning.
Result<NotatedAction> parse_action(const Game& game, Seat seat, std::string_view text,
                                   std::string_view language);
// looks_like_action, a move typed in the player's own letters included.
bool looks_like_action(const Game& game, Seat seat, std::string_view text,
                       std::string_view language);

// Breaks a move written in SAN or LAN into its parts; nullopt when it is not shaped like a move.
std::optional<ActionSyntax> parse_syntax(std::string_view text, int files = 8, int ranks = 8);

// The text stripped of what never changes its meaning: surrounding spaces and punctuation,
// trailing + # ! ? and an "e.p." suffix.
std::string strip_annotations(std::string_view text);

// The key of a word typed for an anytime action ("Peek", "policy roll 4 hold 20"): lower case,
// without surrounding annotations, spaces, dashes, colons and "=". Unlike a move's key it drops
// no letter, so "peekxxx" is not "peek".
std::string word_key(std::string_view text);

} // namespace ghostpost::rules
