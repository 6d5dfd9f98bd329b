// Moderators: the platform user ids named in the configuration (ServiceSettings::moderators).
// They end, pause and void games and ban users from anywhere on the platform; each action is
// written to the audit log in the same transaction as the action itself, so the log never
// misses one nor lists one that did not happen. !mod's actions are a table of their own
// (mod_rows: name, usage, handler), as the commands are.
#include "ghostpost/league/clock.h"
#include "ghostpost/rules/registry.h"
#include "post_run.h"

namespace ghostpost::bot {

using namespace detail;

bool refuse_banned(PostContext& ctx) {
    if (ctx.post.author_id.empty())
        return false; // the time-driven job acts for nobody in particular
    // A ban of any account of the player holds on all of them (!link): the player is banned,
    // not one account. No reply: an answer per post would spend the channel's send budget.
    if (ctx.store.ban(ctx.post.platform, ctx.post.author_id))
        return true;
    std::vector<std::string> platforms = ctx.settings.platforms;
    platforms.push_back(ctx.post.platform);
    if (const auto home = ctx.store.player(ctx.author.id))
        platforms.push_back(home->platform);
    std::sort(platforms.begin(), platforms.end());
    platforms.erase(std::unique(platforms.begin(), platforms.end()), platforms.end());
    for (const std::string& platform : platforms)
        if (const auto there = ctx.store.account_on(ctx.author.id, platform))
            if (ctx.store.ban(there->platform, there->user_id))
                return true;
    return false;
}

void mod_log(PostContext& ctx, const std::string& action) {
    ctx.store.log_mod_action({0, ctx.post.platform, ctx.author.name, action, ctx.now});
}

void announce(PostContext& ctx, Replies& out, const GameRecord& g, const Text& text) {
    out.say_in(g, text);
    if (!ctx.post.direct && g.channel != ctx.post.channel)
        out.say(text);
}

namespace {

// A game a moderator's action is about: ongoing, on the post's platform.
struct ModGame {
    GameRecord g;
    std::string gid;
    std::string moderator; // "@name", who acts
};

void mod_show_log(PostParts& run, const Args&) {
    auto entries = run.ctx.store.mod_actions(run.ctx.post.platform, 20);
    if (entries.empty()) {
        run.out.say(tr("The moderator log is empty."));
        return;
    }
    std::string text;
    for (const auto& e : entries)
        text += format_utc(e.at) + " @" + e.moderator + ": " + e.action + "\n";
    run.out.say(tr("Moderator log, latest {count, plural, one {# action} other {# actions}}:",
                   {{"count", entries.size()}}),
                text);
}

// The user "ban @name" or "unban @name" names; replies and returns nullopt when there is none.
std::optional<PlayerRecord> ban_target(PostParts& run, const Args& args, bool unban) {
    const std::string sub = lower(args[0]);
    if (args.size() < 2 || args[1].size() < 2 || args[1][0] != '@' || (unban && args.size() > 2)) {
        run.out.usage_error("mod",
                            tr("Name the user, for example {example}.",
                               {{"example", run.ctx.settings.prefix + "mod " + sub + " @name"}}));
        return std::nullopt;
    }
    auto n = run.people.named(args[1]);
    if (n && n->player)
        return n->player;
    run.out.say(
        tr("I do not know {player} yet. Nothing was done.", {{"player", shorten(args[1], 30)}}));
    return std::nullopt;
}

void mod_ban(PostParts& run, const Args& args) {
    auto target = ban_target(run, args, false);
    if (!target)
        return;
    const auto& mods = run.ctx.settings.moderators;
    if (std::find(mods.begin(), mods.end(), target->user_id) != mods.end()) {
        run.out.say(tr("{player} is a moderator and cannot be banned. Nothing was done.",
                       {{"player", run.out.at(*target)}}));
        return;
    }
    std::vector<std::string> words(args.begin() + 2, args.end());
    const std::string reason = shorten(join(words, " "), 100);
    run.ctx.store.put_ban(
        {run.ctx.post.platform, target->user_id, run.ctx.author.name, reason, run.ctx.now});
    mod_log(run.ctx,
            "ban " + run.out.at(*target) + (reason.empty() ? std::string() : " (" + reason + ")"));
    const std::string player = run.out.at(*target);
    const std::string moderator = run.out.at(run.ctx.author);
    const std::string command = run.ctx.settings.prefix + "mod unban @" + target->name;
    run.out.say(reason.empty()
                    ? tr("{player} is banned by moderator {moderator}: their commands and moves "
                         "are refused until {command}.",
                         {{"player", player}, {"moderator", moderator}, {"command", command}})
                    : tr("{player} is banned by moderator {moderator} ({reason}): their commands "
                         "and moves are refused until {command}.",
                         {{"player", player},
                          {"moderator", moderator},
                          {"reason", reason},
                          {"command", command}}));
}

void mod_unban(PostParts& run, const Args& args) {
    auto target = ban_target(run, args, true);
    if (!target)
        return;
    if (!run.ctx.store.ban(run.ctx.post.platform, target->user_id)) {
        run.out.say(
            tr("{player} is not banned. Nothing was done.", {{"player", run.out.at(*target)}}));
        return;
    }
    run.ctx.store.remove_ban(run.ctx.post.platform, target->user_id);
    mod_log(run.ctx, "unban " + run.out.at(*target));
    run.out.say(tr("{player} is no longer banned (moderator {moderator}).",
                   {{"player", run.out.at(*target)}, {"moderator", run.out.at(run.ctx.author)}}));
}

void mod_void(PostParts& run, const Args&, ModGame& m) {
    GameRecord& g = m.g;
    g.status = GameStatus::Aborted;
    g.result.clear();
    g.reason = "void";
    run.ctx.store.update_game(g);
    run.ctx.store.clear_offer(g.id, OfferKind::Draw);
    run.ctx.store.clear_offer(g.id, OfferKind::Takeback);
    run.games.game_over(g);
    mod_log(run.ctx, "void #" + m.gid);
    announce(run.ctx, run.out, g,
             tr("Game #{game} is void (moderator {moderator}): it counts for nobody.",
                {{"game", m.gid}, {"moderator", m.moderator}}));
}

void mod_adjudicate(PostParts& run, const Args& args, ModGame& m) {
    Loaded l = run.games.load(m.g);
    const std::string r = args[2];
    if (r != "1-0" && r != "0-1" && r != "1/2-1/2") {
        run.out.say(tr("A result is 1-0, 0-1 or 1/2-1/2, not \"{text}\". Nothing was done.",
                       {{"text", shorten(r, 20)}}));
        return;
    }
    run.games.finish(l.rec,
                     r == "1-0"   ? rules::Status::WhiteWins
                     : r == "0-1" ? rules::Status::BlackWins
                                  : rules::Status::Draw,
                     "adjudication");
    run.clocks.sync_clocks(l);
    mod_log(run.ctx, "adjudicate #" + m.gid + " " + r);
    announce(run.ctx, run.out, l.rec,
             tr("Game #{game} is adjudicated (moderator {moderator}).",
                {{"game", m.gid}, {"moderator", m.moderator}}) +
                 verbatim(" ") + run.games.over_line(l.rec, l.info()));
}

void mod_forfeit(PostParts& run, const Args& args, ModGame& m) {
    Loaded l = run.games.load(m.g);
    auto who_named = run.people.named(args[2]);
    auto target = who_named ? who_named->player : std::nullopt;
    std::optional<Seat> seat = target ? detail::seat_of(l.rec, target->id) : std::nullopt;
    if (!seat) {
        run.out.say(tr("{player} is not playing in game #{game}. Nothing was done.",
                       {{"player", shorten(args[2], 30)}, {"game", m.gid}}));
        return;
    }
    const Text loser = run.people.who(l.rec, l.info(), *seat);
    run.games.finish(l.rec,
                     *seat == Seat::White ? rules::Status::BlackWins : rules::Status::WhiteWins,
                     "forfeit");
    run.clocks.sync_clocks(l);
    mod_log(run.ctx, "forfeit #" + m.gid + " " + run.out.at(*target));
    announce(run.ctx, run.out, l.rec,
             tr("{player} forfeits game #{game} (moderator {moderator}).",
                {{"player", loser}, {"game", m.gid}, {"moderator", m.moderator}}) +
                 verbatim(" ") + run.games.over_line(l.rec, l.info()));
}

void mod_extend(PostParts& run, const Args& args, ModGame& m) {
    Loaded l = run.games.load(m.g);
    auto more = parse_span(lower(args[2]));
    if (!more) {
        run.out.say(tr("\"{text}\" is not a time: say 1d, 12h or 30m. Nothing was done.",
                       {{"text", shorten(args[2], 20)}}));
        return;
    }
    if (l.rec.time_control == "none") {
        run.out.say(
            tr("Game #{game} has no clock to extend. Nothing was done.", {{"game", m.gid}}));
        return;
    }
    auto rows = run.clocks.clock_rows(l.rec);
    std::vector<Text> whom;
    for (auto& c : rows) {
        if (c.deciding_since == 0)
            continue;
        c.remaining += *more;
        c.budget += *more;
        run.ctx.store.put_clock(l.rec.id, c);
        whom.push_back(run.people.who(l.rec, l.info(), c.seat));
    }
    if (whom.empty()) {
        run.out.say(tr("Nobody must decide in game #{game} now, so no clock is running. Nothing "
                       "was done.",
                       {{"game", m.gid}}));
        return;
    }
    mod_log(run.ctx, "extend #" + m.gid + " " + lower(args[2]));
    const Seconds s = *more;
    const std::string amount = s % day == 0    ? std::to_string(s / day) + "d"
                               : s % 3600 == 0 ? std::to_string(s / 3600) + "h"
                                               : format_duration(s);
    // Two clocks at most: one a seat.
    const Text extended =
        whom.size() == 1
            ? tr("Game #{game}: {player} gets {time} more (moderator {moderator}).",
                 {{"game", m.gid},
                  {"player", whom.front()},
                  {"time", amount},
                  {"moderator", m.moderator}})
            : tr("Game #{game}: {first} and {second} get {time} more (moderator {moderator}).",
                 {{"game", m.gid},
                  {"first", whom.front()},
                  {"second", whom.back()},
                  {"time", amount},
                  {"moderator", m.moderator}});
    announce(run.ctx, run.out, l.rec, extended + run.clocks.clock_line(l));
}

void mod_pause_or_resume(PostParts& run, const Args& args, ModGame& m) {
    Loaded l = run.games.load(m.g);
    const std::string sub = lower(args[0]);
    const bool pause = sub == "pause";
    if (l.rec.paused == pause) {
        run.out.say(pause
                        ? tr("Game #{game} is already paused. Nothing was done.", {{"game", m.gid}})
                        : tr("Game #{game} is not paused. Nothing was done.", {{"game", m.gid}}));
        return;
    }
    l.rec.paused = pause;
    run.ctx.store.update_game(l.rec);
    run.clocks.sync_clocks(l);
    mod_log(run.ctx, sub + " #" + m.gid);
    if (pause)
        announce(run.ctx, run.out, l.rec,
                 tr("Game #{game} is paused (moderator {moderator}): the clocks stand still and "
                    "no moves are accepted until {command}.",
                    {{"game", m.gid},
                     {"moderator", m.moderator},
                     {"command", run.ctx.settings.prefix + "mod resume " + m.gid}}));
    else
        announce(run.ctx, run.out, l.rec,
                 tr("Game #{game} resumes (moderator {moderator}).",
                    {{"game", m.gid}, {"moderator", m.moderator}}) +
                     verbatim(" ") + run.games.next_line(l) + run.clocks.clock_line(l));
}

// One moderator action: its name after "!mod", what follows the name in its usage, and its
// handler: on its own, or on an ongoing game named first (`on_game`, after `words` words in
// all, the name included).
struct ModRow {
    const char* name;
    const char* rest;
    void (*handler)(PostParts& run, const Args& args);
    void (*on_game)(PostParts& run, const Args& args, ModGame& m);
    std::size_t words;
};

constexpr ModRow mod_rows[] = {
    {"log", "", &mod_show_log, nullptr, 0},
    {"ban", " @user [reason]", &mod_ban, nullptr, 0},
    {"unban", " @user", &mod_unban, nullptr, 0},
    {"adjudicate", " <game> <1-0|0-1|1/2-1/2>", nullptr, &mod_adjudicate, 3},
    {"forfeit", " <game> @player", nullptr, &mod_forfeit, 3},
    {"extend", " <game> <time, e.g. 1d or 12h>", nullptr, &mod_extend, 3},
    {"pause", " <game>", nullptr, &mod_pause_or_resume, 2},
    {"resume", " <game>", nullptr, &mod_pause_or_resume, 2},
    {"void", " <game>", nullptr, &mod_void, 2},
};

// The ongoing game of this platform a game action names; replies and returns nullopt when the
// action's form is wrong or there is no such game under way.
std::optional<ModGame> mod_game(PostParts& run, const Args& args, const ModRow& row) {
    std::optional<std::int64_t> id = args.size() >= 2 ? game_id_arg(args[1]) : std::nullopt;
    if (!id || args.size() != row.words) {
        run.out.say(tr("I did not understand that.") + verbatim(" ") +
                    tr("Use: {form}", {{"form", run.ctx.settings.prefix + "mod " +
                                                    std::string(row.name) + row.rest}}));
        return std::nullopt;
    }
    auto g = run.ctx.store.game(*id);
    if (!g || g->platform != run.ctx.post.platform) {
        run.out.say(tr("There is no game #{game}.", {{"game", *id}}));
        return std::nullopt;
    }
    const std::string gid = std::to_string(g->id);
    const rules::Variant* variant = rules::find_variant(g->variant);
    if (variant == nullptr)
        throw std::runtime_error("game #" + gid + ": unknown variant " + g->variant);
    // A finished game stays finished: its ratings and tournament results were already counted.
    if (g->status != GameStatus::Ongoing) {
        run.out.say(run.games.over_line(*g, variant->info()) + verbatim(" ") +
                    tr("Nothing was done."));
        return std::nullopt;
    }
    return ModGame{*g, gid, run.out.at(run.ctx.author)};
}

} // namespace

void cmd_mod(PostParts& run, const Args& args) {
    if (!run.people.moderator()) {
        run.out.say(tr("Only moderators may use {command}, and {player} is not one here. Nothing "
                       "was done.",
                       {{"command", run.ctx.settings.prefix + "mod"},
                        {"player", run.out.at(run.ctx.author)}}));
        return;
    }
    if (args.empty()) {
        run.out.usage_error("mod", tr("Say what to do."));
        return;
    }
    const std::string sub = lower(args[0]);
    for (const ModRow& row : mod_rows) {
        if (sub != row.name)
            continue;
        if (row.handler != nullptr) {
            row.handler(run, args);
        } else if (auto m = mod_game(run, args, row)) {
            row.on_game(run, args, *m);
        }
        return;
    }
    run.out.usage_error(
        "mod", tr("There is no moderator action \"{name}\".", {{"name", shorten(args[0], 20)}}));
}

} // namespace ghostpost::bot
