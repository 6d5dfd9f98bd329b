// A variant that exists for tests only: each side in turn seals a number in secret and the
// other guesses it, so a test can show that a secret action stays secret everywhere the service
// shows a game, without any service code knowing this variant.
#pragma once

#include "ghostpost/rules/game.h"

namespace ghostpost::test {

// The sealed-number game. White seals 1, 2 or 3 ("seal 2"); only White is told, the board says
// that a number is sealed. Black guesses ("guess 3"), which reveals the number to everybody.
// Then Black seals and White guesses. A side that guessed right when the other did not wins.
const rules::Variant& sealed_number_variant();

// Finds sealed_number_variant() by its name while it lives (rules/registry_for_tests.h).
class SealedNumberRegistered {
public:
    SealedNumberRegistered();
    ~SealedNumberRegistered();
    SealedNumberRegistered(const SealedNumberRegistered&) = delete;
    SealedNumberRegistered& operator=(const SealedNumberRegistered&) = delete;
};

} // namespace ghostpost::test
