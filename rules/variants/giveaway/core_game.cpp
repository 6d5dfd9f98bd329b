// The Game for giveaway and Ghostarelay. Position does the moves; this file adds what a game
// played by post needs: whose decision it is, canonical texts, the end of the game, the house
// draws (50-move and threefold claims, 75-move and fivefold automatic) and explanations.
#include "core_game.h"

#include "ghostpost/variants/pieces.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace ghostpost::rules::giveaway {

namespace {

constexpr std::uint8_t castle_special = 1;

using Said = std::variant<std::string, Phrase>; // what a phrase's argument may be

// At most `limit` of `texts`: "Nf3", "Nf3 or Nc3", "a, b or c", "a, b, c or 3 more", the last
// joined by a word of the reader's language.
Said join_or(const std::vector<std::string>& texts, std::size_t limit) {
    const std::size_t shown = std::min(texts.size(), limit);
    if (shown < texts.size()) {
        std::string some;
        for (std::size_t i = 0; i < shown; ++i)
            some += (i == 0 ? "" : ", ") + texts[i];
        // TRANSLATORS: a list cut short, as in "Bxb2, Nxd4, exd5 or 3 more".
        return phrase(N_("{some} or {count} more"),
                      {{"some", some}, {"count", std::to_string(texts.size() - shown)}});
    }
    if (shown < 2)
        return shown == 0 ? std::string() : texts.front();
    std::string some;
    for (std::size_t i = 0; i + 1 < shown; ++i)
        some += (i == 0 ? "" : ", ") + texts[i];
    return phrase(N_("{some} or {last}"), {{"some", some}, {"last", texts[shown - 1]}});
}

std::string capitalised(std::string_view s) {
    std::string out(s);
    if (!out.empty())
        out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
    return out;
}

// A seat by its name ("White"), a word of the catalogs.
Phrase seat_word(Seat s) {
    return Phrase{"seat", capitalised(seat_name(s)), {}};
}

class CoreGame final : public Game {
public:
    CoreGame(const VariantInfo& info, Options options, Position start)
        : info_(&info), options_(std::move(options)), pos_(std::move(start)) {
        auto it = options_.find(pass_option);
        pass_when_stuck_ = it != options_.end() && it->second == "on";
        keys_.push_back(pos_.key());
        refresh();
    }

    std::unique_ptr<Game> clone() const override { return std::make_unique<CoreGame>(*this); }
    bool assign(const Game& other) override { return assign_as(*this, other); }
    const VariantInfo& info() const override { return *info_; }
    const Options& options() const override { return options_; }

    std::vector<Decision> pending() const override {
        if (outcome_.over())
            return {};
        return {Decision{pos_.side(), must_pass_ ? "pass (no legal move)" : "move"}};
    }

    std::vector<NotatedAction> notated_actions(Seat seat) const override {
        if (outcome_.over() || seat != pos_.side())
            return {};
        if (must_pass_) {
            Action pass;
            pass.kind = ActionKind::Pass;
            return {NotatedAction{pass, "pass"}};
        }
        std::vector<NotatedAction> out;
        out.reserve(legal_.size());
        for (std::size_t i = 0; i < legal_.size(); ++i)
            out.push_back(NotatedAction{to_action(legal_[i]), texts()[i]});
        return out;
    }

    std::vector<Action> legal_actions(Seat seat) const override {
        if (outcome_.over() || seat != pos_.side())
            return {};
        if (must_pass_) {
            Action pass;
            pass.kind = ActionKind::Pass;
            return {pass};
        }
        std::vector<Action> out;
        out.reserve(legal_.size());
        for (const Move& m : legal_)
            out.push_back(to_action(m));
        return out;
    }

    Result<std::vector<Event>> apply(Seat seat, const Action& action, RandomSource&) override {
        std::vector<Event> events;
        if (auto refused = play(seat, action, &events))
            return *refused;
        return events;
    }

    // apply() without the SAN and the events.
    bool apply_silently(Seat seat, const Action& action, RandomSource&) override {
        return !play(seat, action, nullptr);
    }

private:
    // apply()'s work, its events into `events` when given: why the action is refused, or
    // nothing when it was played.
    std::optional<RuleError> play(Seat seat, const Action& action, std::vector<Event>* events) {
        if (outcome_.over())
            return make_error(ErrorKind::GameOver,
                              phrase(N_("the game is over ({reason})"),
                                     {{"reason", Phrase{"reason", outcome_.reason, {}}}}));
        if (seat != pos_.side())
            return make_error(
                ErrorKind::NotYourTurn,
                phrase(N_("it is {side}'s move"),
                       {{"side", Phrase{"side", std::string(seat_name(pos_.side())), {}}}}));
        if (must_pass_) {
            if (action.kind != ActionKind::Pass)
                return make_error(ErrorKind::Illegal,
                                  phrase(N_("you have no legal move and must pass: write pass")));
            if (events)
                events->push_back(public_event(EventKind::Moved, "pass"));
            pos_.pass();
            last_from_ = last_to_ = Square{};
        } else {
            auto it = std::find_if(legal_.begin(), legal_.end(),
                                   [&](const Move& m) { return to_action(m) == action; });
            if (it == legal_.end())
                return make_error(ErrorKind::Illegal, phrase(N_("that move is not legal here")));
            if (events) {
                const std::string text = pos_.san(*it, legal_);
                events->push_back(public_event(EventKind::Moved, text));
                if (it->capture())
                    events->push_back(public_event(EventKind::Captured, text));
            }
            last_from_ = to_square(it->from);
            last_to_ = to_square(it->to);
            pos_.play(*it);
        }
        ++ply_;
        // Captures and pawn moves can never be undone, so earlier positions cannot recur.
        if (pos_.halfmove_clock() == 0)
            keys_.clear();
        keys_.push_back(pos_.key());
        refresh();
        if (outcome_.over() && events)
            events->push_back(
                public_event(EventKind::GameOver, Phrase{"reason", outcome_.reason, {}}));
        check_consistent(*this);
        return std::nullopt;
    }

public:
    bool is_consistent() const override { return pos_.is_consistent(); }

    Outcome outcome() const override { return outcome_; }

    std::optional<std::string> claimable_draw() const override {
        if (outcome_.over())
            return std::nullopt;
        if (pos_.halfmove_clock() >= 100)
            return "50-move rule";
        if (repetitions() >= 3)
            return "threefold repetition";
        return std::nullopt;
    }

    // A seat wins by losing all its pieces or (without the pass option) its last legal move.
    // Every giveaway piece captures, so there no position is counted as unwinnable. In
    // Ghostarelay the Ghost and the Relay never capture and nothing promotes to them: when every
    // enemy piece is one of those and the seat has no Relay (whose lent bishop moves capture),
    // no piece of the seat can ever be taken; and a seat with a Ghost always has a move (to any
    // empty square). docs/variants/ghostarelay.md, "Could win".
    bool could_win(Seat seat) const override {
        if (pos_.flavour() != Flavour::Ghostarelay)
            return true;
        bool enemy_captures = false, own_relay = false, own_ghost = false;
        for (int f = 0; f < pos_.files(); ++f) {
            for (int r = 0; r < pos_.ranks(); ++r) {
                const Piece p = pos_.piece_at(Square(f, r));
                if (p.kind == PieceKind::None)
                    continue;
                if (p.seat == seat) {
                    own_relay = own_relay || p.kind == pieces::relay;
                    own_ghost = own_ghost || p.kind == pieces::ghost;
                } else {
                    enemy_captures =
                        enemy_captures || (p.kind != pieces::ghost && p.kind != pieces::relay);
                }
            }
        }
        if (enemy_captures || own_relay)
            return true;
        return !pass_when_stuck_ && !own_ghost;
    }

    PublicView public_view() const override { return make_public(board()); }
    // Nothing is hidden in these games: a seat sees what everyone sees.
    SeatView seat_view(Seat seat) const override { return make_private(seat, board()); }
    void final_board(BoardView& into) const override { board_into(into, true); }
    void seat_board(Seat, BoardView& into) const override { board_into(into, true); }

    RuleError explain_illegal(Seat seat, const ActionSyntax& syntax,
                              std::string_view text) const override;

    std::uint64_t perft(int depth) const override {
        if (depth <= 0)
            return 1;
        if (outcome_.over())
            return 0;
        if (must_pass_) {
            Position next = pos_;
            next.pass();
            return depth == 1 ? 1 : next.perft(depth - 1);
        }
        return pos_.perft(depth);
    }
    std::string fen() const override { return pos_.fen(); }
    int ply() const override { return ply_; }

private:
    static Action to_action(const Move& m) {
        Action a;
        a.kind = ActionKind::Move;
        a.piece = m.piece;
        a.from = to_square(m.from);
        a.to = to_square(m.to);
        a.promotion = m.promotion;
        a.special = (m.flags & Castle) ? castle_special : 0;
        return a;
    }

    const std::vector<std::string>& texts() const {
        if (!texts_)
            texts_ = pos_.san(legal_);
        return *texts_;
    }

    int repetitions() const {
        return static_cast<int>(std::count(keys_.begin(), keys_.end(), keys_.back()));
    }

    void refresh() {
        pos_.legal_moves(legal_);
        texts_.reset();
        must_pass_ = false;
        outcome_ = Outcome{};
        const Seat us = pos_.side();
        auto win_for = [](Seat s, std::string reason) {
            return Outcome{s == Seat::White ? Status::WhiteWins : Status::BlackWins,
                           std::move(reason)};
        };
        // Only a set-up position can leave the side that just moved without pieces.
        if (pos_.piece_count(opponent(us)) == 0) {
            outcome_ =
                win_for(opponent(us), capitalised(seat_name(opponent(us))) + " has no pieces left");
            return;
        }
        if (pos_.piece_count(us) == 0) {
            outcome_ = win_for(us, capitalised(seat_name(us)) + " has no pieces left");
            return;
        }
        if (legal_.empty()) {
            if (!pass_when_stuck_) {
                outcome_ = win_for(us, capitalised(seat_name(us)) + " has no legal move");
                return;
            }
            must_pass_ = true;
        }
        if (pos_.halfmove_clock() >= 150)
            outcome_ = Outcome{Status::Draw, "75-move rule"};
        else if (repetitions() >= 5)
            outcome_ = Outcome{Status::Draw, "fivefold repetition"};
    }

    BoardView board() const {
        BoardView v(info_->name, pos_.files(), pos_.ranks());
        board_into(v, false);
        return v;
    }

    // board() written over `v`; with `plain`, the notes written straight as English (no
    // note_phrases), for a search that reads the board at every position.
    void board_into(BoardView& v, bool plain) const {
        if (v.variant != info_->name)
            v.variant = info_->name;
        v.files = pos_.files();
        v.ranks = pos_.ranks();
        v.cells.resize(static_cast<std::size_t>(v.files * v.ranks));
        for (int r = 0; r < pos_.ranks(); ++r)
            for (int f = 0; f < pos_.files(); ++f) {
                Cell& cell = v.at(Square(f, r));
                cell.figures.clear();
                cell.tint = Tint::Chequer;
                Piece p = pos_.piece_at(Square(f, r));
                if (p.kind != PieceKind::None)
                    cell.figures.push_back(Figure{p, FigureStyle::Living});
            }
        v.last_from = last_from_;
        v.last_to = last_to_;
        v.check = Square{};
        v.deciding.clear();
        v.ply = ply_;
        v.move_number = pos_.fullmove_number();
        v.notes.clear();
        v.note_phrases.clear();
        if (plain) {
            const std::string who = capitalised(seat_name(pos_.side()));
            if (!outcome_.over()) {
                v.deciding.push_back(pos_.side());
                if (must_pass_)
                    v.notes.push_back(who + " has no legal move and passes");
                else if (!legal_.empty() && legal_.front().capture())
                    v.notes.push_back(who + " must capture");
            }
            if (pass_when_stuck_)
                v.notes.push_back("Option " + std::string(pass_option) + ": on");
            return;
        }
        if (!outcome_.over()) {
            v.deciding.push_back(pos_.side());
            const Phrase::Arg who{"seat", seat_word(pos_.side())};
            if (must_pass_)
                v.note(phrase(N_("{seat} has no legal move and passes"), {who}));
            else if (!legal_.empty() && legal_.front().capture())
                v.note(phrase(N_("{seat} must capture"), {who}));
        }
        if (pass_when_stuck_)
            // TRANSLATORS: a game option under the board, as in "Option pass_when_stuck: on".
            v.note(phrase(N_("Option {option}: {value}"),
                          {{"option", std::string(pass_option)}, {"value", "on"}}));
    }

    const VariantInfo* info_;
    Options options_;
    bool pass_when_stuck_ = false;
    Position pos_;
    MoveList legal_;
    // The texts of legal_, written when first asked for: a search never asks.
    mutable std::optional<std::vector<std::string>> texts_;
    bool must_pass_ = false;
    std::vector<std::string> keys_; // positions since the last capture or pawn move
    int ply_ = 0;
    Square last_from_;
    Square last_to_;
    Outcome outcome_;
};

RuleError CoreGame::explain_illegal(Seat, const ActionSyntax& syntax, std::string_view text) const {
    const std::string t(text);
    auto illegal = [&](Phrase why) {
        return make_error(ErrorKind::Illegal, phrase(N_("{move} is not possible: {why}"),
                                                     {{"move", t}, {"why", std::move(why)}}));
    };
    const bool ghostarelay = pos_.flavour() == Flavour::Ghostarelay;
    if (must_pass_)
        return illegal(phrase(N_("you have no legal move and must pass: write pass")));
    if (syntax.drop)
        return illegal(phrase(N_("nothing enters the board in {variant}"),
                              {{"variant", Phrase{"variant", info_->title, {}}}}));

    MoveList caps, quiets;
    pos_.captures(caps);
    pos_.quiet_moves(quiets);
    std::vector<std::string> capture_texts;
    if (!caps.empty())
        capture_texts = texts(); // the legal moves are exactly the captures
    const Phrase::Arg captures{"captures", join_or(capture_texts, 6)};
    const Phrase must_capture =
        capture_texts.size() == 1
            ? phrase(N_("you must capture: {captures} is available"), {captures})
            : phrase(N_("you must capture: {captures} are available"), {captures});

    if (syntax.castle != 0) {
        if (ghostarelay)
            return illegal(
                phrase(N_("castling is written K and the king's destination (for "
                          "example Kh1): the king moves two squares along a line and "
                          "the first piece beyond must be a rook, which jumps over it")));
        if (!caps.empty())
            return illegal(must_capture);
        const bool short_side = syntax.castle == 1;
        const int shift = pos_.side() == Seat::White ? 0 : 2;
        if (!(pos_.castling() & ((short_side ? WhiteShort : WhiteLong) << shift)))
            return illegal(phrase(N_("castling on that side is no longer allowed (the king or that "
                                     "rook has moved)")));
        return illegal(phrase(N_("there are pieces between the king and the rook")));
    }

    const Piece target = pos_.piece_at(syntax.to);
    auto fits = [&](const Move& m) {
        const Square from = to_square(m.from);
        return to_square(m.to) == syntax.to &&
               (syntax.piece == PieceKind::None || m.piece == syntax.piece) &&
               (syntax.from_file < 0 || from.file == syntax.from_file) &&
               (syntax.from_rank < 0 || from.rank == syntax.from_rank);
    };
    if (!caps.empty() && std::any_of(quiets.begin(), quiets.end(), fits))
        return illegal(must_capture);
    for (const MoveList* list : {&caps, &quiets})
        for (const Move& m : *list)
            if (fits(m) && m.promotion != syntax.promotion) {
                if (m.promotion == PieceKind::None)
                    return illegal(phrase(N_("only a pawn reaching the last rank promotes")));
                if (ghostarelay)
                    return illegal(phrase(N_("a pawn reaching the last rank becomes a Warlord: "
                                             "write =W (for example {move})"),
                                          {{"move", syntax.to.name() + "=W"}}));
                return illegal(phrase(
                    N_("a pawn reaching the last rank must promote: add =Q, =R, =B, =N or =K")));
            }

    if (ghostarelay && (syntax.piece == PieceKind::King || syntax.piece == PieceKind::None)) {
        // A king two squares away along a line: the player meant to castle.
        for (int df = -2; df <= 2; df += 2)
            for (int dr = -2; dr <= 2; dr += 2) {
                if ((df == 0) == (dr == 0))
                    continue;
                const Square k(syntax.to.file - df, syntax.to.rank - dr);
                if (k.file < 0 || k.rank < 0 || k.file >= pos_.files() || k.rank >= pos_.ranks() ||
                    pos_.piece_at(k) != Piece{PieceKind::King, pos_.side()})
                    continue;
                if (syntax.from_file >= 0 && syntax.from_file != k.file)
                    continue;
                const Square over(k.file + df / 2, k.rank + dr / 2);
                if (pos_.piece_at(over).kind != PieceKind::None || target.kind != PieceKind::None)
                    return illegal(phrase(N_("to castle, the king needs {over} and {square} empty"),
                                          {{"over", over.name()}, {"square", syntax.to.name()}}));
                return illegal(phrase(N_("to castle, the first piece beyond {square} must be a "
                                         "rook (of either side), to jump to {over}"),
                                      {{"square", syntax.to.name()}, {"over", over.name()}}));
            }
    }
    const bool enemy_there = target.kind != PieceKind::None && target.seat != pos_.side();
    if (syntax.piece == pieces::warlord && !enemy_there)
        return illegal(
            phrase(N_("the Warlord only moves by capturing, and it can capture any enemy piece")));
    if (syntax.piece == pieces::ghost && enemy_there)
        return illegal(phrase(N_("the Ghost never captures (only when an enemy Relay next to it "
                                 "lets it capture straight away from that Relay on a diagonal)")));
    if (syntax.piece == pieces::relay && enemy_there)
        return illegal(phrase(N_("the Relay never captures (only when an enemy Relay next to it "
                                 "lets it capture straight away from that Relay on a diagonal)")));
    const Phrase::Arg square{"square", syntax.to.name()};
    if (target.kind != PieceKind::None && target.seat == pos_.side())
        return illegal(phrase(N_("your own {piece} stands on {square}"),
                              {{"piece", piece_word(target.kind)}, square}));
    if (syntax.from_file >= 0 && syntax.from_rank >= 0) {
        const Square fs(syntax.from_file, syntax.from_rank);
        const Piece from = pos_.piece_at(fs);
        const Phrase::Arg from_square{"square", fs.name()};
        if (from.kind == PieceKind::None)
            return illegal(phrase(N_("there is no piece on {square}"), {from_square}));
        if (from.seat != pos_.side())
            return illegal(phrase(N_("the {piece} on {square} is not yours"),
                                  {{"piece", piece_word(from.kind)}, from_square}));
        if (syntax.piece != PieceKind::None && syntax.piece != from.kind)
            return illegal(phrase(N_("there is no {piece} on {square}: your {own} stands there"),
                                  {{"piece", piece_word(syntax.piece)},
                                   from_square,
                                   {"own", piece_word(from.kind)}}));
        const Phrase::Arg piece{"piece", piece_word(from.kind)};
        const Phrase::Arg from_arg{"from", fs.name()};
        return illegal(enemy_there ? phrase(N_("the {piece} on {from} cannot capture on {square}"),
                                            {piece, from_arg, square})
                                   : phrase(N_("the {piece} on {from} cannot reach {square}"),
                                            {piece, from_arg, square}));
    }
    if (syntax.piece == PieceKind::Pawn && syntax.capture && target.kind == PieceKind::None)
        return illegal(phrase(N_("there is nothing to capture on {square}"), {square}));
    const Phrase::Arg who{"piece", piece_word(syntax.piece)}; // "piece" when none was written
    return illegal(syntax.capture || enemy_there
                       ? phrase(N_("no {piece} can capture on {square}"), {who, square})
                       : phrase(N_("no {piece} can reach {square}"), {who, square}));
}

} // namespace

Result<std::unique_ptr<Game>> CoreVariant::start(const Options& options,
                                                 std::string_view fen) const {
    auto resolved = resolve_options(*info_, options);
    if (!resolved)
        return resolved.error();
    if (fen.empty())
        return std::unique_ptr<Game>(
            std::make_unique<CoreGame>(*info_, std::move(*resolved), Position::start(flavour_)));
    auto pos = Position::from_fen(flavour_, fen);
    if (!pos)
        return pos.error();
    return std::unique_ptr<Game>(
        std::make_unique<CoreGame>(*info_, std::move(*resolved), std::move(*pos)));
}

std::vector<std::string> CoreVariant::fen_reasons(const Options& options,
                                                  std::string_view fen) const {
    auto resolved = resolve_options(*info_, options);
    if (!resolved)
        return {resolved.error().message};
    auto setup = read_fen(fen, fen_shape(flavour_));
    if (!setup)
        return {setup.error().message};
    auto pos = Position::from_setup(flavour_, *setup);
    return pos ? std::vector<std::string>{} : pos.reasons();
}

} // namespace ghostpost::rules::giveaway
