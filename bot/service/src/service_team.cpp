// Team games: a channel plays as one. The team is a player of its own (an account
// "team:<channel>" on the channel's platform) that sits in the game's seat and carries the
// team's ratings; its members (who said !team join in the channel) vote there on each of its
// decisions, and the move with most votes is played when the window closes (the game's clock,
// per move) or as soon as every member has voted, a tie going to the move proposed first.
// What the rules tell the team privately goes to its channel, never to the other side's.
#include "ghostpost/league/clock.h"
#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"
#include "post_run.h"
#include "tourney_field.h"

#include <algorithm>
#include <map>

namespace ghostpost::bot {

using namespace detail;
using tourney::plural;

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

bool PostRun::is_team(const PlayerRecord& p) {
    return p.user_id.starts_with(team_prefix);
}

std::string PostRun::team_channel(const PlayerRecord& team) {
    return team.user_id.substr(team_prefix.size());
}

PlayerRecord PostRun::team_of(const std::string& platform, const std::string& channel) {
    const std::string id = std::string(team_prefix) + channel;
    if (auto known = store_.player_by_account(platform, id))
        return *known;
    return store_.upsert_player(platform, id, "team #" + channel, "");
}

std::optional<PlayerRecord> PostRun::team_here() {
    if (post_.direct)
        return std::nullopt;
    return store_.player_by_account(post_.platform, std::string(team_prefix) + post_.channel);
}

std::int64_t PostRun::team_turn(const Loaded& l) {
    return store_.game_revision(l.rec.id);
}

void PostRun::cmd_team(const std::vector<std::string>& args) {
    if (post_.direct) {
        say("A team is a channel: use " + s_.settings_.prefix + "team in the channel that plays.");
        return;
    }
    const std::string what = args.empty() ? std::string() : lower(args[0]);
    if (what == "join" || what == "leave") {
        if (args.size() > 1) {
            usage_error("team", "I did not understand \"" + shorten(args[1]) + "\".");
            return;
        }
        const PlayerRecord team = team_of(post_.platform, post_.channel);
        const bool changed =
            what == "join" ? store_.add_team_member(post_.platform, post_.channel, author_.id, now_)
                           : store_.remove_team_member(post_.platform, post_.channel, author_.id);
        const auto n = store_.team_members(post_.platform, post_.channel).size();
        if (what == "join")
            say(changed ? at(author_) + " joins " + team.name + " (" +
                              plural(static_cast<int>(n), "member", "members") +
                              "): post moves here to vote on the team's decisions."
                        : at(author_) + " is a member of " + team.name + " already.");
        else
            say(changed ? at(author_) + " leaves " + team.name + "."
                        : at(author_) + " is no member of " + team.name + ".");
        return;
    }
    if (what == "name") {
        std::string name;
        for (std::size_t i = 1; i < args.size(); ++i)
            name += (name.empty() ? "" : " ") + args[i];
        name = harmless_name(name);
        if (name.empty() || name.size() > 40) {
            usage_error("team", "Give the team a name of 1 to 40 characters.");
            return;
        }
        const auto members = store_.team_members(post_.platform, post_.channel);
        const bool member = std::find(members.begin(), members.end(), author_.id) != members.end();
        if (!member && !moderator()) {
            say("Only the team's members name it: " + s_.settings_.prefix + "team join first.");
            return;
        }
        const PlayerRecord team = team_of(post_.platform, post_.channel);
        store_.upsert_player(team.platform, team.user_id, "team " + name, "");
        if (!member) // a moderator's rename of a team not theirs
            mod_log("team " + post_.channel + " name " + name);
        say("This channel's team is now called team " + name + ".");
        return;
    }
    if (!what.empty()) {
        usage_error("team", "I did not understand \"" + shorten(args[0]) + "\".");
        return;
    }
    const auto team = team_here();
    const auto members = store_.team_members(post_.platform, post_.channel);
    if (!team || members.empty()) {
        say("This channel has no team yet: " + s_.settings_.prefix +
            "team join makes you a member, and " + s_.settings_.prefix +
            "new chess team window=4h challenges another channel.");
        return;
    }
    std::vector<std::string> names;
    for (auto id : members)
        names.push_back(quiet_name(id));
    std::string games;
    for (const auto& g : store_.games_of_player(*team, {GameStatus::Ongoing})) {
        const Loaded l = load(g);
        const Seat seat = *seat_of(g, team->id);
        const auto ds = deciders(l);
        games += " #" + std::to_string(g.id) + " against " +
                 mention(*seated(g, rules::opponent(seat))) +
                 (std::find(ds.begin(), ds.end(), seat) != ds.end() ? " (to vote)" : "") + ";";
    }
    if (!games.empty())
        games.back() = '.';
    say(team->name + ": " + plural(static_cast<int>(names.size()), "member", "members") + " (" +
        join(names, ", ") + ")." + (games.empty() ? "" : " Games:" + games));
}

void PostRun::new_team_challenge(GameRecord g, const std::string& other_channel,
                                 const std::string& window) {
    const PlayerRecord team = team_of(post_.platform, post_.channel);
    store_.add_team_member(post_.platform, post_.channel, author_.id, now_);
    g.challenger = team.id;
    g.challenged.clear();
    g.challenged_id.reset();
    g.time_control = window;
    g.id = store_.create_game(g);
    store_.set_next_deadline(g.id, now_ + s_.settings_.challenge_expiry);
    const std::string code = new_code();
    store_.put_code({code, "team", team.id, g.id, "", now_ + s_.settings_.challenge_expiry});
    const rules::Variant* v = rules::find_variant(g.variant);
    const auto& info = v->info();
    const std::string seat = info.seat_names[g.challenger_color == "white" ? 0 : 1];
    const std::string how = " Each side's members vote on its moves in their own channel; the "
                            "move with most votes is played when the " +
                            window + " window closes or when every member has voted.";
    const std::string take = s_.settings_.prefix + "join " + code;
    say(team.name + " (" + at(author_) + ") challenges another channel to a team game of " +
        info.title + ", game #" + std::to_string(g.id) + ": " + team.name + " would play " + seat +
        "." + how + " In the other channel, on any platform, a member posts " + take +
        " to take it.");
    if (!other_channel.empty())
        say_at(other_channel, team.name + " challenges this channel to a team game of " +
                                  info.title + " (game #" + std::to_string(g.id) + ")." + how +
                                  " Post " + take + " here to take it.");
}

void PostRun::join_team_challenge(const storage::LinkCode& code) {
    auto g = store_.game(code.game);
    if (!g || g->status != GameStatus::Challenge) {
        say("That team challenge is no longer open.");
        return;
    }
    if (post_.direct) {
        store_.put_code(code);
        say("Post the code in the channel that is to play as a team.");
        return;
    }
    const PlayerRecord challenger = player(g->challenger);
    if (challenger.platform == post_.platform && team_channel(challenger) == post_.channel) {
        store_.put_code(code);
        say("A team game is between two channels: post the code in the other one.");
        return;
    }
    const PlayerRecord team = team_of(post_.platform, post_.channel);
    store_.add_team_member(post_.platform, post_.channel, author_.id, now_);
    g->challenged_id = team.id;
    if (g->challenger_color == "black") {
        g->white = team.id;
        g->black = g->challenger;
    } else {
        g->white = g->challenger;
        g->black = team.id;
    }
    g->status = GameStatus::Ongoing;
    store_.update_game(*g);
    store_.bind_channel(g->id, post_.platform, post_.channel);
    Loaded l = load(*g);
    sync_clocks(l);
    say_in(*g,
           team.name + " (" + at(author_) + ") takes the team challenge. " + vs_line(l) +
               seed_commitment(*g, l.info()) + " " + next_line(l) + clock_line(l) + web_link(g->id),
           channel_board(l));
}

bool PostRun::try_team_vote(const std::string& text, const std::vector<std::string>& game_arg,
                            bool meant) {
    const auto team = team_here();
    if (!team)
        return false;
    const auto members = store_.team_members(post_.platform, post_.channel);
    if (std::find(members.begin(), members.end(), author_.id) == members.end()) {
        if (meant)
            say("Only " + team->name + "'s members vote: " + s_.settings_.prefix +
                "team join first.");
        return meant;
    }
    std::vector<std::pair<Loaded, Seat>> deciding;
    for (const auto& g : store_.games_of_player(*team, {GameStatus::Ongoing})) {
        if (!game_arg.empty() && "#" + std::to_string(g.id) != game_arg.front() &&
            std::to_string(g.id) != game_arg.front())
            continue;
        Loaded l = load(g);
        const Seat seat = *seat_of(g, team->id);
        const auto ds = deciders(l);
        if (std::find(ds.begin(), ds.end(), seat) != ds.end())
            deciding.emplace_back(std::move(l), seat);
    }
    const bool resign = lower(text) == resign_vote;
    if (deciding.empty()) {
        if (meant)
            say(team->name + " has no decision to vote on" +
                (game_arg.empty() ? std::string() : " in game " + game_arg.front()) + " now.");
        return meant;
    }
    if (deciding.size() > 1) {
        if (!meant && !resign && std::none_of(deciding.begin(), deciding.end(), [&](const auto& d) {
                return rules::looks_like_action(*d.first.game, d.second, text);
            }))
            return false;
        std::vector<std::string> ids;
        for (const auto& d : deciding)
            ids.push_back(std::to_string(d.first.rec.id));
        say(team->name + " decides in several games (#" + join(ids, ", #") +
            "): say which, for example " + s_.settings_.prefix + "vote " + ids.front() + " " +
            shorten(text, 20) + ".");
        return true;
    }
    auto& [l, seat] = deciding.front();
    if (!resign && !meant && !rules::looks_like_action(*l.game, seat, text))
        return false;
    const std::string id = std::to_string(l.rec.id);
    std::string action = std::string(resign_vote);
    if (!resign) {
        auto parsed = rules::parse_action(*l.game, seat, text);
        if (!parsed) {
            // The channel is the team's own: what only its seat may know is said here.
            const rules::RuleError& e = parsed.error();
            say("Not a vote in game #" + id + ": " +
                sentence_end(e.private_detail.empty() ? e.message : e.private_detail));
            return true;
        }
        if (l.game->anytime_action(seat, rules::word_key(text))) {
            say("Not a vote in game #" + id + ": a team votes on its moves only.");
            return true;
        }
        action = parsed->text;
    }
    const std::int64_t turn = team_turn(l);
    store_.put_team_vote(l.rec.id, turn, {author_.id, action, now_});
    const auto votes = store_.team_votes(l.rec.id, turn);
    const Tally tally = count(votes);
    std::size_t voted = 0;
    for (auto m : members)
        if (std::any_of(votes.begin(), votes.end(),
                        [&](const auto& v) { return v.player_id == m; }))
            ++voted;
    if (voted >= members.size()) {
        close_team_vote(l, seat, *team, "every member has voted");
        return true;
    }
    const auto rows = clock_rows(l.rec);
    const auto& c = rows[rules::index(seat)];
    const std::string closes =
        c.running_since != 0 ? "; the vote closes at " + format_utc(c.running_since + c.remaining)
                             : std::string();
    say(at(author_) + " votes " + action + " in game #" + id + ". Votes: " + tally.text + " (" +
        std::to_string(voted) + " of " + std::to_string(members.size()) + " members)" + closes +
        ".");
    return true;
}

void PostRun::cmd_vote(const std::vector<std::string>& args) {
    if (args.empty()) {
        usage_error("vote", "Say which move you vote for.");
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
    if (!try_team_vote(text, game, true))
        say("This channel plays no team game: " + s_.settings_.prefix + "vote is for team games (" +
            s_.settings_.prefix + "team).");
}

void PostRun::close_team_vote(Loaded& l, Seat seat, const PlayerRecord& team,
                              const std::string& why) {
    const std::int64_t turn = team_turn(l);
    const Tally tally = count(store_.team_votes(l.rec.id, turn));
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
    PostRun inner(s_, as_team);
    inner.author_ = team;
    inner.team_post_ = true;
    inner.say("The vote in game #" + id + " is closed (" + why + "): " + tally.winner + ", " +
              plural(tally.votes, "vote", "votes") +
              (tally.tie ? ", level with another and proposed first" : "") +
              ". Votes: " + tally.text + ".");
    if (tally.winner == resign_vote) {
        const Seat winner = rules::opponent(seat);
        const std::string resigner = inner.who(l.rec, l.info(), seat);
        inner.finish(l.rec,
                     winner == Seat::White ? rules::Status::WhiteWins : rules::Status::BlackWins,
                     "resignation");
        inner.say_in(l.rec, resigner + " resigns game #" + id + " by vote. " +
                                inner.over_line(l.rec, l.info()));
    } else {
        inner.play(l, seat, tally.winner);
    }
    inner.conclude();
    for (auto& [game, entry] : inner.pending_cache_)
        pending_cache_.insert_or_assign(game, std::move(entry));
}

bool PostRun::close_due_team_votes(Loaded& l) {
    bool changed = false;
    for (Seat seat : deciders(l)) {
        if (l.rec.status != GameStatus::Ongoing)
            break;
        const auto pid = seated(l.rec, seat);
        if (!pid)
            continue;
        const auto team = store_.player(*pid);
        if (!team || !is_team(*team))
            continue;
        auto rows = clock_rows(l.rec);
        auto& c = rows[rules::index(seat)];
        if (c.running_since == 0 || time_left({c.remaining, c.running_since}, now_) > 0)
            continue;
        if (store_.team_votes(l.rec.id, team_turn(l)).empty())
            continue; // no vote at all: the team loses on time as a player would
        // Charged up to the window's end only, so the clock does not flag the move it makes.
        c.remaining = 0;
        c.running_since = 0;
        store_.put_clock(l.rec.id, c);
        close_team_vote(l, seat, *team, "the window closed");
        changed = true;
    }
    return changed;
}

} // namespace ghostpost::bot
