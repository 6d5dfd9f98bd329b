// Ratings: Glicko-2 per variant. Every rated game is a rating period of its own for both
// players, computed from the two ratings as they stood before the game, so the order in which
// simultaneous correspondence games end cannot favour anybody. A player's deviation does not
// grow with idle time: correspondence players pause for months without losing strength. A
// rated game's ratings change when it ends (Games::game_over); the channel hears of it in
// conclude()'s first subscriber (settle).
#include "ghostpost/league/rating.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/service/engine_player.h"
#include "post_run.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace ghostpost::bot {

using namespace detail;
using storage::RatingRecord;

namespace {

// Above this deviation a rating is provisional (marked "?"): the 95 % interval is still wider
// than about ±220 points.
constexpr double provisional_deviation = 110.0;
constexpr int leaderboard_size = 10;

std::string fixed(double value, int decimals) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

Text games_text(int n) {
    return tr("{count, plural, one {# game} other {# games}}", {{"count", n}});
}

std::string rating_text(const RatingRecord& r) {
    return fixed(r.rating, 1) + (r.deviation > provisional_deviation ? "?" : "");
}

Rating as_rating(const RatingRecord& r) {
    return {r.rating, r.deviation, r.volatility};
}

const rules::VariantInfo* variant_info(const std::string& name) {
    const rules::Variant* v = rules::find_variant(name);
    return v ? &v->info() : nullptr;
}

} // namespace

void Games::game_over(const GameRecord& g) {
    out_.game_ended(g.id);
    forecasts_.clear_forecasts(g);          // however it ended: nothing is left to answer
    parts_.memory.images.forget_game(g.id); // its public images now show what the rules hid
    Ended ended{g, {}};
    const bool rated =
        g.status == GameStatus::Finished && g.rated && g.white && g.black && *g.white != *g.black;
    if (rated) {
        const double white_score = g.result == "1-0" ? 1.0 : g.result == "0-1" ? 0.0 : 0.5;
        auto stored = [&](std::int64_t id) {
            auto r = ctx_.store.rating(id, g.variant);
            return r ? *r : RatingRecord{id, g.variant};
        };
        RatingRecord white = stored(*g.white), black = stored(*g.black);
        const Rating w = glicko2_update(as_rating(white), {{as_rating(black), white_score}});
        const Rating b = glicko2_update(as_rating(black), {{as_rating(white), 1.0 - white_score}});
        auto line = [&](const RatingRecord& before, const Rating& after) {
            return people_.mention(before.player_id) + " " + fixed(before.rating, 1) + " -> " +
                   fixed(after.rating, 1);
        };
        const auto* info = variant_info(g.variant);
        ended.rating_note = tr("Ratings in {variant} after game #{game}: {white}, {black}.",
                               {{"variant", game_word("variant", info ? info->title : g.variant)},
                                {"game", std::to_string(g.id)},
                                {"white", line(white, w)},
                                {"black", line(black, b)}});
        ctx_.store.save_rating(
            {white.player_id, g.variant, w.rating, w.deviation, w.volatility, white.games + 1},
            ctx_.now, g.id);
        ctx_.store.save_rating(
            {black.player_id, g.variant, b.rating, b.deviation, b.volatility, black.games + 1},
            ctx_.now, g.id);
    }
    ended_.push_back(std::move(ended));
}

void PostRun::conclude() {
    // Announcing ends no game, so the list cannot grow while it is worked through.
    const std::vector<Ended> ended = run_.games.take_ended();
    for (const GameEndSubscriber subscriber : game_end_subscribers)
        subscriber(run_, ended);
}

void settle(PostParts& run, const std::vector<Ended>& ended) {
    for (const auto& e : ended) {
        if (!e.rating_note.empty()) // where the game is read: its channel and those following it
            run.out.say_in(e.game, e.rating_note);
        run.tourneys.tourney_game_over(e.game);
    }
}

void cmd_rating(PostParts& run, const std::vector<std::string>& args) {
    PlayerRecord whom = run.ctx.author;
    const rules::VariantInfo* info = nullptr;
    bool named = false;
    // A handle may come without its '@' ("!rating bob"); a word that names a variant is the
    // variant (write "@chess" for a player called chess).
    auto handle_like = [](const std::string& a) {
        return !a.empty() && std::all_of(a.begin(), a.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
        });
    };
    for (const auto& a : args) {
        if (a.size() > 1 && a[0] == '@' && !named) {
            auto p = run.people.known_player(a);
            if (!p)
                return;
            whom = *p;
            named = true;
        } else if (!info && (info = variant_info(lower(a))) != nullptr) {
        } else if (!named && handle_like(a)) {
            auto p = run.people.known_player("@" + a);
            if (!p)
                return;
            whom = *p;
            named = true;
        } else {
            run.out.usage_error("rating",
                                tr("I did not understand \"{text}\".", {{"text", shorten(a)}}));
            return;
        }
    }
    if (info) {
        auto r = run.ctx.store.rating(whom.id, info->name);
        if (!r) {
            run.out.say(
                tr("{player} has no rating in {variant} yet: a first rated game starts "
                   "from 1500.",
                   {{"player", run.out.at(whom)}, {"variant", game_word("variant", info->title)}}));
            return;
        }
        const std::vector<i18n::Arg> said{{"player", run.out.at(whom)},
                                          {"variant", game_word("variant", info->title)},
                                          {"rating", fixed(r->rating, 1)},
                                          {"deviation", fixed(r->deviation, 1)},
                                          {"volatility", fixed(r->volatility, 5)},
                                          {"count", r->games}};
        run.out.say(r->deviation > provisional_deviation
                        ? tr("{player} in {variant}: {rating}, deviation {deviation}, volatility "
                             "{volatility}, {count, plural, one {# game} other {# games}} "
                             "(provisional).",
                             said)
                        : tr("{player} in {variant}: {rating}, deviation {deviation}, volatility "
                             "{volatility}, {count, plural, one {# game} other {# games}}.",
                             said));
        return;
    }
    auto all = run.ctx.store.ratings_of_player(whom.id);
    if (all.empty()) {
        run.out.say(tr("{player} has no rating yet: every rated game counts, one rating per "
                       "variant.",
                       {{"player", run.out.at(whom)}}));
        return;
    }
    // The table is written in the language of the reply it comes with.
    const std::string language = run.out.author_language();
    std::string table;
    for (const auto& r : all)
        table += r.variant + std::string(r.variant.size() < 12 ? 12 - r.variant.size() : 1, ' ') +
                 rating_text(r) + " " +
                 Replies::written(tr("(deviation {deviation}, {count, plural, one {# game} other "
                                     "{# games}})",
                                     {{"deviation", fixed(r.deviation, 1)}, {"count", r.games}}),
                                  language) +
                 "\n";
    run.out.say(
        tr("Ratings of {player} (? marks a provisional rating):", {{"player", run.out.at(whom)}}),
        table);
}

void cmd_leaderboard(PostParts& run, const std::vector<std::string>& args) {
    const rules::VariantInfo* info = args.size() == 1 ? variant_info(lower(args[0])) : nullptr;
    if (!info) {
        std::vector<std::string> names;
        for (const auto* v : rules::variants())
            names.push_back(v->info().name);
        run.out.usage_error(
            "leaderboard",
            args.empty()
                ? tr("Name a variant ({variants}).", {{"variants", join(names, ", ")}})
                : tr("I did not understand \"{text}\" ({variants}).",
                     {{"text", shorten(join(args, " "))}, {"variants", join(names, ", ")}}));
        return;
    }
    // The bot is no player: its levels stay off the board (at most eight of them to skip).
    auto best = run.ctx.store.leaderboard(run.ctx.post.platform, info->name, leaderboard_size + 8);
    std::erase_if(best, [&](const storage::RatingRecord& r) {
        return engine_level(run.people.player(r.player_id).user_id).has_value();
    });
    if (best.size() > static_cast<std::size_t>(leaderboard_size))
        best.resize(leaderboard_size);
    if (best.empty()) {
        run.out.say(tr("Nobody has a rating in {variant} yet: a rated game gives both players one.",
                       {{"variant", game_word("variant", info->title)}}));
        return;
    }
    std::vector<std::string> names;
    std::size_t width = 0;
    for (const auto& r : best) {
        names.push_back(run.out.at(run.people.player(r.player_id)));
        width = std::max(width, names.back().size());
    }
    // The table is written in the language of the reply it comes with.
    const std::string language = run.out.author_language();
    std::string table;
    for (std::size_t i = 0; i < best.size(); ++i) {
        std::string rank = std::to_string(i + 1) + ".";
        table += std::string(rank.size() < 3 ? 3 - rank.size() : 0, ' ') + rank + " " + names[i] +
                 std::string(width - names[i].size() + 2, ' ') + rating_text(best[i]) + "  " +
                 Replies::written(games_text(best[i].games), language) + "\n";
    }
    run.out.say(tr("Leaderboard of {variant} (? marks a provisional rating):",
                   {{"variant", game_word("variant", info->title)}}),
                table);
}

} // namespace ghostpost::bot
