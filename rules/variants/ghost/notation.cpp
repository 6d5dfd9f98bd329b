// Canonical texts of Ghost Chess actions and the FEN dialect. Moves are SAN; a pawn move that is
// not an ordinary pawn move (Scouting, a step sideways or back, a Shadow Nexus bishop move) is
// written long, with its letter: Pd2-f4. Specials are words: Hide, Transcend, Search a3,
// Respawn d1, Assault e3, N@b8 (a rescued knight enters), Rescue Nb1, Skip.
#include "ghost.h"

#include <algorithm>
#include <charconv>
#include <sstream>

namespace ghostpost::rules::ghost {

using chess::bb;
using chess::make_sq;
using chess::to_square;

namespace {

std::string san(const State& s, const Action& a, const std::vector<Action>& list) {
    const Piece target = s.board[static_cast<std::size_t>(make_sq(a.to.file, a.to.rank))];
    const bool capture = target.kind != PieceKind::None;
    if (a.piece == PieceKind::Pawn) {
        const int df = a.to.file - a.from.file, dr = a.to.rank - a.from.rank;
        if (a.special == Ordinary && df == 0 && dr > 0 && !capture)
            return a.to.name();
        if (a.special == Ordinary && capture && (df == 1 || df == -1) && dr == 1)
            return std::string(1, static_cast<char>('a' + a.from.file)) + "x" + a.to.name();
        return "P" + a.from.name() + (capture ? "x" : "-") + a.to.name();
    }
    bool others = false, same_file = false, same_rank = false;
    for (const Action& b : list) {
        if (b.kind != ActionKind::Move || b.piece != a.piece || b.to != a.to || b.from == a.from)
            continue;
        others = true;
        same_file = same_file || b.from.file == a.from.file;
        same_rank = same_rank || b.from.rank == a.from.rank;
    }
    std::string out(1, piece_letter(a.piece));
    if (others) {
        if (!same_file)
            out += static_cast<char>('a' + a.from.file);
        else if (!same_rank)
            out += static_cast<char>('1' + a.from.rank);
        else
            out += a.from.name();
    }
    return out + (capture ? "x" : "") + a.to.name();
}

std::vector<std::string> split(std::string_view text, char sep) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : text) {
        if (c == sep) {
            if (!cur.empty() || sep != ' ')
                out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty())
        out.push_back(cur);
    return out;
}

bool read_number(const std::string& text, int& out) {
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size() && out >= 0 && out <= 10000;
}

// The triggered decisions a FEN may leave pending, written after the side and a colon as
// <decider>-<word>,<facts> (docs/variants/ghost.md, "FEN dialect"). The decider is written out
// although the word implies it: the reader sees who is asked without knowing the words.
struct PendingWord {
    const char* word;
    Phase phase;
    Seat decider;
};
constexpr PendingWord pending_words[] = {
    {"Place", Phase::RescuePlace, Seat::Black},   {"Exchange", Phase::RescueOffer, Seat::Black},
    {"Choose", Phase::KnightChoice, Seat::White}, {"Reaction", Phase::Reaction, Seat::White},
    {"Search", Phase::SearchOffer, Seat::White},  {"Knights", Phase::TranscendKnights, Seat::Black},
};

char seat_letter(Seat s) {
    return s == Seat::White ? 'w' : 'b';
}

std::string seat_owner(Seat s) {
    return s == Seat::White ? "the Paradigm's" : "the Ghost's";
}

// The pending decision's text, with its colon; empty at the start of a turn.
std::string write_pending(const State& s) {
    if (s.phase == Phase::Move)
        return {};
    // Only a Transcend takes the Ghost off the board, and it ends the game.
    if (s.phase == Phase::Over)
        return s.ghost() < 0 ? ":Transcended" : "";
    const PendingWord* w = nullptr;
    for (const PendingWord& p : pending_words)
        if (p.phase == s.phase)
            w = &p;
    std::string out = std::string(":") + seat_letter(w->decider) + "-" + w->word;
    auto name = [](Sq x) { return x >= 0 ? to_square(x).name() : std::string("-"); };
    const std::string capture =
        ",x" + std::string(1, piece_letter(s.captured)) + name(s.captured_on);
    switch (s.phase) {
    case Phase::RescuePlace:
        return out + capture;
    case Phase::RescueOffer:
        return out + capture + "," + name(s.captured_origin) +
               (s.nexus_shadow_at_capture ? ",Nexus" : "");
    case Phase::KnightChoice:
        return out + capture + "," + name(s.captured_origin) + ",N@" + name(s.rescue_to);
    case Phase::Reaction:
        return out + capture + (s.nexus_shadow_at_capture ? ",Nexus" : "");
    case Phase::SearchOffer:
        return out + "," + name(s.search_pawn);
    case Phase::TranscendKnights: {
        Bitboard moved = s.moved_knights;
        while (moved)
            out += "," + name(chess::pop_lsb(moved));
        return out;
    }
    case Phase::Move:
    case Phase::Over:
        break;
    }
    return out;
}

// Reads the pending decision `text` (after the side's colon) into `out`, whose placement and
// other fields are read already; an error text when the decision could not be pending there.
std::string read_pending(State& out, const std::string& text) {
    const std::vector<std::string> parts = split(text, ',');
    const std::string head = parts.empty() ? std::string() : parts[0];
    const bool ghost_gone = out.of(Seat::Black, PieceKind::Queen) == 0;
    if (head == "Transcended") {
        if (parts.size() != 1)
            return "Transcended stands alone: nobody decides once the game is over";
        if (!ghost_gone)
            return "the Ghost is still on the board: she has not transcended";
        out.phase = Phase::Over;
        out.outcome =
            out.white == 0
                ? Outcome{Status::BlackWins, "the Ghost transcended and no Paradigm piece remains"}
                : Outcome{Status::WhiteWins, "the Ghost transcended and Paradigm pieces remain"};
        return {};
    }
    const bool named = head.size() > 2 && head[1] == '-';
    const std::string word = named ? head.substr(2) : head;
    const PendingWord* w = nullptr;
    for (const PendingWord& p : pending_words)
        if (word == p.word)
            w = &p;
    if (!w)
        return "the pending decision is Place, Exchange, Choose, Reaction, Search, Knights or "
               "Transcended, written after the side and a colon (b:w-Reaction,xPe5)";
    const std::string as_written = std::string(1, seat_letter(w->decider)) + "-" + w->word;
    if (!named)
        return "the pending decision names who decides: " + as_written;
    if (head[0] != seat_letter(w->decider))
        return word + " is " + seat_owner(w->decider) + " decision: write " + as_written;
    if (w->phase == Phase::TranscendKnights) {
        if (!ghost_gone)
            return "the Ghost is still on the board: she has not transcended";
        if (out.white == 0)
            return "no Paradigm piece remains: the game is over (b:Transcended)";
        for (std::size_t i = 1; i < parts.size(); ++i) {
            auto x = parse_square(parts[i]);
            const Bitboard at = x ? bb(make_sq(x->file, x->rank)) : 0;
            if (!(at & out.of(Seat::Black, PieceKind::Knight)))
                return "the knights that moved: no knight of the Ghost's side on " + parts[i];
            out.moved_knights |= at;
        }
        out.phase = Phase::TranscendKnights;
        out.special_used = true;
        out.irreversible = true;
        if (legal_actions(out).size() < 2) // Skip alone: the game would have ended
            return "no knight of the Ghost's side has a move left";
        return {};
    }
    // Every other decision is triggered in the turn of the side whose move triggered it.
    const Seat turn = w->phase == Phase::SearchOffer ? Seat::White : Seat::Black;
    if (out.turn != turn)
        return word + " is decided in " + seat_owner(turn) + " turn (" + seat_letter(turn) + ")";
    const Bitboard free = rescue_squares & ~out.occupied();
    out.phase = w->phase;
    out.irreversible = true; // each follows a capture or a pawn move
    if (w->phase == Phase::SearchOffer) {
        auto x = parts.size() == 2 ? parse_square(parts[1]) : std::nullopt;
        const Sq pawn = x ? make_sq(x->file, x->rank) : -1;
        if (pawn < 0 || !(bb(pawn) & rank_8 & out.of(Seat::White, PieceKind::Pawn)))
            return "Search at once names the Paradigm's pawn on rank 8, not " +
                   (parts.size() > 1 ? parts[1] : std::string("nothing"));
        if (pawn == out.locked)
            return "the pawn on " + parts[1] +
                   " is locked by the Shadow Nexus move: it did not just move";
        out.search_pawn = pawn;
        if (search_squares(out, pawn).empty())
            return "the pawn on " + parts[1] +
                   " has no free light square of its file to go back to";
        return {};
    }
    // The capture that triggered it: x, the piece taken and its square, where the capturer stands.
    const std::string capture = parts.size() > 1 ? parts[1] : std::string();
    const std::string letters = "PNBR";
    auto at = capture.size() == 4 ? parse_square(capture.substr(2)) : std::nullopt;
    if (!at || capture[0] != 'x' || letters.find(capture[1]) == std::string::npos)
        return "the capture is written x, the piece taken (P, N, B or R) and its square: xPe5";
    const PieceKind kinds[] = {PieceKind::Pawn, PieceKind::Knight, PieceKind::Bishop,
                               PieceKind::Rook};
    out.captured = kinds[letters.find(capture[1])];
    out.captured_on = make_sq(at->file, at->rank);
    const Piece by = out.board[static_cast<std::size_t>(out.captured_on)];
    if (by.kind == PieceKind::None || by.seat != Seat::Black)
        return "the capture on " + at->name() + ": nothing of the Ghost's side stands there";
    const bool by_ghost = by.kind == PieceKind::Queen;
    // Shadow: the Ghost's own capture on a dark square protects her in the Paradigm's next turn.
    out.ghost_took_on_dark = by_ghost && dark(out.captured_on);
    const bool nexus = parts.back() == "Nexus";
    out.nexus_shadow_at_capture = nexus;
    if (nexus && !by_ghost)
        return "the Shadow Nexus move follows only a capture by the Ghost herself";
    const bool exchange = w->phase == Phase::RescueOffer || w->phase == Phase::KnightChoice;
    if ((w->phase == Phase::RescuePlace || exchange) && !by_ghost)
        return std::string("only ") + (exchange ? "a rook or bishop" : "a knight") +
               " the Ghost takes herself is rescued";
    if (w->phase == Phase::RescuePlace) {
        if (parts.size() != 2 || out.captured != PieceKind::Knight)
            return "Place takes the capture of a knight: b:b-Place,xNc3";
        if (!chess::more_than_one(free))
            return "the rescued knight enters without a question unless two dark squares of rank 8 "
                   "are free";
        const int knights = chess::popcount(out.of(Seat::Black, PieceKind::Knight)) +
                            chess::popcount(out.of(Seat::White, PieceKind::Knight));
        if (knights + out.knights_lost + 1 > 2) // the rescued knight is off the board until placed
            return "there are only two knights in the game";
        return {};
    }
    if (w->phase == Phase::Reaction) {
        if (parts.size() != (nexus ? 3U : 2U))
            return "Reaction takes the capture and maybe Nexus: b:w-Reaction,xPe5,Nexus";
        if (by_ghost && out.captured == PieceKind::Knight && free != 0)
            return "a knight the Ghost takes is rescued first, and a Rescue leaves no Reaction";
        if (reaction_actions(out).empty())
            return "the Paradigm would have nothing to choose: no Respawn and no Shadow Nexus move";
        return {};
    }
    // Rescue by exchange: where the captured rook or bishop returns; a bishop keeps its colour.
    const bool choose = w->phase == Phase::KnightChoice;
    if (parts.size() != (choose || nexus ? 4U : 3U) || (choose && nexus) ||
        (out.captured != PieceKind::Rook && out.captured != PieceKind::Bishop))
        return word + " takes the capture of a rook or bishop and its start square: " + as_written +
               (choose ? std::string(",xRa3,a1,N@f8")
                       : ",xRa3,a1 or " + as_written + ",xRa3,a1,Nexus");
    auto origin = parse_square(parts[2]);
    out.captured_origin = origin ? make_sq(origin->file, origin->rank) : -1;
    const bool fits = out.captured == PieceKind::Rook
                          ? out.captured_origin == 0 || out.captured_origin == 7
                          : out.captured_origin == (dark(out.captured_on) ? sq_c1 : sq_f1);
    if (!fits)
        return "a captured rook returns to a1 or h1, a bishop to c1 (dark squares) or f1 (light)";
    const Bitboard knights = out.of(Seat::White, PieceKind::Knight);
    if (!choose) {
        if (knights == 0 || free == 0)
            return "the Ghost cannot exchange: the Paradigm has no knight or no dark square of "
                   "rank 8 is free";
        return {};
    }
    if (!chess::more_than_one(knights))
        return "the Paradigm chooses the knight only when he has two";
    auto to = parts[3].size() == 4 && parts[3].rfind("N@", 0) == 0
                  ? parse_square(parts[3].substr(2))
                  : std::nullopt;
    out.rescue_to = to ? make_sq(to->file, to->rank) : -1;
    if (out.rescue_to < 0 || !(bb(out.rescue_to) & free))
        return "the exchanged knight enters on a free dark square of rank 8 (N@b8, N@d8, N@f8 or "
               "N@h8)";
    return {};
}

} // namespace

std::string action_text(const State& s, const Action& a, const std::vector<Action>& list) {
    switch (a.kind) {
    case ActionKind::Move:
        return san(s, a, list);
    case ActionKind::Drop:
        return "N@" + a.to.name();
    case ActionKind::Pass:
        return a.special == HideCode ? "Hide" : "Skip";
    case ActionKind::Choice:
        return "Rescue N" + a.from.name();
    case ActionKind::Special:
        switch (a.special) {
        case AssaultCode:
            return "Assault " + a.to.name();
        case TranscendCode:
            return "Transcend";
        case SearchCode:
            return "Search " + a.to.name();
        case RespawnCode:
            return "Respawn " + a.to.name();
        default:
            break;
        }
    }
    return "?";
}

std::vector<std::string> notate(const State& s, const std::vector<Action>& list) {
    std::vector<std::string> out;
    out.reserve(list.size());
    for (const Action& a : list)
        out.push_back(action_text(s, a, list));
    return out;
}

std::string read_fen(State& s, std::string_view fen) {
    auto out = read_checked(fen, fen_shape, state_from_setup);
    if (!out)
        return out.first_reason();
    s = std::move(out).value();
    return {};
}

Checked<State> state_from_setup(const Setup& setup) {
    if (setup.files != 8 || setup.ranks != 8)
        return std::vector<std::string>{"the placement must have 8 ranks of 8 squares"};
    std::vector<std::string> reasons;
    auto tell = [&reasons](std::string why) { tell_once(reasons, std::move(why)); };
    // The fields as the dialect numbers them: placement, side, then the Setup's fields.
    std::vector<std::string> f{std::string(), std::string()};
    f.insert(f.end(), setup.fields.begin(), setup.fields.end());
    State out;
    out.origin.fill(-1);
    for (int r = 0; r < 8; ++r)
        for (int file = 0; file < 8; ++file) {
            const char c = setup.at(file, r);
            Piece p;
            switch (c) {
            case '\0':
                continue;
            case 'P':
                p = {PieceKind::Pawn, Seat::White};
                break;
            case 'N':
                p = {PieceKind::Knight, Seat::White};
                break;
            case 'B':
                p = {PieceKind::Bishop, Seat::White};
                break;
            case 'R':
                p = {PieceKind::Rook, Seat::White};
                break;
            case 'q':
                p = {PieceKind::Queen, Seat::Black};
                break;
            case 'n':
                p = {PieceKind::Knight, Seat::Black};
                break;
            default:
                tell(std::string("'") + c +
                     "' is no Ghost Chess piece (the Paradigm has P N B R, "
                     "the Ghost q and rescued knights n)");
                continue;
            }
            const chess::Sq x = make_sq(file, r);
            out.board[static_cast<std::size_t>(x)] = p;
            (p.seat == Seat::White ? out.white : out.black) |= bb(x);
        }
    out.turn = setup.side;
    // The Nexus field may name, after a colon, the pawns on rank 2 that left it before ("-:d2").
    const std::string nexus = f.size() > 2 ? f[2].substr(0, f[2].find(':')) : "-";
    const std::string back =
        f.size() > 2 && f[2].find(':') != std::string::npos ? f[2].substr(f[2].find(':') + 1) : "";
    out.full_nexus = nexus == "F";
    if (nexus != "F" && nexus != "-")
        tell("the Nexus field is F (Full Nexus intact) or -, then maybe :pawns back on rank 2");
    if (out.full_nexus) {
        const State start = start_state();
        for (chess::Sq x = 0; x < 64; ++x)
            if ((bb(x) & nexus_squares) &&
                out.board[static_cast<std::size_t>(x)] != start.board[static_cast<std::size_t>(x)])
                tell("Full Nexus needs the twelve Nexus pieces on their start squares");
    }
    auto squares_field = [&](std::size_t i, Bitboard& into, Bitboard allowed,
                             const char* what) -> std::string {
        if (f.size() <= i || f[i] == "-")
            return {};
        if (out.turn != Seat::White)
            return std::string(what) + " only while the Paradigm is to move";
        for (const std::string& name : split(f[i], ',')) {
            auto x = parse_square(name);
            if (!x || !(allowed & bb(make_sq(x->file, x->rank))))
                return std::string(what) + ": \"" + name +
                       "\" is not a square with a fitting piece";
            into |= bb(make_sq(x->file, x->rank));
        }
        return {};
    };
    if (auto e = squares_field(3, out.hidden, out.black, "immune pieces"); !e.empty())
        tell(e);
    Bitboard locked = 0;
    if (auto e = squares_field(4, locked, out.white, "a locked piece"); !e.empty())
        tell(e);
    if (chess::more_than_one(locked))
        tell("at most one piece is locked");
    out.locked = locked ? chess::lsb(locked) : -1;
    if (f.size() > 5 && (!read_number(f[5], out.knights_lost) || out.knights_lost > 1)) {
        tell("knights lost is 0 or 1 (the second lost knight ends the game)");
        out.knights_lost = 0;
    }
    if (f.size() > 6 && !read_number(f[6], out.halfmove))
        tell("the halfmove clock is a number");
    if (f.size() > 7 && (!read_number(f[7], out.fullmove) || out.fullmove < 1))
        tell("the move number is a number from 1");
    // Pawns on rank 2 have never left it unless the ninth field lists them (decision 7).
    out.home_pawns = out.of(Seat::White, PieceKind::Pawn) & 0xFF00ULL;
    if (!back.empty()) {
        for (const std::string& name : split(back, ',')) {
            auto x = parse_square(name);
            if (!x || !(out.home_pawns & bb(make_sq(x->file, x->rank)))) {
                tell("pawns back on rank 2: \"" + name +
                     "\" is not a pawn of the Paradigm on rank 2");
                continue;
            }
            out.home_pawns &= ~bb(make_sq(x->file, x->rank));
        }
    }
    // The pending decision is read against the rest of the state, so only once that was read.
    if (setup.side_note && reasons.empty())
        if (auto e = read_pending(out, *setup.side_note); !e.empty())
            tell(e);
    // Only a Transcend takes the Ghost off the board (and maybe the Paradigm's last piece).
    const bool transcended = out.phase == Phase::TranscendKnights || out.phase == Phase::Over;
    if (!transcended && chess::popcount(out.of(Seat::Black, PieceKind::Queen)) != 1)
        tell("the Ghost (q) must be on the board exactly once");
    if (out.white == 0 && out.phase != Phase::Over)
        tell("the Paradigm needs at least one piece");
    if (chess::popcount(out.of(Seat::Black, PieceKind::Knight)) +
            chess::popcount(out.of(Seat::White, PieceKind::Knight)) + out.knights_lost >
        2)
        tell("there are only two knights in the game");
    if (!reasons.empty())
        return reasons;
    // Where an exchanged rook or bishop returns: a bishop by its colour, a rook to its wing's
    // corner.
    bool rook_corner_taken[2] = {false, false};
    for (chess::Sq x = 0; x < 64; ++x) {
        const Piece p = out.board[static_cast<std::size_t>(x)];
        if (p == Piece{PieceKind::Bishop, Seat::White})
            out.origin[static_cast<std::size_t>(x)] =
                static_cast<std::int8_t>(dark(x) ? sq_c1 : sq_f1);
        if (p == Piece{PieceKind::Rook, Seat::White}) {
            int wing = chess::file_of(x) < 4 ? 0 : 1;
            if (rook_corner_taken[wing])
                wing = 1 - wing;
            rook_corner_taken[wing] = true;
            out.origin[static_cast<std::size_t>(x)] = static_cast<std::int8_t>(wing == 0 ? 0 : 7);
        }
    }
    out.keys.push_back(position_key(out));
    return out;
}

std::string write_fen(const State& s) {
    std::string out;
    for (int r = 7; r >= 0; --r) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const Piece p = s.board[static_cast<std::size_t>(make_sq(file, r))];
            if (p.kind == PieceKind::None) {
                ++empty;
                continue;
            }
            if (empty)
                out += static_cast<char>('0' + empty);
            empty = 0;
            const char c = piece_letter(p.kind);
            out += p.seat == Seat::White ? c : static_cast<char>(c - 'A' + 'a');
        }
        if (empty)
            out += static_cast<char>('0' + empty);
        if (r > 0)
            out += '/';
    }
    auto squares = [](Bitboard b) {
        std::string t;
        while (b)
            t += (t.empty() ? "" : ",") + to_square(chess::pop_lsb(b)).name();
        return t.empty() ? std::string("-") : t;
    };
    std::ostringstream o;
    // Pawns back on rank 2 are written only when there are any, after the Nexus flag.
    const Bitboard back = s.of(Seat::White, PieceKind::Pawn) & 0xFF00ULL & ~s.home_pawns;
    // Once the Ghost has transcended the Paradigm never moves again: nothing is protected or
    // locked any more (a protected knight may have moved off, a locked piece been taken).
    const bool ghost_gone = s.ghost() < 0;
    o << out << ' ' << (s.turn == Seat::White ? 'w' : 'b') << write_pending(s) << ' '
      << (s.full_nexus ? "F" : "-") << (back ? ":" + squares(back) : std::string()) << ' '
      << squares(ghost_gone ? 0 : immune_squares(s)) << ' '
      << (s.locked >= 0 && !ghost_gone ? to_square(s.locked).name() : "-") << ' ' << s.knights_lost
      << ' ' << s.halfmove << ' ' << s.fullmove;
    return o.str();
}

} // namespace ghostpost::rules::ghost
