// The Game and Variant shared by giveaway and Ghostarelay: turn order, compulsory capture, the
// win by having no legal move (or, with Ghostarelay's pass_when_stuck option, by having no
// pieces), the house draws, notation and the errors that explain refused moves.
#pragma once

#include "ghostpost/rules/game.h"
#include "position.h"

namespace ghostpost::rules::giveaway {

// The Ghostarelay option: a player without a legal move passes, and only a player without
// pieces wins.
inline constexpr std::string_view pass_option = "pass_when_stuck";

class CoreVariant final : public Variant {
public:
    // `info` must outlive the variant (the variants keep it in a function-local static).
    CoreVariant(Flavour flavour, const VariantInfo& info) : flavour_(flavour), info_(&info) {}
    const VariantInfo& info() const override { return *info_; }
    // Errors: BadSetup for an unknown option or value, or a FEN that cannot be read.
    Result<std::unique_ptr<Game>> start(const Options& options,
                                        std::string_view fen) const override;
    std::vector<std::string> fen_reasons(const Options& options,
                                         std::string_view fen) const override;

private:
    Flavour flavour_;
    const VariantInfo* info_;
};

} // namespace ghostpost::rules::giveaway
