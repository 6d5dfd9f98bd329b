// Helpers for the engine tests: a game played by its texts, with the public record a seat of it
// would be given, and random play that writes the record as it goes.
#pragma once

#include "ghostpost/engine/engine.h"
#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"

#include <catch2/catch.hpp>
#include <memory>
#include <random>
#include <string>

namespace test {

// Dice for the tests: a fixed stream.
class TestDice final : public ghostpost::rules::RandomSource {
public:
    explicit TestDice(std::uint64_t seed) : rng_(seed) {}
    std::uint32_t uniform(std::uint32_t n) override {
        return static_cast<std::uint32_t>(rng_() % n);
    }

private:
    std::mt19937_64 rng_;
};

// A game and what everybody has seen of it.
struct Table {
    std::unique_ptr<ghostpost::rules::Game> game;
    ghostpost::engine::PublicRecord record;
    TestDice dice{7};

    explicit Table(const std::string& variant, const std::string& fen = {},
                   const ghostpost::rules::Options& options = {}) {
        const auto* v = ghostpost::rules::find_variant(variant);
        REQUIRE(v != nullptr);
        auto g = v->start(options, fen);
        INFO((g ? std::string() : g.error().message));
        REQUIRE(g.ok());
        game = std::move(*g);
        record.variant = variant;
        record.options = game->options();
        record.start_fen = fen;
    }

    // Plays `action` for `seat`, writing its canonical text and any dice into the record.
    void play(ghostpost::rules::Seat seat, const ghostpost::rules::NotatedAction& action) {
        ghostpost::engine::RecordingRandom recording(dice);
        auto applied = game->apply(seat, action.action, recording);
        INFO(action.text);
        REQUIRE(applied.ok());
        record.actions.push_back({seat, action.text});
        for (auto d : recording.draws())
            record.draws.push_back(d);
    }

    // Plays the text for whoever must decide first.
    void play(const std::string& text) {
        REQUIRE_FALSE(game->pending().empty());
        const auto seat = game->pending().front().seat;
        auto parsed = ghostpost::rules::parse_action(*game, seat, text);
        INFO(text);
        REQUIRE(parsed.ok());
        play(seat, *parsed);
    }

    // What the engine chooses for `seat`, given only that seat's view and the record.
    std::optional<ghostpost::engine::Choice> choose(ghostpost::rules::Seat seat,
                                                    const ghostpost::engine::Limits& limits,
                                                    std::uint64_t seed = 1) const {
        return ghostpost::engine::choose(game->seat_view(seat), record, limits, seed);
    }
};

} // namespace test
