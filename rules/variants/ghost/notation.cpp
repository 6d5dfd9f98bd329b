// Canonical texts of Ghost Chess actions and the FEN dialect. Moves are SAN; a pawn move that is
// not an ordinary pawn move (Scouting, a step sideways or back, a Shadow Nexus bishop move) is
// written long, with its letter: Pd2-f4. Specials are words: Hide, Transcend, Search a3,
// Respawn d1, Assault e3, N@b8 (a rescued knight enters), Rescue Nb1, Skip.
#include "ghost.h"

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

} // namespace

std::string action_text(const State& s, const Action& a, const std::vector<Action>& list) {
    switch (a.kind) {
    case ActionKind::Move: return san(s, a, list);
    case ActionKind::Drop: return "N@" + a.to.name();
    case ActionKind::Pass: return a.special == HideCode ? "Hide" : "Skip";
    case ActionKind::Choice: return "Rescue N" + a.from.name();
    case ActionKind::Special:
        switch (a.special) {
        case AssaultCode: return "Assault " + a.to.name();
        case TranscendCode: return "Transcend";
        case SearchCode: return "Search " + a.to.name();
        case RespawnCode: return "Respawn " + a.to.name();
        default: break;
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
    const std::vector<std::string> f = split(fen, ' ');
    if (f.size() < 2 || f.size() > 8)
        return "expected 2 to 8 fields: placement, side, Nexus, immune, locked, knights lost, "
               "halfmove clock, move number";
    State out;
    out.origin.fill(-1);
    const std::vector<std::string> ranks = split(f[0], '/');
    if (ranks.size() != 8)
        return "the placement needs 8 ranks";
    for (int r = 0; r < 8; ++r) {
        int file = 0;
        for (char c : ranks[static_cast<std::size_t>(7 - r)]) {
            if (c >= '1' && c <= '8') {
                file += c - '0';
                continue;
            }
            if (file > 7)
                return "rank " + std::to_string(r + 1) + " has more than 8 squares";
            Piece p;
            switch (c) {
            case 'P': p = {PieceKind::Pawn, Seat::White}; break;
            case 'N': p = {PieceKind::Knight, Seat::White}; break;
            case 'B': p = {PieceKind::Bishop, Seat::White}; break;
            case 'R': p = {PieceKind::Rook, Seat::White}; break;
            case 'q': p = {PieceKind::Queen, Seat::Black}; break;
            case 'n': p = {PieceKind::Knight, Seat::Black}; break;
            default:
                return std::string("'") + c + "' is no Ghost Chess piece (the Paradigm has P N B R, "
                                              "the Ghost q and rescued knights n)";
            }
            const chess::Sq x = make_sq(file, r);
            out.board[static_cast<std::size_t>(x)] = p;
            (p.seat == Seat::White ? out.white : out.black) |= bb(x);
            ++file;
        }
        if (file != 8)
            return "rank " + std::to_string(r + 1) + " does not have 8 squares";
    }
    if (f[1] != "w" && f[1] != "b")
        return "the side to move is w (the Paradigm) or b (the Ghost)";
    out.turn = f[1] == "w" ? Seat::White : Seat::Black;
    // The Nexus field may name, after a colon, the pawns on rank 2 that left it before ("-:d2").
    const std::string nexus = f.size() > 2 ? f[2].substr(0, f[2].find(':')) : "-";
    const std::string back = f.size() > 2 && f[2].find(':') != std::string::npos
                                 ? f[2].substr(f[2].find(':') + 1)
                                 : "";
    out.full_nexus = nexus == "F";
    if (nexus != "F" && nexus != "-")
        return "the Nexus field is F (Full Nexus intact) or -, then maybe :pawns back on rank 2";
    if (out.full_nexus) {
        const State start = start_state();
        for (chess::Sq x = 0; x < 64; ++x)
            if ((bb(x) & nexus_squares) && out.board[static_cast<std::size_t>(x)] != start.board[static_cast<std::size_t>(x)])
                return "Full Nexus needs the twelve Nexus pieces on their start squares";
    }
    auto squares_field = [&](std::size_t i, Bitboard& into, Bitboard allowed, const char* what) -> std::string {
        if (f.size() <= i || f[i] == "-")
            return {};
        if (out.turn != Seat::White)
            return std::string(what) + " only while the Paradigm is to move";
        for (const std::string& name : split(f[i], ',')) {
            auto x = parse_square(name);
            if (!x || !(allowed & bb(make_sq(x->file, x->rank))))
                return std::string(what) + ": \"" + name + "\" is not a square with a fitting piece";
            into |= bb(make_sq(x->file, x->rank));
        }
        return {};
    };
    if (auto e = squares_field(3, out.hidden, out.black, "immune pieces"); !e.empty())
        return e;
    Bitboard locked = 0;
    if (auto e = squares_field(4, locked, out.white, "a locked piece"); !e.empty())
        return e;
    if (chess::more_than_one(locked))
        return "at most one piece is locked";
    out.locked = locked ? chess::lsb(locked) : -1;
    if (f.size() > 5 && (!read_number(f[5], out.knights_lost) || out.knights_lost > 1))
        return "knights lost is 0 or 1 (the second lost knight ends the game)";
    if (f.size() > 6 && !read_number(f[6], out.halfmove))
        return "the halfmove clock is a number";
    if (f.size() > 7 && (!read_number(f[7], out.fullmove) || out.fullmove < 1))
        return "the move number is a number from 1";
    // Pawns on rank 2 have never left it unless the ninth field lists them (decision 7).
    out.home_pawns = out.of(Seat::White, PieceKind::Pawn) & 0xFF00ULL;
    if (!back.empty()) {
        for (const std::string& name : split(back, ',')) {
            auto x = parse_square(name);
            if (!x || !(out.home_pawns & bb(make_sq(x->file, x->rank))))
                return "pawns back on rank 2: \"" + name + "\" is not a pawn of the Paradigm on rank 2";
            out.home_pawns &= ~bb(make_sq(x->file, x->rank));
        }
    }
    if (chess::popcount(out.of(Seat::Black, PieceKind::Queen)) != 1)
        return "the Ghost (q) must be on the board exactly once";
    if (out.white == 0)
        return "the Paradigm needs at least one piece";
    if (chess::popcount(out.of(Seat::Black, PieceKind::Knight)) + chess::popcount(out.of(Seat::White, PieceKind::Knight)) +
            out.knights_lost > 2)
        return "there are only two knights in the game";
    // Where an exchanged rook or bishop returns: a bishop by its colour, a rook to its wing's corner.
    bool rook_corner_taken[2] = {false, false};
    for (chess::Sq x = 0; x < 64; ++x) {
        const Piece p = out.board[static_cast<std::size_t>(x)];
        if (p == Piece{PieceKind::Bishop, Seat::White})
            out.origin[static_cast<std::size_t>(x)] = static_cast<std::int8_t>(dark(x) ? sq_c1 : sq_f1);
        if (p == Piece{PieceKind::Rook, Seat::White}) {
            int wing = chess::file_of(x) < 4 ? 0 : 1;
            if (rook_corner_taken[wing])
                wing = 1 - wing;
            rook_corner_taken[wing] = true;
            out.origin[static_cast<std::size_t>(x)] = static_cast<std::int8_t>(wing == 0 ? 0 : 7);
        }
    }
    out.keys.push_back(position_key(out));
    s = std::move(out);
    return {};
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
    o << out << ' ' << (s.turn == Seat::White ? 'w' : 'b') << ' ' << (s.full_nexus ? "F" : "-")
      << (back ? ":" + squares(back) : std::string()) << ' ' << squares(immune_squares(s)) << ' '
      << (s.locked >= 0 ? to_square(s.locked).name() : "-") << ' ' << s.knights_lost << ' '
      << s.halfmove << ' ' << s.fullmove;
    return o.str();
}

} // namespace ghostpost::rules::ghost
