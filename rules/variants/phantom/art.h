// The Phantom as boards draw it (art.h).
#pragma once

#include "ghostpost/rules/art.h"

namespace ghostpost::rules::phantom {

const Drawing& phantom_art();

} // namespace ghostpost::rules::phantom
