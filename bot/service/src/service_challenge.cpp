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

namespace {

// What the words of "!new <variant> ..." ask for, read in turn.
struct Challenge {
    std::string opponent, color = "white";
    std::optional<PlayerRecord> opponent_player;
    std::string opponent_handle;
    bool color_given = false;
    rules::Options given;
    std::optional<int> engine; // the level, when the opponent is the bot itself
    bool team = false;         // this channel's team against another channel's
    std::string other_channel; // a team game's other channel, when named
    std::string window = "1d"; // a team game's time to vote each move
};

// The variant "!new" names; replies with the variants and returns nullptr when there is none.
const rules::Variant* new_variant(PostParts& run, const Args& args) {
    std::vector<std::string> names;
    for (const auto* v : rules::variants())
        names.push_back(v->info().name);
    if (args.empty()) {
        run.out.usage_error("new",
                            tr("Name a variant ({variants}).", {{"variants", join(names, ", ")}}));
        return nullptr;
    }
    const rules::Variant* variant = rules::find_variant(args[0]);
    if (variant == nullptr)
        run.out.say(tr("There is no variant \"{name}\". Variants: {variants}.",
                       {{"name", shorten(args[0], 20)}, {"variants", join(names, ", ")}}));
    return variant;
}

// The opponent, the side and the options of "!new"; false, after replying, when a word does
// not read or the author challenges themselves.
bool read_challenge(PostParts& run, const rules::VariantInfo& info, const Args& args,
                    Challenge& c) {
    auto& [opponent, color, opponent_player, opponent_handle, color_given, given, engine, team,
           other_channel, window] = c;
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
            // The variant's own seat names (VariantInfo::seat_names) say the same.
            color = lw == lower(info.seat_names[0])   ? "white"
                    : lw == lower(info.seat_names[1]) ? "black"
                                                      : lw;
            color_given = true;
        } else if (auto eq = w.find('='); eq != std::string::npos && eq > 0) {
            given[lower(w.substr(0, eq))] = w.substr(eq + 1);
        } else {
            run.out.usage_error("new",
                                tr("I did not understand \"{text}\".", {{"text", shorten(w)}}));
            return false;
        }
    }
    if ((opponent_player && opponent_player->id == run.ctx.author.id) ||
        (!opponent_player && !opponent_handle.empty() &&
         opponent_handle == run.ctx.author.handle)) {
        run.out.say(tr("You cannot challenge yourself."));
        return false;
    }
    return true;
}

// A team game: "team" or "team=#channel" (that channel, on this platform, hears of it), and
// the window to vote each move in, "window=4h" (a day when left out). False, after replying,
// when they do not go together.
bool read_team(PostParts& run, const rules::VariantInfo& info, Challenge& c) {
    if (auto named_team = c.given.find("team"); named_team != c.given.end()) {
        c.other_channel = named_team->second;
        // The platform writes a channel named in a post "#<channel id>" (Post::text).
        if (c.other_channel.starts_with("#"))
            c.other_channel.erase(0, 1);
        c.team = true;
        c.given.erase(named_team);
    }
    if (auto w = c.given.find("window"); w != c.given.end()) {
        const auto span = parse_span(w->second);
        if (!c.team || !span || *span < 5 * 60) {
            run.out.say(c.team ? tr("window= is the time to vote each move, 5m or more: window=4h, "
                                    "window=1d.")
                               : tr("window= is for team games: {example}.",
                                    {{"example", "!new " + info.name + " team window=4h"}}));
            return false;
        }
        c.window = w->second;
        c.given.erase(w);
    }
    if (!c.team)
        return true;
    if (c.engine || c.opponent_player || !c.opponent_handle.empty()) {
        run.out.say(tr("A team game is between two channels, not against a player: leave out the "
                       "opponent. Nothing was created."));
        return false;
    }
    if (c.given.count("tc") != 0) {
        run.out.say(tr("A team game's clock is its vote window: use window= instead of tc=. "
                       "Nothing was created."));
        return false;
    }
    if (c.other_channel == run.ctx.post.channel) {
        run.out.say(
            tr("A team game is between two channels: name another one. Nothing was created."));
        return false;
    }
    c.window = parse_time_control(c.window).value->text();
    return true;
}

// "level=N" of a game against the bot; false, after replying, when it does not read.
bool read_level(PostParts& run, const rules::VariantInfo& info, Challenge& c) {
    if (auto level = c.given.find("level"); level != c.given.end()) {
        const std::string& v = level->second;
        if (!c.engine || v.size() != 1 || v[0] < '1' || v[0] > '8') {
            run.out.say(c.engine ? tr("The bot plays at level=1 to level=8.")
                                 : tr("level= is for games against the bot: {example}.",
                                      {{"example", "!new " + info.name + " bot level=5"}}));
            return false;
        }
        c.engine = v[0] - '0';
        c.given.erase(level);
    }
    return true;
}

// True, after replying, when the author already has as many open challenges as one may have.
bool refuse_over_challenge_limit(PostParts& run) {
    std::vector<std::string> open;
    for (const auto& c : run.ctx.store.games_of_player(run.ctx.author, {GameStatus::Challenge}))
        if (c.challenger == run.ctx.author.id)
            open.push_back("#" + std::to_string(c.id));
    if (static_cast<int>(open.size()) < run.ctx.settings.max_open_challenges)
        return false;
    run.out.say(tr("You have {count, plural, one {# open challenge} other {# open challenges}} "
                   "({games}), as many as one "
                   "player may have: cancel one with {command} first. Nothing was created.",
                   {{"count", open.size()},
                    {"games", join(open, ", ")},
                    {"command", run.ctx.settings.prefix + "cancel <game>"}}));
    return true;
}

// Stores the challenge `g` of a player and says it in the channel, with its buttons.
void post_challenge(PostParts& run, const rules::VariantInfo& info, const Challenge& c,
                    GameRecord& g, const Text& color_note) {
    g.id = run.ctx.store.create_game(g);
    run.ctx.store.set_next_deadline(g.id, run.ctx.now +
                                              run.ctx.settings.challenge_expiry); // when it lapses
    std::string id = std::to_string(g.id);
    const Text seat = game_word("seat", info.seat_names[c.color == "white" ? 0 : 1]);
    const std::string me = run.out.at(run.ctx.author);
    const std::string accept = run.ctx.settings.prefix + "accept " + id;
    const Text challenge =
        c.opponent.empty()
            ? tr("{player} challenges anyone here to {variant}, game #{game}.",
                 {{"player", me}, {"variant", game_word("variant", info.title)}, {"game", id}})
            : tr("{player} challenges {opponent} to {variant}, game #{game}.",
                 {{"player", me},
                  {"opponent", c.opponent},
                  {"variant", game_word("variant", info.title)},
                  {"game", id}});
    const Text answer = c.opponent.empty()
                            ? tr("Anyone here: answer {accept}.", {{"accept", accept}})
                            : tr("{opponent}: answer {accept} or {decline}.",
                                 {{"opponent", c.opponent},
                                  {"accept", accept},
                                  {"decline", run.ctx.settings.prefix + "decline " + id}});
    run.out.say(challenge + verbatim(" ") +
                    tr("{player} would play {seat}{note}. Options: {options}.",
                       {{"player", me},
                        {"seat", seat},
                        {"note", color_note},
                        {"options", g.options.empty() ? trc("options", "none")
                                                      : verbatim(options_text(g.options))}}) +
                    verbatim(" ") + service_options_text(g) + verbatim(" ") + answer,
                BoardOut{}, challenge_buttons(run.ctx.settings.prefix, g));
}

} // namespace

bool refuse_over_game_limits(PostParts& run, bool against_bot, const Text& then) {
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
        run.out.say(tr("You have {count, plural, one {# game under way or open challenge} other {# "
                       "games under way and open challenges}}, "
                       "as many as one player may have ({limit}): finish or cancel one first.",
                       {{"count", all.size()}, {"limit", std::to_string(limits.max_open_games)}}) +
                    verbatim(" ") + then);
        return true;
    }
    if (against_bot && static_cast<int>(bot_games.size()) >= limits.max_bot_games) {
        run.out.say(tr("You have {count, plural, one {# game against the bot under way} other {# "
                       "games against the bot under way}} "
                       "({games}), as many as one player may have ({limit}): finish one first.",
                       {{"count", bot_games.size()},
                        {"games", join(bot_games, ", ")},
                        {"limit", std::to_string(limits.max_bot_games)}}) +
                    verbatim(" ") + then);
        return true;
    }
    return false;
}

void cmd_new(PostParts& run, const Args& args) {
    if (run.ctx.post.direct) {
        run.out.say(tr("Start games in a channel, where your opponent can see them."));
        return;
    }
    const rules::Variant* variant = new_variant(run, args);
    if (variant == nullptr)
        return;
    const rules::VariantInfo& info = variant->info();
    Challenge c;
    if (!read_challenge(run, info, args, c) || !read_team(run, info, c) ||
        !read_level(run, info, c))
        return;
    auto service_options = run.clocks.take_service_options(c.given);
    if (!service_options)
        return;
    auto options = rules::resolve_options(info, c.given);
    if (!options) {
        run.out.say(Text::capitalized(reason_of(options.error())) + verbatim(" ") +
                    tr("Say {command} for its options.",
                       {{"command", run.ctx.settings.prefix + "rules " + info.name}}));
        return;
    }
    auto trial = variant->start(*options);
    if (!trial) {
        run.out.say(Text::capitalized(reason_of(trial.error())));
        return;
    }
    if (refuse_over_challenge_limit(run) ||
        refuse_over_game_limits(run, c.engine.has_value(), tr("Nothing was created.")))
        return;
    GameRecord g;
    g.variant = info.name;
    g.options = *options;
    g.platform = run.ctx.post.platform;
    g.channel = run.ctx.post.channel;
    g.challenger = run.ctx.author.id;
    g.challenged = c.opponent_handle;
    if (c.opponent_player)
        g.challenged_id = c.opponent_player->id;
    g.seed = run.dice.new_seed();
    g.created_at = run.ctx.now;
    g.time_control = service_options->time_control;
    if (c.engine && service_options->rated.value_or(false) && !run.ctx.settings.rated_bot_games) {
        run.out.say(tr("Games against the bot are unrated here (the operator's setting): leave "
                       "out rated=yes. Nothing was created."));
        return;
    }
    g.rated = service_options->rated.value_or(c.engine ? run.ctx.settings.rated_bot_games : true);
    Text color_note;
    if (c.color == "random") {
        // The seed is secret and fresh, so its first byte is as good a coin as any.
        c.color = (g.seed[0] & 1) ? "black" : "white";
        color_note = tr(" (drawn at random)");
    }
    g.challenger_color = c.color;
    g.status = GameStatus::Challenge;
    if (c.team)
        run.teams.new_team_challenge(std::move(g), c.other_channel, c.window);
    else if (c.engine)
        start_engine_game(run, std::move(g), *c.engine);
    else
        post_challenge(run, info, c, g, color_note);
}

namespace {

// Whether challenge `g` is the author's to answer with `command` (`named`: by its number).
bool mine_to_answer(PostParts& run, const GameRecord& g, const std::string& command, bool named) {
    if (command == "cancel")
        return g.challenger == run.ctx.author.id || (named && run.people.moderator());
    if (g.challenger == run.ctx.author.id)
        return false;
    if (g.challenged_id)
        return *g.challenged_id == run.ctx.author.id;
    if (g.challenged.empty()) // open: to anyone in the channel where it was made
        return command == "accept" && !run.ctx.post.direct && g.channel == run.ctx.post.channel;
    return !run.ctx.author.handle.empty() && g.challenged == run.ctx.author.handle;
}

// The challenge `wanted` names, when the author may answer it with `command`; replies and
// returns nullopt otherwise.
std::optional<GameRecord> named_challenge(PostParts& run, std::int64_t wanted,
                                          const std::string& command) {
    const bool cancel = command == "cancel";
    auto g = run.ctx.store.game(wanted);
    if (!g || g->platform != run.ctx.post.platform) {
        run.out.say(tr("There is no game #{game}.", {{"game", std::to_string(wanted)}}));
        return std::nullopt;
    }
    const std::string id = std::to_string(g->id);
    if (g->status != GameStatus::Challenge) {
        run.out.say(tr("Game #{game} is not an open challenge.", {{"game", id}}));
        return std::nullopt;
    }
    if (!mine_to_answer(run, *g, command, true)) {
        if (cancel)
            run.out.say(tr("Only the challenger can cancel challenge #{game}.", {{"game", id}}));
        else if (g->challenged.empty() && !g->challenged_id && g->challenger != run.ctx.author.id &&
                 command == "accept")
            run.out.say(tr("Challenge #{game} is open to anyone in the channel where it was made: "
                           "accept it there.",
                           {{"game", id}}));
        else
            run.out.say(tr("Challenge #{game} is not addressed to you.", {{"game", id}}));
        return std::nullopt;
    }
    return g;
}

// The one challenge here the author may answer with `command`; replies and returns nullopt
// when there is none or several.
std::optional<GameRecord> challenge_here(PostParts& run, const std::string& command) {
    const bool cancel = command == "cancel";
    std::vector<GameRecord> open;
    auto all = run.ctx.post.direct
                   ? run.ctx.store.games_of_player(run.ctx.author, {GameStatus::Challenge})
                   : run.ctx.store.games_in_channel(run.ctx.post.platform, run.ctx.post.channel,
                                                    {GameStatus::Challenge});
    for (auto& g : all)
        if (mine_to_answer(run, g, command, false) &&
            (cancel || !g.challenged.empty() || !run.ctx.post.direct))
            open.push_back(std::move(g));
    if (open.empty()) {
        run.out.say(cancel ? tr("You have no open challenge here.")
                           : tr("There is no challenge for you here."));
        return std::nullopt;
    }
    if (open.size() > 1) {
        std::vector<std::string> ids;
        for (const auto& g : open)
            ids.push_back("#" + std::to_string(g.id));
        run.out.say(tr("Several challenges match ({games}): say which, for example {example}.",
                       {{"games", join(ids, ", ")},
                        {"example", run.ctx.settings.prefix + command + " " +
                                        std::to_string(open.front().id)}}));
        return std::nullopt;
    }
    return open.front();
}

// Challenge `g` accepted by the author: the game starts, and its channel hears it.
void start_accepted(PostParts& run, GameRecord g) {
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
                   tr("{player} accepts.", {{"player", run.out.at(run.ctx.author)}}) +
                       verbatim(" ") + run.games.vs_line(l) +
                       run.dice.seed_commitment(g, l.info()) + " " + run.games.next_line(l) +
                       run.clocks.clock_line(l) + run.boards.web_link(g.id),
                   run.boards.channel_board(l), game_buttons(run.ctx.settings.prefix, l.rec));
}

} // namespace

void cmd_answer(PostParts& run, const Args& args, const std::string& command) {
    const bool cancel = command == "cancel";
    std::optional<std::int64_t> wanted;
    if (!args.empty()) {
        wanted = game_id_arg(args[0]);
        if (!wanted || args.size() > 1) {
            run.out.usage_error(command, tr("I did not understand \"{text}\".",
                                            {{"text", shorten(args[wanted ? 1 : 0])}}));
            return;
        }
    }
    const auto found =
        wanted ? named_challenge(run, *wanted, command) : challenge_here(run, command);
    if (!found)
        return;
    GameRecord g = *found;
    const rules::Variant* variant = rules::find_variant(g.variant);
    if (variant == nullptr)
        throw std::runtime_error("game #" + std::to_string(g.id) + ": unknown variant");
    std::string id = std::to_string(g.id);
    if (command == "decline") {
        g.status = GameStatus::Declined;
        run.ctx.store.update_game(g);
        run.out.say_in(g, tr("{player} declines challenge #{game} from {challenger}.",
                             {{"player", run.out.at(run.ctx.author)},
                              {"game", id},
                              {"challenger", run.people.mention(g.challenger)}}));
        return;
    }
    if (cancel) {
        g.status = GameStatus::Cancelled;
        run.ctx.store.update_game(g);
        if (g.challenger != run.ctx.author.id) // a moderator's cancel of someone else's challenge
            mod_log(run.ctx, "cancel #" + id);
        run.out.say_in(g, tr("Challenge #{game} is withdrawn.", {{"game", id}}));
        return;
    }
    if (refuse_over_game_limits(run, false, tr("Challenge #{game} stays open.", {{"game", id}})))
        return;
    start_accepted(run, std::move(g));
}

} // namespace ghostpost::bot
