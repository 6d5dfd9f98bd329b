// Matrix as a platform module of the daemon (platform_module.h).
#pragma once

#include "ghostpost/platform/module.h"

namespace ghostpost::bot {

extern const PlatformModule matrix_module;

} // namespace ghostpost::bot
