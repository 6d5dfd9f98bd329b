// The one list of variants, and of the pieces they add to chess's six. Adding a variant adds
// its declaration and its entry here (and a row for each piece it adds), nothing else outside
// the variant's own folder (and its sources in CMakeLists.txt beside this file).
#include "ghostpost/rules/registry.h"

#include "ghostpost/rules/registry_for_tests.h"
#include "ghostpost/variants/pieces.h"
#include "giveaway/art.h"
#include "phantom/art.h"

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

std::span<const ExtraPiece> extra_pieces() {
    static const std::array list{
        ExtraPiece{pieces::ghost, 'G', "ghost", &giveaway::ghost_art(false)},
        ExtraPiece{pieces::relay, 'X', "relay", &giveaway::relay_art()},
        ExtraPiece{pieces::warlord, 'W', "warlord", &giveaway::warlord_art()},
        ExtraPiece{pieces::phantom, 'F', "phantom", &phantom::phantom_art()},
    };
    return list;
}

const ExtraPiece* extra_piece(PieceKind kind) {
    for (const ExtraPiece& extra : extra_pieces())
        if (extra.kind == kind)
            return &extra;
    return nullptr;
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
