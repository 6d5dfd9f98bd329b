// Gnostic Chess internals shared by the files of this folder: the state (pieces with damage and
// prison, the light/dark track, spells, a combat in progress), its legal actions with their
// canonical texts, and the rules that change it. The Game class in gnostic.cpp wraps this.
// The rules and how ghostpost reads them are in docs/variants/gnostic.md.
#pragma once

#include "chess/position.h"
#include "ghostpost/rules/game.h"
#include "ghostpost/rules/setup.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ghostpost::rules::gnostic {

using chess::Sq;

// A piece on the board. `damage` is the absolute number of hit points lost in earlier combats
// (rules-decisions row 5: effective HP = base x multiplier - damage).
struct Unit {
    PieceKind kind = PieceKind::None;
    Seat seat = Seat::White;
    int damage = 0;
    bool imprisoned = false;
    bool operator==(const Unit&) const = default;
};

// The Queen's spells; each side may cast each one once per game. Letters in the FEN dialect.
enum class Spell : std::uint8_t { Teleport, Heal, ShiftTime, Exchange, Revive, Imprison };
inline constexpr int spell_count = 6;
inline constexpr char spell_letters[spell_count + 1] = "THSXRI";
std::string_view spell_name(Spell s); // "Teleport", "Shift Time", ...
// A spell's name as a word of the catalogs ("spell"), for a reader's language.
inline Phrase spell_word(Spell s) {
    return Phrase{"spell", std::string(spell_name(s)), {}};
}

// Action::special codes. Spells are Special actions, the rest Choices.
namespace code {
inline constexpr std::uint8_t spell_base = 1; // spell_base + Spell
inline constexpr std::uint8_t roll = 10;      // number = dice
inline constexpr std::uint8_t hold = 11;
inline constexpr std::uint8_t policy = 20; // number = dice * 1000 + hold threshold
inline constexpr std::uint8_t policy_off = 21;
inline constexpr std::uint8_t use_default = 22;
} // namespace code

// Policies: "policy roll k hold T" with k in 1..10 and T in 1..max_hold.
inline constexpr int max_hold = 200; // no target can exceed a king's 100 HP x 2
inline constexpr int policy_dice_fallback = 3;
inline constexpr int policy_hold_fallback = 15;

struct Policy {
    int dice = policy_dice_fallback;
    int hold = policy_hold_fallback;
    bool operator==(const Policy&) const = default;
};

// One fighter of a HyperPig combat. `commit` is the hidden choice of this round: 0 = hold,
// n > 0 = roll n dice, nullopt = not chosen yet.
struct Fighter {
    Sq square = 0;
    int target = 0; // points needed: the opponent's effective HP at the start of the combat
    int banked = 0;
    int turn = 0; // points rolled this turn, lost on any 1
    bool active = true;
    std::optional<int> commit;
    bool operator==(const Fighter&) const = default;
};

// A capture attempt being fought out. fighters[0] is the attacker (the mover's piece).
struct Combat {
    chess::Move move; // the attacking move, made when the attacker wins
    Sq contested = 0; // the defender's square (the passed pawn for en passant)
    std::array<Fighter, 2> fighters;
    int round = 1;
    bool operator==(const Combat&) const = default;
};

struct State {
    std::array<Unit, 64> board{};
    Seat side = Seat::White;
    std::uint8_t castling = 0; // chess::CastleRight bits
    int ep = -1;
    int halfmove = 0;
    int fullmove = 1;
    int track = 2;                             // 0 = A (100% dark) .. 4 = E (100% light)
    int direction = -1;                        // -1 toward A (dark), +1 toward E (light)
    std::array<std::uint8_t, 2> spells_used{}; // bit per Spell
    std::array<std::array<std::uint8_t, 7>, 2>
        dead{}; // killed pieces per seat and kind (Pawn..King)
    std::optional<Combat> combat;
    std::array<std::optional<Policy>, 2> policy;
    Sq last_from = -1;
    Sq last_to = -1;
};

// The square map of the seed: 'W' always 100% light, 'B' always 100% dark, '*' follows the track.
char square_kind(Sq s);
// The shade of `s` with the track at `track` (0..4).
Tint shade(Sq s, int track);
inline constexpr char track_letter(int track) {
    return static_cast<char>('A' + track);
}
// Conventional value: P 1, N 3, B 3, R 5, Q 9, K 10; 0 for None.
int conventional_value(PieceKind k);
// Full hit points of a piece of `seat` on a square of tint `t`: 10 x CV x the multiplier of the
// table (own colour x2 / x1.5, neutral x1, opposite x0.75 / x0.5), halves rounded up.
int full_hp(PieceKind k, Seat seat, Tint t);
// Full HP minus damage; may be 0 or less (such a piece loses any combat on this square at once).
int effective_hp(const State& st, Sq s);

// Reads the FEN dialect (docs/variants/gnostic.md): six FIDE fields, then optional key=value
// fields track=, used=, dead=, damage=, jail=. Returns an error text, empty on success.
std::string read_fen(State& st, std::string_view fen);
std::string write_fen(const State& st);
// The shared reader's view of that dialect: 8x8, the key=value fields after the FIDE ones.
inline constexpr FenShape fen_shape{.max_fields = 16};
// The state a Setup describes, or every reason it is none.
Checked<State> state_from_setup(const Setup& setup);
// Every invariant of the state: each unit a piece with damage in range (an empty square none
// and no prisoner), at most one king a side, pawns off the back ranks, castling rights with
// their king and rook at home, the track between its ends, spells and policies in range, a
// combat between a piece of the side to move and one of the other side.
bool is_consistent(const State& st);

// Who must decide now (empty when `over`).
std::vector<Decision> decisions(const State& st);
// What the owner of `f`, a fighter of the running combat who has not chosen yet, must decide, in
// words ("choose by direct message the dice of their pawn ..."): Decision::what as a phrase.
Phrase dice_decision(const State& st, const Fighter& f);
// The legal actions of `seat` without texts, in a fixed order; empty when it has none.
std::vector<Action> legal_actions(const State& st, Seat seat);
// legal_actions(st, seat).size(), without making the list where it is long.
std::uint64_t count_legal_actions(const State& st, Seat seat);
// The canonical text of one of `legal` (all of that seat's legal actions).
std::string action_text(const State& st, const Action& a, const std::vector<Action>& legal);
// The text of an anytime action: "policy roll 4 hold 20", "policy off", "default".
std::string anytime_text(const Action& a);

// The choice `seat`'s standing policy (or the fallback) makes in the running combat.
Action policy_choice(const State& st, Seat seat);

// Where an action's events go. A search applies actions by the thousand and reads none of
// them, so a quiet log does not even write their phrases.
struct Log {
    std::vector<Event> events;
    bool quiet = false;
    // Adds make()'s event, calling it only when the log keeps events.
    template <class Make> void add(Make&& make) {
        if (!quiet)
            events.push_back(make());
    }
};

// Applies a legal action of `seat` (checked by the caller) and returns its events.
std::vector<Event> apply_action(State& st, Seat seat, const Action& a, RandomSource& rng);
// The same, its events into `log` (none written when it is quiet).
void apply_action(State& st, Seat seat, const Action& a, RandomSource& rng, Log& log);

// The position key for repetitions: everything but the clocks and the policies.
std::string position_key(const State& st);

// Names: "White knight", "e5".
std::string unit_name(const Unit& u);
// unit_name as a phrase of the catalogs' words.
Phrase unit_phrase(const Unit& u);
// The direction the track moves, in words: "dark (A)" or "light (E)".
inline Phrase direction_word(int direction) {
    return Phrase{"track", direction < 0 ? "dark (A)" : "light (E)", {}};
}
// A seat's name ("White"), a word of the catalogs.
inline Phrase seat_word(Seat s) {
    return Phrase{"seat", s == Seat::White ? "White" : "Black", {}};
}
// "1 die", "3 dice".
Phrase dice_words(int n);
// "3 banked + 4 this turn of 20": a fighter's points.
Phrase points_phrase(const Fighter& f);
inline std::string sq_name(Sq s) {
    return chess::to_square(s).name();
}

} // namespace ghostpost::rules::gnostic
