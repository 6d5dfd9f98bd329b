// One hand-made board per variant feature, shared by the golden-image tests and the tool that
// regenerates the golden files. Each is a position the rules can reach (or close to one).
#pragma once

#include "ghostpost/render/png.h"
#include "png_boards.h"

#include <string>
#include <vector>

namespace ghostpost::test {

struct PngSample {
    std::string name; // the golden file is tests/data/golden/<name>.png
    rules::BoardView board;
    render::PngOptions options;
};

inline rules::Figure figure(rules::PieceKind k, rules::Seat s,
                            rules::FigureStyle style = rules::FigureStyle::Living) {
    rules::Figure f;
    f.piece = {k, s};
    f.style = style;
    return f;
}

// The Gnostic Chess square map from the seed text, rank 8 first: W light, B dark, * variable.
inline rules::BoardView gnostic_tints(rules::BoardView b, rules::Tint variable) {
    static const char* const fixed[8] = {"W*W**B*B", "BW*WB*BW", "WBW**BWB", "********",
                                         "********", "BWB**WBW", "WB*BW*WB", "B*B**W*W"};
    for (int row = 0; row < 8; ++row)
        for (int f = 0; f < 8; ++f) {
            const char c = fixed[row][f];
            b.at(rules::Square(f, 7 - row)).tint = c == 'W'   ? rules::Tint::Light100
                                                   : c == 'B' ? rules::Tint::Dark100
                                                              : variable;
        }
    return b;
}

inline std::vector<PngSample> png_samples() {
    using rules::FigureStyle;
    using rules::PieceKind;
    using rules::Seat;
    using rules::Square;
    std::vector<PngSample> out;
    // Titles and seat names are given, so the images do not change when variants register.
    const auto named = [](PngSample& s, std::string title, std::string first, std::string second) {
        s.options.title = std::move(title);
        s.options.seat_names = {std::move(first), std::move(second)};
    };

    {
        PngSample s{
            "chess_start",
            board_from_placement("chess", 8, 8, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
            {}};
        s.options.game_label = "Game 1";
        named(s, "FIDE chess", "White", "Black");
        out.push_back(std::move(s));
    }
    {
        // Scholar's mate, seen from Black's side: last move Qh5xf7, the king on e8 in check.
        PngSample s{"chess_mate_flipped",
                    board_from_placement("chess", 8, 8,
                                         "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR"),
                    {}};
        s.board.last_from = Square(7, 4);
        s.board.last_to = Square(5, 6);
        s.board.check = Square(4, 7);
        s.board.deciding.clear();
        s.board.move_number = 4;
        s.board.ply = 7;
        s.options.flip = true;
        s.options.game_label = "Game 2";
        named(s, "FIDE chess", "White", "Black");
        out.push_back(std::move(s));
    }
    {
        // Ghost Chess: the Ghost (a queen) with a rescued knight against the Paradigm.
        PngSample s{"ghost_midgame",
                    board_from_placement("ghost", 8, 8, "1n6/8/8/4q3/3P4/2N5/PPP2PPP/R1B2BNR"),
                    {}};
        s.board.last_from = Square(3, 1);
        s.board.last_to = Square(3, 3);
        s.board.deciding = {Seat::Black};
        s.board.move_number = 5;
        s.options.game_label = "Game 3";
        named(s, "Ghost Chess", "Paradigm", "Ghost");
        out.push_back(std::move(s));
    }
    {
        // Ghostarelay, 10x10, with a Warlord on each side after promotions.
        PngSample s{"ghostarelay_midgame",
                    board_from_placement("ghostarelay", 10, 10,
                                         "rnbxqkgb1r/pppp1ppppp/10/4p5/10/5W4/3w6/10/"
                                         "PPPPP1PPPP/RNBXQKGBNR"),
                    {}};
        s.board.last_from = Square(3, 4);
        s.board.last_to = Square(3, 3);
        s.board.move_number = 12;
        s.options.game_label = "Game 4";
        named(s, "Ghostarelay", "White", "Black");
        out.push_back(std::move(s));
    }
    {
        // Phantom Chess, White's private view: White's own Phantom on d4 is shown.
        PngSample s{"phantom_private_white",
                    board_from_placement("phantom", 8, 8,
                                         "rnbqkbnr/pppp1ppp/8/4p3/3F4/4P3/PPPP1PPP/RNBQKBNR"),
                    {}};
        s.board.deciding = {Seat::Black};
        s.board.last_to = Square(3, 3);
        s.board.move_number = 2;
        s.board.notes = {"Lives: White 3, Black 2"};
        s.options.game_label = "Game 5 (your view)";
        named(s, "Phantom Chess", "White", "Black");
        out.push_back(std::move(s));
    }
    {
        // Haunted Chess after 1.e4 e5 2.Nf3 Nc6 3.Bb5 d6 4.Bxc6 bxc6 5.c3 c5 6.Qa4: the white
        // spirit bishop on c6 is invoked by the queen and checks e8. On d4 a black spirit pawn
        // waits under a white knight (a made-up addition), on h6 a lone spirit that is not
        // invoked.
        PngSample s{"haunted_spirits",
                    board_from_placement("haunted", 8, 8,
                                         "r1bqkbnr/p1p2ppp/3p4/2p1p3/Q2NP3/2P5/PP1P1PPP/RNB1K2R"),
                    {}};
        s.board.at(Square(2, 5))
            .figures.push_back(figure(PieceKind::Bishop, Seat::White, FigureStyle::PaleLit));
        s.board.at(Square(3, 3))
            .figures.push_back(figure(PieceKind::Pawn, Seat::Black, FigureStyle::Pale));
        s.board.at(Square(7, 5))
            .figures.push_back(figure(PieceKind::Knight, Seat::Black, FigureStyle::Pale));
        s.board.last_from = Square(3, 0);
        s.board.last_to = Square(0, 3);
        s.board.check = Square(4, 7);
        s.board.deciding = {Seat::Black};
        s.board.move_number = 6;
        s.options.game_label = "Game 6";
        named(s, "Haunted Chess", "White", "Black");
        out.push_back(std::move(s));
    }
    {
        // Gnostic Chess with the track at B (75% dark): damaged pieces, an imprisoned rook.
        PngSample s{"gnostic_track",
                    gnostic_tints(board_from_placement(
                                      "gnostic", 8, 8,
                                      "r1b1kbnr/pppp1ppp/2n5/4p1q1/4P3/5N2/PPPP1PPP/RNBQKB1R"),
                                  rules::Tint::Dark75),
                    {}};
        for (auto& f : s.board.cells)
            for (auto& fig : f.figures) {
                fig.max_hp = 10 * (fig.piece.kind == PieceKind::Pawn     ? 1
                                   : fig.piece.kind == PieceKind::Knight ? 3
                                   : fig.piece.kind == PieceKind::Bishop ? 3
                                   : fig.piece.kind == PieceKind::Rook   ? 5
                                   : fig.piece.kind == PieceKind::Queen  ? 9
                                                                         : 10);
                fig.hp = fig.max_hp;
            }
        s.board.at(Square(5, 2)).figures[0].hp = 12;           // Nf3: 12 of 30
        s.board.at(Square(6, 4)).figures[0].hp = 60;           // Qg5: 60 of 90
        s.board.at(Square(4, 3)).figures[0].hp = 2;            // Pe4: 2 of 10
        s.board.at(Square(0, 7)).figures[0].imprisoned = true; // Ra8
        s.board.deciding = {Seat::White, Seat::Black};
        s.board.move_number = 4;
        s.board.notes = {"Track: B (75% dark), moving toward dark", "Spells used: White Teleport"};
        s.options.game_label = "Game 7";
        named(s, "Gnostic Chess", "White", "Black");
        s.options.deciding = "combat on g5: both choose their dice";
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace ghostpost::test
