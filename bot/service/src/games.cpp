// The game session of one post (games.h): the one loader, the cache this post keeps until its
// commit, the lines that say who plays and who must decide, and the ends of games.
#include "games.h"

#include "forecasts.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/service/command.h"
#include "ghostpost/service/game_loader.h"
#include "helpers.h"

#include <algorithm>

namespace ghostpost::bot {

using namespace detail;

Loaded Games::load(const GameRecord& rec) {
    Loaded l;
    l.rec = rec;
    // The stored revision, not the record's copy: another process may have changed the game
    // (a takeback and a new move leave as many plies as before, but never the same revision).
    // The game's row is held from here to the commit: a post of another daemon on the same
    // game waits, then runs again on what this one did.
    l.revision = ctx_.store.lock_game(rec.id);
    auto from = [&](const Service::CachedGame& c) {
        l.game = c.game->clone();
        l.rng = c.rng;
        l.plies = c.ply;
    };
    if (auto it = pending_cache_.find(rec.id);
        it != pending_cache_.end() && it->second.revision == l.revision) {
        from(it->second);
        return l;
    }
    if (const Service::CachedGame* c = parts_.memory.cached(rec.id);
        c && c->revision == l.revision) {
        from(*c);
        return l;
    }
    LoadedGame loaded = load_game(rec, ctx_.store.actions(rec.id));
    l.game = std::move(loaded.game);
    l.rng = std::move(loaded.rng);
    l.plies = loaded.plies;
    ++parts_.memory.replays;
    remember(l);
    return l;
}

Text Games::over_line(const GameRecord& g, const rules::VariantInfo& info) {
    const std::string id = std::to_string(g.id);
    switch (g.status) {
    case GameStatus::Challenge:
        return tr("Game #{game} is a challenge waiting for an answer.", {{"game", id}});
    case GameStatus::Declined:
        return tr("Game #{game} was declined.", {{"game", id}});
    case GameStatus::Cancelled:
        return tr("Game #{game} was cancelled.", {{"game", id}});
    case GameStatus::Aborted:
        return tr("Game #{game} was aborted.", {{"game", id}});
    case GameStatus::Ongoing:
        return tr("Game #{game} is under way.", {{"game", id}});
    case GameStatus::Finished:
        break;
    }
    const Text reason = game_word("reason", g.reason);
    if (g.result == "1-0" || g.result == "0-1")
        return tr("Game #{game} is over: {winner} wins by {reason} ({result}).",
                  {{"game", id},
                   {"winner", people_.who(g, info, g.result == "1-0" ? Seat::White : Seat::Black)},
                   {"reason", reason},
                   {"result", g.result}});
    return tr("Game #{game} is over: drawn by {reason} ({result}).",
              {{"game", id}, {"reason", reason}, {"result", g.result}});
}

Text Games::next_line(const Loaded& l) {
    if (l.rec.status != GameStatus::Ongoing)
        return over_line(l.rec, l.info());
    Text line;
    bool first = true;
    for (const auto& d : l.game->pending()) {
        Text part =
            tr("{player} must {decision}",
               {{"player", people_.who(l.rec, l.info(), d.seat)}, {"decision", said(d.said())}});
        line = first ? part : tr("{first} and {second}", {{"first", line}, {"second", part}});
        first = false;
    }
    if (first)
        return tr("Nobody has a decision to make.");
    return tr("{sentence}.", {{"sentence", line}});
}

std::optional<GameRecord> Games::pick_game(const std::vector<std::string>& args, std::size_t& used,
                                           const std::string& command, bool for_viewing) {
    used = 0;
    if (!args.empty()) {
        if (auto id = game_id_arg(args[0])) {
            used = 1;
            auto g = ctx_.store.game(*id);
            // Games of other communities stay theirs, unless this one follows the game or the
            // author plays in it (one player, several platforms).
            const auto followed_here = [&] {
                for (const auto& [platform, channel] : ctx_.store.bound_channels(g->id))
                    if (platform == ctx_.post.platform)
                        return true;
                return detail::seat_of(*g, ctx_.author.id).has_value() ||
                       g->challenger == ctx_.author.id;
            };
            if (!g || (g->platform != ctx_.post.platform && !followed_here())) {
                out_.say(tr("There is no game #{game}.", {{"game", *id}}));
                return std::nullopt;
            }
            return g;
        }
    }
    auto mine = my_games_here({GameStatus::Ongoing});
    if (mine.size() == 1)
        return mine.front();
    if (mine.size() > 1) {
        std::vector<std::string> ids;
        for (const auto& g : mine)
            ids.push_back("#" + std::to_string(g.id));
        out_.say(tr(
            "You play several games here ({games}): say which, for example {example}.",
            {{"games", join(ids, ", ")},
             {"example", ctx_.settings.prefix + command + " " + std::to_string(mine.front().id)}}));
        return std::nullopt;
    }
    if (for_viewing && !ctx_.post.direct) {
        auto here = ctx_.store.games_in_channel(ctx_.post.platform, ctx_.post.channel,
                                                {GameStatus::Ongoing});
        if (here.size() == 1)
            return here.front();
        if (here.empty()) {
            auto done = ctx_.store.games_in_channel(ctx_.post.platform, ctx_.post.channel,
                                                    {GameStatus::Finished, GameStatus::Aborted});
            if (!done.empty())
                return done.back();
        }
        if (here.size() > 1) {
            out_.say(tr("Several games are under way here: say which, for example {example}.",
                        {{"example", ctx_.settings.prefix + command + " " +
                                         std::to_string(here.front().id)}}));
            return std::nullopt;
        }
    }
    out_.say(tr("You have no game under way here. Use: {form}", {{"form", out_.form(command)}}));
    return std::nullopt;
}

std::optional<MyGame> Games::my_ongoing_game(const std::vector<std::string>& args,
                                             const std::string& command) {
    std::size_t used = 0;
    auto g = pick_game(args, used, command, false);
    if (!g)
        return std::nullopt;
    if (used < args.size()) {
        out_.usage_error(command,
                         tr("I did not understand \"{text}\".", {{"text", shorten(args[used])}}));
        return std::nullopt;
    }
    auto seat = detail::seat_of(*g, ctx_.author.id);
    if (g->status != GameStatus::Ongoing) {
        const rules::Variant* v = rules::find_variant(g->variant);
        out_.say(v ? over_line(*g, v->info())
                   : tr("Game #{game} is not under way.", {{"game", std::to_string(g->id)}}));
        return std::nullopt;
    }
    if (!seat) {
        out_.say(tr("You are not playing in game #{game}.", {{"game", std::to_string(g->id)}}));
        return std::nullopt;
    }
    return MyGame{load(*g), *seat};
}

void Games::remember(Loaded& l) {
    l.revision = ctx_.store.game_revision(l.rec.id);
    pending_cache_.insert_or_assign(
        l.rec.id, Service::CachedGame{l.game->clone(), *l.rng, l.plies, l.revision});
}

void Games::adopt(Cache cache) {
    for (auto& [game, entry] : cache)
        pending_cache_.insert_or_assign(game, std::move(entry));
}

Text Games::vs_line(const Loaded& l) {
    return tr("Game #{game}, {variant}: {white} vs {black}.",
              {{"game", std::to_string(l.rec.id)},
               {"variant", game_word("variant", l.info().title)},
               {"white", people_.who(l.rec, l.info(), Seat::White)},
               {"black", people_.who(l.rec, l.info(), Seat::Black)}});
}

void Games::finish(GameRecord& g, rules::Status status, const std::string& reason) {
    g.status = GameStatus::Finished;
    g.result = detail::result_text(status);
    g.reason = reason;
    ctx_.store.update_game(g);
    ctx_.store.clear_offer(g.id, OfferKind::Draw);
    ctx_.store.clear_offer(g.id, OfferKind::Takeback);
    game_over(g);
    ended_.back().finished = true;
}

void Games::abort_game(GameRecord& g) {
    g.status = GameStatus::Aborted;
    ctx_.store.update_game(g);
    ctx_.store.clear_offer(g.id, OfferKind::Draw);
    ctx_.store.clear_offer(g.id, OfferKind::Takeback);
    game_over(g);
}

void Games::ended_hiding_pieces(std::int64_t id) {
    for (Ended& e : ended_)
        if (e.game.id == id)
            e.hid_pieces = true;
}

bool Games::both_sides_moved(std::int64_t id) {
    const auto log = ctx_.store.actions(id);
    auto moved = [&](Seat seat) {
        return std::any_of(log.begin(), log.end(), [&](const auto& a) { return a.seat == seat; });
    };
    return moved(Seat::White) && moved(Seat::Black);
}

std::vector<GameRecord> Games::my_games_here(const std::vector<GameStatus>& statuses) {
    std::vector<GameRecord> out;
    auto all = ctx_.post.direct
                   ? ctx_.store.games_of_player(ctx_.author, statuses)
                   : ctx_.store.games_in_channel(ctx_.post.platform, ctx_.post.channel, statuses);
    for (auto& g : all)
        if (detail::seat_of(g, ctx_.author.id))
            out.push_back(std::move(g));
    return out;
}

} // namespace ghostpost::bot
