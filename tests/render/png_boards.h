// Hand-made boards for the PNG tests: a FEN-like placement ("rnbqkbnr/pppppppp/8/..." from the
// top rank down, digits up to 10 for empty runs, upper case for the first seat) read into a
// BoardView, so each test states its position in one line.
#pragma once

#include "ghostpost/rules/view.h"
#include "ghostpost/variants/pieces.h"

#include <stdexcept>
#include <string>
#include <string_view>

namespace ghostpost::test {

inline rules::BoardView board_from_placement(std::string variant, int files, int ranks,
                                             std::string_view placement) {
    rules::BoardView b(std::move(variant), files, ranks);
    int file = 0, rank = ranks - 1;
    for (std::size_t i = 0; i < placement.size(); ++i) {
        const char c = placement[i];
        if (c == '/') {
            file = 0;
            --rank;
        } else if (c >= '0' && c <= '9') {
            int run = c - '0';
            if (c == '1' && i + 1 < placement.size() && placement[i + 1] == '0') {
                run = 10;
                ++i;
            }
            file += run;
        } else {
            const bool white = c >= 'A' && c <= 'Z';
            const char upper = white ? c : static_cast<char>(c - 'a' + 'A');
            const rules::PieceKind kind = rules::piece_from_letter(upper);
            if (kind == rules::PieceKind::None || file >= files || rank < 0)
                throw std::invalid_argument("bad placement: " + std::string(placement));
            rules::Figure f;
            f.piece = {kind, white ? rules::Seat::White : rules::Seat::Black};
            if (kind == rules::pieces::phantom)
                f.style = rules::FigureStyle::Secret;
            b.at(rules::Square(file, rank)).figures.push_back(f);
            ++file;
        }
    }
    b.deciding = {rules::Seat::White};
    return b;
}

} // namespace ghostpost::test
