// The record: !games, !history and !pgn.
#include "post_run.h"

#include "ghostpost/bot/command.h"
#include "ghostpost/bot/game_loader.h"
#include "ghostpost/bot/game_record.h"
#include "ghostpost/render/png.h"
#include "ghostpost/render/text.h"
#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/rules/replay.h"

#include <algorithm>
#include <stdexcept>

namespace ghostpost::bot {

using namespace detail;

void PostRun::cmd_games(const std::vector<std::string>& args) {
    PlayerRecord whom = author_;
    if (!args.empty()) {
        if (args.size() > 1 || args[0].size() < 2 || args[0][0] != '@') {
            usage_error("games", "I did not understand \"" + shorten(args[0]) + "\".");
            return;
        }
        auto p = known_player(args[0]);
        if (!p)
            return;
        whom = *p;
    }
    auto games = store_.games_of_player(whom, {GameStatus::Challenge, GameStatus::Ongoing});
    std::vector<std::string> first, later;
    for (const auto& g : games) {
        std::string id = "#" + std::to_string(g.id) + " " + g.variant;
        if (g.status == GameStatus::Challenge) {
            if (g.challenger == whom.id)
                later.push_back(id + ": challenge to " +
                                (g.challenged_id      ? mention(*g.challenged_id)
                                 : g.challenged.empty() ? std::string("anyone")
                                                        : "@" + g.challenged) +
                                ", waiting for an answer");
            else
                first.push_back(id + ": challenge from " + mention(g.challenger) +
                                ", to accept or decline");
            continue;
        }
        Loaded l = load(g);
        Seat seat = *seat_of(g, whom.id);
        std::string line = id + " vs " + mention(*seated(g, rules::opponent(seat))) + ": " +
                           next_line(l);
        auto ds = deciders(l);
        (std::find(ds.begin(), ds.end(), seat) != ds.end() ? first : later).push_back(line);
    }
    if (first.empty() && later.empty()) {
        say(at(whom) + " has no game under way and no open challenge.");
        return;
    }
    first.insert(first.end(), later.begin(), later.end());
    say("Games of " + at(whom) + ", those waiting for them first:", join(first, "\n") + "\n");
}

void PostRun::cmd_history(const std::vector<std::string>& args, bool pgn) {
    std::string command = pgn ? "pgn" : "history";
    std::size_t used = 0;
    auto g = pick_game(args, used, command, true);
    if (!g)
        return;
    if (used < args.size()) {
        usage_error(command, "I did not understand \"" + shorten(args[used]) + "\".");
        return;
    }
    auto log = store_.actions(g->id);
    const rules::Variant* variant = rules::find_variant(g->variant);
    if (variant == nullptr)
        throw std::runtime_error("game #" + std::to_string(g->id) + ": unknown variant");
    const auto& info = variant->info();
    std::string moves = record_movetext(*g, log);
    if (!pgn) {
        // Counted as shown: a standing policy set by direct message is no public ply.
        const auto shown = public_action_texts(*g, log);
        const auto plies = std::count_if(shown.begin(), shown.end(),
                                         [](const std::string& t) { return !t.empty(); });
        say("Game #" + std::to_string(g->id) + ", " + info.title + ", " +
                std::to_string(plies) + (plies == 1 ? " ply." : " plies."),
            log.empty() ? std::string("(no moves yet)\n") : wrap(moves, 60));
        return;
    }
    auto name = [&](std::optional<std::int64_t> id) { return id ? player(*id).name : "?"; };
    const std::string text = pgn_text(*g, log, name(g->white), name(g->black));
    say("PGN of game #" + std::to_string(g->id) + ":", text);
}

std::string pgn_text(const GameRecord& g, const std::vector<storage::ActionRecord>& log,
                     const std::string& white, const std::string& black) {
    const rules::Variant* variant = rules::find_variant(g.variant);
    if (variant == nullptr)
        throw std::runtime_error("game #" + std::to_string(g.id) + ": unknown variant");
    const auto& info = variant->info();
    const std::string moves = public_movetext(g, log);
    std::time_t t = static_cast<std::time_t>(g.created_at);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char date[16];
    std::strftime(date, sizeof date, "%Y.%m.%d", &tm);
    std::string result = g.status == GameStatus::Finished ? g.result : "*";
    std::string text = "[Event \"ghostpost game " + std::to_string(g.id) + "\"]\n" +
                       "[Site \"" + g.platform + " " + g.channel + "\"]\n" + "[Date \"" +
                       date + "\"]\n" + "[White \"" + white + "\"]\n" + "[Black \"" +
                       black + "\"]\n" + "[Result \"" + result + "\"]\n";
    if (info.name != "chess")
        text += "[Variant \"" + info.title + "\"]\n";
    if (g.status == GameStatus::Finished)
        text += "[Termination \"" + g.reason + "\"]\n";
    text += "\n" + wrap(moves.empty() ? result : moves + " " + result, 78);
    return text;
}

} // namespace ghostpost::bot
