// What the engine's benchmarks (engine_match, engine_nodes) share: a game played between engine
// seats with the record each seat may know of it, as the service keeps them, and the start of
// a UCI engine to play or time against.
#pragma once

#include "ghostpost/engine/engine.h"
#include "ghostpost/rules/registry.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <sys/types.h>
#include <unistd.h>

namespace ghostpost::bench {

// Dice from a fixed stream: a seed plays the same game again.
class Dice final : public rules::RandomSource {
public:
    explicit Dice(std::uint64_t seed) : rng_(seed) {}
    std::uint32_t uniform(std::uint32_t n) override {
        return static_cast<std::uint32_t>(rng_() % n);
    }

private:
    std::mt19937_64 rng_;
};

// A game and its public record.
struct Table {
    std::unique_ptr<rules::Game> game;
    engine::PublicRecord record;
    Dice dice;
    Table(const rules::Variant& v, std::uint64_t seed) : dice(seed) {
        game = std::move(v.start({}).value());
        record.variant = v.info().name;
        record.options = game->options();
    }
    void play(rules::Seat seat, const rules::NotatedAction& a) {
        engine::RecordingRandom rec(dice);
        auto r = game->apply(seat, a.action, rec);
        if (!r)
            throw std::runtime_error("refused: " + a.text + ": " + r.error().message);
        record.actions.push_back({seat, a.text});
        record.draws.insert(record.draws.end(), rec.draws().begin(), rec.draws().end());
    }
    // Whether one seat has made a secret choice (a combat's dice) the other must answer.
    bool hidden_choice() const {
        const auto notes = game->public_view().board().notes;
        return std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
            return n.find("(has chosen)") != std::string::npos;
        });
    }
    // What `seat` may know of the record: not the other side's secret dice choice.
    engine::PublicRecord known_to(rules::Seat seat) const {
        engine::PublicRecord r = record;
        if (hidden_choice())
            for (std::size_t i = r.actions.size(); i-- > 0;)
                if (r.actions[i].seat != seat) {
                    r.actions.erase(r.actions.begin() + static_cast<std::ptrdiff_t>(i));
                    break;
                }
        return r;
    }
};

// Starts the program at `path` (an engine speaking UCI) with its standard input and output on
// pipes: `to` writes to it, `from` reads what it answers.
inline void start_child(const std::string& path, pid_t& pid, FILE*& to, FILE*& from) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0)
        throw std::runtime_error("pipe");
    pid = fork();
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[1]);
        close(out[0]);
        execl(path.c_str(), path.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to = fdopen(in[1], "w");
    from = fdopen(out[0], "r");
}

} // namespace ghostpost::bench
