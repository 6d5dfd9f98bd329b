// Gnostic Chess: pieces are worth their conventional value, scaled by the hit points they have
// left on their square (a wounded piece loses combats), and the king's hit points matter most:
// the game ends when a king is killed. The dice of a combat are chosen by arithmetic on the
// combat line of the view (gnostic_dice), an expectimax one roll deep.
#include "variant_play.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ghostpost::engine {

using rules::PieceKind;
using rules::Seat;

namespace {

int conventional(PieceKind k) {
    switch (k) {
    case PieceKind::Pawn:
        return 100;
    case PieceKind::Knight:
        return 300;
    case PieceKind::Bishop:
        return 320;
    case PieceKind::Rook:
        return 500;
    case PieceKind::Queen:
        return 900;
    default:
        return 0;
    }
}

struct Side {
    int banked = 0, turn = 0, target = 0;
    bool found = false;
};

// Reads "Combat on e5, round 2: White knight 10 banked + 4 of 30 (choosing); Black pawn ...".
std::pair<Side, Side> combat_sides(const rules::BoardView& b, Seat us) {
    Side mine, theirs;
    const std::string own = us == Seat::White ? "White " : "Black ";
    for (const auto& note : b.notes) {
        if (!note.starts_with("Combat on "))
            continue;
        std::size_t colon = note.find(':');
        std::string rest = note.substr(colon + 1);
        std::size_t semi = rest.find(';');
        const std::string parts[] = {rest.substr(0, semi), semi == std::string::npos
                                                               ? std::string()
                                                               : rest.substr(semi + 1)};
        for (const std::string& part : parts) {
            Side s;
            std::size_t at = part.find(" banked + ");
            std::size_t of = part.find(" of ");
            if (at == std::string::npos || of == std::string::npos)
                continue;
            std::size_t start = part.rfind(' ', at - 1);
            s.banked = std::stoi(part.substr(start + 1, at - start - 1));
            s.turn = std::stoi(part.substr(at + 10, of - at - 10));
            s.target = std::stoi(part.substr(of + 4));
            s.found = true;
            (part.find(own) != std::string::npos ? mine : theirs) = s;
        }
    }
    return {mine, theirs};
}

} // namespace

// A spell not yet cast is a threat kept in hand: one is cast only for more than this.
constexpr int spell_in_hand = 30;

// "Spells cast: White Teleport, Heal; Black Exchange": how many `seat` has cast.
int spells_cast(const rules::BoardView& b, Seat seat) {
    for (const auto& note : b.notes) {
        if (!note.starts_with("Spells cast: "))
            continue;
        const std::string who = seat == Seat::White ? "White " : "Black ";
        const auto at = note.find(who);
        if (at == std::string::npos)
            return 0;
        const auto end = note.find(';', at);
        const std::string part = note.substr(at, end == std::string::npos ? end : end - at);
        return static_cast<int>(std::count(part.begin(), part.end(), ',')) + 1;
    }
    return 0;
}

int evaluate_gnostic(const rules::BoardView& b, Seat us) {
    int score = spell_in_hand * (spells_cast(b, rules::opponent(us)) - spells_cast(b, us));
    for (int r = 0; r < b.ranks; ++r)
        for (int f = 0; f < b.files; ++f) {
            const rules::Square s{f, r};
            for (const auto& fig : b.at(s).figures) {
                int v = 0;
                if (fig.piece.kind == PieceKind::King)
                    v = 2 * fig.hp; // hit points of the piece whose death ends the game
                else {
                    const int value = conventional(fig.piece.kind);
                    const int full = std::max(1, fig.max_hp);
                    v = value / 2 + value * std::min(fig.hp, full) / (2 * full) +
                        centre_bonus(b, s) / 2;
                }
                if (fig.imprisoned)
                    v /= 2;
                score += fig.piece.seat == us ? v : -v;
            }
        }
    return score;
}

bool gnostic_deep(const rules::Action& action) {
    return action.kind != rules::ActionKind::Special;
}

// Rolling n dice scores their sum unless one shows a 1, which loses this turn's points: the
// expected gain is (5/6)^n (turn + 4n) - turn, counting no more than what is still needed. The
// engine rolls the n that gains most, holds when no roll gains, and rolls all it may when the
// other side is about to win anyway.
std::optional<rules::NotatedAction> gnostic_dice(const rules::BoardView& b, Seat us,
                                                 const std::vector<rules::NotatedAction>& legal) {
    std::optional<rules::NotatedAction> hold;
    std::vector<const rules::NotatedAction*> rolls(11, nullptr);
    for (const auto& a : legal) {
        if (a.action.kind != rules::ActionKind::Choice)
            return std::nullopt; // not a combat decision: search it
        if (a.text == "hold")
            hold = a;
        else if (a.text.starts_with("roll ") && a.action.number >= 1 && a.action.number <= 10)
            rolls[static_cast<std::size_t>(a.action.number)] = &a;
    }
    auto [mine, theirs] = combat_sides(b, us);
    const int need = std::max(1, mine.target - mine.banked - mine.turn);
    const bool desperate = theirs.found && theirs.target - theirs.banked - theirs.turn <= 8;
    double best_gain = 0.0;
    const rules::NotatedAction* best = nullptr;
    for (int n = 1; n <= 10; ++n) {
        if (!rolls[static_cast<std::size_t>(n)])
            continue;
        const double survive = std::pow(5.0 / 6.0, n);
        const double gain =
            survive * (mine.turn + std::min(4.0 * n, static_cast<double>(need))) - mine.turn;
        if (best == nullptr || gain > best_gain || (desperate && n > best->action.number)) {
            best_gain = gain;
            best = rolls[static_cast<std::size_t>(n)];
        }
    }
    if (best && (best_gain > 0.0 || desperate || mine.turn == 0 || !hold))
        return *best;
    if (hold)
        return hold;
    return legal.empty() ? std::nullopt : std::optional(legal.front());
}

} // namespace ghostpost::engine
