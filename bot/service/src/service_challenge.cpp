// Challenges: !new, and the answers to one (!accept, !decline, !cancel).
#include "ghostpost/league/clock.h"
#include "ghostpost/render/png.h"
#include "ghostpost/render/text.h"
#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/rules/replay.h"
#include "ghostpost/service/command.h"
#include "ghostpost/service/engine_player.h"
#include "ghostpost/service/game_loader.h"
#include "post_run.h"

#include <algorithm>
#include <stdexcept>

namespace ghostpost::bot {

using namespace detail;

void cmd_new(PostParts& run, const std::vector<std::string>& args) {
    if (run.ctx.post.direct) {
        run.out.say("Start games in a channel, where your opponent can see them.");
        return;
    }
    if (args.empty()) {
        std::vector<std::string> names;
        for (const auto* v : rules::variants())
            names.push_back(v->info().name);
        run.out.usage_error("new", "Name a variant (" + join(names, ", ") + ").");
        return;
    }
    const rules::Variant* variant = rules::find_variant(args[0]);
    if (variant == nullptr) {
        std::vector<std::string> names;
        for (const auto* v : rules::variants())
            names.push_back(v->info().name);
        run.out.say("There is no variant \"" + shorten(args[0], 20) +
                    "\". Variants: " + join(names, ", ") + ".");
        return;
    }
    const rules::VariantInfo& info = variant->info();
    std::string opponent, color = "white";
    std::optional<PlayerRecord> opponent_player;
    std::string opponent_handle;
    bool color_given = false;
    rules::Options given;
    std::optional<int> engine; // the level, when the opponent is the bot itself
    bool team = false;         // this channel's team against another channel's
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& w = args[i];
        std::string lw = lower(w);
        if (lw == "team" && !team) {
            team = true;
            continue;
        }
        if (opponent.empty() && !opponent_player && !engine &&
            (lw == "bot" || lw == "@" + lower(run.ctx.settings.bot_name))) {
            engine = default_engine_level;
            continue;
        }
        std::optional<People::Named> whom =
            opponent.empty() && !opponent_player ? run.people.named(w) : std::nullopt;
        if (whom && (whom->player || !whom->handle.empty())) {
            opponent_player = whom->player;
            opponent = whom->player ? run.out.at(*whom->player) : "@" + whom->handle;
            if (whom->player)
                opponent_handle = whom->player->handle;
            else
                opponent_handle = whom->handle;
        } else if (!color_given &&
                   (lw == "white" || lw == "black" || lw == "random" ||
                    lw == lower(info.seat_names[0]) || lw == lower(info.seat_names[1]))) {
            // The variant's own seat names (Ghost Chess's Paradigm and Ghost) say the same.
            color = lw == lower(info.seat_names[0])   ? "white"
                    : lw == lower(info.seat_names[1]) ? "black"
                                                      : lw;
            color_given = true;
        } else if (auto eq = w.find('='); eq != std::string::npos && eq > 0) {
            given[lower(w.substr(0, eq))] = w.substr(eq + 1);
        } else {
            run.out.usage_error("new", "I did not understand \"" + shorten(w) + "\".");
            return;
        }
    }
    if ((opponent_player && opponent_player->id == run.ctx.author.id) ||
        (!opponent_player && !opponent_handle.empty() &&
         opponent_handle == run.ctx.author.handle)) {
        run.out.say("You cannot challenge yourself.");
        return;
    }
    // A team game: "team" or "team=#channel" (that channel, on this platform, hears of it),
    // and the window to vote each move in, "window=4h" (a day when left out).
    std::string other_channel, window = "1d";
    if (auto named_team = given.find("team"); named_team != given.end()) {
        other_channel = named_team->second;
        if (other_channel.starts_with("<#") && other_channel.ends_with(">")) // Discord's form
            other_channel = other_channel.substr(2, other_channel.size() - 3);
        else if (other_channel.starts_with("#"))
            other_channel.erase(0, 1);
        team = true;
        given.erase(named_team);
    }
    if (auto w = given.find("window"); w != given.end()) {
        const auto span = parse_span(w->second);
        if (!team || !span || *span < 5 * 60) {
            run.out.say(
                team ? "window= is the time to vote each move, 5m or more: window=4h, window=1d."
                     : "window= is for team games: !new " + info.name + " team window=4h.");
            return;
        }
        window = w->second;
        given.erase(w);
    }
    if (team) {
        if (engine || opponent_player || !opponent_handle.empty()) {
            run.out.say("A team game is between two channels, not against a player: leave out the "
                        "opponent. Nothing was created.");
            return;
        }
        if (given.count("tc") != 0) {
            run.out.say(
                "A team game's clock is its vote window: use window= instead of tc=. Nothing was "
                "created.");
            return;
        }
        if (other_channel == run.ctx.post.channel) {
            run.out.say(
                "A team game is between two channels: name another one. Nothing was created.");
            return;
        }
        window = parse_time_control(window).value->text();
    }
    if (auto level = given.find("level"); level != given.end()) {
        const std::string& v = level->second;
        if (!engine || v.size() != 1 || v[0] < '1' || v[0] > '8') {
            run.out.say(engine ? "The bot plays at level=1 to level=8."
                               : "level= is for games against the bot: !new " + info.name +
                                     " bot level=5.");
            return;
        }
        engine = v[0] - '0';
        given.erase(level);
    }
    auto service_options = run.clocks.take_service_options(given);
    if (!service_options)
        return;
    auto options = rules::resolve_options(info, given);
    if (!options) {
        run.out.say(capitalized(options.error().message) + ". Say " + run.ctx.settings.prefix +
                    "rules " + info.name + " for its options.");
        return;
    }
    auto trial = variant->start(*options);
    if (!trial) {
        run.out.say(capitalized(trial.error().message) + ".");
        return;
    }
    std::vector<std::string> open;
    for (const auto& c : run.ctx.store.games_of_player(run.ctx.author, {GameStatus::Challenge}))
        if (c.challenger == run.ctx.author.id)
            open.push_back("#" + std::to_string(c.id));
    if (static_cast<int>(open.size()) >= run.ctx.settings.max_open_challenges) {
        run.out.say("You have " + std::to_string(open.size()) + " open challenges (" +
                    join(open, ", ") + "), as many as one player may have: cancel one with " +
                    run.ctx.settings.prefix + "cancel <game> first. Nothing was created.");
        return;
    }
    if (refuse_over_game_limits(run, engine.has_value(), "Nothing was created."))
        return;
    GameRecord g;
    g.variant = info.name;
    g.options = *options;
    g.platform = run.ctx.post.platform;
    g.channel = run.ctx.post.channel;
    g.challenger = run.ctx.author.id;
    g.challenged = opponent_handle;
    if (opponent_player)
        g.challenged_id = opponent_player->id;
    g.seed = run.dice.new_seed();
    g.created_at = run.ctx.now;
    g.time_control = service_options->time_control;
    if (engine && service_options->rated.value_or(false) && !run.ctx.settings.rated_bot_games) {
        run.out.say("Games against the bot are unrated here (the operator's setting): leave out "
                    "rated=yes. Nothing was created.");
        return;
    }
    g.rated = service_options->rated.value_or(engine ? run.ctx.settings.rated_bot_games : true);
    std::string color_note;
    if (color == "random") {
        // The seed is secret and fresh, so its first byte is as good a coin as any.
        color = (g.seed[0] & 1) ? "black" : "white";
        color_note = " (drawn at random)";
    }
    g.challenger_color = color;
    g.status = GameStatus::Challenge;
    if (team) {
        run.teams.new_team_challenge(std::move(g), other_channel, window);
        return;
    }
    if (engine) {
        start_engine_game(run, std::move(g), *engine);
        return;
    }
    g.id = run.ctx.store.create_game(g);
    run.ctx.store.set_next_deadline(g.id, run.ctx.now +
                                              run.ctx.settings.challenge_expiry); // when it lapses
    std::string id = std::to_string(g.id);
    std::string seat = info.seat_names[color == "white" ? 0 : 1];
    std::string target = opponent.empty() ? std::string("anyone here") : opponent;
    run.out.say(run.out.at(run.ctx.author) + " challenges " + target + " to " + info.title +
                    ", game #" + id + ". " + run.out.at(run.ctx.author) + " would play " + seat +
                    color_note + ". Options: " + options_text(*options) + ". " +
                    service_options_text(g) + " " +
                    (opponent.empty() ? std::string("Anyone here") : opponent) + ": answer " +
                    run.ctx.settings.prefix + "accept " + id +
                    (opponent.empty() ? std::string()
                                      : " or " + run.ctx.settings.prefix + "decline " + id) +
                    ".",
                BoardOut{}, challenge_buttons(run.ctx.settings.prefix, g));
}

bool refuse_over_game_limits(PostParts& run, bool against_bot, const std::string& then) {
    std::vector<std::string> all;
    std::vector<std::string> bot_games;
    for (const auto& g : run.ctx.store.games_of_player(
             run.ctx.author, {GameStatus::Challenge, GameStatus::Ongoing})) {
        const std::string id = "#" + std::to_string(g.id);
        if (g.status == GameStatus::Challenge) {
            if (g.challenger == run.ctx.author.id)
                all.push_back(id);
            continue;
        }
        const auto seat = detail::seat_of(g, run.ctx.author.id);
        if (!seat)
            continue;
        all.push_back(id);
        const auto other = detail::seated(g, *seat == Seat::White ? Seat::Black : Seat::White);
        if (other)
            if (const auto p = run.ctx.store.player(*other); p && engine_level(p->user_id))
                bot_games.push_back(id);
    }
    const auto& limits = run.ctx.settings;
    if (static_cast<int>(all.size()) >= limits.max_open_games) {
        run.out.say("You have " + std::to_string(all.size()) +
                    " games under way and open challenges, as many as one player may have (" +
                    std::to_string(limits.max_open_games) + "): finish or cancel one first. " +
                    then);
        return true;
    }
    if (against_bot && static_cast<int>(bot_games.size()) >= limits.max_bot_games) {
        run.out.say("You have " + std::to_string(bot_games.size()) +
                    " games against the bot under way (" + join(bot_games, ", ") +
                    "), as many as one player may have (" + std::to_string(limits.max_bot_games) +
                    "): finish one first. " + then);
        return true;
    }
    return false;
}

void cmd_answer(PostParts& run, const std::vector<std::string>& args, const std::string& command) {
    const bool cancel = command == "cancel";
    std::vector<GameRecord> open;
    std::optional<std::int64_t> wanted;
    if (!args.empty()) {
        wanted = game_id_arg(args[0]);
        if (!wanted || args.size() > 1) {
            run.out.usage_error(command,
                                "I did not understand \"" + shorten(args[wanted ? 1 : 0]) + "\".");
            return;
        }
    }
    auto mine_to_answer = [&](const GameRecord& g) {
        if (cancel)
            return g.challenger == run.ctx.author.id || (wanted && run.people.moderator());
        if (g.challenger == run.ctx.author.id)
            return false;
        if (g.challenged_id)
            return *g.challenged_id == run.ctx.author.id;
        if (g.challenged.empty()) // open: to anyone in the channel where it was made
            return command == "accept" && !run.ctx.post.direct && g.channel == run.ctx.post.channel;
        return !run.ctx.author.handle.empty() && g.challenged == run.ctx.author.handle;
    };
    if (wanted) {
        auto g = run.ctx.store.game(*wanted);
        if (!g || g->platform != run.ctx.post.platform) {
            run.out.say("There is no game #" + std::to_string(*wanted) + ".");
            return;
        }
        if (g->status != GameStatus::Challenge) {
            run.out.say("Game #" + std::to_string(g->id) + " is not an open challenge.");
            return;
        }
        if (!mine_to_answer(*g)) {
            if (cancel)
                run.out.say("Only the challenger can cancel challenge #" + std::to_string(g->id) +
                            ".");
            else if (g->challenged.empty() && !g->challenged_id &&
                     g->challenger != run.ctx.author.id && command == "accept")
                run.out.say(
                    "Challenge #" + std::to_string(g->id) +
                    " is open to anyone in the channel where it was made: accept it there.");
            else
                run.out.say("Challenge #" + std::to_string(g->id) + " is not addressed to you.");
            return;
        }
        open.push_back(*g);
    } else {
        auto all = run.ctx.post.direct
                       ? run.ctx.store.games_of_player(run.ctx.author, {GameStatus::Challenge})
                       : run.ctx.store.games_in_channel(run.ctx.post.platform, run.ctx.post.channel,
                                                        {GameStatus::Challenge});
        for (auto& g : all)
            if (mine_to_answer(g) && (cancel || !g.challenged.empty() || !run.ctx.post.direct))
                open.push_back(std::move(g));
        if (open.empty()) {
            run.out.say(cancel ? "You have no open challenge here."
                               : "There is no challenge for you here.");
            return;
        }
        if (open.size() > 1) {
            std::vector<std::string> ids;
            for (const auto& g : open)
                ids.push_back("#" + std::to_string(g.id));
            run.out.say("Several challenges match (" + join(ids, ", ") +
                        "): say which, for example " + run.ctx.settings.prefix + command + " " +
                        std::to_string(open.front().id) + ".");
            return;
        }
    }
    GameRecord g = open.front();
    const rules::Variant* variant = rules::find_variant(g.variant);
    if (variant == nullptr)
        throw std::runtime_error("game #" + std::to_string(g.id) + ": unknown variant");
    std::string id = std::to_string(g.id);
    if (command == "decline") {
        g.status = GameStatus::Declined;
        run.ctx.store.update_game(g);
        run.out.say_in(g, run.out.at(run.ctx.author) + " declines challenge #" + id + " from " +
                              run.people.mention(g.challenger) + ".");
        return;
    }
    if (cancel) {
        g.status = GameStatus::Cancelled;
        run.ctx.store.update_game(g);
        if (g.challenger != run.ctx.author.id) // a moderator's cancel of someone else's challenge
            mod_log(run.ctx, "cancel #" + id);
        run.out.say_in(g, "Challenge #" + id + " is withdrawn.");
        return;
    }
    if (refuse_over_game_limits(run, false, "Challenge #" + id + " stays open."))
        return;
    g.challenged_id = run.ctx.author.id;
    if (g.challenger_color == "black") {
        g.white = run.ctx.author.id;
        g.black = g.challenger;
    } else {
        g.white = g.challenger;
        g.black = run.ctx.author.id;
    }
    g.status = GameStatus::Ongoing;
    run.ctx.store.update_game(g);
    Loaded l = run.games.load(g);
    run.clocks.sync_clocks(l);
    run.out.say_in(g,
                   run.out.at(run.ctx.author) + " accepts. " + run.games.vs_line(l) +
                       run.dice.seed_commitment(g, l.info()) + " " + run.games.next_line(l) +
                       run.clocks.clock_line(l) + run.boards.web_link(g.id),
                   run.boards.channel_board(l), game_buttons(run.ctx.settings.prefix, l.rec));
}

} // namespace ghostpost::bot
