// decode_event on an event already parsed (/sync parses the whole answer once).
#pragma once

#include "ghostpost/matrix/matrix.h"

#include <nlohmann/json.hpp>

namespace ghostpost::bot::matrix_decode {

DecodedEvent decode_event_value(const nlohmann::json& event, const std::string& room_id,
                                const std::string& own_user_id);

} // namespace ghostpost::bot::matrix_decode
