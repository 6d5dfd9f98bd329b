// Team games (Teams, teams.h; !team and !vote): a channel plays as one. The team is a player of its
// own (an account "team:<channel>" on the channel's platform) that sits in the game's seat and
// carries the team's ratings; its members (who said !team join in the channel) vote there on each
// of its decisions, and the move with most votes is played when the window closes (the game's
// clock, per move) or as soon as every member has voted, a tie going to the move proposed first.
// What the rules tell the team privately goes to its channel, never to the other side's.
#include "ghostpost/league/clock.h"
#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"
#include "post_run.h"

#include <algorithm>
#include <map>

namespace ghostpost::bot {

using namespace detail;

namespace {

constexpr std::string_view team_prefix = "team:";
// The vote that resigns the game for the team; no move of any variant is written so.
constexpr std::string_view resign_vote = "resign";

struct Tally {
    std::string winner; // empty: no votes
    int votes = 0;      // the winner's
    bool tie = false;   // another move had as many, proposed later
    std::string text;   // "Nf3 2, e4 1"
};

// Counts the votes, the earliest first (Store::team_votes): the move with most votes wins, a
// tie the one whose first vote came first.
Tally count(const std::vector<storage::TeamVote>& votes) {
    std::vector<std::pair<std::string, int>> order; // by first proposal
    for (const auto& v : votes) {
        auto it = std::find_if(order.begin(), order.end(),
                               [&](const auto& e) { return e.first == v.action; });
        if (it == order.end())
            order.emplace_back(v.action, 1);
        else
            ++it->second;
    }
    Tally out;
    for (const auto& [action, n] : order) {
        out.text += (out.text.empty() ? "" : ", ") + action + " " + std::to_string(n);
        if (n > out.votes) {
            out.winner = action;
            out.votes = n;
            out.tie = false;
        } else if (n == out.votes) {
            out.tie = true;
        }
    }
    return out;
}

} // namespace

PlayerRecord Teams::team_of(const std::string& platform, const std::string& channel) {
    const std::string id = std::string(team_prefix) + channel;
    if (auto known = ctx_.store.player_by_account(platform, id))
        return *known;
    return ctx_.store.upsert_player(platform, id, "team #" + channel, "");
}

std::optional<PlayerRecord> Teams::team_here() {
    if (ctx_.post.direct)
        return std::nullopt;
    return ctx_.store.player_by_account(ctx_.post.platform,
                                        std::string(team_prefix) + ctx_.post.channel);
}

std::int64_t Teams::team_turn(const Loaded& l) {
    return ctx_.store.game_revision(l.rec.id);
}

namespace {

// "!team join" or "!team leave" (`what`).
void team_join_or_leave(PostParts& run, const Args& args, const std::string& what) {
    if (args.size() > 1) {
        run.out.usage_error("team",
                            tr("I did not understand \"{text}\".", {{"text", shorten(args[1])}}));
        return;
    }
    const PlayerRecord team = run.teams.team_of(run.ctx.post.platform, run.ctx.post.channel);
    const bool changed =
        what == "join" ? run.ctx.store.add_team_member(run.ctx.post.platform, run.ctx.post.channel,
                                                       run.ctx.author.id, run.ctx.now)
                       : run.ctx.store.remove_team_member(run.ctx.post.platform,
                                                          run.ctx.post.channel, run.ctx.author.id);
    const auto n = run.ctx.store.team_members(run.ctx.post.platform, run.ctx.post.channel).size();
    const std::string player = run.out.at(run.ctx.author);
    if (what == "join")
        run.out.say(
            changed ? tr("{player} joins {team} ({count, plural, one {# member} "
                         "other {# members}}): post moves here to vote on the team's decisions.",
                         {{"player", player}, {"team", team.name}, {"count", n}})
                    : tr("{player} is a member of {team} already.",
                         {{"player", player}, {"team", team.name}}));
    else
        run.out.say(changed
                        ? tr("{player} leaves {team}.", {{"player", player}, {"team", team.name}})
                        : tr("{player} is no member of {team}.",
                             {{"player", player}, {"team", team.name}}));
}

// "!team name <name>": by a member, or a moderator.
void team_name(PostParts& run, const Args& args) {
    std::string name;
    for (std::size_t i = 1; i < args.size(); ++i)
        name += (name.empty() ? "" : " ") + args[i];
    name = harmless_name(name);
    if (name.empty() || name.size() > 40) {
        run.out.usage_error("team", tr("Give the team a name of 1 to 40 characters."));
        return;
    }
    const auto members = run.ctx.store.team_members(run.ctx.post.platform, run.ctx.post.channel);
    const bool member =
        std::find(members.begin(), members.end(), run.ctx.author.id) != members.end();
    if (!member && !run.people.moderator()) {
        run.out.say(tr("Only the team's members name it: {command} first.",
                       {{"command", run.ctx.settings.prefix + "team join"}}));
        return;
    }
    const PlayerRecord team = run.teams.team_of(run.ctx.post.platform, run.ctx.post.channel);
    run.ctx.store.upsert_player(team.platform, team.user_id, "team " + name, "");
    if (!member) // a moderator's rename of a team not theirs
        mod_log(run.ctx, "team " + run.ctx.post.channel + " name " + name);
    run.out.say(tr("This channel's team is now called {team}.", {{"team", "team " + name}}));
}

// "!team" alone: the channel's team, its members and its games.
void team_show(PostParts& run) {
    const auto team = run.teams.team_here();
    const auto members = run.ctx.store.team_members(run.ctx.post.platform, run.ctx.post.channel);
    if (!team || members.empty()) {
        run.out.say(tr("This channel has no team yet: {join} makes you a member, and {challenge} "
                       "challenges another channel.",
                       {{"join", run.ctx.settings.prefix + "team join"},
                        {"challenge", run.ctx.settings.prefix + "new chess team window=4h"}}));
        return;
    }
    std::vector<std::string> names;
    for (auto id : members)
        names.push_back(run.people.quiet_name(id));
    Text games;
    for (const auto& g : run.ctx.store.games_of_player(*team, {GameStatus::Ongoing})) {
        const Loaded l = run.games.load(g);
        const Seat seat = *detail::seat_of(g, team->id);
        const auto ds = deciders(l);
        const std::vector<i18n::Arg> args{
            {"game", std::to_string(g.id)},
            {"player", run.people.mention(*detail::seated(g, rules::opponent(seat)))}};
        if (!games.empty())
            games += verbatim("; ");
        games += std::find(ds.begin(), ds.end(), seat) != ds.end()
                     ? tr("#{game} against {player} (to vote)", args)
                     : tr("#{game} against {player}", args);
    }
    Text said = tr("{team}: {count, plural, one {# member} other {# members}} ({names}).",
                   {{"team", team->name}, {"count", names.size()}, {"names", join(names, ", ")}});
    if (!games.empty())
        said += verbatim(" ") + tr("Games: {games}.", {{"games", games}});
    run.out.say(said);
}

} // namespace

void cmd_team(PostParts& run, const std::vector<std::string>& args) {
    if (run.ctx.post.direct) {
        run.out.say(tr("A team is a channel: use {command} in the channel that plays.",
                       {{"command", run.ctx.settings.prefix + "team"}}));
        return;
    }
    const std::string what = args.empty() ? std::string() : lower(args[0]);
    if (what == "join" || what == "leave")
        team_join_or_leave(run, args, what);
    else if (what == "name")
        team_name(run, args);
    else if (!what.empty())
        run.out.usage_error("team",
                            tr("I did not understand \"{text}\".", {{"text", shorten(args[0])}}));
    else
        team_show(run);
}

void Teams::new_team_challenge(GameRecord g, const std::string& other_channel,
                               const std::string& window) {
    const PlayerRecord team = team_of(ctx_.post.platform, ctx_.post.channel);
    ctx_.store.add_team_member(ctx_.post.platform, ctx_.post.channel, ctx_.author.id, ctx_.now);
    g.challenger = team.id;
    g.challenged.clear();
    g.challenged_id.reset();
    g.time_control = window;
    g.id = ctx_.store.create_game(g);
    ctx_.store.set_next_deadline(g.id, ctx_.now + ctx_.settings.challenge_expiry);
    const std::string code = new_code();
    ctx_.store.put_code(
        {code, "team", team.id, g.id, "", ctx_.now + ctx_.settings.challenge_expiry});
    const rules::Variant* v = rules::find_variant(g.variant);
    const auto& info = v->info();
    const Text seat = game_word("seat", info.seat_names[g.challenger_color == "white" ? 0 : 1]);
    const Text variant = game_word("variant", info.title);
    const std::string id = std::to_string(g.id);
    const Text how = tr("Each side's members vote on its moves in their own channel; the move with "
                        "most votes is played when the {window} window closes or when every "
                        "member has voted.",
                        {{"window", window}});
    const std::string take = ctx_.settings.prefix + "join " + code;
    out_.say(tr("{team} ({player}) challenges another channel to a team game of {variant}, "
                "game #{game}: {team} would play {seat}.",
                {{"team", team.name},
                 {"player", out_.at(ctx_.author)},
                 {"variant", variant},
                 {"game", id},
                 {"seat", seat}}) +
             verbatim(" ") + how + verbatim(" ") +
             tr("In the other channel, on any platform, a member posts {command} to take it.",
                {{"command", take}}));
    if (!other_channel.empty())
        out_.say_at(other_channel, tr("{team} challenges this channel to a team game of {variant} "
                                      "(game #{game}).",
                                      {{"team", team.name}, {"variant", variant}, {"game", id}}) +
                                       verbatim(" ") + how + verbatim(" ") +
                                       tr("Post {command} here to take it.", {{"command", take}}));
}

void Teams::join_team_challenge(const storage::LinkCode& code) {
    auto g = ctx_.store.game(code.game);
    if (!g || g->status != GameStatus::Challenge) {
        out_.say(tr("That team challenge is no longer open."));
        return;
    }
    if (ctx_.post.direct) {
        ctx_.store.put_code(code);
        out_.say(tr("Post the code in the channel that is to play as a team."));
        return;
    }
    const PlayerRecord challenger = people_.player(g->challenger);
    if (challenger.platform == ctx_.post.platform &&
        team_channel(challenger) == ctx_.post.channel) {
        ctx_.store.put_code(code);
        out_.say(tr("A team game is between two channels: post the code in the other one."));
        return;
    }
    const PlayerRecord team = team_of(ctx_.post.platform, ctx_.post.channel);
    ctx_.store.add_team_member(ctx_.post.platform, ctx_.post.channel, ctx_.author.id, ctx_.now);
    g->challenged_id = team.id;
    if (g->challenger_color == "black") {
        g->white = team.id;
        g->black = g->challenger;
    } else {
        g->white = g->challenger;
        g->black = team.id;
    }
    g->status = GameStatus::Ongoing;
    ctx_.store.update_game(*g);
    ctx_.store.bind_channel(g->id, ctx_.post.platform, ctx_.post.channel);
    Loaded l = games_.load(*g);
    clocks_.sync_clocks(l);
    out_.say_in(*g,
                tr("{team} ({player}) takes the team challenge.",
                   {{"team", team.name}, {"player", out_.at(ctx_.author)}}) +
                    verbatim(" ") + games_.vs_line(l) + dice_.seed_commitment(*g, l.info()) + " " +
                    games_.next_line(l) + clocks_.clock_line(l) + boards_.web_link(g->id),
                boards_.channel_board(l));
}

bool Teams::try_team_vote(const std::string& text, const std::vector<std::string>& game_arg,
                          bool meant) {
    const auto team = team_here();
    if (!team)
        return false;
    const auto members = ctx_.store.team_members(ctx_.post.platform, ctx_.post.channel);
    if (std::find(members.begin(), members.end(), ctx_.author.id) == members.end()) {
        if (meant)
            out_.say(tr("Only {team}'s members vote: {command} first.",
                        {{"team", team->name}, {"command", ctx_.settings.prefix + "team join"}}));
        return meant;
    }
    std::vector<std::pair<Loaded, Seat>> deciding;
    for (const auto& g : ctx_.store.games_of_player(*team, {GameStatus::Ongoing})) {
        if (!game_arg.empty() && "#" + std::to_string(g.id) != game_arg.front() &&
            std::to_string(g.id) != game_arg.front())
            continue;
        Loaded l = games_.load(g);
        const Seat seat = *detail::seat_of(g, team->id);
        const auto ds = deciders(l);
        if (std::find(ds.begin(), ds.end(), seat) != ds.end())
            deciding.emplace_back(std::move(l), seat);
    }
    const bool resign = lower(text) == resign_vote;
    if (deciding.empty()) {
        if (meant)
            out_.say(game_arg.empty()
                         ? tr("{team} has no decision to vote on now.", {{"team", team->name}})
                         : tr("{team} has no decision to vote on in game {game} now.",
                              {{"team", team->name}, {"game", game_arg.front()}}));
        return meant;
    }
    if (deciding.size() > 1) {
        if (!meant && !resign && std::none_of(deciding.begin(), deciding.end(), [&](const auto& d) {
                return rules::looks_like_action(*d.first.game, d.second, text,
                                                out_.author_language());
            }))
            return false;
        std::vector<std::string> ids;
        for (const auto& d : deciding)
            ids.push_back(std::to_string(d.first.rec.id));
        out_.say(tr(
            "{team} decides in several games ({games}): say which, for example "
            "{example}.",
            {{"team", team->name},
             {"games", "#" + join(ids, ", #")},
             {"example", ctx_.settings.prefix + "vote " + ids.front() + " " + shorten(text, 20)}}));
        return true;
    }
    auto& [l, seat] = deciding.front();
    if (!resign && !meant && !rules::looks_like_action(*l.game, seat, text, out_.author_language()))
        return false;
    const std::string id = std::to_string(l.rec.id);
    std::string action = std::string(resign_vote);
    if (!resign) {
        auto parsed = rules::parse_action(*l.game, seat, text, out_.author_language());
        if (!parsed) {
            // The channel is the team's own: what only its seat may know is said here.
            const rules::RuleError& e = parsed.error();
            out_.say(
                tr("Not a vote in game #{game}: {reason}",
                   {{"game", id},
                    {"reason", e.private_detail.empty() ? reason_of(e) : private_reason_of(e)}}));
            return true;
        }
        if (l.game->anytime_action(seat, rules::word_key(text))) {
            out_.say(
                tr("Not a vote in game #{game}: a team votes on its moves only.", {{"game", id}}));
            return true;
        }
        action = parsed->text;
    }
    record_vote(l, seat, *team, members, action);
    return true;
}

void Teams::record_vote(Loaded& l, Seat seat, const PlayerRecord& team,
                        const std::vector<std::int64_t>& members, const std::string& action) {
    const std::int64_t turn = team_turn(l);
    ctx_.store.put_team_vote(l.rec.id, turn, {ctx_.author.id, action, ctx_.now});
    const auto votes = ctx_.store.team_votes(l.rec.id, turn);
    const Tally tally = count(votes);
    std::size_t voted = 0;
    for (auto m : members)
        if (std::any_of(votes.begin(), votes.end(),
                        [&](const auto& v) { return v.player_id == m; }))
            ++voted;
    if (voted >= members.size()) {
        // TRANSLATORS: why a team's vote on its move closed: "The vote ... is closed ({reason})".
        close_team_vote(l, seat, team, N_("every member has voted"));
        return;
    }
    const auto rows = clocks_.clock_rows(l.rec);
    const auto& c = rows[rules::index(seat)];
    std::vector<i18n::Arg> args{{"votes", tally.text}, {"voted", voted}, {"count", members.size()}};
    if (c.running_since != 0)
        args.emplace_back("time", format_utc(c.running_since + c.remaining));
    out_.say(tr("{player} votes {move} in game #{game}.", {{"player", out_.at(ctx_.author)},
                                                           {"move", action},
                                                           {"game", std::to_string(l.rec.id)}}) +
             verbatim(" ") +
             (c.running_since != 0 ? tr("Votes: {votes} ({voted} of {count, plural, one {# member} "
                                        "other {# members}}); the vote closes at {time}.",
                                        args)
                                   : tr("Votes: {votes} ({voted} of {count, plural, one {# member} "
                                        "other {# members}}).",
                                        args)));
}

void cmd_vote(PostParts& run, const std::vector<std::string>& args) {
    if (args.empty()) {
        run.out.usage_error("vote", tr("Say which move you vote for."));
        return;
    }
    std::vector<std::string> game;
    std::size_t from = 0;
    if (args.size() > 1 && game_id_arg(args[0])) {
        game.push_back(std::to_string(*game_id_arg(args[0])));
        from = 1;
    }
    std::string text;
    for (std::size_t i = from; i < args.size(); ++i)
        text += (text.empty() ? "" : " ") + args[i];
    if (!run.teams.try_team_vote(text, game, true))
        run.out.say(tr("This channel plays no team game: {command} is for team games ({team}).",
                       {{"command", run.ctx.settings.prefix + "vote"},
                        {"team", run.ctx.settings.prefix + "team"}}));
}

void Teams::close_team_vote(Loaded& l, Seat seat, const PlayerRecord& team,
                            const std::string& why) {
    const std::int64_t turn = team_turn(l);
    const Tally tally = count(ctx_.store.team_votes(l.rec.id, turn));
    if (tally.winner.empty())
        return;
    const std::string id = std::to_string(l.rec.id);
    // Said in the team's channel only: how a team voted is its own business.
    Post as_team;
    as_team.platform = team.platform;
    as_team.channel = team_channel(team);
    as_team.direct = true;
    as_team.author_id = team.user_id;
    as_team.author_name = team.name;
    PostRun inner(parts_, as_team);
    PostParts& in = inner.parts();
    in.ctx.author = team;
    in.ctx.team_post = true;
    // `why` is a message of the catalog (N_ where close_team_vote is called).
    const std::vector<i18n::Arg> closed{
        {"game", id}, {"reason", tr(why)}, {"move", tally.winner}, {"count", tally.votes}};
    const Text result =
        tally.tie ? tr("The vote in game #{game} is closed ({reason}): {move}, "
                       "{count, plural, one {# vote} other {# votes}}, level with another and "
                       "proposed first.",
                       closed)
                  : tr("The vote in game #{game} is closed ({reason}): {move}, "
                       "{count, plural, one {# vote} other {# votes}}.",
                       closed);
    // TRANSLATORS: {votes} is each move voted for with its number of votes ("Nf3 2, e4 1").
    in.out.say(result + verbatim(" ") + tr("Votes: {votes}.", {{"votes", tally.text}}));
    if (tally.winner == resign_vote) {
        const Seat winner = rules::opponent(seat);
        const Text resigner = in.people.who(l.rec, l.info(), seat);
        in.games.finish(l.rec,
                        winner == Seat::White ? rules::Status::WhiteWins : rules::Status::BlackWins,
                        "resignation");
        in.out.say_in(l.rec, tr("{player} resigns game #{game} by vote.",
                                {{"player", resigner}, {"game", id}}) +
                                 verbatim(" ") + in.games.over_line(l.rec, l.info()));
    } else {
        in.session.play(l, seat, tally.winner);
    }
    inner.conclude();
    games_.adopt(in.games.take_cache());
}

bool Teams::close_due_team_votes(Loaded& l) {
    bool changed = false;
    for (Seat seat : deciders(l)) {
        if (l.rec.status != GameStatus::Ongoing)
            break;
        const auto pid = detail::seated(l.rec, seat);
        if (!pid)
            continue;
        const auto team = ctx_.store.player(*pid);
        if (!team || !is_team(*team))
            continue;
        auto rows = clocks_.clock_rows(l.rec);
        auto& c = rows[rules::index(seat)];
        if (c.running_since == 0 || time_left({c.remaining, c.running_since}, ctx_.now) > 0)
            continue;
        if (ctx_.store.team_votes(l.rec.id, team_turn(l)).empty())
            continue; // no vote at all: the team loses on time as a player would
        // Charged up to the window's end only, so the clock does not flag the move it makes.
        c.remaining = 0;
        c.running_since = 0;
        ctx_.store.put_clock(l.rec.id, c);
        // TRANSLATORS: why a team's vote on its move closed: "The vote ... is closed ({reason})";
        // the window is the time the team has to vote.
        close_team_vote(l, seat, *team, N_("the window closed"));
        changed = true;
    }
    return changed;
}

} // namespace ghostpost::bot
