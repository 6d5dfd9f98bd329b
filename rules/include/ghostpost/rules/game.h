// The interface every variant implements. A game is asked "who must decide what now"
// (pending), lists the actions a seat may take (notated_actions, each with its canonical text),
// and applies one (apply), returning the events it caused. Everything the service knows of a
// game goes through this interface; nothing in rules/ knows that chat exists.
#pragma once

#include "ghostpost/rules/art.h"
#include "ghostpost/rules/types.h"
#include "ghostpost/rules/view.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ghostpost::rules {

enum class ActionKind : std::uint8_t {
    Move,    // a piece goes from one square to another (castling too: the king's move)
    Drop,    // a piece enters the board from the hand (F@e4)
    Pass,    // the decision is to do nothing (a hide, a skip)
    Special, // a variant's named special action (Transcend, Search, a spell)
    Choice,  // an answer to a question the rules ask (which knight, how many dice)
};

// One decision. Which fields mean something depends on the kind; `special` is the variant's own
// code for a Special or Choice. Two actions are the same decision when all fields are equal.
struct Action {
    ActionKind kind = ActionKind::Move;
    PieceKind piece = PieceKind::None; // the piece moved or dropped
    Square from;
    Square to;
    PieceKind promotion = PieceKind::None;
    std::uint8_t special = 0;
    std::int16_t number = 0; // a number chosen: dice to roll, a hold target
    Square extra;            // a second square some specials name
    bool operator==(const Action&) const = default;
};

struct NotatedAction {
    Action action;
    std::string text; // canonical, as replies print it and the log stores it ("Nbd2", "exd8=Q+")
};

// A seat that must decide now, and what about ("move", "choose which knight is rescued").
struct Decision {
    Seat seat;
    std::string what; // "move", or the variant's words: "choose the dice for the combat on e4"
    // `what` as a phrase, when the variant wrote it as one; empty: `what` is a "decision" word.
    Phrase phrase;
    // The decision as a phrase either way.
    Phrase said() const {
        return phrase.pattern.empty() || phrase.english() != what ? Phrase{"decision", what, {}}
                                                                  : phrase;
    }
};

enum class EventKind : std::uint8_t {
    Moved,
    Captured,
    Check,
    Roll,
    Reveal,
    Special,
    GameOver,
    Note
};

// Something an action caused. An event with `only_for` set is private to that seat and must go
// by direct message, with `board` when the rules show that seat a board of its own (a piece
// only its owner sees, after its owner moved it; a look at what is hidden). Events without
// `only_for` are public and never carry a board: the channel's board is always the public view.
struct Event {
    EventKind kind = EventKind::Note;
    std::string text;
    std::optional<Seat> only_for;
    std::optional<SeatView> board;
    Phrase phrase; // `text` as a phrase, when the variant wrote it as one (RuleError::phrase)
};

inline Event public_event(EventKind kind, std::string text) {
    return Event{kind, std::move(text), std::nullopt, std::nullopt};
}
inline Event public_event(EventKind kind, Phrase said) {
    std::string text = said.english();
    return Event{kind, std::move(text), std::nullopt, std::nullopt, std::move(said)};
}
inline Event private_event(Seat seat, EventKind kind, std::string text,
                           std::optional<SeatView> board = std::nullopt) {
    return Event{kind, std::move(text), seat, std::move(board)};
}
inline Event private_event(Seat seat, EventKind kind, Phrase said,
                           std::optional<SeatView> board = std::nullopt) {
    std::string text = said.english();
    return Event{kind, std::move(text), seat, std::move(board), std::move(said)};
}

enum class Status : std::uint8_t { Ongoing, WhiteWins, BlackWins, Draw };

struct Outcome {
    Status status = Status::Ongoing;
    std::string reason; // "checkmate", "stalemate", "fivefold repetition", ...
    bool over() const { return status != Status::Ongoing; }
};

// The single source of chance: a per-game deterministic stream (the service seeds it from the
// game's secret), so replaying the log with the same seed reproduces every roll.
class RandomSource {
public:
    virtual ~RandomSource() = default;
    // A uniformly distributed number in [0, n); n > 0.
    virtual std::uint32_t uniform(std::uint32_t n) = 0;
};

// A move as a user wrote it, broken into parts by the notation parser; the game uses it to say
// why nothing matched ("no knight can reach e5", "that leaves your king in check").
struct ActionSyntax {
    PieceKind piece = PieceKind::Pawn; // None when the text gave only squares (LAN "e2e4")
    int from_file = -1;                // -1 when not given
    int from_rank = -1;
    Square to;
    bool capture = false;
    bool drop = false; // "F@e4"
    PieceKind promotion = PieceKind::None;
    int castle = 0; // 1 = O-O, 2 = O-O-O
};

using Options = std::map<std::string, std::string, std::less<>>;

struct OptionSpec {
    std::string name;
    std::string default_value;
    std::vector<std::string> allowed; // empty: any non-negative integer
    std::string help;
};

// A command of a variant's own (a look at what is hidden): the action its word names, which may be
// taken at any time, offered as a command beside the service's (!peek, /peek).
struct VariantCommand {
    std::string word;  // the command's name and the action's notation: "peek"
    std::string form;  // its usage: "peek [game]"
    std::string help;  // what it does, for !help
    std::string brief; // the same in at most 100 characters, for menus
};

// A piece this variant draws otherwise than its kind's own figure (a chess piece that is the
// variant's own character), with the drawing the variant gives it.
struct PieceArt {
    PieceKind kind = PieceKind::None;
    const Drawing* art = nullptr;
};

struct VariantInfo {
    std::string name;                 // registry name: "chess", ...
    std::vector<std::string> aliases; // other names accepted in !new and !rules
    std::string title;                // "FIDE chess", ...
    int files = 8;
    int ranks = 8;
    std::array<std::string, 2> seat_names{"White", "Black"};
    std::vector<OptionSpec> options;
    std::string summary;  // the rules in a few lines, for !rules
    std::string notation; // how actions are written, for !rules and error replies
    // Whether apply() draws from the RandomSource: the service then commits to the game's seed
    // (its hash when the game starts, the seed when it ends) so anyone can check the dice.
    bool uses_chance = false;
    // Examples of moves for the reply to text that is no action ("Write moves like ..."): only
    // forms this variant has (a variant may have neither castling nor promotion).
    std::string examples = "e4, Nf3, exd5, O-O or e8=Q";
    std::vector<VariantCommand> commands;
    std::vector<PieceArt> art; // the pieces drawn otherwise than their kind's figure
};

class Game {
public:
    virtual ~Game() = default;
    virtual std::unique_ptr<Game> clone() const = 0;
    virtual const VariantInfo& info() const = 0;
    virtual const Options& options() const = 0;

    // Who must decide what now, in order of urgency; empty once the game is over. Both seats
    // appear when they decide at once.
    virtual std::vector<Decision> pending() const = 0;
    // pending() without its words, for a search that asks at every roll of a combat: the seats
    // in the same order, written over `seats`, and true when there is one decision and it is an
    // ordinary "move". Default: read from pending().
    virtual bool pending_seats(std::vector<Seat>& seats) const {
        const auto decisions = pending();
        seats.clear();
        for (const auto& d : decisions)
            seats.push_back(d.seat);
        return decisions.size() == 1 && decisions.front().what == "move";
    }
    // Every action `seat` may take now, each with its canonical text; empty when it has none.
    virtual std::vector<NotatedAction> notated_actions(Seat seat) const = 0;
    // The decisions of notated_actions(seat), in the same order, without their texts (an action
    // listed twice under two spellings appears once): what a search asks at every position it
    // visits. Default: notated_actions(seat) without the texts.
    virtual std::vector<Action> legal_actions(Seat seat) const;
    // The actions `seat` may take now as that seat sees the position (without the pieces the
    // rules hide from it). A post is read and disambiguated against these, and only then checked
    // against notated_actions, so no reply completes a move with what the mover cannot see.
    // Default: notated_actions(seat), for games that hide nothing from a player.
    virtual std::vector<NotatedAction> seen_actions(Seat seat) const {
        return notated_actions(seat);
    }
    // Actions `seat` may take whether or not it must decide now (a look at what is
    // hidden, a standing policy for secret decisions); apply() accepts them at any time. Default:
    // none.
    virtual std::vector<NotatedAction> anytime_actions(Seat) const { return {}; }
    // The anytime action of `seat` whose word is `key` (word_key of what was typed), if any.
    // Default: a search of anytime_actions; a variant with many (one with two thousand
    // standing policies) reads the key instead of writing out the list.
    virtual std::optional<NotatedAction> anytime_action(Seat seat, std::string_view key) const;
    // What the rules answer for `seat` when it lets a decision's deadline pass (a combat's
    // `default` dice choice, which follows the seat's standing policy); the service plays it for
    // the seat once the combat deadline is over. Default: none, the clock alone decides.
    virtual std::optional<NotatedAction> deadline_action(Seat) const { return std::nullopt; }
    // Whether what follows can be foreseen from here: neither seat knows anything the other does
    // not, and no chance decides anything, so a line of actions checked now plays out later
    // exactly as checked (conditional moves, the service's !forecast). Default: true unless the
    // variant uses chance; a variant that hides anything from a seat overrides it.
    virtual bool foreseeable() const { return !info().uses_chance; }
    // Applies one of `seat`'s legal or anytime actions. Errors: NotYourTurn when `seat` has
    // nothing to decide, GameOver, Illegal when the action is not one of those listed.
    virtual Result<std::vector<Event>> apply(Seat seat, const Action& action,
                                             RandomSource& rng) = 0;
    // apply() without its events, for a search that visits many positions and reads no text:
    // true when the action was applied, false where apply() would refuse it (nothing changed).
    // Default: apply(...).ok().
    virtual bool apply_silently(Seat seat, const Action& action, RandomSource& rng) {
        return apply(seat, action, rng).ok();
    }
    // Makes this game an exact copy of `other` (as other.clone() would be), reusing this one's
    // storage, so a search can keep one game per ply instead of a new copy at every position.
    // False, with nothing changed, when `other` is of another class or the variant does not
    // override it (the caller then clones). Default: false.
    virtual bool assign(const Game&) { return false; }
    virtual Outcome outcome() const = 0;
    // A draw the seat to decide may claim now (the 50-move rule, threefold repetition).
    virtual std::optional<std::string> claimable_draw() const { return std::nullopt; }
    // Whether `seat` could still win by some series of legal actions; when its opponent runs
    // out of time and it could not, the game is drawn. Default: true (the opponent loses).
    virtual bool could_win(Seat) const { return true; }

    virtual PublicView public_view() const = 0;
    virtual SeatView seat_view(Seat seat) const = 0;
    // The channel's board once the game has ended however it ended (the rules, a resignation, a
    // timeout, an agreed or claimed draw, adjudication, a void). Default: public_view().
    virtual PublicView final_view() const { return public_view(); }
    // The boards of final_view() and seat_view(seat), written over `into` whose storage is
    // reused: what a search that scores boards reads at every position it visits. Every field
    // but `note_phrases` is the view's; a variant that overrides these may leave that one
    // empty. Defaults: the views' boards.
    virtual void final_board(BoardView& into) const { into = final_view().board(); }
    virtual void seat_board(Seat seat, BoardView& into) const { into = seat_view(seat).board(); }
    // What the channel is told when the game ends other than by its rules (a piece only its
    // owner saw is shown); empty when nothing was hidden or the rules already told it.
    virtual std::vector<Event> ending_reveal() const { return {}; }

    // Why a well-formed action that matched no legal action of `seat` is not allowed. The
    // default names the target square ("no knight can reach e5").
    virtual RuleError explain_illegal(Seat seat, const ActionSyntax& syntax,
                                      std::string_view text) const;
    // Text in one of this variant's own action forms that SAN syntax does not cover (a
    // spirit's move, "SBc6-d7"): the legal action of `seat` it means, or why there is none
    // (Illegal, Ambiguous); nullopt when the text is not in such a form. The parser asks only
    // after its own matching failed. Default: nullopt.
    virtual std::optional<Result<NotatedAction>> read_own_form(Seat, std::string_view) const {
        return std::nullopt;
    }
    // Text that names one of this variant's special actions or choices ("Heal e4", "Assault e3",
    // "hide") but is no legal action of `seat` now: why not (Illegal, NotYourTurn). nullopt when
    // the text names none. The parser asks only after its own matching failed. Default: nullopt.
    virtual std::optional<RuleError> explain_special(Seat, std::string_view) const {
        return std::nullopt;
    }
    // Leaf nodes of the game tree `depth` decisions deep (each decision counts one ply). The
    // default walks notated_actions/apply on copies; variants with a fast core override it.
    virtual std::uint64_t perft(int depth) const;
    // The position in the variant's FEN dialect; empty when the variant has none.
    virtual std::string fen() const { return {}; }
    // Plies played so far.
    virtual int ply() const = 0;
    // Whether the state keeps every invariant of the variant (its bitboards agree with its board,
    // its counts and keys are right): false is a programmer error, never a user's. Checked after
    // every action in debug builds (check_consistent), in perft and by the fuzz targets.
    // Default: true.
    virtual bool is_consistent() const { return true; }

protected:
    // assign() for a variant's class `G`: a copy assignment when `other` is a `G` too.
    template <class G> static bool assign_as(G& self, const Game& other) {
        const auto* same = dynamic_cast<const G*>(&other);
        if (same == nullptr)
            return false;
        if (same != &self)
            self = *same;
        return true;
    }
    static PublicView make_public(BoardView b) { return PublicView(std::move(b)); }
    static SeatView make_private(Seat s, BoardView b) { return SeatView(s, std::move(b)); }
};

struct LoggedAction; // replay.h

// What a seat cannot see of a game, for whoever must think about it without the game (the
// engine): the positions the pieces hidden from the seat may make (Variant::hidden_placements).
struct HiddenPlacements {
    // The position the seat sees, the hidden pieces left out (a FEN of the variant's).
    std::string seen;
    // Each position the hidden pieces may make, as far as the seat's view and the announcements
    // tell (FENs). Empty: nothing is hidden from the seat now, and `seen` is the position.
    std::vector<std::string> possible;
};

class Variant {
public:
    virtual ~Variant() = default;
    virtual const VariantInfo& info() const = 0;
    // A new game. `options` are checked against info().options (unknown names and bad values
    // are BadSetup); missing ones take their defaults. A non-empty `fen` starts from that
    // position (BadSetup when it cannot be read or is not a legal position).
    virtual Result<std::unique_ptr<Game>> start(const Options& options,
                                                std::string_view fen = {}) const = 0;
    // Every reason `fen` cannot start a game of this variant, the one start() reports first;
    // empty when it can. Default: start()'s one reason, as it words it.
    virtual std::vector<std::string> fen_reasons(const Options& options,
                                                 std::string_view fen) const;
    // For a variant that hides pieces from a seat's view: the positions they may make, as far
    // as the seat's view and the announced actions tell. nullopt: the variant hides no piece,
    // and the public record replays to the one position. Default: nullopt.
    virtual std::optional<HiddenPlacements>
    hidden_placements(const SeatView&, const std::vector<LoggedAction>&) const {
        return std::nullopt;
    }
};

// In debug builds, throws std::logic_error naming the variant when `game` breaks an invariant of
// its state; does nothing when NDEBUG is defined. Each variant calls it after an action.
void check_consistent(const Game& game);

// Fills in defaults and checks each option against its spec. Errors: BadSetup naming the option.
Result<Options> resolve_options(const VariantInfo& info, const Options& given);

// The Variant of most games: `G` is built from resolved options (`G(Options)`) and reads a start
// position with `G::load(std::string_view fen)`, which returns every reason it could not as a
// std::vector<std::string> (or the first as a std::string); empty: read. `Info` gives the
// variant's VariantInfo. A `G` that hides pieces answers hidden_placements with a static function
// of that name.
template <class G, const VariantInfo& (*Info)()> class VariantOf final : public Variant {
public:
    const VariantInfo& info() const override { return Info(); }
    Result<std::unique_ptr<Game>> start(const Options& options,
                                        std::string_view fen) const override {
        auto resolved = resolve_options(info(), options);
        if (!resolved)
            return resolved.error();
        auto game = std::make_unique<G>(std::move(*resolved));
        if (!fen.empty()) {
            if (auto reasons = load(*game, fen); !reasons.empty())
                return make_error(ErrorKind::BadSetup, "cannot read that FEN: " + reasons.front());
        }
        return std::unique_ptr<Game>(std::move(game));
    }
    std::vector<std::string> fen_reasons(const Options& options,
                                         std::string_view fen) const override {
        auto resolved = resolve_options(info(), options);
        if (!resolved)
            return {resolved.error().message};
        G game(std::move(*resolved));
        return load(game, fen);
    }

    std::optional<HiddenPlacements>
    hidden_placements([[maybe_unused]] const SeatView& view,
                      [[maybe_unused]] const std::vector<LoggedAction>& announced) const override {
        if constexpr (requires { G::hidden_placements(view, announced); })
            return G::hidden_placements(view, announced);
        else
            return std::nullopt;
    }

private:
    static std::vector<std::string> load(G& game, std::string_view fen) {
        auto loaded = game.load(fen);
        if constexpr (std::is_same_v<decltype(loaded), std::string>) {
            if (loaded.empty())
                return {};
            return {std::move(loaded)};
        } else {
            return loaded;
        }
    }
};

// The RandomSource for games without chance: asking it for a number is a programmer error and
// throws std::logic_error.
class NoRandomness final : public RandomSource {
public:
    std::uint32_t uniform(std::uint32_t n) override;
};

} // namespace ghostpost::rules
