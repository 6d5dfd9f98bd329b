// Helpers for the chess tests: start a game from a FEN and play moves by their text.
#pragma once

#include "ghostpost/rules/game.h"
#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace test {

inline std::unique_ptr<ghostpost::rules::Game>
start(const std::string& variant, const std::string& fen = {},
      const ghostpost::rules::Options& options = {}) {
    const auto* v = ghostpost::rules::find_variant(variant);
    REQUIRE(v != nullptr);
    auto g = v->start(options, fen);
    INFO((g ? std::string() : g.error().message));
    REQUIRE(g.ok());
    return std::move(*g);
}

// The canonical texts of every action open to whoever must decide first, sorted.
inline std::vector<std::string> texts(const ghostpost::rules::Game& g) {
    std::vector<std::string> out;
    if (g.pending().empty())
        return out;
    for (const auto& a : g.notated_actions(g.pending().front().seat))
        out.push_back(a.text);
    std::sort(out.begin(), out.end());
    return out;
}

// Whether `text` is among those actions.
inline bool offers(const ghostpost::rules::Game& g, const std::string& text) {
    const auto all = texts(g);
    return std::find(all.begin(), all.end(), text) != all.end();
}

// How the rules answer `typed` from whoever must decide first: the refusal's public message,
// or "accepted as <canonical>".
inline std::string refusal(const ghostpost::rules::Game& g, const std::string& typed) {
    auto r = ghostpost::rules::parse_action(g, g.pending().front().seat, typed);
    if (r)
        return "accepted as " + r->text;
    return r.error().message;
}

// Plays each whitespace-separated move for whoever must decide; fails the test on a refusal.
inline void play(ghostpost::rules::Game& game, const std::string& moves) {
    ghostpost::rules::NoRandomness no_dice;
    std::istringstream in(moves);
    std::string word;
    while (in >> word) {
        auto pending = game.pending();
        REQUIRE_FALSE(pending.empty());
        auto action = ghostpost::rules::parse_action(game, pending.front().seat, word);
        INFO(word << ": " << (action ? "" : action.error().message));
        REQUIRE(action.ok());
        REQUIRE(game.apply(pending.front().seat, action->action, no_dice).ok());
    }
}

struct PerftCase {
    std::string name;
    std::string fen;
    std::vector<std::pair<int, std::uint64_t>> counts;
};

// Reads a perft data file: "# name" lines, then "FEN ; perft D N ; perft D N ...".
inline std::vector<PerftCase> read_perft_file(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in.good());
    std::vector<PerftCase> out;
    std::string line, name;
    while (std::getline(in, line)) {
        if (line.empty())
            continue;
        if (line[0] == '#') {
            name = line.substr(line.find_first_not_of("# "));
            continue;
        }
        PerftCase c;
        c.name = name;
        std::istringstream fields(line);
        std::string field;
        std::getline(fields, field, ';');
        c.fen = field.substr(0, field.find_last_not_of(' ') + 1);
        while (std::getline(fields, field, ';')) {
            std::istringstream f(field);
            std::string word;
            int depth = 0;
            std::uint64_t nodes = 0;
            f >> word >> depth >> nodes;
            REQUIRE(word == "perft");
            c.counts.emplace_back(depth, nodes);
        }
        out.push_back(c);
    }
    return out;
}

// Perft through the Game interface alone: notated_actions and apply on clones, never a
// variant's own perft, to check a variant's fast perft against.
inline std::uint64_t generic_perft(const ghostpost::rules::Game& g, int depth) {
    if (depth <= 0)
        return 1;
    ghostpost::rules::NoRandomness no_dice;
    std::uint64_t nodes = 0;
    for (const auto& d : g.pending()) {
        const auto actions = g.notated_actions(d.seat);
        if (depth == 1) {
            nodes += actions.size();
            continue;
        }
        for (const auto& a : actions) {
            auto next = g.clone();
            REQUIRE(next->apply(d.seat, a.action, no_dice).ok());
            nodes += generic_perft(*next, depth - 1);
        }
    }
    return nodes;
}

} // namespace test
