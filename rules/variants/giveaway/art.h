// Ghostarelay's pieces as boards draw them (art.h): the Ghost, the Relay and the Warlord.
#pragma once

#include "ghostpost/rules/art.h"

namespace ghostpost::rules::giveaway {

// The sheet ghost; `crowned` puts a crown on its head (a side's chief: Ghost Chess's queen).
const Drawing& ghost_art(bool crowned);
const Drawing& relay_art();
const Drawing& warlord_art();

} // namespace ghostpost::rules::giveaway
