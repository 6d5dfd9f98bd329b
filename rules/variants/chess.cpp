// FIDE chess: the Laws of Chess, with the draws a play-by-post service needs. The 50-move
// rule and threefold repetition are claims (!draw); the 75-move rule, fivefold repetition,
// stalemate and insufficient material end the game by themselves. FEN in and out.
#include "chess/fide.h"
#include "chess/san.h"
#include "ghostpost/rules/game.h"
#include "ghostpost/variants/pieces.h"

namespace ghostpost::rules {
namespace {

using chess::MoveList;
using chess::popcount;
using chess::Position;

const VariantInfo& chess_info() {
    static const VariantInfo info{
        .name = "chess",
        .aliases = {"fide", "standard"},
        .title = "FIDE chess",
        .files = 8,
        .ranks = 8,
        .seat_names = {"White", "Black"},
        .options = {},
        .summary = N_("The Laws of Chess (FIDE). Checkmate wins. Stalemate, insufficient material, "
                      "the 75-move rule and fivefold repetition draw at once; the 50-move rule and "
                      "threefold repetition may be claimed with !draw."),
        .notation = N_("Standard algebraic notation: e4, Nf3, exd5, Nbd2, R1e2, O-O, O-O-O, e8=Q. "
                       "Also accepted: 0-0, e2e4, e2-e4, Ng1f3, e7e8q, nf3, and + # ! ? marks."),
    };
    return info;
}

class ChessGame final : public Game {
public:
    explicit ChessGame(Options options) : options_(std::move(options)) { refresh(); }

    // Every reason `fen` is no FIDE chess position; empty when it was read.
    std::vector<std::string> load(std::string_view fen) {
        auto pos = read_checked(fen, chess::fen_shape, position_of);
        if (!pos)
            return pos.reasons();
        pos_ = std::move(pos).value();
        refresh();
        return {};
    }

    // The chess core's position with no Phantom and one king a side, or every reason it is not.
    static Checked<Position> position_of(const Setup& setup) {
        auto pos = Position::from_setup(setup);
        std::vector<std::string> reasons;
        if (!pos)
            reasons = pos.reasons();
        if (setup.count('F') + setup.count('f') + setup.count_bracketed('F') +
                setup.count_bracketed('f') >
            0)
            reasons.push_back("FIDE chess has no Phantom");
        if (setup.count('K') != 1 || setup.count('k') != 1)
            reasons.push_back("each side needs exactly one king");
        if (!reasons.empty())
            return reasons;
        return pos;
    }

    std::unique_ptr<Game> clone() const override { return std::make_unique<ChessGame>(*this); }
    const VariantInfo& info() const override { return chess_info(); }
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
        return chess::notate(scratch, legal_);
    }

    std::vector<Action> legal_actions(Seat seat) const override {
        if (outcome_.over() || seat != pos_.side_to_move())
            return {};
        return chess::to_actions(pos_, legal_);
    }

    Result<std::vector<Event>> apply(Seat seat, const Action& action, RandomSource&) override {
        if (outcome_.over())
            return make_error(ErrorKind::GameOver,
                              phrase(N_("the game is over ({reason})"),
                                     {{"reason", Phrase{"reason", outcome_.reason, {}}}}));
        if (seat != pos_.side_to_move())
            return make_error(
                ErrorKind::NotYourTurn,
                phrase(
                    N_("it is {side}'s move"),
                    {{"side", Phrase{"side", std::string(seat_name(pos_.side_to_move())), {}}}}));
        auto move = chess::find_move(pos_, legal_, action);
        if (!move)
            return make_error(ErrorKind::Illegal, phrase(N_("that move is not legal here")));
        std::vector<Event> events;
        const std::string san = chess::to_san(pos_, *move, legal_);
        const bool capture = pos_.piece_on(move->to).kind != PieceKind::None ||
                             move->type == chess::MoveType::EnPassant;
        events.push_back(public_event(EventKind::Moved, san));
        if (capture)
            events.push_back(public_event(EventKind::Captured, san));
        pos_.do_move(*move);
        refresh();
        if (pos_.in_check() && !outcome_.over())
            events.push_back(public_event(EventKind::Check, "check"));
        if (outcome_.over())
            events.push_back(
                public_event(EventKind::GameOver, Phrase{"reason", outcome_.reason, {}}));
        check_consistent(*this);
        return events;
    }

    bool apply_silently(Seat seat, const Action& action, RandomSource&) override {
        if (outcome_.over() || seat != pos_.side_to_move())
            return false;
        auto move = chess::find_move(pos_, legal_, action);
        if (!move)
            return false;
        pos_.do_move(*move);
        refresh();
        check_consistent(*this);
        return true;
    }
    bool assign(const Game& other) override { return assign_as(*this, other); }

    // The core's invariants, one king a side and no Phantom anywhere.
    bool is_consistent() const override {
        return pos_.is_consistent() && popcount(pos_.pieces(Seat::White, PieceKind::King)) == 1 &&
               popcount(pos_.pieces(Seat::Black, PieceKind::King)) == 1 &&
               !pos_.pieces(pieces::phantom) && !pos_.in_hand(Seat::White, pieces::phantom) &&
               !pos_.in_hand(Seat::Black, pieces::phantom);
    }

    Outcome outcome() const override { return outcome_; }
    std::optional<std::string> claimable_draw() const override {
        return outcome_.over() ? std::nullopt : chess::fide_claimable_draw(pos_);
    }

    // A lone king cannot mate; nor can a king and one minor piece against a bare king. With
    // any other material a helpmate exists, so the seat is counted as able to win.
    bool could_win(Seat seat) const override {
        if (pos_.insufficient_material())
            return false;
        const auto heavy = pos_.pieces(seat, PieceKind::Pawn) | pos_.pieces(seat, PieceKind::Rook) |
                           pos_.pieces(seat, PieceKind::Queen);
        const int minors =
            popcount(pos_.pieces(seat, PieceKind::Knight) | pos_.pieces(seat, PieceKind::Bishop));
        if (heavy || minors >= 2)
            return true;
        if (minors == 0)
            return false;
        return popcount(pos_.pieces(opponent(seat))) > 1;
    }

    PublicView public_view() const override {
        return make_public(chess::fide_board(pos_, "chess", outcome_.over()));
    }
    SeatView seat_view(Seat seat) const override {
        // Chess hides nothing: a seat sees what everyone sees.
        return make_private(seat, chess::fide_board(pos_, "chess", outcome_.over()));
    }

    void final_board(BoardView& into) const override {
        chess::fide_board_into(pos_, "chess", outcome_.over(), into);
    }
    void seat_board(Seat, BoardView& into) const override { final_board(into); }

    RuleError explain_illegal(Seat, const ActionSyntax& syntax,
                              std::string_view text) const override {
        Position scratch = pos_;
        return chess::explain_fide_illegal(scratch, syntax, text);
    }

    std::uint64_t perft(int depth) const override {
        Position scratch = pos_;
        return scratch.perft(depth);
    }
    std::string fen() const override { return pos_.fen(); }
    int ply() const override { return pos_.plies_played(); }

private:
    void refresh() {
        legal_.clear();
        pos_.generate_legal(legal_);
        outcome_ = chess::fide_outcome(pos_, legal_);
    }

    Options options_;
    Position pos_;
    MoveList legal_;
    Outcome outcome_;
};

} // namespace

const Variant& chess_variant() {
    static const VariantOf<ChessGame, chess_info> v;
    return v;
}

} // namespace ghostpost::rules
