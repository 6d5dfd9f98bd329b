// Ghost Chess (Ghosts of the Antipode): one black queen, the Ghost, against a Paradigm army of
// rooks, knights, bishops and pawns without king or queen. Every special move of the seed text:
// Shadow and Haunt, Rescue (also by exchange), the pawns' steps once both knights are lost,
// Hide, Transcend, Full/Half/Shadow Nexus with Scouting, Assault, Respawn, the Shadow Nexus move
// and its lock, and Search. Only one special move per turn; triggered specials are decisions of
// their own, asked of whichever seat they belong to. docs/variants/ghost.md states every reading.
#include "ghost.h"

#include "../giveaway/art.h"
#include "ghostpost/rules/game.h"
#include "ghostpost/rules/notation.h"

#include <algorithm>
#include <cctype>
#include <regex>

namespace ghostpost::rules {
namespace {

using ghost::Phase;
using ghost::State;

const VariantInfo& ghost_info() {
    static const VariantInfo info{
        .name = "ghost",
        .aliases = {"ghostchess", "ghost-chess"},
        .title = "Ghost Chess",
        .files = 8,
        .ranks = 8,
        .seat_names = {"Paradigm", "Ghost"},
        .options = {},
        .summary = N_(
            "One black queen, the Ghost, against the Paradigm's rooks, knights, bishops and pawns "
            "(no kings, no check). The Paradigm moves first. One special move per turn. "
            "Ghost: Shadow (after capturing on a dark square, or flanked by both her knights on a "
            "dark square, she cannot be captured next turn; diagonal flankers Haunt and are safe "
            "too), Rescue (a captured knight joins her on b8/d8/f8/h8; a captured rook or bishop "
            "may "
            "be exchanged for a knight the Paradigm chooses), Hide (pass; her pieces on dark "
            "squares "
            "are safe next turn), Transcend (she explodes, taking every touching Paradigm piece, "
            "then her knights move once each; also when she is captured). "
            "Paradigm: Full Nexus (the twelve pieces of a1-c2 and f1-h2 never moved) allows "
            "Scouting "
            "(d2/e2 pawns move as bishops) and one Assault; Full or Half Nexus (bishops on c1 and "
            "f1) "
            "allows Respawn of a captured pawn on d1/e1; Shadow Nexus (plus pieces on c8 and f8) "
            "bars "
            "the Ghost's home row except to capture, gives a free non-capturing move to a light "
            "square when she captures, and lets the c8/f8 pieces move as bishops. A pawn on rank 8 "
            "may Search back to a light square of its file. Without knights, pawns also step "
            "sideways and back. The Ghost wins when no Paradigm piece remains; the Paradigm wins "
            "when "
            "she transcends (or is captured) and pieces remain, or when two rescued knights fall. "
            "50 moves and threefold repetition may be claimed as draws."),
        .notation = N_(
            "Moves in SAN: e4, Nf3, Bxc6, Qxd5, Nbd2. Pawn moves that are not ordinary pawn moves "
            "(Scouting, steps sideways or back, Shadow Nexus bishop moves) are written long: "
            "Pd2-f4, "
            "Pc8xd7. Specials: Hide, Transcend, Assault e3 (the bishop's square), Search a3, "
            "Respawn d1, N@b8 (a rescued knight enters), Rescue Nb1 (the Paradigm's choice of "
            "knight), Skip (decline an offered special or the knights' moves after Transcend). "
            "Also accepted: e2e4, d2f4, nf3, hide, search a3, and + # ! ? marks."),
        .examples = "e4, Nf3, Bxc6, Qxd5, Pd2-f4, Hide or Search a3",
        // The queen is the Ghost: a sheet ghost, crowned as its side's chief.
        .art = {{.kind = PieceKind::Queen, .art = &giveaway::ghost_art(true)}},
    };
    return info;
}

using ghost::special_word;
using Said = std::variant<std::string, Phrase>; // what a phrase's argument may be

// "Nb1", "Nb1 or Nc3", "N@b8, N@d8 or N@f8": the last joined by a word of the reader's language.
Said join(const std::vector<std::string>& texts) {
    if (texts.size() < 2)
        return texts.empty() ? std::string() : texts.front();
    std::string some;
    for (std::size_t i = 0; i + 1 < texts.size(); ++i)
        some += (i == 0 ? "" : ", ") + texts[i];
    return phrase(N_("{some} or {last}"), {{"some", some}, {"last", texts.back()}});
}

// The two seats by their names here, words of the catalogs.
Phrase seat_word(const VariantInfo& info, Seat s) {
    return Phrase{"seat", info.seat_names[index(s)], {}};
}

Phrase not_possible(const std::string& text, Phrase why) {
    return phrase(N_("{move} is not possible: {why}"), {{"move", text}, {"why", std::move(why)}});
}

RuleError game_over(const Outcome& outcome) {
    return make_error(ErrorKind::GameOver,
                      phrase(N_("the game is over ({reason})"),
                             {{"reason", Phrase{"reason", outcome.reason, {}}}}));
}

bool fits(const ActionSyntax& syntax, const Action& a) {
    return a.kind == ActionKind::Move && a.to == syntax.to &&
           (syntax.piece == PieceKind::None || syntax.piece == a.piece) &&
           (syntax.from_file < 0 || syntax.from_file == a.from.file) &&
           (syntax.from_rank < 0 || syntax.from_rank == a.from.rank);
}

class GhostGame final : public Game {
public:
    explicit GhostGame(Options options)
        : options_(std::move(options)), state_(ghost::start_state()) {}

    // Every reason `fen` is no Ghost Chess position; empty when it was read.
    std::vector<std::string> load(std::string_view fen) {
        auto setup = read_fen(fen, ghost::fen_shape);
        if (!setup)
            return {setup.error().message};
        auto read = ghost::state_from_setup(*setup);
        if (!read)
            return read.reasons();
        state_ = std::move(read).value();
        if (state_.phase == Phase::Move && state_.turn == Seat::White &&
            ghost::legal_actions(state_).empty()) {
            state_.outcome = Outcome{Status::BlackWins, "the Paradigm cannot move"};
            state_.phase = Phase::Over;
        }
        return {};
    }

    std::unique_ptr<Game> clone() const override { return std::make_unique<GhostGame>(*this); }
    bool assign(const Game& other) override { return assign_as(*this, other); }
    const VariantInfo& info() const override { return ghost_info(); }
    const Options& options() const override { return options_; }

    std::vector<Decision> pending() const override {
        if (state_.phase == Phase::Over)
            return {};
        return {Decision{ghost::decider(state_), what(), what_phrase()}};
    }

    std::vector<NotatedAction> notated_actions(Seat seat) const override {
        if (state_.phase == Phase::Over || seat != ghost::decider(state_))
            return {};
        const std::vector<Action> list = ghost::legal_actions(state_);
        const std::vector<std::string> texts = ghost::notate(state_, list);
        std::vector<NotatedAction> out;
        out.reserve(list.size());
        for (std::size_t i = 0; i < list.size(); ++i)
            out.push_back(NotatedAction{list[i], texts[i]});
        return out;
    }

    std::vector<Action> legal_actions(Seat seat) const override {
        if (state_.phase == Phase::Over || seat != ghost::decider(state_))
            return {};
        return ghost::legal_actions(state_);
    }

    Result<std::vector<Event>> apply(Seat seat, const Action& action, RandomSource&) override {
        if (state_.phase == Phase::Over)
            return game_over(state_.outcome);
        const Seat who = ghost::decider(state_);
        if (seat != who)
            return not_your_decision(who);
        const std::vector<Action> list = ghost::legal_actions(state_);
        if (std::find(list.begin(), list.end(), action) == list.end())
            return make_error(
                ErrorKind::Illegal,
                phrase(N_("that action is not possible now: {what}"), {{"what", what_phrase()}}));
        std::vector<Event> events;
        const std::string text = ghost::action_text(state_, action, list);
        events.push_back(public_event(EventKind::Moved, text));
        if (action.kind == ActionKind::Move && action.to.valid() &&
            state_.board[static_cast<std::size_t>(chess::from_square(action.to))].kind !=
                PieceKind::None)
            events.push_back(public_event(EventKind::Captured, text));
        ghost::play(state_, action, &events);
        check_consistent(*this);
        return events;
    }

    // apply() without the texts of the action and its events.
    bool apply_silently(Seat seat, const Action& action, RandomSource&) override {
        if (state_.phase == Phase::Over || seat != ghost::decider(state_))
            return false;
        const std::vector<Action> list = ghost::legal_actions(state_);
        if (std::find(list.begin(), list.end(), action) == list.end())
            return false;
        ghost::play(state_, action, nullptr);
        check_consistent(*this);
        return true;
    }

    bool is_consistent() const override { return ghost::is_consistent(state_); }

    Outcome outcome() const override { return state_.outcome; }
    // Both sides could always still win while the game is under way: the Ghost (a queen) can
    // take every Paradigm piece if he walks them into her, and she can always Transcend, which
    // wins for him while a piece of his stands out of her reach. So a timeout is always a loss.
    // docs/variants/ghost.md, "Could win".
    bool could_win(Seat) const override { return state_.phase != Phase::Over; }

    std::optional<std::string> claimable_draw() const override {
        if (state_.phase != Phase::Move)
            return std::nullopt;
        if (state_.halfmove >= 100)
            return "50-move rule";
        if (ghost::repetitions(state_) >= 2)
            return "threefold repetition";
        return std::nullopt;
    }

    PublicView public_view() const override { return make_public(board()); }
    // Nothing is hidden in Ghost Chess: a seat sees what everyone sees.
    SeatView seat_view(Seat seat) const override { return make_private(seat, board()); }
    void final_board(BoardView& into) const override { board_into(into, true); }
    void seat_board(Seat, BoardView& into) const override { board_into(into, true); }

    RuleError explain_illegal(Seat seat, const ActionSyntax& syntax,
                              std::string_view text) const override;
    std::optional<RuleError> explain_special(Seat seat, std::string_view text) const override;
    std::optional<Result<NotatedAction>> read_own_form(Seat seat,
                                                       std::string_view text) const override;

    std::uint64_t perft(int depth) const override { return ghost::perft(state_, depth); }
    std::string fen() const override { return ghost::write_fen(state_); }
    int ply() const override { return state_.plies; }

private:
    std::string what() const { return what_phrase().english(); }
    // The decision asked now, in words ("place the rescued knight: N@b8 or N@d8").
    Phrase what_phrase() const;
    BoardView board() const;
    // board() written over `v`; with `plain`, the notes written straight as English (no
    // note_phrases), for a search that reads them at every position.
    void board_into(BoardView& v, bool plain) const;
    // The notes of board() as plain English, appended to `notes`.
    void plain_notes(std::vector<std::string>& notes) const;
    RuleError not_your_decision(Seat who) const {
        return make_error(ErrorKind::NotYourTurn,
                          phrase(N_("it is the {seat}'s decision now: {what}"),
                                 {{"seat", seat_word(info(), who)}, {"what", what_phrase()}}));
    }

    Options options_;
    State state_;
};

Phrase GhostGame::what_phrase() const {
    const State& s = state_;
    if (s.phase == Phase::Move) // asked at every position a search visits: no texts written
        return Phrase{"decision", s.turn == Seat::White ? "move" : "move, Hide or Transcend", {}};
    std::vector<std::string> texts;
    for (const auto& a : notated_actions(ghost::decider(s)))
        if (a.action.kind != ActionKind::Pass)
            texts.push_back(a.text);
    switch (s.phase) {
    case Phase::Move:
        break;
    case Phase::RescuePlace:
        return phrase(N_("place the rescued knight: {choices}"), {{"choices", join(texts)}});
    case Phase::RescueOffer:
        return phrase(N_("exchange the captured {piece} for a knight ({choices}) or Skip"),
                      {{"piece", piece_word(s.captured)}, {"choices", join(texts)}});
    case Phase::KnightChoice:
        return phrase(N_("choose which knight is rescued: {choices}"), {{"choices", join(texts)}});
    case Phase::Reaction: {
        std::vector<std::string> respawn;
        bool nexus_move = false;
        for (const auto& a : notated_actions(Seat::White)) {
            if (a.action.special == ghost::RespawnCode)
                respawn.push_back(a.text);
            nexus_move = nexus_move || a.action.kind == ActionKind::Move;
        }
        // The phase is asked only while the Paradigm has one of the two to choose.
        const Phrase::Arg special{"special", special_word("Shadow Nexus move")};
        if (respawn.empty())
            return phrase(N_("make the {special} (a non-capturing move to a light square), or "
                             "Skip"),
                          {special});
        const Phrase::Arg choices{"choices", join(respawn)};
        if (!nexus_move)
            return phrase(N_("Respawn the captured pawn ({choices}), or Skip"), {choices});
        return phrase(N_("Respawn the captured pawn ({choices}), or make the {special} (a "
                         "non-capturing move to a light square), or Skip"),
                      {choices, special});
    }
    case Phase::SearchOffer:
        return phrase(
            N_("Search with the pawn on {square} now ({choices}) or Skip"),
            {{"square", chess::to_square(s.search_pawn).name()}, {"choices", join(texts)}});
    case Phase::TranscendKnights:
        return phrase(N_("move each knight once after the {special} ({choices}) or Skip"),
                      {{"special", special_word("Transcend")}, {"choices", join(texts)}});
    case Phase::Over:
        break;
    }
    return {};
}

BoardView GhostGame::board() const {
    BoardView v("ghost", 8, 8);
    board_into(v, false);
    return v;
}

void GhostGame::board_into(BoardView& v, bool plain) const {
    const State& s = state_;
    if (v.variant != "ghost")
        v.variant = "ghost";
    v.files = v.ranks = 8;
    v.cells.resize(64);
    for (chess::Sq x = 0; x < 64; ++x) {
        Cell& cell = v.at(chess::to_square(x));
        cell.figures.clear();
        cell.tint = Tint::Chequer;
        const Piece p = s.board[static_cast<std::size_t>(x)];
        if (p.kind != PieceKind::None)
            cell.figures.push_back(Figure{p, FigureStyle::Living});
    }
    v.last_from = s.last_from;
    v.last_to = s.last_to;
    v.check = Square{};
    v.deciding.clear();
    if (s.phase != Phase::Over)
        v.deciding.push_back(ghost::decider(s));
    v.ply = s.plies;
    v.move_number = s.fullmove;
    v.notes.clear();
    v.note_phrases.clear();
    if (plain) {
        plain_notes(v.notes);
        return;
    }
    // TRANSLATORS: the Paradigm's Nexus under the board, as in "Paradigm: Full Nexus."
    v.note(phrase(N_("{seat}: {nexus}."),
                  {{"seat", seat_word(info(), Seat::White)}, {"nexus", ghost::nexus_phrase(s)}}));
    auto list = [&](chess::Bitboard b) {
        std::string t;
        while (b) {
            const chess::Sq x = chess::pop_lsb(b);
            t += (t.empty() ? "" : " ") +
                 std::string(1, piece_letter(s.board[static_cast<std::size_t>(x)].kind)) +
                 chess::to_square(x).name();
        }
        return t;
    };
    // A protection names pieces, not squares: a knight that moved away after a Transcend takes
    // nothing with it, and once the game is over nothing is protected any more.
    const chess::Bitboard standing = s.phase == Phase::Over ? 0 : s.black;
    std::optional<Phrase> safe;
    for (auto [b, why] :
         {std::pair{s.shadow, "Shadow"}, std::pair{s.haunt, "Haunt"}, std::pair{s.hidden, "Hide"}})
        if (b & standing) {
            // TRANSLATORS: pieces that cannot be captured, and why, as in "Qc5 (Shadow)".
            Phrase one = phrase(N_("{pieces} ({special})"),
                                {{"pieces", list(b & standing)}, {"special", special_word(why)}});
            // TRANSLATORS: the items of a list, as in "Qc5 (Shadow), Nb4 Nd6 (Haunt)".
            safe =
                safe ? phrase(N_("{first}, {second}"), {{"first", *safe}, {"second", one}}) : one;
        }
    if (safe)
        v.note(phrase(N_("Cannot be captured this turn: {pieces}."), {{"pieces", *safe}}));
    if (s.locked >= 0)
        v.note(phrase(N_("Cannot move this turn ({special}): {pieces}."),
                      {{"special", special_word("Shadow Nexus move")},
                       {"pieces", list(chess::bb(s.locked))}}));
    if (s.knights_lost > 0)
        v.note(phrase(N_("Rescued knights lost: {count} of 2."),
                      {{"count", std::to_string(s.knights_lost)}}));
}

void GhostGame::plain_notes(std::vector<std::string>& notes) const {
    const State& s = state_;
    std::string nexus = s.full_nexus             ? "Full Nexus"
                        : ghost::bishops_home(s) ? "Half Nexus"
                                                 : "no Nexus";
    if (ghost::shadow_nexus(s))
        nexus += " and Shadow Nexus";
    notes.push_back(std::string(info().seat_names[index(Seat::White)]) + ": " + nexus + ".");
    auto list = [&](chess::Bitboard b, std::string& t) {
        bool first = true;
        while (b) {
            const chess::Sq x = chess::pop_lsb(b);
            if (!first)
                t += ' ';
            first = false;
            t += piece_letter(s.board[static_cast<std::size_t>(x)].kind);
            t += chess::to_square(x).name();
        }
    };
    const chess::Bitboard standing = s.phase == Phase::Over ? 0 : s.black;
    std::string safe;
    for (auto [b, why] :
         {std::pair{s.shadow, "Shadow"}, std::pair{s.haunt, "Haunt"}, std::pair{s.hidden, "Hide"}})
        if (b & standing) {
            if (!safe.empty())
                safe += ", ";
            list(b & standing, safe);
            (safe += " (") += why;
            safe += ')';
        }
    if (!safe.empty())
        notes.push_back("Cannot be captured this turn: " + safe + ".");
    if (s.locked >= 0) {
        std::string pieces;
        list(chess::bb(s.locked), pieces);
        notes.push_back("Cannot move this turn (Shadow Nexus move): " + pieces + ".");
    }
    if (s.knights_lost > 0)
        notes.push_back("Rescued knights lost: " + std::to_string(s.knights_lost) + " of 2.");
}

RuleError GhostGame::explain_illegal(Seat seat, const ActionSyntax& syntax,
                                     std::string_view raw) const {
    const State& s = state_;
    const std::string t(raw);
    auto illegal = [&](Phrase why) {
        return make_error(ErrorKind::Illegal, not_possible(t, std::move(why)));
    };
    const Phrase::Arg variant{"variant", Phrase{"variant", info().title, {}}};
    if (s.phase != Phase::Move)
        // TRANSLATORS: a decision that comes before any move, as in "Nf3 is not possible: first
        // place the rescued knight: N@b8 or N@d8".
        return illegal(phrase(N_("first {what}"), {{"what", what_phrase()}}));
    if (syntax.castle != 0)
        return illegal(
            phrase(N_("there is no castling in {variant} (neither side has a king)"), {variant}));
    if (syntax.drop)
        return illegal(
            phrase(N_("a piece enters the board only by {rescue} (N@b8) or {respawn} "
                      "(Respawn d1), when they are offered"),
                   {{"rescue", special_word("Rescue")}, {"respawn", special_word("Respawn")}}));
    if (syntax.promotion != PieceKind::None)
        return illegal(phrase(N_("pawns do not promote in {variant}; a pawn on rank 8 may Search "
                                 "instead (Search a3)"),
                              {variant}));
    const chess::Sq to = chess::from_square(syntax.to);
    auto reachable = [&](const ghost::Relax& relax) {
        std::vector<Action> found;
        for (const Action& a : ghost::moves_for(s, seat, relax))
            if (fits(syntax, a))
                found.push_back(a);
        return found;
    };
    const bool now = !reachable({}).empty();
    if (!now && seat == Seat::White) {
        if (!reachable({.immunity = true}).empty()) {
            const Piece p = s.board[static_cast<std::size_t>(to)];
            const Phrase::Arg square{"square", syntax.to.name()};
            const Phrase::Arg at{"piece", p.kind == PieceKind::Queen
                                              ? phrase(N_("the Ghost on {square}"), {square})
                                              : phrase(N_("the {piece} on {square}"),
                                                       {{"piece", piece_word(p.kind)}, square})};
            if (s.shadow & chess::bb(to))
                return illegal(
                    phrase(N_("{piece} is in {special} and cannot be captured this turn"),
                           {at, {"special", special_word("Shadow")}}));
            if (s.haunt & chess::bb(to))
                return illegal(phrase(N_("{piece} Haunts (flanking the Ghost diagonally) and "
                                         "cannot be captured this turn"),
                                      {at}));
            return illegal(phrase(N_("{piece} is hidden ({special}) and cannot be captured this "
                                     "turn"),
                                  {at, {"special", special_word("Hide")}}));
        }
        if (!reachable({.lock = true}).empty())
            return illegal(
                phrase(N_("the {piece} on {square} made the {special} and cannot move this turn"),
                       {{"piece", piece_word(s.board[static_cast<std::size_t>(s.locked)].kind)},
                        {"square", chess::to_square(s.locked).name()},
                        {"special", special_word("Shadow Nexus move")}}));
        if (!reachable({.pawn_steps = true}).empty())
            return illegal(phrase(
                N_("a pawn steps sideways or back only once the Paradigm has lost both knights")));
        for (const Action& a : reachable({.modes = true})) {
            if (a.special == ghost::Scouting)
                return illegal(phrase(
                    N_("{special} (the d2 and e2 pawns moving as bishops) needs the {nexus}"),
                    {{"special", special_word("Scouting")},
                     {"nexus", Phrase{"nexus", "Full Nexus", {}}}}));
            if (a.special == ghost::NexusBishop)
                return illegal(phrase(N_("the pieces on c8 and f8 move as bishops only in a "
                                         "{nexus}"),
                                      {{"nexus", Phrase{"nexus", "Shadow Nexus", {}}}}));
        }
    }
    if (!now && seat == Seat::White && syntax.piece == PieceKind::Pawn && to >= 24 && to < 32) {
        const chess::Sq from = to - 16;
        if (s.board[static_cast<std::size_t>(from)] == Piece{PieceKind::Pawn, Seat::White} &&
            !(s.home_pawns & chess::bb(from)) &&
            !(s.occupied() & (chess::bb(from + 8) | chess::bb(to))) &&
            (syntax.from_file < 0 || syntax.from_file == chess::file_of(from)))
            return illegal(phrase(N_("the pawn on {square} has left rank 2 before, and only a "
                                     "pawn that never left it steps two squares"),
                                  {{"square", chess::to_square(from).name()}}));
    }
    if (!now && seat == Seat::Black && !reachable({.home_row = true}).empty())
        return illegal(phrase(N_("in a {nexus} the Ghost's side enters her home row only to "
                                 "capture"),
                              {{"nexus", Phrase{"nexus", "Shadow Nexus", {}}}}));
    const Piece target = s.board[static_cast<std::size_t>(to)];
    if (target.kind != PieceKind::None && target.seat == seat)
        return illegal(phrase(N_("your own {piece} stands on {square}"),
                              {{"piece", piece_word(target.kind)}, {"square", syntax.to.name()}}));
    if (syntax.piece == PieceKind::King ||
        (syntax.piece == PieceKind::Queen && seat == Seat::White))
        return illegal(phrase(
            N_("the Paradigm has no {piece}"),
            {{"piece",
              piece_word(syntax.piece == PieceKind::King ? PieceKind::King : PieceKind::Queen)}}));
    if (seat == Seat::Black && syntax.piece != PieceKind::None &&
        syntax.piece != PieceKind::Queen && syntax.piece != PieceKind::Knight)
        return illegal(
            phrase(N_("the Ghost's side has only the Ghost (Q) and rescued knights (N)")));
    return Game::explain_illegal(seat, syntax, raw);
}

// Spellings players type for triggered decisions: a rescued knight's entry written as a move
// (Nf8 for N@f8) when the decision has no move to confuse it with, and a Respawn written as a
// pawn's entry (P@d1 for Respawn d1). nullopt when the text is neither, or names nothing legal.
std::optional<Result<NotatedAction>> GhostGame::read_own_form(Seat seat,
                                                              std::string_view text) const {
    const auto parts = parse_syntax(text);
    if (!parts || parts->castle != 0)
        return std::nullopt;
    const std::vector<NotatedAction> list = notated_actions(seat);
    const bool moves = std::any_of(list.begin(), list.end(), [](const NotatedAction& a) {
        return a.action.kind == ActionKind::Move;
    });
    std::vector<const NotatedAction*> found;
    for (const auto& a : list) {
        if (a.action.to != parts->to)
            continue;
        const bool respawn = parts->drop && parts->piece == PieceKind::Pawn &&
                             a.action.kind == ActionKind::Special &&
                             a.action.special == ghost::RespawnCode;
        const bool entry = !parts->drop && !moves && parts->piece == PieceKind::Knight &&
                           parts->from_file < 0 && parts->from_rank < 0 &&
                           a.action.kind == ActionKind::Drop && a.action.piece == PieceKind::Knight;
        if (respawn || entry)
            found.push_back(&a);
    }
    if (found.size() != 1)
        return std::nullopt;
    return Result<NotatedAction>(*found.front());
}

std::optional<RuleError> GhostGame::explain_special(Seat seat, std::string_view raw) const {
    const State& s = state_;
    const std::string t = strip_annotations(raw);
    std::string word;
    for (char c : t) {
        if (!std::isalpha(static_cast<unsigned char>(c)))
            break;
        word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    static const std::vector<std::pair<std::string, Seat>> specials = {
        {"hide", Seat::Black},   {"transcend", Seat::Black}, {"assault", Seat::White},
        {"search", Seat::White}, {"respawn", Seat::White},   {"rescue", Seat::White},
        {"skip", Seat::White}};
    auto known = std::find_if(specials.begin(), specials.end(),
                              [&](const auto& k) { return k.first == word; });
    if (known == specials.end())
        return std::nullopt;
    // Only text shaped like the special is answered: "hide and seek" is chatter.
    std::string rest;
    for (char c : t.substr(word.size()))
        if (c != ' ' && c != '-')
            rest += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    static const std::regex square(R"(^n?[a-h][1-8]$)");
    const bool bare = word == "hide" || word == "transcend" || word == "skip";
    if (bare ? !rest.empty() : !std::regex_match(rest, square))
        return std::nullopt;
    auto illegal = [&](Phrase why) {
        return make_error(ErrorKind::Illegal, not_possible(t, std::move(why)));
    };
    std::string title = word;
    title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
    // The special's name as a word of the catalogs; Skip is no special but what is typed.
    const Phrase::Arg special{"special",
                              word == "skip" ? Said(title) : Said(special_word(title.c_str()))};
    if (s.phase == Phase::Over)
        return game_over(s.outcome);
    const Seat who = ghost::decider(s);
    if (word != "skip" && seat != known->second)
        return illegal(phrase(N_("{special} is a special move of the {seat}, not of the {other}"),
                              {special,
                               {"seat", seat_word(info(), known->second)},
                               {"other", seat_word(info(), seat)}}));
    if (seat != who)
        return not_your_decision(who);
    // The same special with another square: name the ones open now.
    std::vector<std::string> same;
    for (const auto& a : notated_actions(seat)) {
        std::string w;
        for (char c : a.text) {
            if (!std::isalpha(static_cast<unsigned char>(c)))
                break;
            w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        if (w == word)
            same.push_back(a.text);
    }
    std::sort(same.begin(), same.end());
    if (!same.empty())
        return illegal(
            phrase(N_("{special} now is {choices}"), {special, {"choices", join(same)}}));
    if (s.phase != Phase::Move)
        return illegal(phrase(N_("first {what}"), {{"what", what_phrase()}}));
    if (word == "assault")
        return illegal(
            s.full_nexus
                ? phrase(N_("the block of six cannot land there: every square it moves to must be "
                            "empty"))
                : phrase(N_("{special} needs the {nexus} (the twelve pieces of a1-c2 and f1-h2 "
                            "never moved), and there is one {special} per game"),
                         {special, {"nexus", Phrase{"nexus", "Full Nexus", {}}}}));
    if (word == "search") {
        if ((s.of(Seat::White, PieceKind::Pawn) & ghost::rank_8) == 0)
            return illegal(
                phrase(N_("{special} needs a pawn of the Paradigm on rank 8"), {special}));
        return illegal(
            phrase(N_("a pawn on rank 8 goes back only to a free light square of its file")));
    }
    if (word == "respawn")
        return illegal(phrase(N_("{special} is offered only right after the Ghost's side captures "
                                 "a pawn, while both bishops stand on c1 and f1"),
                              {special}));
    if (word == "rescue")
        return illegal(phrase(N_("{special} names the Paradigm's knight that changes sides when "
                                 "the Ghost exchanges a captured rook or bishop; nothing is being "
                                 "exchanged now"),
                              {special}));
    if (word == "skip")
        return illegal(phrase(N_("there is no offered special to decline now")));
    // Hide and Transcend are always open to the Ghost in her turn while she stands.
    return illegal(phrase(N_("the Ghost has transcended already")));
}

} // namespace

const Variant& ghost_variant() {
    static const VariantOf<GhostGame, ghost_info> v;
    return v;
}

} // namespace ghostpost::rules
