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

void PostRun::cmd_new(const std::vector<std::string>& args) {
    if (post_.direct) {
        say("Start games in a channel, where your opponent can see them.");
        return;
    }
    if (args.empty()) {
        std::vector<std::string> names;
        for (const auto* v : rules::variants())
            names.push_back(v->info().name);
        usage_error("new", "Name a variant (" + join(names, ", ") + ").");
        return;
    }
    const rules::Variant* variant = rules::find_variant(args[0]);
    if (variant == nullptr) {
        std::vector<std::string> names;
        for (const auto* v : rules::variants())
            names.push_back(v->info().name);
        say("There is no variant \"" + shorten(args[0], 20) + "\". Variants: " + join(names, ", ") +
            ".");
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
            (lw == "bot" || lw == "@" + lower(s_.settings_.bot_name))) {
            engine = default_engine_level;
            continue;
        }
        std::optional<Named> whom = opponent.empty() && !opponent_player ? named(w) : std::nullopt;
        if (whom && (whom->player || !whom->handle.empty())) {
            opponent_player = whom->player;
            opponent = whom->player ? at(*whom->player) : "@" + whom->handle;
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
            usage_error("new", "I did not understand \"" + shorten(w) + "\".");
            return;
        }
    }
    if ((opponent_player && opponent_player->id == author_.id) ||
        (!opponent_player && !opponent_handle.empty() && opponent_handle == author_.handle)) {
        say("You cannot challenge yourself.");
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
            say(team ? "window= is the time to vote each move, 5m or more: window=4h, window=1d."
                     : "window= is for team games: !new " + info.name + " team window=4h.");
            return;
        }
        window = w->second;
        given.erase(w);
    }
    if (team) {
        if (engine || opponent_player || !opponent_handle.empty()) {
            say("A team game is between two channels, not against a player: leave out the "
                "opponent. Nothing was created.");
            return;
        }
        if (given.count("tc") != 0) {
            say("A team game's clock is its vote window: use window= instead of tc=. Nothing was "
                "created.");
            return;
        }
        if (other_channel == post_.channel) {
            say("A team game is between two channels: name another one. Nothing was created.");
            return;
        }
        window = parse_time_control(window).value->text();
    }
    if (auto level = given.find("level"); level != given.end()) {
        const std::string& v = level->second;
        if (!engine || v.size() != 1 || v[0] < '1' || v[0] > '8') {
            say(engine
                    ? "The bot plays at level=1 to level=8."
                    : "level= is for games against the bot: !new " + info.name + " bot level=5.");
            return;
        }
        engine = v[0] - '0';
        given.erase(level);
    }
    auto service_options = take_service_options(given);
    if (!service_options)
        return;
    auto options = rules::resolve_options(info, given);
    if (!options) {
        say(capitalized(options.error().message) + ". Say " + s_.settings_.prefix + "rules " +
            info.name + " for its options.");
        return;
    }
    auto trial = variant->start(*options);
    if (!trial) {
        say(capitalized(trial.error().message) + ".");
        return;
    }
    std::vector<std::string> open;
    for (const auto& c : store_.games_of_player(author_, {GameStatus::Challenge}))
        if (c.challenger == author_.id)
            open.push_back("#" + std::to_string(c.id));
    if (static_cast<int>(open.size()) >= s_.settings_.max_open_challenges) {
        say("You have " + std::to_string(open.size()) + " open challenges (" + join(open, ", ") +
            "), as many as one player may have: cancel one with " + s_.settings_.prefix +
            "cancel <game> first. Nothing was created.");
        return;
    }
    if (refuse_over_game_limits(engine.has_value(), "Nothing was created."))
        return;
    GameRecord g;
    g.variant = info.name;
    g.options = *options;
    g.platform = post_.platform;
    g.channel = post_.channel;
    g.challenger = author_.id;
    g.challenged = opponent_handle;
    if (opponent_player)
        g.challenged_id = opponent_player->id;
    g.seed = new_seed();
    g.created_at = now_;
    g.time_control = service_options->time_control;
    if (engine && service_options->rated.value_or(false) && !s_.settings_.rated_bot_games) {
        say("Games against the bot are unrated here (the operator's setting): leave out "
            "rated=yes. Nothing was created.");
        return;
    }
    g.rated = service_options->rated.value_or(engine ? s_.settings_.rated_bot_games : true);
    std::string color_note;
    if (color == "random") {
        // The seed is secret and fresh, so its first byte is as good a coin as any.
        color = (g.seed[0] & 1) ? "black" : "white";
        color_note = " (drawn at random)";
    }
    g.challenger_color = color;
    g.status = GameStatus::Challenge;
    if (team) {
        new_team_challenge(std::move(g), other_channel, window);
        return;
    }
    if (engine) {
        start_engine_game(std::move(g), *engine);
        return;
    }
    g.id = store_.create_game(g);
    store_.set_next_deadline(g.id, now_ + s_.settings_.challenge_expiry); // when it lapses
    std::string id = std::to_string(g.id);
    std::string seat = info.seat_names[color == "white" ? 0 : 1];
    std::string target = opponent.empty() ? std::string("anyone here") : opponent;
    say(at(author_) + " challenges " + target + " to " + info.title + ", game #" + id + ". " +
            at(author_) + " would play " + seat + color_note +
            ". Options: " + options_text(*options) + ". " + service_options_text(g) + " " +
            (opponent.empty() ? std::string("Anyone here") : opponent) + ": answer " +
            s_.settings_.prefix + "accept " + id +
            (opponent.empty() ? std::string() : " or " + s_.settings_.prefix + "decline " + id) +
            ".",
        BoardOut{}, challenge_buttons(g));
}

bool PostRun::refuse_over_game_limits(bool against_bot, const std::string& then) {
    std::vector<std::string> all;
    std::vector<std::string> bot_games;
    for (const auto& g :
         store_.games_of_player(author_, {GameStatus::Challenge, GameStatus::Ongoing})) {
        const std::string id = "#" + std::to_string(g.id);
        if (g.status == GameStatus::Challenge) {
            if (g.challenger == author_.id)
                all.push_back(id);
            continue;
        }
        const auto seat = seat_of(g, author_.id);
        if (!seat)
            continue;
        all.push_back(id);
        const auto other = seated(g, *seat == Seat::White ? Seat::Black : Seat::White);
        if (other)
            if (const auto p = store_.player(*other); p && engine_level(p->user_id))
                bot_games.push_back(id);
    }
    const auto& limits = s_.settings_;
    if (static_cast<int>(all.size()) >= limits.max_open_games) {
        say("You have " + std::to_string(all.size()) +
            " games under way and open challenges, as many as one player may have (" +
            std::to_string(limits.max_open_games) + "): finish or cancel one first. " + then);
        return true;
    }
    if (against_bot && static_cast<int>(bot_games.size()) >= limits.max_bot_games) {
        say("You have " + std::to_string(bot_games.size()) + " games against the bot under way (" +
            join(bot_games, ", ") + "), as many as one player may have (" +
            std::to_string(limits.max_bot_games) + "): finish one first. " + then);
        return true;
    }
    return false;
}

void PostRun::cmd_answer(const std::vector<std::string>& args, const std::string& command) {
    const bool cancel = command == "cancel";
    std::vector<GameRecord> open;
    std::optional<std::int64_t> wanted;
    if (!args.empty()) {
        wanted = game_id_arg(args[0]);
        if (!wanted || args.size() > 1) {
            usage_error(command, "I did not understand \"" + shorten(args[wanted ? 1 : 0]) + "\".");
            return;
        }
    }
    auto mine_to_answer = [&](const GameRecord& g) {
        if (cancel)
            return g.challenger == author_.id || (wanted && moderator());
        if (g.challenger == author_.id)
            return false;
        if (g.challenged_id)
            return *g.challenged_id == author_.id;
        if (g.challenged.empty()) // open: to anyone in the channel where it was made
            return command == "accept" && !post_.direct && g.channel == post_.channel;
        return !author_.handle.empty() && g.challenged == author_.handle;
    };
    if (wanted) {
        auto g = store_.game(*wanted);
        if (!g || g->platform != post_.platform) {
            say("There is no game #" + std::to_string(*wanted) + ".");
            return;
        }
        if (g->status != GameStatus::Challenge) {
            say("Game #" + std::to_string(g->id) + " is not an open challenge.");
            return;
        }
        if (!mine_to_answer(*g)) {
            if (cancel)
                say("Only the challenger can cancel challenge #" + std::to_string(g->id) + ".");
            else if (g->challenged.empty() && !g->challenged_id && g->challenger != author_.id &&
                     command == "accept")
                say("Challenge #" + std::to_string(g->id) +
                    " is open to anyone in the channel where it was made: accept it there.");
            else
                say("Challenge #" + std::to_string(g->id) + " is not addressed to you.");
            return;
        }
        open.push_back(*g);
    } else {
        auto all = post_.direct ? store_.games_of_player(author_, {GameStatus::Challenge})
                                : store_.games_in_channel(post_.platform, post_.channel,
                                                          {GameStatus::Challenge});
        for (auto& g : all)
            if (mine_to_answer(g) && (cancel || !g.challenged.empty() || !post_.direct))
                open.push_back(std::move(g));
        if (open.empty()) {
            say(cancel ? "You have no open challenge here."
                       : "There is no challenge for you here.");
            return;
        }
        if (open.size() > 1) {
            std::vector<std::string> ids;
            for (const auto& g : open)
                ids.push_back("#" + std::to_string(g.id));
            say("Several challenges match (" + join(ids, ", ") + "): say which, for example " +
                s_.settings_.prefix + command + " " + std::to_string(open.front().id) + ".");
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
        store_.update_game(g);
        say_in(g,
               at(author_) + " declines challenge #" + id + " from " + mention(g.challenger) + ".");
        return;
    }
    if (cancel) {
        g.status = GameStatus::Cancelled;
        store_.update_game(g);
        if (g.challenger != author_.id) // a moderator's cancel of someone else's challenge
            mod_log("cancel #" + id);
        say_in(g, "Challenge #" + id + " is withdrawn.");
        return;
    }
    if (refuse_over_game_limits(false, "Challenge #" + id + " stays open."))
        return;
    g.challenged_id = author_.id;
    if (g.challenger_color == "black") {
        g.white = author_.id;
        g.black = g.challenger;
    } else {
        g.white = g.challenger;
        g.black = author_.id;
    }
    g.status = GameStatus::Ongoing;
    store_.update_game(g);
    Loaded l = load(g);
    sync_clocks(l);
    say_in(g,
           at(author_) + " accepts. " + vs_line(l) + seed_commitment(g, l.info()) + " " +
               next_line(l) + clock_line(l) + web_link(g.id),
           channel_board(l), game_buttons(l.rec));
}

} // namespace ghostpost::bot
