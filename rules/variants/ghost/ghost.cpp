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
        .summary =
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
            "50 moves and threefold repetition may be claimed as draws.",
        .notation =
            "Moves in SAN: e4, Nf3, Bxc6, Qxd5, Nbd2. Pawn moves that are not ordinary pawn moves "
            "(Scouting, steps sideways or back, Shadow Nexus bishop moves) are written long: "
            "Pd2-f4, "
            "Pc8xd7. Specials: Hide, Transcend, Assault e3 (the bishop's square), Search a3, "
            "Respawn d1, N@b8 (a rescued knight enters), Rescue Nb1 (the Paradigm's choice of "
            "knight), Skip (decline an offered special or the knights' moves after Transcend). "
            "Also accepted: e2e4, d2f4, nf3, hide, search a3, and + # ! ? marks.",
        .examples = "e4, Nf3, Bxc6, Qxd5, Pd2-f4, Hide or Search a3",
        // The queen is the Ghost: a sheet ghost, crowned as its side's chief.
        .art = {{.kind = PieceKind::Queen, .art = &giveaway::ghost_art(true)}},
    };
    return info;
}

std::string kind_name(PieceKind k) {
    return std::string(piece_name(k));
}

std::string join(const std::vector<std::string>& texts) {
    std::string out;
    for (std::size_t i = 0; i < texts.size(); ++i)
        out += (i == 0 ? "" : i + 1 == texts.size() ? " or " : ", ") + texts[i];
    return out;
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
    const VariantInfo& info() const override { return ghost_info(); }
    const Options& options() const override { return options_; }

    std::vector<Decision> pending() const override {
        if (state_.phase == Phase::Over)
            return {};
        return {Decision{ghost::decider(state_), what()}};
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
            return make_error(ErrorKind::GameOver,
                              "the game is over (" + state_.outcome.reason + ")");
        const Seat who = ghost::decider(state_);
        if (seat != who)
            return make_error(ErrorKind::NotYourTurn, "it is the " + info().seat_names[index(who)] +
                                                          "'s decision now: " + what());
        const std::vector<Action> list = ghost::legal_actions(state_);
        if (std::find(list.begin(), list.end(), action) == list.end())
            return make_error(ErrorKind::Illegal, "that action is not possible now: " + what());
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

    RuleError explain_illegal(Seat seat, const ActionSyntax& syntax,
                              std::string_view text) const override;
    std::optional<RuleError> explain_special(Seat seat, std::string_view text) const override;
    std::optional<Result<NotatedAction>> read_own_form(Seat seat,
                                                       std::string_view text) const override;

    std::uint64_t perft(int depth) const override { return ghost::perft(state_, depth); }
    std::string fen() const override { return ghost::write_fen(state_); }
    int ply() const override { return state_.plies; }

private:
    std::string what() const;
    BoardView board() const;

    Options options_;
    State state_;
};

std::string GhostGame::what() const {
    const State& s = state_;
    if (s.phase == Phase::Move) // asked at every position a search visits: no texts written
        return s.turn == Seat::White ? "move" : "move, Hide or Transcend";
    std::vector<std::string> texts;
    for (const auto& a : notated_actions(ghost::decider(s)))
        if (a.action.kind != ActionKind::Pass)
            texts.push_back(a.text);
    switch (s.phase) {
    case Phase::Move:
        break;
    case Phase::RescuePlace:
        return "place the rescued knight: " + join(texts);
    case Phase::RescueOffer:
        return "exchange the captured " + kind_name(s.captured) + " for a knight (" + join(texts) +
               ") or Skip";
    case Phase::KnightChoice:
        return "choose which knight is rescued: " + join(texts);
    case Phase::Reaction: {
        std::vector<std::string> respawn;
        bool nexus_move = false;
        for (const auto& a : notated_actions(Seat::White)) {
            if (a.action.special == ghost::RespawnCode)
                respawn.push_back(a.text);
            nexus_move = nexus_move || a.action.kind == ActionKind::Move;
        }
        std::string out;
        if (!respawn.empty())
            out = "Respawn the captured pawn (" + join(respawn) + ")";
        if (nexus_move)
            out += std::string(out.empty() ? "make" : ", or make") +
                   " the Shadow Nexus move (a non-capturing move to a light square)";
        return out + ", or Skip";
    }
    case Phase::SearchOffer:
        return "Search with the pawn on " + chess::to_square(s.search_pawn).name() + " now (" +
               join(texts) + ") or Skip";
    case Phase::TranscendKnights:
        return "move each knight once after the Transcend (" + join(texts) + ") or Skip";
    case Phase::Over:
        break;
    }
    return {};
}

BoardView GhostGame::board() const {
    const State& s = state_;
    BoardView v("ghost", 8, 8);
    for (chess::Sq x = 0; x < 64; ++x) {
        const Piece p = s.board[static_cast<std::size_t>(x)];
        if (p.kind != PieceKind::None)
            v.at(chess::to_square(x)).figures.push_back(Figure{p, FigureStyle::Living});
    }
    v.last_from = s.last_from;
    v.last_to = s.last_to;
    if (s.phase != Phase::Over)
        v.deciding.push_back(ghost::decider(s));
    v.ply = s.plies;
    v.move_number = s.fullmove;
    v.notes.push_back("Paradigm: " + ghost::nexus_name(s) + ".");
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
    std::string safe;
    for (auto [b, why] :
         {std::pair{s.shadow, "Shadow"}, std::pair{s.haunt, "Haunt"}, std::pair{s.hidden, "Hide"}})
        if (b & standing)
            safe += (safe.empty() ? "" : ", ") + list(b & standing) + " (" + why + ")";
    if (!safe.empty())
        v.notes.push_back("Cannot be captured this turn: " + safe + ".");
    if (s.locked >= 0)
        v.notes.push_back(
            "Cannot move this turn (Shadow Nexus move): " + list(chess::bb(s.locked)) + ".");
    if (s.knights_lost > 0)
        v.notes.push_back("Rescued knights lost: " + std::to_string(s.knights_lost) + " of 2.");
    return v;
}

RuleError GhostGame::explain_illegal(Seat seat, const ActionSyntax& syntax,
                                     std::string_view raw) const {
    const State& s = state_;
    const std::string t(raw);
    auto illegal = [&](const std::string& why) {
        return make_error(ErrorKind::Illegal, t + " is not possible: " + why);
    };
    if (s.phase != Phase::Move)
        return illegal("first " + what());
    if (syntax.castle != 0)
        return illegal("there is no castling in Ghost Chess (neither side has a king)");
    if (syntax.drop)
        return illegal("a piece enters the board only by Rescue (N@b8) or Respawn (Respawn d1), "
                       "when they are offered");
    if (syntax.promotion != PieceKind::None)
        return illegal(
            "pawns do not promote in Ghost Chess; a pawn on rank 8 may Search instead (Search a3)");
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
            const std::string who =
                p.kind == PieceKind::Queen ? "the Ghost" : "the " + kind_name(p.kind);
            const std::string at = who + " on " + syntax.to.name();
            if (s.shadow & chess::bb(to))
                return illegal(at + " is in Shadow and cannot be captured this turn");
            if (s.haunt & chess::bb(to))
                return illegal(
                    at +
                    " Haunts (flanking the Ghost diagonally) and cannot be captured this turn");
            return illegal(at + " is hidden (Hide) and cannot be captured this turn");
        }
        if (!reachable({.lock = true}).empty())
            return illegal("the " + kind_name(s.board[static_cast<std::size_t>(s.locked)].kind) +
                           " on " + chess::to_square(s.locked).name() +
                           " made the Shadow Nexus move and cannot move this turn");
        if (!reachable({.pawn_steps = true}).empty())
            return illegal(
                "a pawn steps sideways or back only once the Paradigm has lost both knights");
        for (const Action& a : reachable({.modes = true})) {
            if (a.special == ghost::Scouting)
                return illegal(
                    "Scouting (the d2 and e2 pawns moving as bishops) needs the Full Nexus");
            if (a.special == ghost::NexusBishop)
                return illegal("the pieces on c8 and f8 move as bishops only in a Shadow Nexus");
        }
    }
    if (!now && seat == Seat::White && syntax.piece == PieceKind::Pawn && to >= 24 && to < 32) {
        const chess::Sq from = to - 16;
        if (s.board[static_cast<std::size_t>(from)] == Piece{PieceKind::Pawn, Seat::White} &&
            !(s.home_pawns & chess::bb(from)) &&
            !(s.occupied() & (chess::bb(from + 8) | chess::bb(to))) &&
            (syntax.from_file < 0 || syntax.from_file == chess::file_of(from)))
            return illegal(
                "the pawn on " + chess::to_square(from).name() +
                " has left rank 2 before, and only a pawn that never left it steps two squares");
    }
    if (!now && seat == Seat::Black && !reachable({.home_row = true}).empty())
        return illegal("in a Shadow Nexus the Ghost's side enters her home row only to capture");
    const Piece target = s.board[static_cast<std::size_t>(to)];
    if (target.kind != PieceKind::None && target.seat == seat)
        return illegal("your own " + kind_name(target.kind) + " stands on " + syntax.to.name());
    if (syntax.piece == PieceKind::King ||
        (syntax.piece == PieceKind::Queen && seat == Seat::White))
        return illegal(std::string("the Paradigm has no ") +
                       (syntax.piece == PieceKind::King ? "king" : "queen"));
    if (seat == Seat::Black && syntax.piece != PieceKind::None &&
        syntax.piece != PieceKind::Queen && syntax.piece != PieceKind::Knight)
        return illegal("the Ghost's side has only the Ghost (Q) and rescued knights (N)");
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
    auto illegal = [&](const std::string& why) {
        return make_error(ErrorKind::Illegal, t + " is not possible: " + why);
    };
    std::string title = word;
    title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
    if (s.phase == Phase::Over)
        return make_error(ErrorKind::GameOver, "the game is over (" + s.outcome.reason + ")");
    const Seat who = ghost::decider(s);
    if (word != "skip" && seat != known->second)
        return illegal(title + " is a special move of the " +
                       info().seat_names[index(known->second)] + ", not of the " +
                       info().seat_names[index(seat)]);
    if (seat != who)
        return make_error(ErrorKind::NotYourTurn, "it is the " + info().seat_names[index(who)] +
                                                      "'s decision now: " + what());
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
        return illegal(title + " now is " + join(same));
    if (s.phase != Phase::Move)
        return illegal("first " + what());
    if (word == "assault")
        return illegal(
            s.full_nexus
                ? "the block of six cannot land there: every square it moves to must be empty"
                : "Assault needs the Full Nexus (the twelve pieces of a1-c2 and f1-h2 never "
                  "moved), and there is one Assault per game");
    if (word == "search") {
        if ((s.of(Seat::White, PieceKind::Pawn) & ghost::rank_8) == 0)
            return illegal("Search needs a pawn of the Paradigm on rank 8");
        return illegal("a pawn on rank 8 goes back only to a free light square of its file");
    }
    if (word == "respawn")
        return illegal(
            "Respawn is offered only right after the Ghost's side captures a pawn, while both "
            "bishops stand on c1 and f1");
    if (word == "rescue")
        return illegal(
            "Rescue names the Paradigm's knight that changes sides when the Ghost exchanges a "
            "captured rook or bishop; nothing is being exchanged now");
    if (word == "skip")
        return illegal("there is no offered special to decline now");
    // Hide and Transcend are always open to the Ghost in her turn while she stands.
    return illegal("the Ghost has transcended already");
}

} // namespace

const Variant& ghost_variant() {
    static const VariantOf<GhostGame, ghost_info> v;
    return v;
}

} // namespace ghostpost::rules
