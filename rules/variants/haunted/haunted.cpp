// Haunted Chess (Stéphane Burkhart, 2006): FIDE chess where a captured piece becomes a spirit
// of its side on its square. The spirit waits, inert, under its captor; once the square is
// vacated it wanders like its kind but only onto empty squares, and captures (annihilating
// what it takes) or gives check only while invoked, that is while a living piece of its own
// side attacks its square. Spirits are never captured and block every line for both sides.
// Two spirits on one square: Q > R > B > N > P stays, on a tie the one already there. A spirit
// pawn invoked on its last rank may be reborn as a living piece, on arrival or on a later
// turn. Every reading is stated in docs/variants/haunted.md.
//
// Notation: living moves in SAN; spirit moves are the SAN of the spirit with an "S" and its
// letter in front (SBd7, SNxe5, SPc5, SPc8=Q); a rebirth in place is SPc8=Q as well.
#include "haunted.h"

#include "board.h"
#include "ghostpost/rules/notation.h"

#include <algorithm>

namespace ghostpost::rules {
namespace {

using chess::bb;
using chess::from_square;
using chess::to_square;
using haunted::Board;
using haunted::HMove;
using haunted::Layer;
using haunted::MoveBuf;
using haunted::MoveReport;
using haunted::piece_words;
using haunted::spirit_words;

const VariantInfo& haunted_info() {
    static const VariantInfo info{
        .name = "haunted",
        .aliases = {"haunted-chess", "hauntedchess"},
        .title = "Haunted Chess",
        .files = 8,
        .ranks = 8,
        .seat_names = {"White", "Black"},
        .options = {},
        .summary = N_(
            "FIDE chess with spirits. A captured piece becomes a spirit of its own side on its "
            "square, inert under its captor until that square is left. A released spirit moves "
            "like its kind, only onto empty squares; while a living piece of its side attacks its "
            "square it is invoked: then it captures (what it takes leaves the game) and gives "
            "check. Spirits are never captured and block lines for both sides. Two spirits on a "
            "square: Q > R > B > N > P stays, on a tie the one already there. An invoked spirit "
            "pawn on its last rank may be reborn as a living Q, R, B or N. Checkmate wins."),
        .notation =
            N_("Living pieces in SAN: e4, Nf3, exd5, O-O, e8=Q. Spirits: S, the spirit's "
               "letter (P for a pawn), then SAN: SBd7, SNxe5, SPc5, SPc8=Q (arriving and "
               "reborn); a spirit pawn already on its last rank is reborn with SPc8=Q. Also "
               "accepted: S:Bd7, S-Bd7, S Bd7, sbd7, SBxd7."),
        .examples = "e4, Nf3, exd5, O-O, e8=Q or SBd7",
    };
    return info;
}

Action to_action(const Board& b, const HMove& m) {
    Action a;
    a.from = to_square(m.from);
    a.to = to_square(m.to);
    a.promotion = m.promotion;
    if (m.layer == Layer::Living) {
        a.kind = ActionKind::Move;
        a.piece = b.living(m.from).kind;
    } else {
        a.kind = ActionKind::Special;
        a.special = m.layer == Layer::Spirit ? 1 : 2;
        a.piece = b.spirit(m.from).kind;
    }
    return a;
}

PieceKind mover_kind(const Board& b, const HMove& m) {
    return m.layer == Layer::Living ? b.living(m.from).kind : b.spirit(m.from).kind;
}

// File, rank or both, as SAN disambiguates among the moves of the same kind to the same square.
std::string disambiguation(const Board& b, const HMove& m, const MoveBuf& legal) {
    bool clash = false, same_file = false, same_rank = false;
    for (const HMove& o : legal) {
        if (o.layer != m.layer || o.to != m.to || o.from == m.from || o.layer == Layer::Rebirth ||
            mover_kind(b, o) != mover_kind(b, m))
            continue;
        clash = true;
        same_file = same_file || chess::file_of(o.from) == chess::file_of(m.from);
        same_rank = same_rank || chess::rank_of(o.from) == chess::rank_of(m.from);
    }
    const std::string from = to_square(m.from).name();
    if (!clash)
        return {};
    if (!same_file)
        return from.substr(0, 1);
    if (!same_rank)
        return from.substr(1);
    return from;
}

// The canonical text of one of `legal`, with + or # when it checks or mates.
std::string notate(const Board& b, const HMove& m, const MoveBuf& legal) {
    std::string text;
    const std::string to = to_square(m.to).name();
    if (m.layer == Layer::Rebirth) {
        text = "SP" + to + "=" + piece_letter(m.promotion);
    } else if (m.layer == Layer::Spirit) {
        const bool capture = b.living(m.to).kind != PieceKind::None;
        text = std::string("S") + piece_letter(b.spirit(m.from).kind) +
               disambiguation(b, m, legal) + (capture ? "x" : "") + to;
        if (m.promotion != PieceKind::None)
            text += std::string("=") + piece_letter(m.promotion);
    } else if (m.castle) {
        text = m.to > m.from ? "O-O" : "O-O-O";
    } else {
        const PieceKind kind = b.living(m.from).kind;
        const bool capture = b.living(m.to).kind != PieceKind::None || m.en_passant;
        if (kind == PieceKind::Pawn)
            text = (capture ? to_square(m.from).name().substr(0, 1) + "x" : "") + to;
        else
            text = std::string(1, piece_letter(kind)) + disambiguation(b, m, legal) +
                   (capture ? "x" : "") + to;
        if (m.promotion != PieceKind::None)
            text += std::string("=") + piece_letter(m.promotion);
    }
    Board after = b;
    after.make(m);
    if (after.in_check(after.side_to_move())) {
        MoveBuf replies;
        after.generate_legal(replies);
        text += replies.size() == 0 ? "#" : "+";
    }
    return text;
}

// Who gives check to `seat`'s king, in words: "the white queen on a4", "the invoked white
// spirit bishop on c6".
std::vector<Phrase> checkers(const Board& b, Seat seat) {
    std::vector<Phrase> out;
    const chess::Sq king = b.king_square(seat);
    if (king < 0)
        return out;
    const Seat them = opponent(seat);
    const chess::Bitboard occ = b.occupied();
    for (chess::Bitboard l = b.living_of(them); l;) {
        const chess::Sq s = chess::pop_lsb(l);
        if (chess::attacks_of(b.living(s).kind, them, s, occ) & bb(king))
            out.push_back(haunted::the_piece_on(piece_words(b.living(s)), to_square(s)));
    }
    for (chess::Bitboard i = b.invoked(them); i;) {
        const chess::Sq s = chess::pop_lsb(i);
        if (chess::attacks_of(b.spirit(s).kind, them, s, occ) & bb(king))
            out.push_back(
                phrase(N_("the invoked {spirit} on {square}"),
                       {{"spirit", spirit_words(b.spirit(s))}, {"square", to_square(s).name()}}));
    }
    return out;
}

using Said = std::variant<std::string, Phrase>; // what a phrase's argument may be

// "a, b and c": the last joined by a word of the reader's language.
Said join_and(const std::vector<Phrase>& parts) {
    if (parts.empty())
        return std::string();
    Phrase out = parts.front();
    for (std::size_t i = 1; i < parts.size(); ++i)
        out = i + 1 == parts.size()
                  ? phrase(N_("{first} and {second}"), {{"first", out}, {"second", parts[i]}})
                  : phrase(N_("{first}, {second}"), {{"first", out}, {"second", parts[i]}});
    return out;
}

class HauntedGame final : public Game {
public:
    explicit HauntedGame(Options options) : options_(std::move(options)) { refresh(); }

    // Every reason `fen` is no Haunted Chess position; empty when it was read.
    std::vector<std::string> load(std::string_view fen) {
        auto setup = read_fen(fen, haunted::fen_shape);
        if (!setup)
            return {setup.error().message};
        auto board = Board::from_setup(*setup);
        if (!board)
            return board.reasons();
        board_ = std::move(board).value();
        keys_.clear();
        refresh();
        return {};
    }

    std::unique_ptr<Game> clone() const override { return std::make_unique<HauntedGame>(*this); }
    bool assign(const Game& other) override { return assign_as(*this, other); }
    const VariantInfo& info() const override { return haunted_info(); }
    const Options& options() const override { return options_; }

    std::vector<Decision> pending() const override {
        if (outcome_.over())
            return {};
        return {Decision{board_.side_to_move(), "move"}};
    }

    std::vector<NotatedAction> notated_actions(Seat seat) const override {
        if (outcome_.over() || seat != board_.side_to_move())
            return {};
        std::vector<NotatedAction> out;
        out.reserve(legal_.size());
        for (const HMove& m : legal_)
            out.push_back(NotatedAction{to_action(board_, m), notate(board_, m, legal_)});
        return out;
    }

    std::vector<Action> legal_actions(Seat seat) const override {
        if (outcome_.over() || seat != board_.side_to_move())
            return {};
        std::vector<Action> out;
        out.reserve(legal_.size());
        for (const HMove& m : legal_)
            out.push_back(to_action(board_, m));
        return out;
    }

    Result<std::vector<Event>> apply(Seat seat, const Action& action, RandomSource&) override {
        if (outcome_.over())
            return game_over();
        if (seat != board_.side_to_move())
            return make_error(
                ErrorKind::NotYourTurn,
                phrase(
                    N_("it is {side}'s move"),
                    {{"side", Phrase{"side", std::string(seat_name(board_.side_to_move())), {}}}}));
        auto found = std::find_if(legal_.begin(), legal_.end(),
                                  [&](const HMove& m) { return to_action(board_, m) == action; });
        if (found == legal_.end())
            return make_error(ErrorKind::Illegal, phrase(N_("that move is not legal here")));
        const HMove m = *found;
        std::vector<Event> events;
        events.push_back(public_event(EventKind::Moved, notate(board_, m, legal_)));
        const Piece spirit_mover = m.layer == Layer::Spirit ? board_.spirit(m.from) : Piece{};
        keys_.push_back(board_.key());
        const MoveReport r = board_.make(m);
        last_ = m;
        describe(m, spirit_mover, r, events);
        refresh();
        if (board_.in_check(board_.side_to_move()) && !outcome_.over())
            events.push_back(public_event(
                EventKind::Check,
                phrase(N_("check by {pieces}"),
                       {{"pieces", join_and(checkers(board_, board_.side_to_move()))}})));
        if (outcome_.over())
            events.push_back(
                public_event(EventKind::GameOver, Phrase{"reason", outcome_.reason, {}}));
        check_consistent(*this);
        return events;
    }

    bool is_consistent() const override { return board_.is_consistent(); }

    Outcome outcome() const override { return outcome_; }
    // Checkmate wins, and a spirit invoked by any living piece of its side (the king too)
    // gives check. A bare king without spirits can never check, and it can gain none: spirits
    // come only from its own pieces being captured. Anything more counts as able to win.
    // docs/variants/haunted.md, "Could win".
    bool could_win(Seat seat) const override {
        return chess::popcount(board_.living_of(seat)) > 1 || board_.spirits_of(seat) != 0;
    }
    std::optional<std::string> claimable_draw() const override {
        if (outcome_.over())
            return std::nullopt;
        if (board_.halfmove_clock() >= 100)
            return "50-move rule";
        if (repetitions() >= 2)
            return "threefold repetition";
        return std::nullopt;
    }

    PublicView public_view() const override { return make_public(view()); }
    // Haunted Chess hides nothing: a seat sees what everyone sees.
    SeatView seat_view(Seat seat) const override { return make_private(seat, view()); }
    void final_board(BoardView& into) const override { view_into(into, true); }
    void seat_board(Seat, BoardView& into) const override { view_into(into, true); }

    RuleError explain_illegal(Seat seat, const ActionSyntax& syntax,
                              std::string_view text) const override;
    std::optional<Result<NotatedAction>> read_own_form(Seat seat,
                                                       std::string_view text) const override;

    std::uint64_t perft(int depth) const override { return board_.perft(depth); }
    std::string fen() const override { return board_.fen(); }
    int ply() const override { return static_cast<int>(keys_.size()); }

private:
    RuleError game_over() const {
        return make_error(ErrorKind::GameOver,
                          phrase(N_("the game is over ({reason})"),
                                 {{"reason", Phrase{"reason", outcome_.reason, {}}}}));
    }

    void describe(const HMove& m, Piece spirit_mover, const MoveReport& r,
                  std::vector<Event>& events) const {
        const std::string sq = r.captured_on >= 0 ? to_square(r.captured_on).name() : std::string();
        if (r.captured.kind != PieceKind::None) {
            const Phrase::Arg piece{"piece", piece_words(r.captured)};
            const Phrase::Arg square{"square", sq};
            if (r.annihilated)
                events.push_back(
                    public_event(EventKind::Captured,
                                 phrase(N_("the {spirit} annihilates the {piece} on {square}"),
                                        {{"spirit", spirit_words(spirit_mover)}, piece, square})));
            else
                events.push_back(public_event(
                    EventKind::Captured,
                    phrase(N_("the {piece} on {square} becomes a spirit"), {piece, square})));
        }
        if (r.spirit_lost.kind != PieceKind::None)
            events.push_back(public_event(
                EventKind::Note, phrase(N_("two spirits meet on {square}: the {kept} stays and the "
                                           "{lost} leaves the game"),
                                        {{"square", to_square(m.to).name()},
                                         {"kept", spirit_words(r.spirit_kept)},
                                         {"lost", spirit_words(r.spirit_lost)}})));
        if (r.released.kind != PieceKind::None)
            events.push_back(
                public_event(EventKind::Note, phrase(N_("the {spirit} on {square} is released"),
                                                     {{"spirit", spirit_words(r.released)},
                                                      {"square", to_square(m.from).name()}})));
        if (m.layer != Layer::Living && m.promotion != PieceKind::None)
            events.push_back(public_event(
                EventKind::Special,
                phrase(N_("the spirit pawn on {square} is reborn as a living "
                          "{piece}"),
                       {{"square", to_square(m.to).name()}, {"piece", piece_word(m.promotion)}})));
    }

    int repetitions() const {
        const std::uint64_t now = board_.key();
        int seen = 0;
        const int back = std::min<int>(board_.halfmove_clock(), static_cast<int>(keys_.size()));
        for (int i = 1; i <= back; ++i)
            if (keys_[keys_.size() - static_cast<std::size_t>(i)] == now)
                ++seen;
        return seen;
    }

    void refresh() {
        legal_ = MoveBuf{};
        board_.generate_legal(legal_);
        const Seat stm = board_.side_to_move();
        if (legal_.size() == 0) {
            if (board_.in_check(stm))
                outcome_ = {stm == Seat::White ? Status::BlackWins : Status::WhiteWins,
                            "checkmate"};
            else
                outcome_ = {Status::Draw, "stalemate"};
        } else if (board_.insufficient_material()) {
            outcome_ = {Status::Draw, "insufficient material"};
        } else if (board_.halfmove_clock() >= 150) {
            outcome_ = {Status::Draw, "75-move rule"};
        } else if (repetitions() >= 4) {
            outcome_ = {Status::Draw, "fivefold repetition"};
        } else {
            outcome_ = {};
        }
    }

    BoardView view() const {
        BoardView v("haunted", 8, 8);
        view_into(v, false);
        return v;
    }

    // view() written over `v`; with `plain`, the note written as plain English (note_phrases
    // left empty), as a search reads it at every position.
    void view_into(BoardView& v, bool plain) const {
        if (v.variant != "haunted")
            v.variant = "haunted";
        v.files = v.ranks = 8;
        v.cells.resize(64);
        for (auto& cell : v.cells)
            cell.figures.clear();
        v.notes.clear();
        v.note_phrases.clear();
        v.last_from = v.last_to = v.check = Square{};
        v.deciding.clear();
        std::string plain_spirits;
        const Seat stm = board_.side_to_move();
        std::array<chess::Bitboard, 2> invoked{board_.invoked(Seat::White),
                                               board_.invoked(Seat::Black)};
        std::optional<Said> spirits;
        for (chess::Sq s = 0; s < 64; ++s) {
            Cell& cell = v.at(to_square(s));
            const Piece living = board_.living(s), spirit = board_.spirit(s);
            if (living.kind != PieceKind::None)
                cell.figures.push_back(Figure{living, FigureStyle::Living});
            if (spirit.kind == PieceKind::None)
                continue;
            const bool is_invoked = (invoked[index(spirit.seat)] & bb(s)) != 0;
            cell.figures.push_back(
                Figure{spirit, is_invoked ? FigureStyle::PaleLit : FigureStyle::Pale});
            std::string letter(1, piece_letter(spirit.kind));
            if (spirit.seat == Seat::Black)
                letter[0] = static_cast<char>(letter[0] - 'A' + 'a');
            if (plain) {
                plain_spirits += (plain_spirits.empty() ? "" : ", ") + letter + to_square(s).name();
                if (living.kind != PieceKind::None)
                    plain_spirits += " (under " + std::string(piece_name(living.kind)) + ")";
                else if (is_invoked)
                    plain_spirits += " (invoked)";
                continue;
            }
            const Phrase::Arg at{"spirit", letter + to_square(s).name()};
            Said one = std::get<std::string>(at.value);
            if (living.kind != PieceKind::None)
                // TRANSLATORS: a spirit under the board, as in "Spirits: Pe4 (under knight)".
                one = phrase(N_("{spirit} (under {piece})"),
                             {at, {"piece", piece_word(living.kind)}});
            else if (is_invoked)
                // TRANSLATORS: a spirit under the board, as in "Spirits: Bc6 (invoked)".
                one = phrase(N_("{spirit} (invoked)"), {at});
            spirits = spirits ? Said(phrase(N_("{first}, {second}"),
                                            {{"first", std::move(*spirits)}, {"second", one}}))
                              : one;
        }
        if (spirits)
            v.note(phrase(N_("Spirits: {spirits}"), {{"spirits", std::move(*spirits)}}));
        if (!plain_spirits.empty())
            v.notes.push_back("Spirits: " + plain_spirits);
        if (last_) {
            v.last_from = to_square(last_->from);
            v.last_to = to_square(last_->to);
        }
        if (board_.in_check(stm))
            v.check = to_square(board_.king_square(stm));
        if (!outcome_.over())
            v.deciding.push_back(stm);
        v.ply = ply();
        v.move_number = board_.fullmove_number();
    }

    Options options_;
    Board board_;
    MoveBuf legal_;
    std::vector<std::uint64_t> keys_; // the key before each ply, for repetitions
    std::optional<HMove> last_;
    Outcome outcome_;
};

RuleError HauntedGame::explain_illegal(Seat, const ActionSyntax& syntax,
                                       std::string_view text) const {
    return haunted::explain(board_, legal_, syntax, text);
}

std::optional<Result<NotatedAction>> HauntedGame::read_own_form(Seat seat,
                                                                std::string_view text) const {
    auto parts = haunted::parse_spirit(text);
    if (!parts) {
        // Coordinates alone (c6d7) name a spirit's move when no living piece makes that move
        // (the parser tried those first) and exactly one spirit does.
        const auto lan = parse_syntax(text);
        if (!lan || lan->castle != 0 || lan->drop || lan->piece != PieceKind::None ||
            outcome_.over() || seat != board_.side_to_move())
            return std::nullopt;
        std::vector<NotatedAction> found;
        for (auto& a : notated_actions(seat)) {
            const Action& x = a.action;
            if (x.kind == ActionKind::Special && x.to == lan->to && x.from.file == lan->from_file &&
                x.from.rank == lan->from_rank && x.promotion == lan->promotion)
                found.push_back(std::move(a));
        }
        if (found.size() != 1)
            return std::nullopt;
        return Result<NotatedAction>(std::move(found.front()));
    }
    if (outcome_.over())
        return Result<NotatedAction>(game_over());
    if (seat != board_.side_to_move())
        return Result<NotatedAction>(
            make_error(ErrorKind::NotYourTurn, phrase(N_("it is not your move"))));
    std::vector<NotatedAction> found;
    for (auto& a : notated_actions(seat)) {
        const Action& x = a.action;
        if (x.kind == ActionKind::Special && x.piece == parts->kind && x.to == parts->to &&
            x.promotion == parts->promotion &&
            (parts->from_file < 0 || x.from.file == parts->from_file) &&
            (parts->from_rank < 0 || x.from.rank == parts->from_rank))
            found.push_back(std::move(a));
    }
    if (found.size() == 1)
        return Result<NotatedAction>(std::move(found.front()));
    if (found.size() > 1) {
        std::vector<std::string> names;
        for (const auto& f : found)
            names.push_back(f.text);
        // "SBd7 or SBe6", "SBd7, SBe6 or SBf5": the last joined by the reader's word for "or".
        std::string some;
        for (std::size_t i = 0; i + 1 < names.size(); ++i)
            some += (i == 0 ? "" : ", ") + names[i];
        Phrase candidates =
            phrase(N_("{some} or {last}"), {{"some", some}, {"last", names.back()}});
        RuleError e = make_error(
            ErrorKind::Ambiguous,
            phrase(N_("{move} is ambiguous: {candidates}"),
                   {{"move", std::string(text)}, {"candidates", std::move(candidates)}}));
        e.candidates = std::move(names);
        return Result<NotatedAction>(std::move(e));
    }
    return Result<NotatedAction>(haunted::explain_spirit(board_, *parts, text));
}

} // namespace

const Variant& haunted_variant() {
    static const VariantOf<HauntedGame, haunted_info> v;
    return v;
}

} // namespace ghostpost::rules
