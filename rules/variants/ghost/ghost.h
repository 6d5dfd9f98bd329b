// Ghost Chess internals shared by the files of this folder: the state of a game as a plain value
// (copied freely by perft), the actions each decision allows, and applying one of them.
// The rules and how ghostpost reads the seed text are in docs/variants/ghost.md.
#pragma once

#include "chess/bitboard.h"
#include "ghostpost/rules/game.h"
#include "ghostpost/rules/setup.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ghostpost::rules::ghost {

using chess::Bitboard;
using chess::Sq;

// What the game is waiting for. A turn is the mover's normal decision plus the decisions it
// triggers, some of which belong to the other seat.
enum class Phase : std::uint8_t {
    Move,             // the side to move: a move, or an active special (Hide, Transcend, ...)
    RescuePlace,      // Black: where the captured knight enters (N@b8)
    RescueOffer,      // Black: exchange the captured rook or bishop for a knight (N@b8) or Skip
    KnightChoice,     // the Paradigm: which of his knights is rescued (Rescue Nb1)
    Reaction,         // the Paradigm: Respawn or the Shadow Nexus move after Black's capture
    SearchOffer,      // the Paradigm: Search the pawn that just reached rank 8 at once, or Skip
    TranscendKnights, // Black: after the Ghost transcended, each knight may move once
    Over,
};

// Action::special codes. Ordinary movement is 0 in every phase.
enum Code : std::uint8_t {
    Ordinary = 0,
    Scouting = 1,    // a d2/e2 pawn moving as a bishop in Full Nexus
    NexusBishop = 2, // a piece on c8/f8 moving as a bishop in Shadow Nexus
    AssaultCode = 3, // Special: the bishop's wing block moves with it; `to` is the bishop's square
    HideCode = 4,    // Pass
    TranscendCode = 5, // Special
    SearchCode = 6,    // Special: the pawn on `from` (rank 8) goes back to `to`
    RespawnCode = 7,   // Special: a pawn enters on `to` (d1 or e1)
    PlaceCode = 8,     // Drop of a knight on a dark home-row square
    ChooseCode = 9,    // Choice: the Paradigm's knight on `from` is the one rescued
    SkipCode = 10,     // Pass: decline an optional triggered special
};

// The twelve squares of the Full Nexus: a1 b1 c1 f1 g1 h1 and the pawns in front of them.
inline constexpr Bitboard nexus_squares = 0xE7E7ULL;
// Black's home row dark squares, where rescued knights enter: b8 d8 f8 h8.
inline constexpr Bitboard rescue_squares = 0xAA00000000000000ULL;
inline constexpr Bitboard rank_8 = 0xFF00000000000000ULL;
inline constexpr Sq sq_c1 = 2, sq_d1 = 3, sq_e1 = 4, sq_f1 = 5, sq_c8 = 58, sq_f8 = 61;

inline bool dark(Sq s) {
    return (chess::bb(s) & chess::dark_squares) != 0;
}

struct State {
    std::array<Piece, 64> board{};
    // The start square of each white rook and bishop, where an exchanged one returns; -1 else.
    std::array<std::int8_t, 64> origin{};
    Bitboard white = 0, black = 0;
    // Pawns on rank 2 that never left it: only these may step two squares (decision 7).
    Bitboard home_pawns = 0;

    Phase phase = Phase::Move;
    Seat turn = Seat::White;   // whose turn it is (the phase may ask the other seat)
    bool full_nexus = true;    // none of the twelve Nexus pieces has moved or been taken
    bool special_used = false; // "only one special move per turn"
    // Black pieces that may not be captured in the Paradigm's current turn, by reason.
    Bitboard shadow = 0, haunt = 0, hidden = 0;
    Sq locked = -1;       // the piece that made the Shadow Nexus move stays put
    int knights_lost = 0; // Black's rescued knights captured so far
    int halfmove = 0;     // turns since the last capture or pawn move
    int fullmove = 1;
    int plies = 0; // decisions taken

    // What the current turn has done so far, for its triggered decisions.
    bool ghost_took_on_dark = false;
    bool nexus_shadow_at_capture = false;
    bool ghost_captured_now = false;
    PieceKind captured = PieceKind::None;
    Sq captured_on = -1;
    Sq captured_origin = -1;
    Sq rescue_to = -1;          // the square Black chose for an exchanged knight
    Sq search_pawn = -1;        // the pawn that just reached rank 8
    Bitboard moved_knights = 0; // knights that already moved after a Transcend
    bool irreversible = false;  // a capture or a pawn move this turn

    Outcome outcome;
    Square last_from, last_to;
    std::vector<std::uint64_t> keys; // position keys at the start of each turn, for repetition

    Bitboard occupied() const { return white | black; }
    Bitboard of(Seat s, PieceKind k) const;
    Sq ghost() const; // -1 once the Ghost is gone
};

State start_state();

// Whose decision it is now; meaningless once the game is over.
Seat decider(const State& s);

// Positional modes. Full Nexus is the history flag; Half Nexus only needs the two bishops home.
bool bishops_home(const State& s);
bool shadow_nexus(const State& s);
std::string nexus_name(const State& s); // "Full Nexus", "Half Nexus" or "no Nexus"
// nexus_name(s) in the catalogs' words ("nexus"), for a reader's language.
Phrase nexus_phrase(const State& s);
// A name of a special move ("Hide", "Shadow", "Shadow Nexus move"), a word of the catalogs.
inline Phrase special_word(const char* name) {
    return Phrase{"special", name, {}};
}

// Every action of the deciding seat now (empty once the game is over), without text.
std::vector<Action> legal_actions(const State& s);
// The same into `out`, which is cleared first (perft reuses one list a ply).
void legal_actions(const State& s, std::vector<Action>& out);
// legal_actions(s).size(), mostly without making the list.
std::uint64_t count_actions(const State& s);

// Rules switched off to find out why a move is refused (explanations only, never for play).
struct Relax {
    bool immunity = false;   // capture Shadowed, Haunted and Hidden pieces
    bool lock = false;       // move the piece locked by the Shadow Nexus move
    bool home_row = false;   // enter the home row in a Shadow Nexus without capturing
    bool pawn_steps = false; // pawn steps sideways and back while the Paradigm has a knight
    bool modes = false;      // Scouting and the Shadow Nexus bishop moves without their Nexus
};
// The ordinary moves (and Scouting, Shadow Nexus bishop moves) of `seat` in a normal turn.
std::vector<Action> moves_for(const State& s, Seat seat, const Relax& relax);
// The Paradigm's options after Black's capture: Respawn and the Shadow Nexus move (no Skip).
std::vector<Action> reaction_actions(const State& s);
Bitboard immune_squares(const State& s);
// Where Search may send the pawn on `pawn`.
std::vector<Sq> search_squares(const State& s, Sq pawn);

// Applies a legal action of the deciding seat. With `events` it also says what happened beyond
// the move itself (Shadow, Rescue, Transcend, the end of the game).
void play(State& s, const Action& a, std::vector<Event>* events);

// The canonical text of each action of `list` (all legal now, in the same order), and of one.
std::vector<std::string> notate(const State& s, const std::vector<Action>& list);
std::string action_text(const State& s, const Action& a, const std::vector<Action>& list);

std::uint64_t perft(const State& s, int depth);

// How many times the current turn-start position occurred before, and its key.
int repetitions(const State& s);
std::uint64_t position_key(const State& s);

// Reads the Ghost Chess FEN dialect (see docs/variants/ghost.md); an error text, or empty.
std::string read_fen(State& s, std::string_view fen);
std::string write_fen(const State& s);
// The shared reader's view of that dialect: the pending decision after the side and a colon,
// up to eight fields.
inline constexpr FenShape fen_shape{
    .side_note = true,
    .max_fields = 8,
    .field_count = "expected 2 to 8 fields: placement, side, Nexus, immune, locked, knights lost, "
                   "halfmove clock, move number",
    .bad_side = "the side to move is w (the Paradigm) or b (the Ghost)"};
// The state a Setup describes, or every reason it is none (the pending decision is judged only
// once the rest of the Setup was read).
Checked<State> state_from_setup(const Setup& setup);

// Whether the state's bitboards agree with its board and the counts are possible, the pawns
// that may step two squares are the Paradigm's on rank 2, only white rooks and bishops have a
// way home, a locked piece is the Paradigm's, and the phase is Over exactly when there is an
// outcome.
bool is_consistent(const State& s);

} // namespace ghostpost::rules::ghost
