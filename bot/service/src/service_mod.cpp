// Moderators: the platform user ids named in the configuration (ServiceSettings::moderators).
// They end, pause and void games and ban users from anywhere on the platform; each action is
// written to the audit log in the same transaction as the action itself, so the log never
// misses one nor lists one that did not happen.
#include "ghostpost/league/clock.h"
#include "ghostpost/rules/registry.h"
#include "post_run.h"

namespace ghostpost::bot {

using namespace detail;

bool PostRun::refuse_banned() {
    if (ctx_.post.author_id.empty())
        return false; // the time-driven job acts for nobody in particular
    // A ban of any account of the player holds on all of them (!link): the player is banned,
    // not one account. No reply: an answer per post would spend the channel's send budget.
    if (ctx_.store.ban(ctx_.post.platform, ctx_.post.author_id))
        return true;
    std::vector<std::string> platforms = ctx_.settings.platforms;
    platforms.push_back(ctx_.post.platform);
    if (const auto home = ctx_.store.player(ctx_.author.id))
        platforms.push_back(home->platform);
    std::sort(platforms.begin(), platforms.end());
    platforms.erase(std::unique(platforms.begin(), platforms.end()), platforms.end());
    for (const std::string& platform : platforms)
        if (const auto there = ctx_.store.account_on(ctx_.author.id, platform))
            if (ctx_.store.ban(there->platform, there->user_id))
                return true;
    return false;
}

void PostRun::mod_log(const std::string& action) {
    ctx_.store.log_mod_action({0, ctx_.post.platform, ctx_.author.name, action, ctx_.now});
}

void PostRun::announce(const GameRecord& g, const std::string& text) {
    out_.say_in(g, text);
    if (!ctx_.post.direct && g.channel != ctx_.post.channel)
        out_.say(text);
}

void PostRun::cmd_mod(const std::vector<std::string>& args) {
    const std::string& p = ctx_.settings.prefix;
    if (!people_.moderator()) {
        out_.say("Only moderators may use " + p + "mod, and " + out_.at(ctx_.author) +
                 " is not one here. Nothing was done.");
        return;
    }
    if (args.empty()) {
        out_.usage_error("mod", "Say what to do.");
        return;
    }
    const std::string sub = lower(args[0]);
    if (sub == "log") {
        auto entries = ctx_.store.mod_actions(ctx_.post.platform, 20);
        if (entries.empty()) {
            out_.say("The moderator log is empty.");
            return;
        }
        std::string text;
        for (const auto& e : entries)
            text += format_utc(e.at) + " @" + e.moderator + ": " + e.action + "\n";
        out_.say("Moderator log, latest " + std::to_string(entries.size()) + " actions:", text);
        return;
    }
    if (sub == "ban" || sub == "unban") {
        if (args.size() < 2 || args[1].size() < 2 || args[1][0] != '@' ||
            (sub == "unban" && args.size() > 2)) {
            out_.usage_error("mod", "Name the user, for example " + p + "mod " + sub + " @name.");
            return;
        }
        auto target = people_.known_player(args[1], " Nothing was done.");
        if (!target)
            return;
        if (sub == "unban") {
            if (!ctx_.store.ban(ctx_.post.platform, target->user_id)) {
                out_.say(out_.at(*target) + " is not banned. Nothing was done.");
                return;
            }
            ctx_.store.remove_ban(ctx_.post.platform, target->user_id);
            mod_log("unban " + out_.at(*target));
            out_.say(out_.at(*target) + " is no longer banned (moderator " + out_.at(ctx_.author) +
                     ").");
            return;
        }
        const auto& mods = ctx_.settings.moderators;
        if (std::find(mods.begin(), mods.end(), target->user_id) != mods.end()) {
            out_.say(out_.at(*target) + " is a moderator and cannot be banned. Nothing was done.");
            return;
        }
        std::vector<std::string> words(args.begin() + 2, args.end());
        const std::string reason = shorten(join(words, " "), 100);
        ctx_.store.put_ban(
            {ctx_.post.platform, target->user_id, ctx_.author.name, reason, ctx_.now});
        mod_log("ban " + out_.at(*target) + (reason.empty() ? std::string() : " (" + reason + ")"));
        out_.say(out_.at(*target) + " is banned by moderator " + out_.at(ctx_.author) +
                 (reason.empty() ? std::string() : " (" + reason + ")") +
                 ": their commands and moves are refused until " + p + "mod unban @" +
                 target->name + ".");
        return;
    }
    const bool known = sub == "adjudicate" || sub == "forfeit" || sub == "extend" ||
                       sub == "pause" || sub == "resume" || sub == "void";
    if (!known) {
        out_.usage_error("mod", "There is no moderator action \"" + shorten(args[0], 20) + "\".");
        return;
    }
    const std::size_t wanted = sub == "adjudicate" || sub == "forfeit" || sub == "extend" ? 3 : 2;
    std::optional<std::int64_t> id = args.size() >= 2 ? game_id_arg(args[1]) : std::nullopt;
    if (!id || args.size() != wanted) {
        const char* rest = sub == "adjudicate" ? " <game> <1-0|0-1|1/2-1/2>"
                           : sub == "forfeit"  ? " <game> @player"
                           : sub == "extend"   ? " <game> <time, e.g. 1d or 12h>"
                                               : " <game>";
        out_.say("I did not understand that. Use: " + p + "mod " + sub + rest);
        return;
    }
    auto g = ctx_.store.game(*id);
    if (!g || g->platform != ctx_.post.platform) {
        out_.say("There is no game #" + std::to_string(*id) + ".");
        return;
    }
    const std::string gid = std::to_string(g->id);
    const rules::Variant* variant = rules::find_variant(g->variant);
    if (variant == nullptr)
        throw std::runtime_error("game #" + gid + ": unknown variant " + g->variant);
    // A finished game stays finished: its ratings and tournament results were already counted.
    if (g->status != GameStatus::Ongoing) {
        out_.say(over_line(*g, variant->info()) + " Nothing was done.");
        return;
    }
    const std::string by = " (moderator " + out_.at(ctx_.author) + ")";

    if (sub == "void") {
        g->status = GameStatus::Aborted;
        g->result.clear();
        g->reason = "void";
        ctx_.store.update_game(*g);
        ctx_.store.clear_offer(g->id, OfferKind::Draw);
        ctx_.store.clear_offer(g->id, OfferKind::Takeback);
        game_over(*g);
        mod_log("void #" + gid);
        announce(*g, "Game #" + gid + " is void" + by + ": it counts for nobody.");
        return;
    }
    Loaded l = load(*g);
    if (sub == "adjudicate") {
        const std::string r = args[2];
        if (r != "1-0" && r != "0-1" && r != "1/2-1/2") {
            out_.say("A result is 1-0, 0-1 or 1/2-1/2, not \"" + shorten(r, 20) +
                     "\". Nothing was done.");
            return;
        }
        finish(l.rec,
               r == "1-0"   ? rules::Status::WhiteWins
               : r == "0-1" ? rules::Status::BlackWins
                            : rules::Status::Draw,
               "adjudication");
        sync_clocks(l);
        mod_log("adjudicate #" + gid + " " + r);
        announce(l.rec,
                 "Game #" + gid + " is adjudicated" + by + ". " + over_line(l.rec, l.info()));
        return;
    }
    if (sub == "forfeit") {
        auto who_named = people_.named(args[2]);
        auto target = who_named ? who_named->player : std::nullopt;
        std::optional<Seat> seat = target ? detail::seat_of(l.rec, target->id) : std::nullopt;
        if (!seat) {
            out_.say(shorten(args[2], 30) + " is not playing in game #" + gid +
                     ". Nothing was done.");
            return;
        }
        const std::string loser = people_.who(l.rec, l.info(), *seat);
        finish(l.rec, *seat == Seat::White ? rules::Status::BlackWins : rules::Status::WhiteWins,
               "forfeit");
        sync_clocks(l);
        mod_log("forfeit #" + gid + " " + out_.at(*target));
        announce(l.rec, loser + " forfeits game #" + gid + by + ". " + over_line(l.rec, l.info()));
        return;
    }
    if (sub == "extend") {
        auto more = parse_span(lower(args[2]));
        if (!more) {
            out_.say("\"" + shorten(args[2], 20) +
                     "\" is not a time: say 1d, 12h or 30m. Nothing was done.");
            return;
        }
        if (l.rec.time_control == "none") {
            out_.say("Game #" + gid + " has no clock to extend. Nothing was done.");
            return;
        }
        auto rows = clock_rows(l.rec);
        std::vector<std::string> whom;
        for (auto& c : rows) {
            if (c.deciding_since == 0)
                continue;
            c.remaining += *more;
            c.budget += *more;
            ctx_.store.put_clock(l.rec.id, c);
            whom.push_back(people_.who(l.rec, l.info(), c.seat));
        }
        if (whom.empty()) {
            out_.say("Nobody must decide in game #" + gid +
                     " now, so no clock is running. Nothing "
                     "was done.");
            return;
        }
        mod_log("extend #" + gid + " " + lower(args[2]));
        const Seconds m = *more;
        const std::string amount = m % day == 0    ? std::to_string(m / day) + "d"
                                   : m % 3600 == 0 ? std::to_string(m / 3600) + "h"
                                                   : format_duration(m);
        announce(l.rec, "Game #" + gid + ": " + join(whom, " and ") +
                            (whom.size() == 1 ? " gets " : " get ") + amount + " more" + by + "." +
                            clock_line(l));
        return;
    }
    const bool pause = sub == "pause";
    if (l.rec.paused == pause) {
        out_.say("Game #" + gid + (pause ? " is already paused." : " is not paused.") +
                 " Nothing was done.");
        return;
    }
    l.rec.paused = pause;
    ctx_.store.update_game(l.rec);
    sync_clocks(l);
    mod_log(sub + " #" + gid);
    if (pause)
        announce(l.rec, "Game #" + gid + " is paused" + by +
                            ": the clocks stand still and no "
                            "moves are accepted until " +
                            p + "mod resume " + gid + ".");
    else
        announce(l.rec, "Game #" + gid + " resumes" + by + ". " + next_line(l) + clock_line(l));
}

} // namespace ghostpost::bot
