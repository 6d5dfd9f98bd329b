// The one list of variants. Adding a variant adds its declaration and its entry here, nothing
// else outside the variant's own folder (and its sources in CMakeLists.txt beside this file).
#include "ghostpost/rules/registry.h"

#include "ghostpost/rules/registry_for_tests.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace ghostpost::rules {

// Each variant's file defines one of these.
const Variant& chess_variant();
const Variant& giveaway_variant();
const Variant& ghostarelay_variant();
const Variant& phantom_variant();
const Variant& gnostic_variant();
const Variant& ghost_variant();
const Variant& haunted_variant();

namespace {

const Variant* test_variant = nullptr; // registry_for_tests.h

bool same_name(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

} // namespace

std::span<const Variant* const> variants() {
    static const std::array list{
        &chess_variant(),   &giveaway_variant(), &ghostarelay_variant(), &phantom_variant(),
        &gnostic_variant(), &ghost_variant(),    &haunted_variant(),
    };
    return list;
}

void set_test_variant(const Variant* variant) {
    test_variant = variant;
}

const Variant* find_variant(std::string_view name) {
    const auto named = [&](const Variant* v) {
        if (same_name(v->info().name, name))
            return true;
        for (const auto& alias : v->info().aliases)
            if (same_name(alias, name))
                return true;
        return false;
    };
    for (const Variant* v : variants())
        if (named(v))
            return v;
    return test_variant != nullptr && named(test_variant) ? test_variant : nullptr;
}

} // namespace ghostpost::rules
