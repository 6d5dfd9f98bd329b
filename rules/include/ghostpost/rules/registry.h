// The list of variants the service can play, in the order !rules lists them.
#pragma once

#include "ghostpost/rules/game.h"

#include <span>
#include <string_view>

namespace ghostpost::rules {

std::span<const Variant* const> variants();

// The variant with this registry name or alias (case-insensitive); nullptr when none.
const Variant* find_variant(std::string_view name);

} // namespace ghostpost::rules
