#include "tourney_field.h"

#include "ghostpost/league/trf.h"
#include "ghostpost/rules/registry.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>

namespace ghostpost::bot::tourney {

using namespace detail;

Text format_title(const std::string& format) {
    if (format == "roundrobin")
        return tr("round robin");
    if (format == "double")
        return tr("double round robin");
    if (format == "swiss")
        return tr("Swiss");
    return tr("knockout");
}

bool known_format(const std::string& f) {
    return f == "roundrobin" || f == "double" || f == "swiss" || f == "knockout";
}

bool valid_name(const std::string& name) {
    if (name.empty() || name.size() > max_name ||
        !std::isalpha(static_cast<unsigned char>(name[0])))
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
    });
}

std::string points(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f", value);
    std::string s = buffer;
    while (s.back() == '0')
        s.pop_back();
    if (s.back() == '.')
        s.pop_back();
    return s;
}

namespace {
std::size_t characters(const std::string& s) {
    return static_cast<std::size_t>(std::count_if(
        s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}
} // namespace

std::string pad(std::string s, std::size_t width) {
    const std::size_t shown = characters(s);
    if (shown < width)
        s.append(width - shown, ' ');
    return s;
}

Field load_field(storage::Store& store, const TournamentRecord& t) {
    Field f;
    f.t = t;
    for (const auto& e : store.entrants(t.id)) {
        f.players.push_back(e.player_id);
        f.entrants.push_back(e);
    }
    // What was asked for a player who left before the start no longer concerns anyone.
    const auto entered = [&](std::int64_t id) {
        return std::find(f.players.begin(), f.players.end(), id) != f.players.end();
    };
    for (const auto& b : store.byes(t.id))
        if (entered(b.player_id))
            f.byes.push_back(b);
    for (const auto& fp : store.forbidden_pairings(t.id))
        if (entered(fp.player_a) && entered(fp.player_b))
            f.forbidden.push_back(fp);
    for (const auto& p : store.pairings(t.id)) {
        Board b{p, std::nullopt};
        if (p.game_id)
            b.game = store.game(*p.game_id);
        f.boards.push_back(std::move(b));
    }
    return f;
}

std::string float_name(Float f) {
    return f == Float::Down ? "down" : f == Float::Up ? "up" : "none";
}

namespace {

std::optional<Float> float_from(const std::string& s) {
    if (s == "down")
        return Float::Down;
    if (s == "up")
        return Float::Up;
    if (s == "none")
        return Float::None;
    return std::nullopt; // not recorded: worked out from the scores
}

} // namespace

SwissRound swiss_state(const Field& f, int round) {
    std::vector<std::vector<SwissRoundEntry>> history(static_cast<std::size_t>(round - 1));
    for (const auto& b : f.boards) {
        if (b.pairing.round >= round)
            continue;
        auto& entries = history[static_cast<std::size_t>(b.pairing.round - 1)];
        const int w = f.index(b.pairing.white);
        if (b.bye()) {
            entries.push_back({w, bye, Colour::None, 1.0, true, Float::Down});
            continue;
        }
        const int k = f.index(*b.pairing.black);
        if (auto s = b.white_score()) {
            entries.push_back({w, k, Colour::White, *s, false, float_from(b.pairing.white_float)});
            entries.push_back(
                {k, w, Colour::Black, 1.0 - *s, false, float_from(b.pairing.black_float)});
        } else {
            entries.push_back({w, k, Colour::None, 0.0});
            entries.push_back({k, w, Colour::None, 0.0});
        }
    }
    // A half-point bye scores without a game: no colour, no opponent, a float down (1.4.3).
    for (const auto& b : f.byes)
        if (b.round < round)
            history[static_cast<std::size_t>(b.round - 1)].push_back(
                {f.index(b.player_id), bye, Colour::None, 0.5, false, std::nullopt});
    SwissRound out;
    out.round = round;
    out.rounds = f.t.rounds;
    out.initial_colour = f.t.initial_colour == "black" ? Colour::Black : Colour::White;
    // Rounds before a late entry or after a withdrawal have no entry: unplayed, no points.
    for (auto& p : swiss_players(static_cast<int>(f.players.size()), history))
        if (f.pairable(p.player, round))
            out.players.push_back(std::move(p));
    // Two players kept apart count as having met (C1), as bbpPairings reads forbidden pairs.
    for (const auto& fp : f.forbidden) {
        const int a = f.index(fp.player_a), b = f.index(fp.player_b);
        for (auto& p : out.players) {
            if (p.player == a)
                p.opponents.push_back(b);
            else if (p.player == b)
                p.opponents.push_back(a);
        }
    }
    return out;
}

std::optional<std::vector<PlannedBoard>> plan_round(const Field& f, int round) {
    const int n = static_cast<int>(f.players.size());
    std::vector<PlannedBoard> plan; // seed indices
    if (f.round_robin()) {
        const auto schedule = berger_schedule(n, f.t.format == "double");
        for (const auto& p : schedule.at(static_cast<std::size_t>(round - 1)))
            plan.push_back({p.white, p.black, "", ""});
    } else if (f.knockout()) {
        if (round == 1) {
            for (const auto& p : knockout_first_round(n))
                plan.push_back(p.black == bye ? PlannedBoard{p.white, bye, "", ""}
                                              : PlannedBoard{p.black, p.white, "", ""});
        } else {
            std::vector<int> through;
            for (const Board* b : f.round(round - 1))
                through.push_back(f.index(f.advancing(*b)));
            for (std::size_t i = 0; i + 1 < through.size(); i += 2) {
                const int a = through[i], b = through[i + 1];
                // The lower seed has White.
                plan.push_back({std::max(a, b), std::min(a, b), "", ""});
            }
        }
    } else {
        auto swiss = swiss_round(swiss_state(f, round));
        if (!swiss)
            return std::nullopt;
        for (const auto& b : *swiss)
            plan.push_back({b.white, b.black, float_name(b.white_float),
                            b.black == bye ? std::string() : float_name(b.black_float)});
    }
    return plan;
}

Text games_finished(const Field& f) {
    int games = 0, over = 0;
    for (const auto& b : f.boards)
        if (!b.bye()) {
            ++games;
            over += b.over() ? 1 : 0;
        }
    return tr("{finished} of {count, plural, one {# game} other {# games}} finished",
              {{"finished", std::to_string(over)}, {"count", games}});
}

int knockout_rounds(int players) {
    int rounds = 0;
    for (int size = 1; size < players; size *= 2)
        ++rounds;
    return rounds;
}

std::string name_of(storage::Store& store, std::int64_t id) {
    auto p = store.player(id);
    if (!p)
        throw std::logic_error("no player " + std::to_string(id));
    return at(*p);
}

TournamentTable table_of(const Field& f) {
    const bool rr = f.round_robin();
    TournamentTable out;
    const std::vector<TieBreak> order = tie_breaks(rr);
    for (TieBreak b : order)
        out.breaks.push_back({tie_break_name(b), tie_break_short(b)});
    const auto played = f.played();
    std::vector<int> games(f.players.size(), 0);
    for (const auto& g : played) {
        ++games[static_cast<std::size_t>(g.white)];
        if (g.black != bye)
            ++games[static_cast<std::size_t>(g.black)];
    }
    int complete = 0;
    for (int r = 1; r <= f.t.current_round; ++r)
        complete += f.round_over(r) ? 1 : 0;
    for (const auto& s : standings(static_cast<int>(f.players.size()), played, rr, complete)) {
        const auto& entrant = f.entrant(s.player);
        TableRow row;
        row.player_id = entrant.player_id;
        row.points = s.score;
        for (TieBreak b : order)
            row.breaks.push_back(tie_break_value(s, b));
        row.games = games[static_cast<std::size_t>(s.player)];
        if (entrant.withdrawn_round)
            row.withdrew_after = *entrant.withdrawn_round - 1;
        out.rows.push_back(row);
    }
    return out;
}

std::string score_table(storage::Store& store, const Field& f, const std::string& language) {
    const auto word = [&](const Text& t) { return Replies::written(t, language); };
    const TournamentTable table = table_of(f);
    std::vector<std::string> names;
    const std::string player = word(tr("player")), score = word(tr("points"));
    std::size_t width = std::max<std::size_t>(6, characters(player));
    for (const auto& row : table.rows) {
        names.push_back(name_of(store, row.player_id));
        width = std::max(width, characters(names.back()));
    }
    std::string out = " # " + pad(player, width + 2) +
                      pad(score, std::max<std::size_t>(8, characters(score) + 2));
    for (const auto& b : table.breaks)
        out += pad(b.short_name, 7);
    out += word(tr("games")) + "\n";
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
        const auto& row = table.rows[i];
        std::string rank = std::to_string(i + 1);
        out += pad(std::string(rank.size() < 2 ? 1 : 0, ' ') + rank, 3) + pad(names[i], width + 2) +
               pad(points(row.points), std::max<std::size_t>(8, characters(score) + 2));
        for (const auto& v : row.breaks)
            out += pad(v ? points(*v) : std::string("-"), 7);
        out +=
            std::to_string(row.games) +
            (row.withdrew_after ? "  " + word(tr("withdrew after round {round}",
                                                 {{"round", std::to_string(*row.withdrew_after)}}))
                                : std::string()) +
            "\n";
    }
    return out;
}

std::string bracket_table(storage::Store& store, const Field& f, std::int64_t* champion,
                          const std::string& language) {
    const auto word = [&](const Text& t) { return Replies::written(t, language); };
    struct Row {
        int seed;
        int reached = 0; // the last round played in
        int out_in = 0;  // 0: still in (or the champion)
        std::int64_t game = 0;
        bool drawn = false; // lost on the higher seed's draw odds
    };
    std::vector<Row> rows;
    for (std::size_t i = 0; i < f.players.size(); ++i)
        rows.push_back({static_cast<int>(i)});
    for (const auto& b : f.boards) {
        for (auto id : {std::optional<std::int64_t>(b.pairing.white), b.pairing.black}) {
            if (!id)
                continue;
            Row& r = rows[static_cast<std::size_t>(f.index(*id))];
            r.reached = std::max(r.reached, b.pairing.round);
            if (b.over() && f.advancing(b) != *id) {
                r.out_in = b.pairing.round;
                r.game = b.game ? b.game->id : 0;
                r.drawn = b.white_score() == 0.5;
            }
        }
    }
    std::optional<std::int64_t> winner;
    if (f.t.status == TournamentStatus::Finished) {
        auto last = f.round(f.t.rounds);
        if (last.size() == 1 && last.front()->over())
            winner = f.advancing(*last.front());
    }
    if (champion)
        *champion = winner.value_or(0);
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        const int ka = a.out_in ? a.out_in : 1000, kb = b.out_in ? b.out_in : 1000;
        return ka != kb ? ka > kb : a.seed < b.seed;
    });
    const std::string seed = word(tr("seed")), player = word(tr("player"));
    const std::size_t seed_width = std::max<std::size_t>(5, characters(seed) + 1);
    std::size_t width = std::max<std::size_t>(6, characters(player));
    for (const auto& r : rows)
        width = std::max(width,
                         characters(name_of(store, f.players[static_cast<std::size_t>(r.seed)])));
    std::string out = pad(seed, seed_width) + player + "\n";
    for (const auto& r : rows) {
        const std::int64_t id = f.players[static_cast<std::size_t>(r.seed)];
        Text state;
        if (winner && *winner == id)
            state = tr("wins the tournament");
        else if (r.out_in == 0)
            state = r.reached
                        ? tr("through to round {round}", {{"round", std::to_string(r.reached + 1)}})
                        : tr("waiting");
        else if (r.game == 0)
            state = r.out_in == f.t.rounds
                        ? tr("lost the final")
                        : tr("out in round {round}", {{"round", std::to_string(r.out_in)}});
        else if (r.out_in == f.t.rounds)
            state = r.drawn
                        ? tr("lost the final (game #{game} drawn: the higher seed goes through)",
                             {{"game", std::to_string(r.game)}})
                        : tr("lost the final (game #{game})", {{"game", std::to_string(r.game)}});
        else
            state =
                r.drawn
                    ? tr("out in round {round} (game #{game} drawn: the higher seed goes "
                         "through)",
                         {{"round", std::to_string(r.out_in)}, {"game", std::to_string(r.game)}})
                    : tr("out in round {round} (game #{game})",
                         {{"round", std::to_string(r.out_in)}, {"game", std::to_string(r.game)}});
        if (r.out_in == 0 && !(winner && *winner == id)) {
            // Still in: in the round being played, or through to the next one.
            bool playing = false;
            for (const Board* b : f.round(f.t.current_round))
                if ((b->pairing.white == id || b->pairing.black == id) && !b->over())
                    playing = true;
            if (playing)
                state = tr("playing round {round}", {{"round", std::to_string(f.t.current_round)}});
        }
        out += pad(std::to_string(r.seed + 1), seed_width) + pad(name_of(store, id), width + 2) +
               word(state) + "\n";
    }
    return out;
}

BoardOut table_block(storage::Store& store, const Field& f) {
    BoardOut out;
    out.drawn_in = [&store, f](const std::string& language) {
        return BoardOut{f.knockout() ? bracket_table(store, f, nullptr, language)
                                     : score_table(store, f, language),
                        {},
                        {},
                        {}};
    };
    return out;
}

} // namespace ghostpost::bot::tourney

namespace ghostpost::bot {

namespace {
// A tie-break's name as the catalog has it (tie_break_name).
Text tie_break_text(const std::string& name) {
    if (name == "Buchholz cut 1")
        return tr("Buchholz cut 1");
    if (name == "Buchholz")
        return tr("Buchholz");
    if (name == "direct encounter")
        return tr("direct encounter");
    if (name == "Sonneborn-Berger")
        return tr("Sonneborn-Berger");
    return verbatim(name);
}
} // namespace

Text tie_break_sentence(const TournamentTable& table) {
    Text out;
    for (const auto& b : table.breaks) {
        const Text one = tie_break_text(b.name) + verbatim(" (" + b.short_name + ")");
        out = out.empty()
                  ? one
                  : tr("{tiebreaks}, then {tiebreak}", {{"tiebreaks", out}, {"tiebreak", one}});
    }
    return out;
}

TournamentTable tournament_table(storage::Store& store, const storage::TournamentRecord& t) {
    return tourney::table_of(tourney::load_field(store, t));
}

namespace {

std::string date_of(std::int64_t unix_seconds) {
    const std::time_t t = static_cast<std::time_t>(unix_seconds);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buffer[16];
    std::strftime(buffer, sizeof buffer, "%Y/%m/%d", &tm);
    return buffer;
}

} // namespace

std::string tournament_trf(storage::Store& store, const storage::TournamentRecord& t) {
    using namespace tourney;
    const Field f = load_field(store, t);
    const TournamentTable table = table_of(f);
    const std::size_t n = f.players.size();
    std::vector<double> score(n, 0);
    std::vector<int> rank(n, 0);
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
        const auto seed = static_cast<std::size_t>(f.index(table.rows[i].player_id));
        score[seed] = table.rows[i].points;
        rank[seed] = static_cast<int>(i + 1);
    }
    // Each player's cell per round: "oooo c r" (opponent's starting rank, colour, result).
    const int rounds = f.t.current_round;
    std::vector<std::vector<std::string>> cells(
        n, std::vector<std::string>(static_cast<std::size_t>(rounds)));
    using trf::cell;
    for (const auto& b : f.boards) {
        if (b.pairing.round > rounds)
            continue;
        const auto r = static_cast<std::size_t>(b.pairing.round - 1);
        const int w = f.index(b.pairing.white);
        if (b.bye()) {
            // The pairing-allocated bye: a point in a Swiss; a round robin's sitting out, none.
            cells[static_cast<std::size_t>(w)][r] = cell(0, '-', f.round_robin() ? 'Z' : 'U');
            continue;
        }
        const int k = f.index(*b.pairing.black);
        const auto s = b.white_score();
        if (!s && b.over()) {
            // A game a moderator voided was not played: no meeting, no colour, no points; TRF
            // writes it as a forfeit lost by both, so a pairing program sees them paired.
            cells[static_cast<std::size_t>(w)][r] = cell(k + 1, 'w', '-');
            cells[static_cast<std::size_t>(k)][r] = cell(w + 1, 'b', '-');
            continue;
        }
        const char white_result = !s ? ' ' : *s == 1.0 ? '1' : *s == 0.0 ? '0' : '=';
        const char black_result = !s ? ' ' : *s == 1.0 ? '0' : *s == 0.0 ? '1' : '=';
        cells[static_cast<std::size_t>(w)][r] = cell(k + 1, 'w', white_result);
        cells[static_cast<std::size_t>(k)][r] = cell(w + 1, 'b', black_result);
    }
    for (const auto& b : f.byes)
        if (b.round <= rounds)
            cells[static_cast<std::size_t>(f.index(b.player_id))]
                 [static_cast<std::size_t>(b.round - 1)] = cell(0, '-', 'H');
    const rules::Variant* variant = rules::find_variant(t.variant);
    std::string out = "012 " + t.name + "\n";
    out += "042 " + date_of(t.created_at) + "\n";
    out += "062 " + std::to_string(n) + "\n";
    // The report is read by pairing programs and rating officers: in English.
    out += "092 " + Replies::written(format_title(t.format), "en") +
           (t.format == "swiss" ? " (Dutch)" : "") + ", " +
           (variant ? variant->info().title : t.variant) + "\n";
    if (!t.tc.empty())
        out += "122 " + t.tc + "\n";
    for (std::size_t p = 0; p < n; ++p)
        out += trf::player_line(static_cast<int>(p + 1), strip_at(name_of(store, f.players[p])),
                                score[p], rank[p], cells[p]) +
               "\n";
    if (t.format == "swiss") {
        out += "XXR " + std::to_string(f.t.rounds) + "\n";
        if (!t.initial_colour.empty())
            out += "XXC " + t.initial_colour + "1\n";
    }
    return out;
}

} // namespace ghostpost::bot
