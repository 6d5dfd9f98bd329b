// What the tournament handlers share: a tournament's field as derived from its pairings and
// games, and the tables and words its replies are built from. Private to bot/service/src.
#pragma once

#include "ghostpost/league/pairing.h"
#include "ghostpost/service/tournament_table.h"
#include "post_run.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ghostpost::bot::tourney {

using storage::PairingRecord;
using storage::TournamentRecord;
using storage::TournamentStatus;

constexpr std::size_t max_name = 32;
constexpr int max_swiss_rounds = 30;

struct Board {
    PairingRecord pairing;
    std::optional<GameRecord> game; // empty for a bye
    bool bye() const { return !pairing.black; }
    bool over() const { return bye() || (game && game->status != GameStatus::Ongoing); }
    // What White scored; nullopt while under way, for a bye and for a game that counts for
    // nobody (aborted by a moderator).
    std::optional<double> white_score() const {
        if (!game || game->status != GameStatus::Finished)
            return std::nullopt;
        return game->result == "1-0" ? 1.0 : game->result == "0-1" ? 0.0 : 0.5;
    }
};

// Everything a tournament's replies are built from. Players are indexed by seed (0 = first).
struct Field {
    TournamentRecord t;
    std::vector<std::int64_t> players;
    std::vector<storage::EntrantRecord> entrants; // by seed, as `players`
    std::vector<Board> boards;
    std::vector<storage::ByeRequest> byes;            // half-point byes asked for
    std::vector<storage::ForbiddenPairing> forbidden; // kept apart in a Swiss

    const storage::EntrantRecord& entrant(int seed) const {
        return entrants.at(static_cast<std::size_t>(seed));
    }
    // Whether the player asked to sit out the round for half a point.
    bool half_bye(std::int64_t player_id, int round) const {
        return std::find(byes.begin(), byes.end(), storage::ByeRequest{player_id, round}) !=
               byes.end();
    }
    // Whether a Swiss pairs the player in the round: entered by then, not withdrawn, no bye
    // asked for.
    bool pairable(int seed, int round) const {
        const auto& e = entrant(seed);
        return e.first_round <= round && (!e.withdrawn_round || *e.withdrawn_round > round) &&
               !half_bye(e.player_id, round);
    }

    int index(std::int64_t player_id) const {
        for (std::size_t i = 0; i < players.size(); ++i)
            if (players[i] == player_id)
                return static_cast<int>(i);
        throw std::logic_error("tournament " + t.name + ": no entrant " +
                               std::to_string(player_id));
    }
    std::vector<const Board*> round(int r) const {
        std::vector<const Board*> out;
        for (const auto& b : boards)
            if (b.pairing.round == r)
                out.push_back(&b);
        return out;
    }
    bool round_over(int r) const {
        auto bs = round(r);
        return std::all_of(bs.begin(), bs.end(), [](const Board* b) { return b->over(); });
    }
    bool knockout() const { return t.format == "knockout"; }
    bool all_at_once() const { return t.schedule == "allatonce"; }
    bool round_robin() const { return t.format == "roundrobin" || t.format == "double"; }

    // The games with a result, by seed index; a Swiss bye scores a point, a half-point bye
    // asked for half, a round-robin bye nothing (everyone sits out once per cycle).
    std::vector<PlayedGame> played() const {
        std::vector<PlayedGame> out;
        for (const auto& b : byes)
            if (b.round <= t.current_round)
                out.push_back({index(b.player_id), bye, 0.5});
        for (const auto& b : boards) {
            if (b.bye()) {
                if (t.format == "swiss")
                    out.push_back({index(b.pairing.white), bye, 1.0});
            } else if (auto s = b.white_score()) {
                out.push_back({index(b.pairing.white), index(*b.pairing.black), *s});
            }
        }
        return out;
    }

    // Who goes through a knockout board: the winner; on a draw (or a game voided) the higher
    // seed, who played Black with draw odds.
    std::int64_t advancing(const Board& b) const {
        if (b.bye())
            return b.pairing.white;
        auto s = b.white_score();
        if (s && *s == 1.0)
            return b.pairing.white;
        if (s && *s == 0.0)
            return *b.pairing.black;
        return index(b.pairing.white) < index(*b.pairing.black) ? b.pairing.white
                                                                : *b.pairing.black;
    }
};

// One board of a round as paired, before its game exists: seed indices (black `bye` for a
// bye) and, in a Swiss, the float it gives each player ("down", "up", "none").
struct PlannedBoard {
    int white = 0;
    int black = bye;
    std::string white_float;
    std::string black_float;
};

// The Swiss field before round `round`, from the boards of the rounds before: colours of the
// games played, opponents met, byes, floats as recorded when paired (a game aborted by a
// moderator was not played: no colour, no meeting, no float, no points).
SwissRound swiss_state(const Field& f, int round);
std::string float_name(Float f); // "down", "up", "none"
// The boards of round `round` by the tournament's format; nullopt when a Swiss has no pairing
// within the rules left.
std::optional<std::vector<PlannedBoard>> plan_round(const Field& f, int round);
// "3 of 6 games finished": how far a tournament played all at once has come.
Text games_finished(const Field& f);

// "round robin", "Swiss", ... for a format's stored name.
Text format_title(const std::string& format);
bool known_format(const std::string& f);

// A letter first, so that a round number after a command is never taken for a name.
bool valid_name(const std::string& name);

// 2.5 as "2.5", 3 as "3", 3.25 as "3.25": scores and tie-breaks are quarters at worst.
std::string points(double value);

// `s` with spaces up to `width` characters (not bytes: a name or a word may be any script's).
std::string pad(std::string s, std::size_t width);

// The tournament with its entrants by seed and every board with its game.
Field load_field(storage::Store& store, const TournamentRecord& t);
// Rounds a knockout of `players` needs (byes fill the first).
int knockout_rounds(int players);
// "@handle" of a player. Errors: std::logic_error when there is no such player.
std::string name_of(storage::Store& store, std::int64_t id);

// The table of a round robin or a Swiss, best first, with both tie-breaks (the format's own
// first) and the games counted: as data, and as the chat shows it.
TournamentTable table_of(const Field& f);
std::string score_table(storage::Store& store, const Field& f, const std::string& language);

// A knockout as it stands: each player with how far they came, the champion first.
std::string bracket_table(storage::Store& store, const Field& f, std::int64_t* champion,
                          const std::string& language);

// A table as a reply's block, written in each reader's language (BoardOut::drawn_in).
BoardOut table_block(storage::Store& store, const Field& f);

} // namespace ghostpost::bot::tourney
