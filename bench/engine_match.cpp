// Strength matches of the engine (issue #23): every variant at level 8 against a random mover
// and against a one-ply greedy player, each level against the level below, and FIDE chess
// against Stockfish at Skill Level 0 over UCI. Fixed seeds, colours alternating; each game is
// adjudicated a draw after --max-plies actions. Prints one line per match with the score.
//
//   engine_match --match random|greedy|ladder|stockfish [--variant all|<name>] [--games N]
//                [--level L] [--seconds S] [--max-plies P] [--stockfish PATH]
//
// The engine is given only its seat's view and the public record, as in the service.
#include "ghostpost/engine/engine.h"
#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace ghostpost;
using rules::Seat;

namespace {

class Dice final : public rules::RandomSource {
public:
    explicit Dice(std::uint64_t seed) : rng_(seed) {}
    std::uint32_t uniform(std::uint32_t n) override {
        return static_cast<std::uint32_t>(rng_() % n);
    }

private:
    std::mt19937_64 rng_;
};

// A game and its public record, as the service would keep them.
struct Table {
    std::unique_ptr<rules::Game> game;
    engine::PublicRecord record;
    Dice dice;
    Table(const rules::Variant& v, std::uint64_t seed) : dice(seed) {
        auto started = v.start({});
        game = std::move(started.value());
        record.variant = v.info().name;
        record.options = game->options();
    }
    void play(Seat seat, const rules::NotatedAction& a) {
        engine::RecordingRandom rec(dice);
        auto r = game->apply(seat, a.action, rec);
        if (!r)
            throw std::runtime_error("refused: " + a.text + ": " + r.error().message);
        record.actions.push_back({seat, a.text});
        record.draws.insert(record.draws.end(), rec.draws().begin(), rec.draws().end());
    }
    // What `seat` may know of the record: not the other side's secret dice choice.
    engine::PublicRecord known_to(Seat seat) const {
        engine::PublicRecord r = record;
        const auto notes = game->public_view().board().notes;
        if (std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
                return n.find("(has chosen)") != std::string::npos;
            }))
            for (std::size_t i = r.actions.size(); i-- > 0;)
                if (r.actions[i].seat != seat) {
                    r.actions.erase(r.actions.begin() + static_cast<std::ptrdiff_t>(i));
                    break;
                }
        return r;
    }
};

using Player = std::function<rules::NotatedAction(Table&, Seat)>;

struct Stats {
    double seconds = 0;
    int moves = 0;
    double max_seconds = 0;
};

Player engine_player(engine::Limits limits, std::uint64_t seed, Stats* stats) {
    return [=](Table& t, Seat seat) {
        const auto start = std::chrono::steady_clock::now();
        auto choice = engine::choose(t.game->seat_view(seat), t.known_to(seat), limits,
                                     seed + static_cast<std::uint64_t>(t.record.actions.size()));
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (stats) {
            stats->seconds += s;
            stats->max_seconds = std::max(stats->max_seconds, s);
            ++stats->moves;
        }
        if (!choice)
            throw std::runtime_error("the engine had nothing to choose");
        // Phantom Chess: the engine names the move on the board it sees; the game reads it so.
        auto parsed = rules::parse_action(*t.game, seat, choice->action.text);
        if (!parsed)
            throw std::runtime_error("the engine's text does not read: " + choice->action.text);
        return *parsed;
    };
}

Player random_player(std::uint64_t seed) {
    auto rng = std::make_shared<std::mt19937_64>(seed);
    return [rng](Table& t, Seat seat) {
        auto actions = t.game->notated_actions(seat);
        return actions[(*rng)() % actions.size()];
    };
}

// Material of `us` minus the other side's, as the board shows it (own pieces counted negative
// in the giveaway family, where losing them is the aim).
int material(const rules::BoardView& b, Seat us, bool giveaway) {
    int score = 0;
    for (const auto& cell : b.cells)
        for (const auto& f : cell.figures) {
            int v = 1;
            switch (f.piece.kind) {
            case rules::PieceKind::Pawn:
                v = 1;
                break;
            case rules::PieceKind::Knight:
            case rules::PieceKind::Bishop:
                v = 3;
                break;
            case rules::PieceKind::Rook:
                v = 5;
                break;
            case rules::PieceKind::Queen:
                v = 9;
                break;
            case rules::PieceKind::King:
                v = giveaway ? 1 : 0;
                break;
            default:
                v = 3;
                break;
            }
            if (f.style == rules::FigureStyle::Spirit ||
                f.style == rules::FigureStyle::InvokedSpirit)
                v = 0;
            if (giveaway)
                v = 1;
            score += f.piece.seat == us ? v : -v;
        }
    return giveaway ? -score : score;
}

// One ply: the action after which its material count is best (a win is best of all), ties
// broken at random.
Player greedy_player(std::uint64_t seed) {
    auto rng = std::make_shared<std::mt19937_64>(seed);
    return [rng](Table& t, Seat seat) {
        const bool giveaway = t.record.variant == "giveaway" || t.record.variant == "ghostarelay";
        auto actions = t.game->notated_actions(seat);
        std::shuffle(actions.begin(), actions.end(), *rng);
        int best = -1'000'000;
        rules::NotatedAction chosen = actions.front();
        for (const auto& a : actions) {
            auto next = t.game->clone();
            Dice dice((*rng)());
            if (!next->apply(seat, a.action, dice))
                continue;
            int score = material(next->final_view().board(), seat, giveaway);
            const auto o = next->outcome();
            if (o.over() && o.status != rules::Status::Draw)
                score = ((o.status == rules::Status::WhiteWins) == (seat == Seat::White))
                            ? 1'000'000
                            : -1'000'000;
            if (score > best) {
                best = score;
                chosen = a;
            }
        }
        return chosen;
    };
}

// Stockfish over UCI on a pipe.
class Uci {
public:
    explicit Uci(const std::string& path, int skill) {
        int in[2], out[2];
        if (pipe(in) != 0 || pipe(out) != 0)
            throw std::runtime_error("pipe");
        pid_ = fork();
        if (pid_ == 0) {
            dup2(in[0], 0);
            dup2(out[1], 1);
            close(in[1]);
            close(out[0]);
            execl(path.c_str(), path.c_str(), static_cast<char*>(nullptr));
            _exit(127);
        }
        close(in[0]);
        close(out[1]);
        to_ = fdopen(in[1], "w");
        from_ = fdopen(out[0], "r");
        send("uci");
        wait_for("uciok");
        send("setoption name Skill Level value " + std::to_string(skill));
        send("setoption name Threads value 1");
        send("isready");
        wait_for("readyok");
    }
    ~Uci() {
        send("quit");
        fclose(to_);
        fclose(from_);
        waitpid(pid_, nullptr, 0);
    }
    std::string best(const std::vector<std::string>& moves, int millis) {
        std::string position = "position startpos";
        if (!moves.empty()) {
            position += " moves";
            for (const auto& m : moves)
                position += " " + m;
        }
        send(position);
        send("go movetime " + std::to_string(millis));
        const std::string line = wait_for("bestmove");
        return line.substr(9, line.find(' ', 9) - 9);
    }

private:
    void send(const std::string& s) {
        std::fputs((s + "\n").c_str(), to_);
        std::fflush(to_);
    }
    std::string wait_for(const std::string& prefix) {
        char buf[4096];
        while (std::fgets(buf, sizeof buf, from_)) {
            std::string line(buf);
            if (line.starts_with(prefix))
                return line;
        }
        throw std::runtime_error("stockfish stopped");
    }
    pid_t pid_ = 0;
    FILE* to_ = nullptr;
    FILE* from_ = nullptr;
};

std::string uci_text(const rules::Action& a) {
    std::string s = a.from.name() + a.to.name();
    if (a.promotion != rules::PieceKind::None)
        s += static_cast<char>(std::tolower(rules::piece_letter(a.promotion)));
    return s;
}

Player stockfish_player(std::shared_ptr<Uci> uci, int millis) {
    return [uci, millis](Table& t, Seat seat) {
        std::vector<std::string> moves;
        // The record's texts as UCI moves: replayed on a fresh game to read their squares.
        auto replay = rules::find_variant("chess")->start({});
        rules::NoRandomness none;
        for (const auto& a : t.record.actions) {
            auto parsed = rules::parse_action(**replay, a.seat, a.text);
            moves.push_back(uci_text(parsed->action));
            (void)(*replay)->apply(a.seat, parsed->action, none);
        }
        const std::string best = uci->best(moves, millis);
        for (const auto& a : t.game->notated_actions(seat))
            if (uci_text(a.action) == best)
                return a;
        throw std::runtime_error("stockfish's move is not legal here: " + best);
    };
}

// 1 for a White win, 0.5 for a draw, 0 for a Black win.
double play_game(const rules::Variant& v, Player white, Player black, std::uint64_t seed,
                 int max_plies) {
    Table t(v, seed);
    for (int ply = 0; ply < max_plies; ++ply) {
        const auto o = t.game->outcome();
        if (o.over())
            return o.status == rules::Status::WhiteWins   ? 1.0
                   : o.status == rules::Status::BlackWins ? 0.0
                                                          : 0.5;
        const Seat seat = t.game->pending().front().seat;
        t.play(seat, (seat == Seat::White ? white : black)(t, seat));
    }
    const auto o = t.game->outcome();
    return o.status == rules::Status::WhiteWins   ? 1.0
           : o.status == rules::Status::BlackWins ? 0.0
                                                  : 0.5;
}

struct Options {
    std::string match = "random";
    std::string variant = "all";
    int games = 10;
    int level = 8;
    double seconds = -1;
    int max_plies = 300;
    std::string stockfish = "/usr/games/stockfish";
};

// Plays `games` games of the engine (Player made by `ours`) against `theirs`, colours
// alternating, and prints the engine's score.
void match(const rules::Variant& v, const std::string& label, const Options& o,
           const std::function<Player(std::uint64_t, Stats*)>& ours,
           const std::function<Player(std::uint64_t)>& theirs) {
    double score = 0;
    int wins = 0, draws = 0, losses = 0;
    Stats stats;
    for (int g = 0; g < o.games; ++g) {
        const std::uint64_t seed = 1000 + static_cast<std::uint64_t>(g);
        const bool white = g % 2 == 0;
        const double r =
            white ? play_game(v, ours(seed, &stats), theirs(seed * 7), seed, o.max_plies)
                  : 1.0 - play_game(v, theirs(seed * 7), ours(seed, &stats), seed, o.max_plies);
        score += r;
        (r == 1.0 ? wins : r == 0.0 ? losses : draws) += 1;
    }
    std::printf(
        "%-12s %-28s games %3d  +%d =%d -%d  score %5.1f %%  engine %.2f s/move avg, %.2f s max\n",
        v.info().name.c_str(), label.c_str(), o.games, wins, draws, losses, 100.0 * score / o.games,
        stats.moves ? stats.seconds / stats.moves : 0.0, stats.max_seconds);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i], v = argv[i + 1];
        if (k == "--match")
            o.match = v;
        else if (k == "--variant")
            o.variant = v;
        else if (k == "--games")
            o.games = std::stoi(v);
        else if (k == "--level")
            o.level = std::stoi(v);
        else if (k == "--seconds")
            o.seconds = std::stod(v);
        else if (k == "--max-plies")
            o.max_plies = std::stoi(v);
        else if (k == "--stockfish")
            o.stockfish = v;
        else {
            std::cerr << "unknown option " << k << "\n";
            return 2;
        }
    }
    auto limits = [&](int level) {
        auto l = engine::limits_for_level(level);
        if (o.seconds > 0)
            l.max_seconds = o.seconds;
        return l;
    };
    std::vector<const rules::Variant*> list;
    for (const auto* v : rules::variants())
        if (o.variant == "all" || v->info().name == o.variant)
            list.push_back(v);
    for (const auto* v : list) {
        const auto level = o.level;
        auto ours = [&](std::uint64_t seed, Stats* s) {
            return engine_player(limits(level), seed, s);
        };
        if (o.match == "random")
            match(*v, "level " + std::to_string(level) + " vs random", o, ours, random_player);
        else if (o.match == "greedy")
            match(*v, "level " + std::to_string(level) + " vs greedy", o, ours, greedy_player);
        else if (o.match == "ladder")
            for (int n = 1; n < 8; ++n)
                match(
                    *v, "level " + std::to_string(n + 1) + " vs level " + std::to_string(n), o,
                    [&, n](std::uint64_t seed, Stats* s) {
                        return engine_player(limits(n + 1), seed, s);
                    },
                    [&, n](std::uint64_t seed) { return engine_player(limits(n), seed, nullptr); });
        else if (o.match == "stockfish" && v->info().name == "chess") {
            auto uci = std::make_shared<Uci>(o.stockfish, 0);
            match(*v, "level " + std::to_string(level) + " vs Stockfish skill 0", o, ours,
                  [&](std::uint64_t) { return stockfish_player(uci, 1000); });
        }
    }
    return 0;
}
