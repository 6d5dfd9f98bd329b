// Helpers for the Gnostic Chess tests: scripted dice, playing one action by its text, and the
// texts of events and views.
#pragma once

#include "chess_test_support.h"
#include "ghostpost/rules/notation.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace test {

using namespace ghostpost::rules;

// Dice that show the given faces in order; asking for more than were scripted fails the test.
class Faces final : public RandomSource {
public:
    Faces(std::initializer_list<int> faces) : faces_(faces) {}
    std::uint32_t uniform(std::uint32_t n) override {
        REQUIRE(n == 6);
        REQUIRE(next_ < faces_.size());
        return static_cast<std::uint32_t>(faces_[next_++] - 1);
    }
    std::size_t used() const { return next_; }

private:
    std::vector<int> faces_;
    std::size_t next_ = 0;
};

// A small seeded stream, standing in for the service's per-game stream.
class Lcg final : public RandomSource {
public:
    explicit Lcg(std::uint64_t seed) : x_(seed) {}
    std::uint32_t uniform(std::uint32_t n) override {
        x_ = x_ * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<std::uint32_t>((x_ >> 33) % n);
    }

private:
    std::uint64_t x_;
};

inline std::unique_ptr<Game> gnostic(const std::string& fen = {}) {
    return start("gnostic", fen);
}

// Parses `typed` for `seat` and applies it; fails the test on a refusal.
inline std::vector<Event> act(Game& g, Seat seat, const std::string& typed, RandomSource& dice) {
    auto parsed = parse_action(g, seat, typed);
    INFO(typed << ": " << (parsed ? "" : parsed.error().message));
    REQUIRE(parsed.ok());
    auto events = g.apply(seat, parsed->action, dice);
    INFO((events ? "" : events.error().message));
    REQUIRE(events.ok());
    return *events;
}

inline std::vector<Event> act(Game& g, Seat seat, const std::string& typed) {
    NoRandomness none;
    return act(g, seat, typed, none);
}

// Public event texts joined by " | "; private ones as "[white] text".
inline std::string said(const std::vector<Event>& events) {
    std::string out;
    for (const auto& e : events) {
        if (!out.empty())
            out += " | ";
        if (e.only_for)
            out += "[" + std::string(seat_name(*e.only_for)) + "] ";
        out += e.text;
    }
    return out;
}

inline std::string refusal(const Game& g, Seat seat, const std::string& typed) {
    auto r = parse_action(g, seat, typed);
    if (r)
        return "accepted as " + r->text;
    return r.error().message;
}

inline std::vector<std::string> texts(const Game& g, Seat seat) {
    std::vector<std::string> out;
    for (const auto& a : g.notated_actions(seat))
        out.push_back(a.text);
    return out;
}

inline bool has(const Game& g, Seat seat, const std::string& text) {
    auto all = texts(g, seat);
    return std::find(all.begin(), all.end(), text) != all.end();
}

inline std::string seats(const Game& g) {
    std::string out;
    for (const auto& d : g.pending())
        out += (out.empty() ? "" : " ") + std::string(seat_name(d.seat));
    return out;
}

// "hp/max_hp" of the figure on `square` in the public view, "-" when empty; a '!' when imprisoned.
inline std::string hp(const Game& g, const std::string& square) {
    auto view = g.public_view();
    const Cell& c = view.board().at(*parse_square(square));
    if (c.figures.empty())
        return "-";
    const Figure& f = c.figures.front();
    std::string out(1, piece_letter(f.piece.kind));
    if (f.piece.seat == Seat::Black)
        out[0] = static_cast<char>(out[0] - 'A' + 'a');
    out += " " + std::to_string(f.hp) + "/" + std::to_string(f.max_hp);
    if (f.imprisoned)
        out += "!";
    return out;
}

inline std::string notes(const BoardView& b) {
    std::string out;
    for (const auto& n : b.notes)
        out += (out.empty() ? "" : "\n") + n;
    return out;
}

} // namespace test
