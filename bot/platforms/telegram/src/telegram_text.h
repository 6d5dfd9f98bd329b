// Text helpers private to the Telegram adapter: what it does to every string that came from
// outside before the service, a log or the database sees it.
#pragma once

#include "ghostpost/telegram/telegram.h"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ghostpost::bot::telegram_text {

// A forum topic's channel is "<chat id>/<message_thread_id>"; a press of a button is the post
// "callback:<query id>".
inline constexpr std::string_view topic_separator = "/";
inline constexpr std::string_view callback_prefix = "callback:";

// `text` with every invalid UTF-8 sequence (overlong, surrogate, truncated, stray byte)
// replaced by U+FFFD.
std::string valid_utf8(std::string_view text);

// A JSON document as the parser will take it: valid UTF-8, and every "\uD800"-style escape of
// a lone surrogate (which JSON allows and the parser refuses) written as "\uFFFD", so that one
// such name cannot make a whole batch of updates unreadable, and so block polling for good.
std::string readable_json(std::string_view json_text);

// Valid UTF-8 `text` cut to at most `limit` bytes at a character boundary, "…" ending a cut.
std::string cap(std::string_view text, std::size_t limit);

// A user-supplied name as it may be shown: valid UTF-8, line breaks, other controls and
// direction overrides turned into spaces, capped.
std::string display_name(std::string_view text, std::size_t limit);

// decode_update on an update already parsed (getUpdates parses the batch once).
DecodedUpdate decode_update_value(const nlohmann::json& update, const std::string& bot_username);

} // namespace ghostpost::bot::telegram_text
