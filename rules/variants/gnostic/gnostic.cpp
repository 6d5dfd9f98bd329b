// Gnostic Chess 0.2 (Paul Snyder and Ron Hale-Evans): FIDE moves, but a move onto an enemy
// piece starts a HyperPig dice combat between the two pieces; hit points of 10 x value, scaled
// by the shade of the defender's square, which follows a light/dark track for the variable
// squares; damage persists; no check, the game ends when a king dies; the Queen's six spells.
// Dice come only from the RandomSource given to apply (the game's seeded stream). Readings of
// the seed and rules-decisions.md are in docs/variants/gnostic.md.
#include "gnostic.h"

#include "ghostpost/rules/notation.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <regex>

namespace ghostpost::rules {
namespace {

using gnostic::State;
namespace code = gnostic::code;

const VariantInfo& gnostic_info() {
    static const VariantInfo info{
        .name = "gnostic",
        .aliases = {"gnosticchess"},
        .title = "Gnostic Chess",
        .files = 8,
        .ranks = 8,
        .seat_names = {"White", "Black"},
        .options = {},
        .summary = N_(
            "FIDE moves without check; the game ends when a king is killed. A move onto an enemy "
            "piece starts a dice combat (HyperPig): each round both owners choose by direct "
            "message how many dice to roll (1 to the piece's value: P1 N3 B3 R5 Q9 K10) or to "
            "hold; any 1 loses that turn's points; the first to score the other's hit points "
            "wins, both at once kill both. Hit points are 10 x value, x2 / x1.5 / x0.75 / x0.5 "
            "on the defender's square by its shade (stronger on your own colour); damage stays. "
            "Squares are light, dark, or follow a track A (dark) to E (light) that starts at C, "
            "moves toward A after each full round and bounces. Instead of moving, a Queen may "
            "cast each spell once per game: Teleport, Heal, Shift Time, Exchange, Revive, "
            "Imprison. Dice come from the game's secret seed: its SHA-256 is posted when the "
            "game starts, the seed itself when it ends, and !verify <game> then re-derives "
            "every roll from the seed and the log."),
        .notation =
            N_("Moves in SAN: e4, Nf3, Nxe5 (starts a combat), O-O, exd8=Q. Combat: roll 3, hold, "
               "sent to the bot by direct message (the first choice of a round is secret). "
               "Spells: Teleport b1-e5, Heal e4, Shift Time, Exchange e4-d5, Revive Nc3, "
               "Imprison f6. Any time: policy roll 4 hold 20 (used when you miss the combat "
               "deadline), policy off. pass when nothing can move."),
        .uses_chance = true,
        .examples = "e4, Nf3, Nxe5, O-O, e8=Q, roll 3, hold or Heal e4",
    };
    return info;
}

// A cheap deterministic stream for perft only (SplitMix64): perft draws the dice of each action
// from a fresh stream seeded with the number of actions before it, so counts are reproducible.
class PerftDice final : public RandomSource {
public:
    explicit PerftDice(std::uint64_t seed) : x_(seed) {}
    std::uint32_t uniform(std::uint32_t n) override {
        x_ += 0x9E3779B97F4A7C15ULL;
        std::uint64_t z = x_;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
        return static_cast<std::uint32_t>(z % n);
    }

private:
    std::uint64_t x_;
};

bool both_kings(const State& st) {
    int kings[2] = {0, 0};
    for (const auto& u : st.board)
        if (u.kind == PieceKind::King)
            ++kings[index(u.seat)];
    return kings[0] && kings[1];
}

std::uint64_t perft_walk(const State& st, int depth, std::uint64_t ply) {
    if (depth <= 0)
        return 1;
    if (!both_kings(st))
        return 0;
    std::uint64_t nodes = 0;
    for (const Decision& d : gnostic::decisions(st)) {
        if (depth == 1) {
            nodes += gnostic::count_legal_actions(st, d.seat);
            continue;
        }
        const auto actions = gnostic::legal_actions(st, d.seat);
        for (const Action& a : actions) {
            State next = st;
            PerftDice dice(ply);
            gnostic::apply_action(next, d.seat, a, dice);
            assert(gnostic::is_consistent(next));
            nodes += perft_walk(next, depth - 1, ply + 1);
        }
    }
    return nodes;
}

using Said = std::variant<std::string, Phrase>; // what a phrase's argument may be

// A side in lower case ("white"), a word of the catalogs.
Phrase side_word(Seat s) {
    return Phrase{"side", std::string(seat_name(s)), {}};
}

RuleError not_your_move(Seat to_move) {
    return make_error(ErrorKind::NotYourTurn,
                      phrase(N_("it is {side}'s move"), {{"side", side_word(to_move)}}));
}

// Phrases joined with `pattern` ("{first}, {second}"), left to right.
Said joined(const std::vector<Said>& parts, const char* pattern) {
    if (parts.empty())
        return std::string();
    Said out = parts.front();
    for (std::size_t i = 1; i < parts.size(); ++i)
        out = phrase(pattern, {{"first", std::move(out)}, {"second", parts[i]}});
    return out;
}

bool is_anytime(const Action& a) {
    return a.kind == ActionKind::Choice &&
           (a.special == code::policy || a.special == code::policy_off ||
            a.special == code::use_default);
}

class GnosticGame final : public Game {
public:
    explicit GnosticGame(Options options) : options_(std::move(options)) {
        gnostic::read_fen(st_, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        after_turn(true);
    }

    // Every reason `fen` is no Gnostic Chess position; empty when it was read.
    std::vector<std::string> load(std::string_view fen) {
        std::vector<std::string> reasons;
        if (auto setup = read_fen(fen, gnostic::fen_shape); !setup) {
            reasons.push_back(setup.error().message);
        } else if (auto st = gnostic::state_from_setup(*setup); !st) {
            reasons = st.reasons();
        } else {
            st_ = std::move(st).value();
        }
        history_.clear();
        after_turn(true);
        return reasons;
    }

    std::unique_ptr<Game> clone() const override { return std::make_unique<GnosticGame>(*this); }
    const VariantInfo& info() const override { return gnostic_info(); }
    const Options& options() const override { return options_; }

    std::vector<Decision> pending() const override {
        if (outcome_.over())
            return {};
        return gnostic::decisions(st_);
    }
    // decisions()'s seats without the dice decision's words, which are the dearest part.
    bool pending_seats(std::vector<Seat>& seats) const override {
        seats.clear();
        if (outcome_.over())
            return false;
        if (!st_.combat) {
            seats.push_back(st_.side);
            return true;
        }
        for (const auto& f : st_.combat->fighters)
            if (f.active && !f.commit)
                seats.push_back(st_.board[static_cast<std::size_t>(f.square)].seat);
        return false;
    }

    std::vector<NotatedAction> notated_actions(Seat seat) const override {
        if (outcome_.over())
            return {};
        const auto legal = gnostic::legal_actions(st_, seat);
        std::vector<NotatedAction> out;
        out.reserve(legal.size());
        for (const Action& a : legal)
            out.push_back({a, gnostic::action_text(st_, a, legal)});
        // Exchange names two squares: either order is the same spell, so both are accepted.
        for (const Action& a : legal) {
            if (a.kind == ActionKind::Special &&
                a.special == code::spell_base + static_cast<int>(gnostic::Spell::Exchange)) {
                Action b = a;
                std::swap(b.from, b.to);
                out.push_back({b, gnostic::action_text(st_, b, legal)});
            }
        }
        return out;
    }

    std::vector<Action> legal_actions(Seat seat) const override {
        if (outcome_.over())
            return {};
        return gnostic::legal_actions(st_, seat);
    }

    std::vector<NotatedAction> anytime_actions(Seat seat) const override {
        if (outcome_.over())
            return {};
        std::vector<NotatedAction> out;
        out.reserve(10 * gnostic::max_hold + 2);
        for (int dice = 1; dice <= 10; ++dice)
            for (int hold = 1; hold <= gnostic::max_hold; ++hold)
                out.push_back(anytime(code::policy, dice * 1000 + hold));
        out.push_back(anytime(code::policy_off));
        if (must_choose_dice(seat))
            out.push_back(anytime(code::use_default));
        return out;
    }

    // Reads the key instead of listing the policies: "policyroll<N>hold<T>" (numbers as
    // anytime_text writes them, no leading zero), "policyoff", "default".
    std::optional<NotatedAction> anytime_action(Seat seat, std::string_view key) const override {
        if (outcome_.over())
            return std::nullopt;
        if (key == "policyoff")
            return anytime(code::policy_off);
        if (key == "default")
            return must_choose_dice(seat) ? std::optional(anytime(code::use_default))
                                          : std::nullopt;
        // A number as written in a canonical text: digits, no leading zero, at most `max`.
        auto number = [&](std::string_view& rest, int max) -> std::optional<int> {
            std::size_t n = 0;
            int value = 0;
            while (n < rest.size() && n < 3 && std::isdigit(static_cast<unsigned char>(rest[n])))
                value = value * 10 + (rest[n++] - '0');
            if (n == 0 || (n > 1 && rest[0] == '0') || value < 1 || value > max)
                return std::nullopt;
            rest.remove_prefix(n);
            return value;
        };
        if (!key.starts_with("policyroll"))
            return std::nullopt;
        key.remove_prefix(10);
        const auto dice = number(key, 10);
        if (!dice || !key.starts_with("hold"))
            return std::nullopt;
        key.remove_prefix(4);
        const auto hold = number(key, gnostic::max_hold);
        if (!hold || !key.empty())
            return std::nullopt;
        return anytime(code::policy, *dice * 1000 + *hold);
    }

    std::optional<NotatedAction> deadline_action(Seat seat) const override {
        return anytime_action(seat, "default");
    }

    Result<std::vector<Event>> apply(Seat seat, const Action& action, RandomSource& rng) override {
        gnostic::Log log;
        if (auto refused = play(seat, action, rng, log))
            return *refused;
        return std::move(log.events);
    }

    bool apply_silently(Seat seat, const Action& action, RandomSource& rng) override {
        gnostic::Log log;
        log.quiet = true;
        return !play(seat, action, rng, log);
    }

private:
    // apply()'s work, its events into `log`: why the action is refused, or nothing when it
    // was applied.
    std::optional<RuleError> play(Seat seat, const Action& action, RandomSource& rng,
                                  gnostic::Log& log) {
        if (outcome_.over())
            return make_error(ErrorKind::GameOver,
                              phrase(N_("the game is over ({reason})"),
                                     {{"reason", Phrase{"reason", outcome_.reason, {}}}}));
        if (is_anytime(action)) {
            if (action.special == code::policy) {
                const int dice = action.number / 1000, hold = action.number % 1000;
                if (dice < 1 || dice > 10 || hold < 1 || hold > gnostic::max_hold)
                    return make_error(
                        ErrorKind::Illegal,
                        phrase(N_("a policy rolls 1 to 10 dice and holds at 1 to {max} points"),
                               {{"max", std::to_string(gnostic::max_hold)}}));
            }
            if (action.special == code::use_default && !must_choose_dice(seat))
                return make_error(
                    ErrorKind::NotYourTurn,
                    phrase(N_("{side} has no dice to choose now"), {{"side", side_word(seat)}}));
            // A standing policy is no ply: the views' count must not tell that one was set.
            // `default` is a dice choice like any other and counts.
            if (action.special == code::use_default)
                ++plies_;
            gnostic::apply_action(st_, seat, action, rng, log);
            check_consistent(*this);
            return std::nullopt;
        }
        auto legal = gnostic::legal_actions(st_, seat);
        if (legal.empty()) {
            std::vector<Said> who;
            for (const auto& d : pending())
                who.push_back(side_word(d.seat));
            return make_error(ErrorKind::NotYourTurn,
                              phrase(N_("it is not {side}'s decision now: {sides} to decide"),
                                     {{"side", side_word(seat)},
                                      {"sides", joined(who, N_("{first} and {second}"))}}));
        }
        Action a = action;
        if (a.kind == ActionKind::Special &&
            a.special == code::spell_base + static_cast<int>(gnostic::Spell::Exchange) &&
            a.to.valid() && a.from.valid() && chess::from_square(a.to) < chess::from_square(a.from))
            std::swap(a.from, a.to);
        if (std::find(legal.begin(), legal.end(), a) == legal.end())
            return make_error(ErrorKind::Illegal, phrase(N_("that action is not legal here")));
        const Seat side_before = st_.side;
        if (a.kind == ActionKind::Move)
            log.add([&] {
                return public_event(EventKind::Moved, gnostic::action_text(st_, a, legal));
            });
        gnostic::apply_action(st_, seat, a, rng, log);
        ++plies_;
        if (st_.side != side_before)
            after_turn(st_.halfmove == 0 || a.kind == ActionKind::Special);
        if (outcome_.over())
            log.add([&] {
                return public_event(EventKind::GameOver, Phrase{"reason", outcome_.reason, {}});
            });
        check_consistent(*this);
        return std::nullopt;
    }

public:
    bool is_consistent() const override { return gnostic::is_consistent(st_); }

    Outcome outcome() const override { return outcome_; }
    // Killing the enemy king wins, and any piece, a king too, may attack any piece and win the
    // combat with the right dice; prisoners go free as the track moves on by itself. So both
    // sides could always still win while the game is under way. docs/variants/gnostic.md.
    bool could_win(Seat) const override { return !outcome_.over(); }

    std::optional<std::string> claimable_draw() const override {
        if (outcome_.over() || st_.combat)
            return std::nullopt;
        if (st_.halfmove >= 100)
            return std::string("the 50-move rule");
        if (repetitions() >= 3)
            return std::string("threefold repetition");
        return std::nullopt;
    }

    PublicView public_view() const override { return make_public(board(std::nullopt)); }
    SeatView seat_view(Seat seat) const override { return make_private(seat, board(seat)); }
    void final_board(BoardView& into) const override { board_into(std::nullopt, into, true); }
    void seat_board(Seat seat, BoardView& into) const override { board_into(seat, into, true); }
    bool assign(const Game& other) override { return assign_as(*this, other); }

    RuleError explain_illegal(Seat seat, const ActionSyntax& syntax,
                              std::string_view text) const override;
    std::optional<RuleError> explain_special(Seat seat, std::string_view text) const override;

    std::uint64_t perft(int depth) const override {
        if (outcome_.over())
            return depth <= 0 ? 1 : 0;
        return perft_walk(st_, depth, static_cast<std::uint64_t>(plies_));
    }
    std::string fen() const override { return gnostic::write_fen(st_); }
    int ply() const override { return plies_; }

private:
    // An anytime choice (a policy, "policy off", "default") with its canonical text.
    static NotatedAction anytime(std::uint8_t special, int number = 0) {
        Action a;
        a.kind = ActionKind::Choice;
        a.special = special;
        a.number = static_cast<std::int16_t>(number);
        return {a, gnostic::anytime_text(a)};
    }

    bool must_choose_dice(Seat seat) const {
        if (outcome_.over() || !st_.combat)
            return false;
        for (const auto& d : gnostic::decisions(st_))
            if (d.seat == seat)
                return true;
        return false;
    }

    int repetitions() const {
        const std::string key = gnostic::position_key(st_);
        return static_cast<int>(std::count(history_.begin(), history_.end(), key));
    }

    // A turn is complete: remember the position for repetitions and see whether the game ended.
    void after_turn(bool irreversible) {
        if (irreversible)
            history_.clear();
        history_.push_back(gnostic::position_key(st_));
        int kings[2] = {0, 0};
        for (const auto& u : st_.board)
            if (u.kind == PieceKind::King)
                ++kings[index(u.seat)];
        if (!kings[0] && !kings[1])
            outcome_ = {Status::Draw, "the death of both kings"};
        else if (!kings[0])
            outcome_ = {Status::BlackWins, "killing the White king"};
        else if (!kings[1])
            outcome_ = {Status::WhiteWins, "killing the Black king"};
        else if (st_.halfmove >= 150)
            outcome_ = {Status::Draw, "the 75-move rule"};
        else if (repetitions() >= 5)
            outcome_ = {Status::Draw, "fivefold repetition"};
    }

    BoardView board(std::optional<Seat> viewer) const;
    // board() written over `v`; with `cached`, notes (and no note_phrases) as last written
    // from the same state.
    void board_into(std::optional<Seat> viewer, BoardView& v, bool cached) const;
    // The notes under the board (track, spells, the dead, the combat, the viewer's policy).
    void notes_into(std::optional<Seat> viewer, BoardView& v) const;
    // Those notes in parts: before the combat's, the combat's, and the viewer's policy after.
    void board_notes(BoardView& v) const;
    void combat_note(std::optional<Seat> viewer, BoardView& v) const;
    void policy_note(Seat viewer, BoardView& v) const;
    // The texts of board_notes(), combat_note() and policy_note(), written straight as English
    // for a search, which reads them at every position and every roll.
    void plain_board_notes(std::vector<std::string>& notes) const;
    std::string plain_combat_note(std::optional<Seat> viewer) const;
    std::string plain_policy_note(Seat viewer) const;
    // What the notes but the combat's read of the state.
    struct NotesKey {
        int track = 0;
        int direction = 0;
        std::array<std::uint8_t, 2> spells_used{};
        std::array<std::array<std::uint8_t, 7>, 2> dead{};
        std::optional<gnostic::Policy> policy;
        bool operator==(const NotesKey&) const = default;
    };

    Options options_;
    State st_;
    Outcome outcome_;
    int plies_ = 0;
    std::vector<std::string> history_; // position keys since the last irreversible turn
};

BoardView GnosticGame::board(std::optional<Seat> viewer) const {
    BoardView v("gnostic", 8, 8);
    board_into(viewer, v, false);
    return v;
}

void GnosticGame::board_into(std::optional<Seat> viewer, BoardView& v, bool cached) const {
    if (v.variant != "gnostic")
        v.variant = "gnostic";
    v.files = v.ranks = 8;
    v.cells.resize(64);
    for (chess::Sq s = 0; s < 64; ++s) {
        Cell& cell = v.at(chess::to_square(s));
        cell.figures.clear();
        cell.tint = gnostic::shade(s, st_.track);
        const auto& u = st_.board[static_cast<std::size_t>(s)];
        if (u.kind == PieceKind::None)
            continue;
        Figure f;
        f.piece = Piece{u.kind, u.seat};
        f.max_hp = gnostic::full_hp(u.kind, u.seat, cell.tint);
        f.hp = std::max(0, f.max_hp - u.damage);
        f.imprisoned = u.imprisoned;
        cell.figures.push_back(f);
    }
    v.last_from = st_.last_from >= 0 ? chess::to_square(st_.last_from) : Square{};
    v.last_to = st_.last_to >= 0 ? chess::to_square(st_.last_to) : Square{};
    v.check = Square{};
    v.deciding.clear();
    if (!outcome_.over()) {
        // The seats of pending(), without writing out what they decide.
        if (!st_.combat)
            v.deciding.push_back(st_.side);
        else
            for (const auto& f : st_.combat->fighters)
                if (f.active && !f.commit)
                    v.deciding.push_back(st_.board[static_cast<std::size_t>(f.square)].seat);
    }
    v.ply = plies_;
    v.move_number = st_.fullmove;
    v.notes.clear();
    v.note_phrases.clear();
    if (!cached) {
        notes_into(viewer, v);
        return;
    }
    // The notes are phrases written out, the dearest part of a view, so a search gets them
    // written straight as English. Most stay the same from one position to the next: the last
    // ones for each viewer are kept with what they were written from, but for the combat's,
    // which changes with every roll.
    NotesKey key{st_.track, st_.direction, st_.spells_used, st_.dead,
                 viewer ? st_.policy[index(*viewer)] : std::nullopt};
    struct Kept {
        NotesKey key;
        std::vector<std::string> notes;
        std::size_t before_combat = 0; // how many of `notes` come before the combat's
    };
    thread_local std::array<std::optional<Kept>, 3> last;
    auto& slot = last[viewer ? index(*viewer) : 2];
    if (!slot || slot->key != key) {
        if (!slot)
            slot.emplace();
        slot->key = key;
        slot->notes.clear();
        plain_board_notes(slot->notes);
        slot->before_combat = slot->notes.size();
        if (viewer)
            slot->notes.push_back(plain_policy_note(*viewer));
    }
    v.notes = slot->notes;
    if (st_.combat)
        v.notes.insert(v.notes.begin() + static_cast<std::ptrdiff_t>(slot->before_combat),
                       plain_combat_note(viewer));
}

void GnosticGame::plain_board_notes(std::vector<std::string>& notes) const {
    notes.push_back(std::string("Track: ") + gnostic::track_letter(st_.track) + ", moving toward " +
                    (st_.direction < 0 ? "dark (A)" : "light (E)"));
    std::string spells, killed;
    for (Seat s : {Seat::White, Seat::Black}) {
        const char* seat = s == Seat::White ? "White " : "Black ";
        std::string names;
        for (int i = 0; i < gnostic::spell_count; ++i)
            if (st_.spells_used[index(s)] & (1u << i))
                (names += names.empty() ? "" : ", ") +=
                    gnostic::spell_name(static_cast<gnostic::Spell>(i));
        if (!names.empty())
            (spells += spells.empty() ? seat : std::string("; ") + seat) += names;
        names.clear();
        for (std::size_t k = 0; k < st_.dead[index(s)].size(); ++k) {
            const int n = st_.dead[index(s)][k];
            if (n <= 0)
                continue;
            (names += names.empty() ? "" : ", ") += std::to_string(n) + " ";
            names += piece_name(static_cast<PieceKind>(k));
            if (n > 1)
                names += 's';
        }
        if (!names.empty())
            (killed += killed.empty() ? seat : std::string("; ") + seat) += names;
    }
    if (!spells.empty())
        notes.push_back("Spells cast: " + spells);
    if (!killed.empty())
        notes.push_back("Killed: " + killed);
}

std::string GnosticGame::plain_policy_note(Seat viewer) const {
    const auto& p = st_.policy[index(viewer)];
    if (p)
        return "Your standing policy: roll " + std::to_string(p->dice) + ", hold at " +
               std::to_string(p->hold);
    return "Your standing policy: none (the fallback rolls " +
           std::to_string(gnostic::policy_dice_fallback) + ", holds at " +
           std::to_string(gnostic::policy_hold_fallback) + ")";
}

std::string GnosticGame::plain_combat_note(std::optional<Seat> viewer) const {
    const auto& c = *st_.combat;
    std::array<std::string, 2> fighters;
    std::string choice;
    int mine = -1; // the fighter whose hidden choice the viewer sees
    for (std::size_t i = 0; i < 2; ++i) {
        const auto& f = c.fighters[i];
        const auto& u = st_.board[static_cast<std::size_t>(f.square)];
        auto& out = fighters[i];
        out = u.seat == Seat::White ? "White " : "Black ";
        out += piece_name(u.kind);
        out += " " + std::to_string(f.banked) + " banked + " + std::to_string(f.turn) + " of " +
               std::to_string(f.target);
        out += !f.active ? " (turn over)" : f.commit ? " (has chosen)" : " (choosing)";
        if (viewer && u.seat == *viewer && f.commit) {
            mine = static_cast<int>(i);
            choice = *f.commit == 0 ? "hold" : "roll " + std::to_string(*f.commit);
        }
    }
    std::string out = "Combat on " + gnostic::sq_name(c.contested) + ", round " +
                      std::to_string(c.round) + ": " + fighters[0];
    if (mine == 0)
        out += "; your choice: " + choice + " " + fighters[1];
    else if (mine == 1)
        out += "; " + fighters[1] + " your choice: " + choice;
    else
        out += "; " + fighters[1];
    return out;
}

void GnosticGame::notes_into(std::optional<Seat> viewer, BoardView& v) const {
    board_notes(v);
    combat_note(viewer, v);
    if (viewer)
        policy_note(*viewer, v);
}

void GnosticGame::board_notes(BoardView& v) const {
    v.note(phrase(N_("Track: {track}, moving toward {direction}"),
                  {{"track", std::string(1, gnostic::track_letter(st_.track))},
                   {"direction", gnostic::direction_word(st_.direction)}}));
    // TRANSLATORS: what one side has, as in "White Teleport, Heal" or "Black 2 pawns, 1 rook".
    const char* of_seat = N_("{seat} {list}");
    std::vector<Said> used;
    for (Seat s : {Seat::White, Seat::Black}) {
        std::vector<Said> names;
        for (int i = 0; i < gnostic::spell_count; ++i)
            if (st_.spells_used[index(s)] & (1u << i))
                names.push_back(gnostic::spell_word(static_cast<gnostic::Spell>(i)));
        if (!names.empty())
            used.push_back(phrase(of_seat, {{"seat", gnostic::seat_word(s)},
                                            {"list", joined(names, N_("{first}, {second}"))}}));
    }
    if (!used.empty())
        v.note(phrase(N_("Spells cast: {spells}"),
                      {{"spells", joined(used, N_("{first}; {second}"))}}));
    // The killed pieces are what Revive may bring back, so both sides need to see them.
    std::vector<Said> killed;
    for (Seat s : {Seat::White, Seat::Black}) {
        std::vector<Said> names;
        for (std::size_t k = 0; k < st_.dead[index(s)].size(); ++k) {
            const int n = st_.dead[index(s)][k];
            if (n <= 0)
                continue;
            // A piece's name, or its plural ("pawns"), a word of the catalogs.
            const std::string name(piece_name(static_cast<PieceKind>(k)));
            Phrase word = n > 1 ? Phrase{"pieces", name + "s", {}} : Phrase{"piece", name, {}};
            // TRANSLATORS: a number of killed pieces, as in "2 pawns".
            names.push_back(phrase(N_("{count} {piece}"),
                                   {{"count", std::to_string(n)}, {"piece", std::move(word)}}));
        }
        if (!names.empty())
            killed.push_back(phrase(of_seat, {{"seat", gnostic::seat_word(s)},
                                              {"list", joined(names, N_("{first}, {second}"))}}));
    }
    if (!killed.empty())
        v.note(
            phrase(N_("Killed: {pieces}"), {{"pieces", joined(killed, N_("{first}; {second}"))}}));
}

void GnosticGame::combat_note(std::optional<Seat> viewer, BoardView& v) const {
    if (st_.combat) {
        const auto& c = *st_.combat;
        std::array<Phrase, 2> fighters;
        std::optional<std::pair<std::size_t, std::string>> mine; // whose choice is shown, which
        for (std::size_t i = 0; i < 2; ++i) {
            const auto& f = c.fighters[i];
            const auto& u = st_.board[static_cast<std::size_t>(f.square)];
            const std::vector<Phrase::Arg> args{{"unit", gnostic::unit_phrase(u)},
                                                {"banked", std::to_string(f.banked)},
                                                {"turn", std::to_string(f.turn)},
                                                {"target", std::to_string(f.target)}};
            fighters[i] =
                !f.active
                    ? phrase(N_("{unit} {banked} banked + {turn} of {target} (turn over)"), args)
                : f.commit
                    ? phrase(N_("{unit} {banked} banked + {turn} of {target} (has chosen)"), args)
                    : phrase(N_("{unit} {banked} banked + {turn} of {target} (choosing)"), args);
            // A seat sees its own hidden choice; the channel only sees that one was made.
            if (viewer && u.seat == *viewer && f.commit)
                mine = {i, *f.commit == 0 ? "hold" : "roll " + std::to_string(*f.commit)};
        }
        std::vector<Phrase::Arg> args{{"square", gnostic::sq_name(c.contested)},
                                      {"round", std::to_string(c.round)},
                                      {"first", fighters[0]},
                                      {"second", fighters[1]}};
        if (mine)
            args.push_back({"choice", mine->second});
        v.note(!mine ? phrase(N_("Combat on {square}, round {round}: {first}; {second}"), args)
               : mine->first == 0
                   ? phrase(N_("Combat on {square}, round {round}: {first}; your choice: {choice} "
                               "{second}"),
                            args)
                   : phrase(N_("Combat on {square}, round {round}: {first}; {second} your choice: "
                               "{choice}"),
                            args));
    }
}

void GnosticGame::policy_note(Seat viewer, BoardView& v) const {
    const auto& p = st_.policy[index(viewer)];
    v.note(p ? phrase(N_("Your standing policy: roll {dice}, hold at {hold}"),
                      {{"dice", std::to_string(p->dice)}, {"hold", std::to_string(p->hold)}})
             : phrase(N_("Your standing policy: none (the fallback rolls {dice}, holds at "
                         "{hold})"),
                      {{"dice", std::to_string(gnostic::policy_dice_fallback)},
                       {"hold", std::to_string(gnostic::policy_hold_fallback)}}));
}

RuleError GnosticGame::explain_illegal(Seat seat, const ActionSyntax& syntax,
                                       std::string_view text) const {
    const std::string t(text);
    auto illegal = [&](Phrase why) {
        return make_error(ErrorKind::Illegal, phrase(N_("{move} is not possible: {why}"),
                                                     {{"move", t}, {"why", std::move(why)}}));
    };
    if (st_.combat)
        return make_error(
            ErrorKind::Illegal,
            phrase(N_("{move} is not possible now: a combat is being fought on "
                      "{square}; choose your dice with roll N or hold"),
                   {{"move", t}, {"square", gnostic::sq_name(st_.combat->contested)}}));
    if (seat != st_.side)
        return not_your_move(st_.side);
    if (syntax.castle != 0)
        return illegal(phrase(N_("castling needs the king and that rook unmoved and free, and the "
                                 "squares between them empty (check does not matter in "
                                 "{variant})"),
                              {{"variant", Phrase{"variant", info().title, {}}}}));
    const chess::Sq to = chess::from_square(syntax.to);
    const auto& target = st_.board[static_cast<std::size_t>(to)];
    // An imprisoned piece that could otherwise make the move.
    chess::Bitboard occ = 0;
    for (chess::Sq s = 0; s < 64; ++s)
        if (st_.board[static_cast<std::size_t>(s)].kind != PieceKind::None)
            occ |= chess::bb(s);
    for (chess::Sq s = 0; s < 64; ++s) {
        const auto& u = st_.board[static_cast<std::size_t>(s)];
        if (!u.imprisoned || u.seat != seat ||
            (syntax.piece != PieceKind::None && u.kind != syntax.piece))
            continue;
        if ((syntax.from_file >= 0 && chess::file_of(s) != syntax.from_file) ||
            (syntax.from_rank >= 0 && chess::rank_of(s) != syntax.from_rank))
            continue;
        chess::Bitboard reach = chess::attacks_of(u.kind, u.seat, s, occ);
        if (u.kind == PieceKind::Pawn)
            reach |= chess::bb(seat == Seat::White ? s + 8 : s - 8);
        if (reach & chess::bb(to))
            return illegal(phrase(N_("the {piece} on {square} is imprisoned until the track "
                                     "reaches {track}"),
                                  {{"piece", piece_word(u.kind)},
                                   {"square", gnostic::sq_name(s)},
                                   {"track", seat == Seat::White ? "E" : "A"}}));
    }
    if (target.kind != PieceKind::None && target.seat == seat)
        return illegal(phrase(N_("your own {piece} stands on {square}"),
                              {{"piece", piece_word(target.kind)}, {"square", syntax.to.name()}}));
    return Game::explain_illegal(seat, syntax, text);
}

std::optional<RuleError> GnosticGame::explain_special(Seat seat, std::string_view raw) const {
    const std::string t = strip_annotations(raw);
    std::string word;
    for (char c : t) {
        if (!std::isalpha(static_cast<unsigned char>(c)))
            break;
        word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    // Only text shaped like the special is answered: "hold on" or "heal me" is chatter.
    std::string rest;
    for (char c : t.substr(word.size()))
        if (c != ' ' && c != '-')
            rest += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    static const std::regex squares(R"(^([nbrqp]?[a-h][1-8]){1,2}$)");
    static const std::regex number(R"(^[0-9]{1,3}$)");
    static const std::regex policy(R"(^(roll[0-9]{1,3}hold[0-9]{1,4}|off)$)");
    const bool shaped = word == "roll"     ? std::regex_match(rest, number)
                        : word == "policy" ? std::regex_match(rest, policy)
                        : word == "shift"  ? rest == "time"
                        : word == "hold" || word == "pass" || word == "default"
                            ? rest.empty()
                            : std::regex_match(rest, squares);
    if (!shaped)
        return std::nullopt;
    auto illegal = [&](Phrase why) {
        return make_error(ErrorKind::Illegal, phrase(N_("{move} is not possible: {why}"),
                                                     {{"move", t}, {"why", std::move(why)}}));
    };
    const auto mine = index(seat);
    if (word == "policy")
        return illegal(phrase(N_("a policy is written policy roll N hold T, with N from 1 to 10 "
                                 "dice and T from 1 to {max} points, or policy off"),
                              {{"max", std::to_string(gnostic::max_hold)}}));
    if (word == "default")
        return illegal(phrase(N_("default lets your standing policy choose your dice in a combat, "
                                 "and you have no dice to choose now")));
    if (word == "roll" || word == "hold") {
        if (!st_.combat)
            return illegal(phrase(N_("{command} answers the dice of a combat, and no combat is "
                                     "being fought"),
                                  {{"command", word}}));
        for (const auto& f : st_.combat->fighters) {
            const auto& u = st_.board[static_cast<std::size_t>(f.square)];
            if (u.seat != seat)
                continue;
            const Phrase::Arg piece{"piece", piece_word(u.kind)};
            if (!f.active)
                return illegal(phrase(N_("your {piece}'s turn in this combat is over"), {piece}));
            if (f.commit)
                return illegal(phrase(N_("you have chosen already in this round")));
            if (word == "hold")
                return illegal(phrase(N_("hold banks this turn's points, and your {piece} has none "
                                         "yet: roll first"),
                                      {piece}));
            const int cv = gnostic::conventional_value(u.kind);
            return illegal(cv > 1 ? phrase(N_("your {piece} rolls 1 to {count} dice"),
                                           {piece, {"count", std::to_string(cv)}})
                                  : phrase(N_("your {piece} rolls 1 die"), {piece}));
        }
        return illegal(phrase(N_("neither fighting piece is yours")));
    }
    if (word == "pass")
        return illegal(phrase(N_("pass is only for a side that has no move and no spell")));
    static const std::vector<std::pair<std::string, gnostic::Spell>> spells = {
        {"teleport", gnostic::Spell::Teleport}, {"heal", gnostic::Spell::Heal},
        {"shift", gnostic::Spell::ShiftTime},   {"exchange", gnostic::Spell::Exchange},
        {"revive", gnostic::Spell::Revive},     {"imprison", gnostic::Spell::Imprison}};
    auto known =
        std::find_if(spells.begin(), spells.end(), [&](const auto& k) { return k.first == word; });
    if (known == spells.end())
        return std::nullopt;
    const gnostic::Spell spell = known->second;
    const std::string name(gnostic::spell_name(spell));
    const Phrase::Arg spell_arg{"spell", gnostic::spell_word(spell)};
    if (st_.combat)
        return illegal(phrase(N_("a combat is being fought on {square}; spells wait until it is "
                                 "over"),
                              {{"square", gnostic::sq_name(st_.combat->contested)}}));
    if (seat != st_.side)
        return not_your_move(st_.side);
    if (st_.spells_used[mine] & (1u << static_cast<int>(spell)))
        return illegal(
            phrase(N_("you cast {spell} already (each spell once per game)"), {spell_arg}));
    bool caster = false;
    for (const auto& u : st_.board)
        caster = caster || (u.kind == PieceKind::Queen && u.seat == seat && !u.imprisoned);
    if (!caster)
        return illegal(
            phrase(N_("spells are cast by a Queen that is not imprisoned, and you have none")));
    std::vector<std::string> open;
    for (const auto& a : notated_actions(seat))
        if (a.text.rfind(name + " ", 0) == 0)
            open.push_back(a.text);
    // The spells open now, when there are few: "Heal e4", "Heal e4 or Heal d5", "a, b or c".
    std::optional<Said> listed;
    if (!open.empty() && open.size() <= 8) {
        if (open.size() == 1) {
            listed = open.front();
        } else {
            std::string some;
            for (std::size_t i = 0; i + 1 < open.size(); ++i)
                some += (i == 0 ? "" : ", ") + open[i];
            listed = phrase(N_("{some} or {last}"), {{"some", some}, {"last", open.back()}});
        }
    }
    switch (spell) {
    case gnostic::Spell::Teleport:
        return illegal(phrase(N_("{spell} moves one of your pieces that is not imprisoned to an "
                                 "empty square (a pawn not onto rank 1 or 8), written Teleport "
                                 "b1-e5"),
                              {spell_arg}));
    case gnostic::Spell::Heal:
        if (open.empty())
            return illegal(phrase(N_("{spell} needs a damaged piece of yours, and none is damaged"),
                                  {spell_arg}));
        if (listed)
            return illegal(phrase(N_("{spell} needs a damaged piece of yours: {choices}"),
                                  {spell_arg, {"choices", *listed}}));
        return illegal(phrase(N_("{spell} needs a damaged piece of yours"), {spell_arg}));
    case gnostic::Spell::ShiftTime:
        return illegal(phrase(N_("write it Shift Time")));
    case gnostic::Spell::Exchange:
        return illegal(phrase(N_("{spell} swaps two pieces on the board that are not imprisoned "
                                 "and not alike (same kind and side), putting no pawn on rank 1 "
                                 "or 8; written Exchange e4-d5"),
                              {spell_arg}));
    case gnostic::Spell::Revive: {
        bool any_dead = false;
        for (std::size_t k = 0; k < st_.dead[mine].size(); ++k)
            any_dead =
                any_dead || (st_.dead[mine][k] > 0 && static_cast<PieceKind>(k) != PieceKind::King);
        if (!any_dead)
            return illegal(phrase(N_("{spell} brings back a killed piece of yours, and none has "
                                     "been killed"),
                                  {spell_arg}));
        if (open.empty())
            return illegal(phrase(N_("{spell} puts a killed piece on an empty square next to your "
                                     "Queen, and none is free"),
                                  {spell_arg}));
        if (listed)
            return illegal(phrase(N_("{spell} puts a killed piece of yours on an empty square next "
                                     "to your Queen: {choices}"),
                                  {spell_arg, {"choices", *listed}}));
        return illegal(phrase(N_("{spell} puts a killed piece of yours on an empty square next to "
                                 "your Queen"),
                              {spell_arg}));
    }
    case gnostic::Spell::Imprison:
        return illegal(phrase(N_("{spell} needs an enemy piece that is not imprisoned already, "
                                 "written Imprison f6"),
                              {spell_arg}));
    }
    return std::nullopt;
}

} // namespace

const Variant& gnostic_variant() {
    static const VariantOf<GnosticGame, gnostic_info> v;
    return v;
}

} // namespace ghostpost::rules
