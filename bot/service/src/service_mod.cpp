// Moderators: the platform user ids named in the configuration (ServiceSettings::moderators).
// They end, pause and void games and ban users from anywhere on the platform; each action is
// written to the audit log in the same transaction as the action itself, so the log never
// misses one nor lists one that did not happen.
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

void announce(PostContext& ctx, Replies& out, const GameRecord& g, const std::string& text) {
    out.say_in(g, text);
    if (!ctx.post.direct && g.channel != ctx.post.channel)
        out.say(text);
}

void cmd_mod(PostParts& run, const std::vector<std::string>& args) {
    const std::string& p = run.ctx.settings.prefix;
    if (!run.people.moderator()) {
        run.out.say("Only moderators may use " + p + "mod, and " + run.out.at(run.ctx.author) +
                    " is not one here. Nothing was done.");
        return;
    }
    if (args.empty()) {
        run.out.usage_error("mod", "Say what to do.");
        return;
    }
    const std::string sub = lower(args[0]);
    if (sub == "log") {
        auto entries = run.ctx.store.mod_actions(run.ctx.post.platform, 20);
        if (entries.empty()) {
            run.out.say("The moderator log is empty.");
            return;
        }
        std::string text;
        for (const auto& e : entries)
            text += format_utc(e.at) + " @" + e.moderator + ": " + e.action + "\n";
        run.out.say("Moderator log, latest " + std::to_string(entries.size()) + " actions:", text);
        return;
    }
    if (sub == "ban" || sub == "unban") {
        if (args.size() < 2 || args[1].size() < 2 || args[1][0] != '@' ||
            (sub == "unban" && args.size() > 2)) {
            run.out.usage_error("mod",
                                "Name the user, for example " + p + "mod " + sub + " @name.");
            return;
        }
        auto target = run.people.known_player(args[1], " Nothing was done.");
        if (!target)
            return;
        if (sub == "unban") {
            if (!run.ctx.store.ban(run.ctx.post.platform, target->user_id)) {
                run.out.say(run.out.at(*target) + " is not banned. Nothing was done.");
                return;
            }
            run.ctx.store.remove_ban(run.ctx.post.platform, target->user_id);
            mod_log(run.ctx, "unban " + run.out.at(*target));
            run.out.say(run.out.at(*target) + " is no longer banned (moderator " +
                        run.out.at(run.ctx.author) + ").");
            return;
        }
        const auto& mods = run.ctx.settings.moderators;
        if (std::find(mods.begin(), mods.end(), target->user_id) != mods.end()) {
            run.out.say(run.out.at(*target) +
                        " is a moderator and cannot be banned. Nothing was done.");
            return;
        }
        std::vector<std::string> words(args.begin() + 2, args.end());
        const std::string reason = shorten(join(words, " "), 100);
        run.ctx.store.put_ban(
            {run.ctx.post.platform, target->user_id, run.ctx.author.name, reason, run.ctx.now});
        mod_log(run.ctx, "ban " + run.out.at(*target) +
                             (reason.empty() ? std::string() : " (" + reason + ")"));
        run.out.say(run.out.at(*target) + " is banned by moderator " + run.out.at(run.ctx.author) +
                    (reason.empty() ? std::string() : " (" + reason + ")") +
                    ": their commands and moves are refused until " + p + "mod unban @" +
                    target->name + ".");
        return;
    }
    const bool known = sub == "adjudicate" || sub == "forfeit" || sub == "extend" ||
                       sub == "pause" || sub == "resume" || sub == "void";
    if (!known) {
        run.out.usage_error("mod",
                            "There is no moderator action \"" + shorten(args[0], 20) + "\".");
        return;
    }
    const std::size_t wanted = sub == "adjudicate" || sub == "forfeit" || sub == "extend" ? 3 : 2;
    std::optional<std::int64_t> id = args.size() >= 2 ? game_id_arg(args[1]) : std::nullopt;
    if (!id || args.size() != wanted) {
        const char* rest = sub == "adjudicate" ? " <game> <1-0|0-1|1/2-1/2>"
                           : sub == "forfeit"  ? " <game> @player"
                           : sub == "extend"   ? " <game> <time, e.g. 1d or 12h>"
                                               : " <game>";
        run.out.say("I did not understand that. Use: " + p + "mod " + sub + rest);
        return;
    }
    auto g = run.ctx.store.game(*id);
    if (!g || g->platform != run.ctx.post.platform) {
        run.out.say("There is no game #" + std::to_string(*id) + ".");
        return;
    }
    const std::string gid = std::to_string(g->id);
    const rules::Variant* variant = rules::find_variant(g->variant);
    if (variant == nullptr)
        throw std::runtime_error("game #" + gid + ": unknown variant " + g->variant);
    // A finished game stays finished: its ratings and tournament results were already counted.
    if (g->status != GameStatus::Ongoing) {
        run.out.say(run.games.over_line(*g, variant->info()) + " Nothing was done.");
        return;
    }
    const std::string by = " (moderator " + run.out.at(run.ctx.author) + ")";

    if (sub == "void") {
        g->status = GameStatus::Aborted;
        g->result.clear();
        g->reason = "void";
        run.ctx.store.update_game(*g);
        run.ctx.store.clear_offer(g->id, OfferKind::Draw);
        run.ctx.store.clear_offer(g->id, OfferKind::Takeback);
        run.games.game_over(*g);
        mod_log(run.ctx, "void #" + gid);
        announce(run.ctx, run.out, *g,
                 "Game #" + gid + " is void" + by + ": it counts for nobody.");
        return;
    }
    Loaded l = run.games.load(*g);
    if (sub == "adjudicate") {
        const std::string r = args[2];
        if (r != "1-0" && r != "0-1" && r != "1/2-1/2") {
            run.out.say("A result is 1-0, 0-1 or 1/2-1/2, not \"" + shorten(r, 20) +
                        "\". Nothing was done.");
            return;
        }
        run.games.finish(l.rec,
                         r == "1-0"   ? rules::Status::WhiteWins
                         : r == "0-1" ? rules::Status::BlackWins
                                      : rules::Status::Draw,
                         "adjudication");
        run.clocks.sync_clocks(l);
        mod_log(run.ctx, "adjudicate #" + gid + " " + r);
        announce(run.ctx, run.out, l.rec,
                 "Game #" + gid + " is adjudicated" + by + ". " +
                     run.games.over_line(l.rec, l.info()));
        return;
    }
    if (sub == "forfeit") {
        auto who_named = run.people.named(args[2]);
        auto target = who_named ? who_named->player : std::nullopt;
        std::optional<Seat> seat = target ? detail::seat_of(l.rec, target->id) : std::nullopt;
        if (!seat) {
            run.out.say(shorten(args[2], 30) + " is not playing in game #" + gid +
                        ". Nothing was done.");
            return;
        }
        const std::string loser = run.people.who(l.rec, l.info(), *seat);
        run.games.finish(l.rec,
                         *seat == Seat::White ? rules::Status::BlackWins : rules::Status::WhiteWins,
                         "forfeit");
        run.clocks.sync_clocks(l);
        mod_log(run.ctx, "forfeit #" + gid + " " + run.out.at(*target));
        announce(run.ctx, run.out, l.rec,
                 loser + " forfeits game #" + gid + by + ". " +
                     run.games.over_line(l.rec, l.info()));
        return;
    }
    if (sub == "extend") {
        auto more = parse_span(lower(args[2]));
        if (!more) {
            run.out.say("\"" + shorten(args[2], 20) +
                        "\" is not a time: say 1d, 12h or 30m. Nothing was done.");
            return;
        }
        if (l.rec.time_control == "none") {
            run.out.say("Game #" + gid + " has no clock to extend. Nothing was done.");
            return;
        }
        auto rows = run.clocks.clock_rows(l.rec);
        std::vector<std::string> whom;
        for (auto& c : rows) {
            if (c.deciding_since == 0)
                continue;
            c.remaining += *more;
            c.budget += *more;
            run.ctx.store.put_clock(l.rec.id, c);
            whom.push_back(run.people.who(l.rec, l.info(), c.seat));
        }
        if (whom.empty()) {
            run.out.say("Nobody must decide in game #" + gid +
                        " now, so no clock is running. Nothing "
                        "was done.");
            return;
        }
        mod_log(run.ctx, "extend #" + gid + " " + lower(args[2]));
        const Seconds m = *more;
        const std::string amount = m % day == 0    ? std::to_string(m / day) + "d"
                                   : m % 3600 == 0 ? std::to_string(m / 3600) + "h"
                                                   : format_duration(m);
        announce(run.ctx, run.out, l.rec,
                 "Game #" + gid + ": " + join(whom, " and ") +
                     (whom.size() == 1 ? " gets " : " get ") + amount + " more" + by + "." +
                     run.clocks.clock_line(l));
        return;
    }
    const bool pause = sub == "pause";
    if (l.rec.paused == pause) {
        run.out.say("Game #" + gid + (pause ? " is already paused." : " is not paused.") +
                    " Nothing was done.");
        return;
    }
    l.rec.paused = pause;
    run.ctx.store.update_game(l.rec);
    run.clocks.sync_clocks(l);
    mod_log(run.ctx, sub + " #" + gid);
    if (pause)
        announce(run.ctx, run.out, l.rec,
                 "Game #" + gid + " is paused" + by +
                     ": the clocks stand still and no "
                     "moves are accepted until " +
                     p + "mod resume " + gid + ".");
    else
        announce(run.ctx, run.out, l.rec,
                 "Game #" + gid + " resumes" + by + ". " + run.games.next_line(l) +
                     run.clocks.clock_line(l));
}

} // namespace ghostpost::bot
