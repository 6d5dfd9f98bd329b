// Phantom Chess (Simon Jepps, 2020): FIDE chess plus one Phantom per player, a piece that
// moves one square diagonally or as a knight and has no figurine. It enters at any time by
// announcement (F@e4), only once; its moves are announced like any other, but no board in the
// channel shows it. Each player may peek at the true board a few times (the "lives").
// Readings chosen (docs/variants/phantom.md): entry only on an empty square and not giving
// check unless the game's options allow; a move is refused first for what the mover sees, in
// public; one that only an unseen Phantom forbids is refused in public and explained in private;
// no life is charged for it; moving your own Phantom shows you the card; a move is read on the
// board without the opponent's Phantom (seen_actions); the board is shown whole once the game is
// over, however it ended (final_view, ending_reveal).
#include "phantom.h"

#include "chess/fide.h"
#include "chess/san.h"
#include "ghostpost/variants/pieces.h"

#include <cassert>

namespace ghostpost::rules {
namespace {

using chess::Bitboard;
using chess::MoveList;
using chess::MoveType;
using chess::Position;

constexpr std::uint8_t peek_special = 1;
constexpr std::string_view start_fen =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Ff] w KQkq - 0 1";

const VariantInfo& phantom_info() {
    static const VariantInfo info{
        .name = "phantom",
        .aliases = {"phantom-chess", "phantomchess"},
        .title = "Phantom Chess",
        .files = 8,
        .ranks = 8,
        .seat_names = {"White", "Black"},
        .options =
            {
                {"phantom_entry_capture",
                 "no",
                 {"no", "yes"},
                 N_("yes: the Phantom may enter on an enemy piece (not the king), capturing it")},
                {"phantom_entry_check",
                 "no",
                 {"no", "yes"},
                 N_("yes: the Phantom may enter giving check (and mate)")},
                {"phantom_lives",
                 "3",
                 {},
                 N_("how many times each player may peek at both Phantoms; 0 is hard mode")},
            },
        .summary = N_(
            "FIDE chess, plus one Phantom (F) per player: an unseen piece that moves one square "
            "diagonally or jumps like a knight, captures and is captured, gives and blocks check, "
            "and cannot be passed through. It enters once, at any time, as that turn's move "
            "(F@e4): by default only on an empty square and not giving check. Its moves are "
            "announced, but boards in the channel never show a Phantom; after you move or enter "
            "yours, you get a board with it and the other Phantom by direct message (writing on "
            "the card shows it). peek spends one of your lives "
            "(3 by default, 0 = hard mode) and shows you both Phantoms privately. A move your own "
            "board forbids is refused in public; one that only a Phantom you cannot see forbids "
            "is refused in public and explained to you privately. The "
            "Phantoms are shown when the game ends."),
        .notation = N_("Standard algebraic notation with F for the Phantom: e4, Nf3, Fe5, Fxd5, "
                       "O-O, e8=Q. Entry: F@e4 (F@xe4 when it captures). peek at any time. "
                       "Also accepted: f@e4, fe5 when no pawn can take on e5, LAN (e2e4, "
                       "d4e6 for a Phantom), 0-0, and + # ! ? marks."),
        .commands = {{"peek", "peek [game]",
                      N_("Phantom Chess: spend one of your lives to see both Phantoms by direct "
                         "message, at any time"),
                      N_("Phantom Chess: spend a life to see both Phantoms by direct message")}},
    };
    return info;
}

bool yes(const Options& o, std::string_view name) {
    auto it = o.find(name);
    return it != o.end() && it->second == "yes";
}

std::string seat_word(Seat s) {
    return s == Seat::White ? "White" : "Black";
}

// A seat's name as a word of the catalogs.
Phrase seat_phrase(Seat s) {
    return Phrase{"seat", seat_word(s), {}};
}

RuleError game_over(const Outcome& outcome) {
    return make_error(ErrorKind::GameOver,
                      phrase(N_("the game is over ({reason})"),
                             {{"reason", Phrase{"reason", outcome.reason, {}}}}));
}

RuleError not_your_move(Seat to_move) {
    return make_error(ErrorKind::NotYourTurn,
                      phrase(N_("it is {seat}'s move"), {{"seat", seat_phrase(to_move)}}));
}

class PhantomGame final : public Game {
public:
    explicit PhantomGame(Options options) : options_(std::move(options)) {
        entry_.capture = yes(options_, "phantom_entry_capture");
        entry_.check = yes(options_, "phantom_entry_check");
        lives_ = std::stoi(options_.at("phantom_lives"));
        peeks_left_ = {lives_, lives_};
        std::string err = pos_.set_fen(start_fen);
        assert(err.empty());
        refresh();
    }

    // Reads a FEN in the chess core's dialect ("[Ff]" for Phantoms in hand): every reason it is
    // no Phantom Chess position, empty when it was read.
    std::vector<std::string> load(std::string_view fen) {
        auto pos = read_checked(fen, chess::fen_shape, position_of);
        if (!pos)
            return pos.reasons();
        pos_ = std::move(pos).value();
        refresh();
        return {};
    }

    // The chess core's position with one king and at most one Phantom (on the board or in hand)
    // a side, or every reason it is not.
    static Checked<Position> position_of(const Setup& setup) {
        auto pos = Position::from_setup(setup);
        std::vector<std::string> reasons;
        if (!pos)
            reasons = pos.reasons();
        bool kings_told = false;
        for (Seat s : {Seat::White, Seat::Black}) {
            const bool white = s == Seat::White;
            if (setup.count(white ? 'K' : 'k') != 1 && !kings_told) {
                reasons.push_back("each side needs exactly one king");
                kings_told = true;
            }
            const char phantom = white ? 'F' : 'f';
            if (setup.count(phantom) + setup.count_bracketed(phantom) > 1)
                reasons.push_back(seat_word(s) + " has more than one Phantom");
        }
        if (!reasons.empty())
            return reasons;
        return pos;
    }

    std::unique_ptr<Game> clone() const override { return std::make_unique<PhantomGame>(*this); }
    bool assign(const Game& other) override { return assign_as(*this, other); }
    // The other side's Phantom is what a seat cannot see (worlds.cpp).
    static std::optional<HiddenPlacements>
    hidden_placements(const SeatView& view, const std::vector<LoggedAction>& announced) {
        return phantom::phantom_placements(view, announced);
    }
    const VariantInfo& info() const override { return phantom_info(); }
    const Options& options() const override { return options_; }

    std::vector<Decision> pending() const override {
        if (outcome_.over())
            return {};
        return {Decision{pos_.side_to_move(), "move"}};
    }

    std::vector<NotatedAction> notated_actions(Seat seat) const override {
        if (outcome_.over() || seat != pos_.side_to_move())
            return {};
        Position scratch = pos_;
        std::vector<NotatedAction> out;
        out.reserve(legal_.size());
        for (const auto& m : legal_)
            out.push_back({chess::to_action(scratch, m), phantom::announce(scratch, m, entry_)});
        return out;
    }

    std::vector<Action> legal_actions(Seat seat) const override {
        if (outcome_.over() || seat != pos_.side_to_move())
            return {};
        return chess::to_actions(pos_, legal_);
    }

    // The mover reads its move on the board without the other side's Phantom (docs: "Reading a
    // move"): what is legal there, announced as it would be. Kings are never captured here,
    // although lifting a Phantom may uncover one.
    std::vector<NotatedAction> seen_actions(Seat seat) const override {
        const Bitboard theirs = pos_.pieces(opponent(seat), pieces::phantom);
        if (outcome_.over() || seat != pos_.side_to_move() || !theirs)
            return notated_actions(seat);
        Position seen = pos_.without(chess::lsb(theirs));
        MoveList moves;
        phantom::generate(seen, entry_, moves);
        std::vector<NotatedAction> out;
        for (const auto& m : moves)
            if (seen.piece_on(m.to).kind != PieceKind::King)
                out.push_back({chess::to_action(seen, m), phantom::announce(seen, m, entry_)});
        return out;
    }

    // The peek is listed even with no lives left, so that "peek" gets its own refusal.
    std::vector<NotatedAction> anytime_actions(Seat) const override {
        if (outcome_.over())
            return {};
        Action a;
        a.kind = ActionKind::Special;
        a.special = peek_special;
        return {{a, "peek"}};
    }

    Result<std::vector<Event>> apply(Seat seat, const Action& action, RandomSource&) override {
        if (outcome_.over())
            return game_over(outcome_);
        if (action.kind == ActionKind::Special && action.special == peek_special) {
            auto told = peek(seat);
            check_consistent(*this);
            return told;
        }
        if (seat != pos_.side_to_move())
            return not_your_move(pos_.side_to_move());
        auto move = chess::find_move(pos_, legal_, action);
        if (!move)
            return make_error(ErrorKind::Illegal, phrase(N_("that move is not legal here")));

        const std::string text = phantom::announce(pos_, *move, entry_);
        const bool phantom_moved =
            move->type == MoveType::Drop || pos_.piece_on(move->from).kind == pieces::phantom;
        const bool capture =
            pos_.piece_on(move->to).kind != PieceKind::None || move->type == MoveType::EnPassant;
        std::vector<Event> events;
        events.push_back({EventKind::Moved, text, std::nullopt, std::nullopt});
        if (capture)
            events.push_back({EventKind::Captured, text, std::nullopt, std::nullopt});
        pos_.do_move(*move);
        assert(pos_.is_consistent());
        refresh();
        if (phantom_moved)
            events.push_back(card_written(seat, move->to));
        if (pos_.in_check() && !outcome_.over())
            events.push_back({EventKind::Check, "check", std::nullopt, std::nullopt});
        if (outcome_.over()) {
            events.push_back(
                public_event(EventKind::GameOver, Phrase{"reason", outcome_.reason, {}}));
            events.push_back(card_turned_over());
        }
        check_consistent(*this);
        return events;
    }

    // The core's invariants, one king and at most one Phantom (on the board or in hand) a side,
    // and the peeks left within the lives the game began with.
    bool is_consistent() const override {
        if (!pos_.is_consistent())
            return false;
        for (Seat s : {Seat::White, Seat::Black}) {
            if (chess::popcount(pos_.pieces(s, PieceKind::King)) != 1 ||
                chess::popcount(pos_.pieces(s, pieces::phantom)) +
                        pos_.in_hand(s, pieces::phantom) >
                    1)
                return false;
            const int left = peeks_left_[index(s)];
            if (left < 0 || left > lives_)
                return false;
        }
        return peeks_taken_ == 2 * lives_ - peeks_left_[0] - peeks_left_[1];
    }

    Outcome outcome() const override { return outcome_; }
    // As in FIDE chess, but a Phantom (ferz + knight) mates with its king, on the board or still
    // to enter, and an enemy Phantom is one more piece that may block its own king's flight.
    // docs/variants/phantom.md, "Could win".
    bool could_win(Seat seat) const override {
        const Seat them = opponent(seat);
        if (pos_.pieces(seat, pieces::phantom) || pos_.in_hand(seat, pieces::phantom) > 0)
            return true;
        const auto heavy = pos_.pieces(seat, PieceKind::Pawn) | pos_.pieces(seat, PieceKind::Rook) |
                           pos_.pieces(seat, PieceKind::Queen);
        const int minors = chess::popcount(pos_.pieces(seat, PieceKind::Knight) |
                                           pos_.pieces(seat, PieceKind::Bishop));
        if (heavy || minors >= 2)
            return true;
        if (minors == 0)
            return false; // a lone king never gives check
        return chess::popcount(pos_.pieces(them)) > 1 || pos_.in_hand(them, pieces::phantom) > 0;
    }
    std::optional<std::string> claimable_draw() const override {
        return outcome_.over() ? std::nullopt : chess::fide_claimable_draw(pos_);
    }

    // A seat never knows where the other Phantom stands (or what the card holds), so no line
    // of play can be checked in advance.
    bool foreseeable() const override { return false; }

    // The channel sees no Phantom until the game is over.
    PublicView public_view() const override {
        const bool all = outcome_.over();
        return make_public(board({all, all}));
    }
    // However the game ended, the Phantom Card is turned over for everybody.
    PublicView final_view() const override { return make_public(board({true, true})); }
    void final_board(BoardView& into) const override { board_into({true, true}, into, true); }
    void seat_board(Seat seat, BoardView& into) const override {
        board_into(seat_sees(seat), into, true);
    }
    std::vector<Event> ending_reveal() const override {
        if (outcome_.over())
            return {}; // apply() turned the card over with the last move
        return {card_turned_over()};
    }
    // A seat sees its own Phantom, and the other one once the game is over.
    SeatView seat_view(Seat seat) const override {
        return make_private(seat, board(seat_sees(seat)));
    }

    RuleError explain_illegal(Seat seat, const ActionSyntax& syntax,
                              std::string_view text) const override {
        if (seat != pos_.side_to_move())
            return not_your_move(pos_.side_to_move());
        // A move the mover's board allows and only the unseen Phantom forbids is a dispute,
        // settled by the card (the true board) and told privately; any other refusal is read on
        // the board the mover sees, so it is the same wherever the other Phantom stands.
        const Bitboard theirs = pos_.pieces(opponent(seat), pieces::phantom);
        if (!theirs || !phantom::allows(pos_.without(chess::lsb(theirs)), entry_, syntax))
            return phantom::explain_seen(pos_, syntax, entry_, text);
        if (syntax.drop)
            return phantom::explain_entry(pos_, syntax, entry_, text);
        Position scratch = pos_;
        return phantom::explain_move(scratch, syntax, text);
    }

    std::uint64_t perft(int depth) const override {
        Position scratch = pos_;
        return phantom::perft(scratch, entry_, depth);
    }
    // The whole truth, Phantoms included: for the command line and tests, never the channel.
    std::string fen() const override { return pos_.fen(); }
    int ply() const override { return pos_.plies_played() + peeks_taken_; }

private:
    using Shown = std::array<bool, 2>; // whose Phantom a view shows, by seat index

    Shown seat_sees(Seat seat) const {
        Shown s{outcome_.over(), outcome_.over()};
        s[index(seat)] = true;
        return s;
    }

    void refresh() {
        legal_.clear();
        phantom::generate(pos_, entry_, legal_);
        outcome_ = chess::fide_outcome(pos_, legal_);
    }

    // Writing your Phantom's new square on the card shows you the card ("Aside from when you
    // move your own Phantom and write its new location on the card ..."; in hard mode "the only
    // way to remind yourself of the opponent's position is to move your own Phantom"): the
    // mover's private board shows the other Phantom too, when it is in play.
    Event card_written(Seat seat, chess::Sq to) const {
        const Phrase::Arg square{"square", chess::to_square(to).name()};
        Phrase text = phrase(N_("your Phantom now stands on {square}"), {square});
        Shown shown = seat_sees(seat);
        if (Bitboard theirs = pos_.pieces(opponent(seat), pieces::phantom)) {
            text = phrase(N_("your Phantom now stands on {square}; writing it on the card you see "
                             "{seat}'s Phantom on {theirs}"),
                          {square,
                           {"seat", seat_phrase(opponent(seat))},
                           {"theirs", chess::to_square(chess::lsb(theirs)).name()}});
            shown = {true, true};
        }
        return private_event(seat, EventKind::Note, std::move(text),
                             make_private(seat, board(shown)));
    }

    Result<std::vector<Event>> peek(Seat seat) {
        int& left = peeks_left_[index(seat)];
        if (left == 0)
            return make_error(
                ErrorKind::Illegal,
                lives_ == 0 ? phrase(N_("this game is played in hard mode (phantom_lives=0): no "
                                        "peeks; you see a Phantom only by moving your own"))
                            : phrase(N_("you have no peeks left (all {count} spent)"),
                                     {{"count", std::to_string(lives_)}}));
        --left;
        ++peeks_taken_;
        std::vector<Event> events;
        const Phrase::Arg who{"seat", seat_phrase(seat)};
        const Phrase::Arg count{"count", std::to_string(left)};
        events.push_back(public_event(
            EventKind::Note,
            phrase(N_("{seat} peeks at the Phantoms ({count, plural, one {# peek} other {# peeks}} "
                      "left)"),
                   {who, count})));
        events.push_back(private_event(
            seat, EventKind::Reveal, phrase(N_("the Phantoms: {card}"), {{"card", card_phrase()}}),
            make_private(seat, board({true, true}))));
        return events;
    }

    // The Phantom Card shown to everybody (when the game ends).
    Event card_turned_over() const {
        return public_event(EventKind::Reveal, phrase(N_("the Phantom Card is turned over: {card}"),
                                                      {{"card", card_phrase()}}));
    }

    // Where each Phantom is: the Phantom Card read aloud.
    Phrase card_phrase() const {
        std::optional<Phrase> out;
        for (Seat s : {Seat::White, Seat::Black}) {
            const Phrase::Arg seat{"seat", seat_phrase(s)};
            Phrase one;
            if (Bitboard b = pos_.pieces(s, pieces::phantom))
                one = phrase(N_("{seat}'s Phantom on {square}"),
                             {seat, {"square", chess::to_square(chess::lsb(b)).name()}});
            else if (pos_.in_hand(s, pieces::phantom))
                one = phrase(N_("{seat}'s Phantom never entered"), {seat});
            else
                one = phrase(N_("{seat}'s Phantom is gone"), {seat});
            out = out ? phrase(N_("{first}; {second}"), {{"first", *out}, {"second", one}}) : one;
        }
        return *out;
    }

    // The board with the Phantoms of the seats in `shown` and none of the others. A hidden
    // Phantom's last move is not marked either: the mark would point at its square.
    BoardView board(Shown shown) const {
        BoardView v;
        board_into(shown, v, false);
        return v;
    }

    // board() written over `v`; with `cached`, its notes (and no note_phrases) as last written
    // from the same peeks and Phantoms, which a search asks for at every position.
    void board_into(Shown shown, BoardView& v, bool cached) const {
        chess::fide_board_into(pos_, "phantom", outcome_.over(), v);
        for (auto& cell : v.cells)
            std::erase_if(cell.figures, [&](const Figure& f) {
                return f.piece.kind == pieces::phantom && !shown[index(f.piece.seat)];
            });
        for (auto& cell : v.cells)
            for (auto& f : cell.figures)
                if (f.piece.kind == pieces::phantom)
                    f.style = FigureStyle::Secret;
        if (const auto* m = pos_.last_move()) {
            const Piece moved = pos_.piece_on(m->to);
            if (moved.kind == pieces::phantom && !shown[index(moved.seat)]) {
                v.last_from = Square{};
                v.last_to = Square{};
            }
        }
        v.ply = ply();
        if (!cached) {
            v.note(notes_peeks());
            v.note(notes_phantoms());
            return;
        }
        auto where = [&](Seat s) {
            return pos_.pieces(s, pieces::phantom) ? 0 : pos_.in_hand(s, pieces::phantom) ? 1 : 2;
        };
        const std::array<int, 5> key{lives_, peeks_left_[0], peeks_left_[1], where(Seat::White),
                                     where(Seat::Black)};
        thread_local std::optional<std::pair<std::array<int, 5>, std::vector<std::string>>> last;
        if (!last || last->first != key)
            last.emplace(
                key, std::vector<std::string>{notes_peeks().english(), notes_phantoms().english()});
        v.notes = last->second;
    }

    Phrase notes_peeks() const {
        if (lives_ == 0)
            return phrase(N_("Peeks: none (hard mode)"));
        auto left = [&](Seat s) {
            // TRANSLATORS: a player's peeks left, as in "Peeks left: White 3, Black 2".
            return phrase(N_("{seat} {count}"), {{"seat", seat_phrase(s)},
                                                 {"count", std::to_string(peeks_left_[index(s)])}});
        };
        return phrase(N_("Peeks left: {white}, {black}"),
                      {{"white", left(Seat::White)}, {"black", left(Seat::Black)}});
    }

    // Whether each Phantom is in hand, in play or gone is public: every entry and capture was
    // announced.
    Phrase notes_phantoms() const {
        auto where = [&](Seat s) {
            const Phrase::Arg seat{"seat", seat_phrase(s)};
            if (pos_.pieces(s, pieces::phantom))
                // TRANSLATORS: as in "Phantoms: White in play, Black in hand".
                return phrase(N_("{seat} in play"), {seat});
            if (pos_.in_hand(s, pieces::phantom))
                // TRANSLATORS: as in "Phantoms: White in play, Black in hand".
                return phrase(N_("{seat} in hand"), {seat});
            // TRANSLATORS: as in "Phantoms: White gone, Black in play".
            return phrase(N_("{seat} gone"), {seat});
        };
        return phrase(N_("Phantoms: {white}, {black}"),
                      {{"white", where(Seat::White)}, {"black", where(Seat::Black)}});
    }

    Options options_;
    phantom::EntryRules entry_;
    int lives_ = 3;
    std::array<int, 2> peeks_left_{};
    int peeks_taken_ = 0;
    Position pos_;
    MoveList legal_;
    Outcome outcome_;
};

} // namespace

const Variant& phantom_variant() {
    static const VariantOf<PhantomGame, phantom_info> v;
    return v;
}

} // namespace ghostpost::rules
