// For tests only: a variant that is in no list of the service's, found by name while a test
// needs it (a small variant that shows one property, such as a secret action). Not for
// production code: the variants are the one list in registry.cpp.
#pragma once

#include "ghostpost/rules/game.h"

namespace ghostpost::rules {

// Makes find_variant also find `variant` by its name and aliases until it is called again;
// nullptr removes it. variants() never lists it. Not thread-safe: call it before any service
// or thread of the test reads the registry.
void set_test_variant(const Variant* variant);

} // namespace ghostpost::rules
