// Where the Phantoms stand, read from a Phantom Chess game's full FEN: the truth, which the
// leak tests may see and compare every public reply against.
#pragma once

#include "ghostpost/rules/game.h"

#include <string>
#include <vector>

namespace ghostpost::test {

struct PhantomAt {
    rules::Seat seat;
    rules::Square square;
};

inline std::vector<PhantomAt> phantoms_of(const rules::Game& g) {
    std::vector<PhantomAt> out;
    const std::string fen = g.fen();
    int rank = 7, file = 0;
    for (char c : fen.substr(0, fen.find_first_of(" ["))) {
        if (c == '/') {
            --rank;
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
        } else {
            if (c == 'F' || c == 'f')
                out.push_back({c == 'F' ? rules::Seat::White : rules::Seat::Black,
                               rules::Square(file, rank)});
            ++file;
        }
    }
    return out;
}

// The names of the squares the Phantoms stand on ("e5").
inline std::vector<std::string> phantom_squares(const rules::Game& g) {
    std::vector<std::string> out;
    for (const auto& p : phantoms_of(g))
        out.push_back(p.square.name());
    return out;
}

} // namespace ghostpost::test
