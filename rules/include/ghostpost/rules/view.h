// What one audience may see of a game. Renderers and reply builders take these, never a game
// state: a PublicView can only be made by a Game (see Game::make_public), from what the rules
// let everybody see, so showing the channel something hidden is a type error, not a review note.
#pragma once

#include "ghostpost/rules/types.h"

#include <string>
#include <vector>

namespace ghostpost::rules {

// How a figure stands on its square.
enum class FigureStyle : std::uint8_t {
    Living,  // an ordinary piece
    Pale,    // a figure on the square beside or instead of its living piece, that does not act now
    PaleLit, // a pale figure the rules let act now (capture)
    Secret,  // a piece only its owner sees, in the view of a seat allowed to see it
};

struct Figure {
    Piece piece;
    FigureStyle style = FigureStyle::Living;
    int hp = 0;     // hit points left; 0 when the variant has none
    int max_hp = 0; // full hit points on this square
    bool imprisoned = false;
    bool operator==(const Figure&) const = default;
};

// A variant may shade a square along a track from light to dark; the others use the ordinary
// chequer (Tint::Chequer).
enum class Tint : std::uint8_t { Chequer, Dark100, Dark75, Neutral, Light75, Light100 };

struct Cell {
    std::vector<Figure> figures; // the living piece first, then anything under it
    Tint tint = Tint::Chequer;
    bool operator==(const Cell&) const = default;
};

// A board as one audience sees it.
struct BoardView {
    std::string variant; // registry name, e.g. "chess"
    int files = 8;
    int ranks = 8;
    std::vector<Cell> cells; // rank-major: cells[rank * files + file]
    Square last_from;        // the last move's squares, when there was one
    Square last_to;
    Square check;                   // a royal piece in check, when there is one
    std::vector<Seat> deciding;     // who must decide now (empty once the game is over)
    int ply = 0;                    // actions played so far
    int move_number = 1;            // the full-move number, as in FEN
    std::vector<std::string> notes; // variant lines shown under the board ("Track: C, toward dark")
    // notes[i] as a phrase, when the variant wrote it as one (note()): a renderer puts it into
    // its reader's language while its english() is still notes[i]. Shorter than notes, or an
    // empty pattern, where a note has none.
    std::vector<Phrase> note_phrases;
    void note(Phrase said) {
        note_phrases.resize(notes.size());
        notes.push_back(said.english());
        note_phrases.push_back(std::move(said));
    }

    BoardView() = default;
    BoardView(std::string variant_name, int f, int r)
        : variant(std::move(variant_name)), files(f), ranks(r),
          cells(static_cast<std::size_t>(f * r)) {}
    Cell& at(Square s) { return cells[static_cast<std::size_t>(s.rank * files + s.file)]; }
    const Cell& at(Square s) const {
        return cells[static_cast<std::size_t>(s.rank * files + s.file)];
    }
    bool operator==(const BoardView&) const = default;
};

class Game;

// The view for the public channel.
class PublicView {
public:
    const BoardView& board() const& { return board_; }
    BoardView board() && { return std::move(board_); } // no dangling ref from a temporary view

private:
    friend class Game;
    explicit PublicView(BoardView b) : board_(std::move(b)) {}
    BoardView board_;
};

// The view for one seat, sent only by direct message.
class SeatView {
public:
    Seat seat() const { return seat_; }
    const BoardView& board() const& { return board_; }
    BoardView board() && { return std::move(board_); }

private:
    friend class Game;
    SeatView(Seat s, BoardView b) : seat_(s), board_(std::move(b)) {}
    Seat seat_;
    BoardView board_;
};

} // namespace ghostpost::rules
