// What every fuzz target does when a property it checks fails: say which, with the input's text
// when it helps, and abort so libFuzzer keeps the input as a crash.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace ghostpost::fuzz {

inline void check(bool ok, const char* what, std::string_view detail = {}) {
    if (ok)
        return;
    if (detail.empty())
        std::fprintf(stderr, "invariant broken: %s\n", what);
    else
        std::fprintf(stderr, "invariant broken: %s [%.*s]\n", what, static_cast<int>(detail.size()),
                     detail.data());
    std::abort();
}

} // namespace ghostpost::fuzz
