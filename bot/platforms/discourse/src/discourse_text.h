// Text helpers private to the Discourse adapter.
#pragma once

#include "ghostpost/discourse/discourse.h"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace ghostpost::bot::discourse_text {

// A character Discourse allows in a username.
bool name_character(char c);

std::string lower(std::string text);

// `text` cut to at most `limit` bytes at a UTF-8 character boundary.
std::string cap(std::string_view text, std::size_t limit);

// A user-supplied name as it may be shown: controls turned into spaces, capped.
std::string display_name(std::string_view text);

// The "@name"s of a raw post, in order, without the '@'.
std::vector<std::string> mentioned(std::string_view raw);

// decode_post on a post already parsed.
DecodedPost decode_value(const nlohmann::json& value, const DiscourseOptions& options, bool direct);

} // namespace ghostpost::bot::discourse_text
