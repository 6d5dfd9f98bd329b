// Correspondence clocks in the service (Clocks, clocks.h; the time-driven entry points of
// PostRun: tick_game, forgive_downtime). A game's clocks are rows beside its action log: the
// log says who must decide, the rows say since when and how much time is left. Every change of
// who decides (a move, an acceptance, a takeback, a vacation, a pause) goes through
// sync_clocks, so starting and stopping follows one rule. The time-driven job (Service::tick)
// does what no post triggers: losses on time, the 80 % reminder, the deadline of a decision the
// rules answer for when it passes, and the restart of clocks when a vacation ends. Each game stores
// when the job must next look at it (store_deadline, after every change of its clocks), so the job
// reads only the games that are due.
#include "ghostpost/league/clock.h"
#include "post_run.h"

#include <algorithm>
#include <limits>

namespace ghostpost::bot {

using namespace detail;

namespace {

TimeControl control_of(const GameRecord& g) {
    return parse_time_control(g.time_control).value.value_or(TimeControl{});
}

std::string span(Seconds s) {
    return s % day == 0 ? std::to_string(s / day) + "d" : format_duration(s);
}

// "3d per move", "1d, +2h per move, at most 7d"; "none".
Text control_words(const TimeControl& tc) {
    switch (tc.kind) {
    case TimeControl::Kind::None:
        break;
    case TimeControl::Kind::PerMove:
        return tr("{time} per move", {{"time", span(tc.base)}});
    case TimeControl::Kind::Increment:
        return tc.cap > 0 ? tr("{time}, +{increment} per move, at most {cap}",
                               {{"time", span(tc.base)},
                                {"increment", span(tc.increment)},
                                {"cap", span(tc.cap)}})
                          : tr("{time}, +{increment} per move, no cap",
                               {{"time", span(tc.base)}, {"increment", span(tc.increment)}});
    }
    return trc("clock", "none");
}

PlayerClock as_clock(const storage::ClockRecord& c) {
    return {c.remaining, c.running_since};
}

bool same(const storage::ClockRecord& a, const storage::ClockRecord& b) {
    return a.remaining == b.remaining && a.running_since == b.running_since &&
           a.deciding_since == b.deciding_since && a.budget == b.budget && a.warned == b.warned;
}

bool contains(const std::vector<Seat>& seats, Seat s) {
    return std::find(seats.begin(), seats.end(), s) != seats.end();
}

// The seat's remaining time as a clause: "2d 23h left, until 2023-11-17 22:13 UTC".

} // namespace

std::optional<ServiceOptions> Clocks::take_service_options(rules::Options& given) {
    ServiceOptions out;
    out.time_control =
        parse_time_control(ctx_.settings.default_time_control).value.value_or(TimeControl{}).text();
    if (auto it = given.find("tc"); it != given.end()) {
        const std::string tc = lower(it->second);
        auto parsed = parse_time_control(tc);
        if (!parsed.value) {
            out_.usage_error("new", time_control_problem(parsed, tc) + verbatim(" ") +
                                        tr("Nothing was created."));
            return std::nullopt;
        }
        out.time_control = parsed.value->text();
        given.erase(it);
    }
    if (auto it = given.find("rated"); it != given.end()) {
        const std::string v = lower(it->second);
        if (v != "yes" && v != "no") {
            out_.usage_error("new", tr("The option rated= takes yes or no, not \"{text}\". "
                                       "Nothing was created.",
                                       {{"text", shorten(it->second, 20)}}));
            return std::nullopt;
        }
        out.rated = v == "yes";
        given.erase(it);
    }
    return out;
}

Text detail::service_options_text(const GameRecord& g) {
    const Text control = control_words(control_of(g));
    return g.rated ? tr("Clock: {control}; rated.", {{"control", control}})
                   : tr("Clock: {control}; unrated.", {{"control", control}});
}

std::array<storage::ClockRecord, 2> Clocks::clock_rows(const GameRecord& g) {
    const TimeControl tc = control_of(g);
    std::array<storage::ClockRecord, 2> rows;
    for (Seat s : {Seat::White, Seat::Black}) {
        auto& r = rows[rules::index(s)];
        r.seat = s;
        r.remaining = tc.base;
        r.budget = tc.base;
    }
    for (const auto& c : ctx_.store.clocks(g.id))
        rows[rules::index(c.seat)] = c;
    return rows;
}

Text Clocks::clock_line(const Loaded& l) {
    if (l.rec.status != GameStatus::Ongoing)
        return {};
    const TimeControl tc = control_of(l.rec);
    if (tc.kind == TimeControl::Kind::None)
        return l.rec.rated ? tr(" No clock; rated.") : tr(" No clock; unrated.");
    auto rows = clock_rows(l.rec);
    Text parts;
    for (Seat s : {Seat::White, Seat::Black}) {
        const storage::ClockRecord& c = rows[rules::index(s)];
        const std::string left = format_duration(time_left(as_clock(c), ctx_.now));
        const Text who = people_.who(l.rec, l.info(), s);
        Text part = c.running_since == 0
                        ? tr("{player} {left} left", {{"player", who}, {"left", left}})
                        : tr("{player} {left} left, until {time}",
                             {{"player", who},
                              {"left", left},
                              {"time", format_utc(c.running_since + c.remaining)}});
        if (auto pid = detail::seated(l.rec, s)) {
            auto p = people_.player(*pid);
            if (p.vacation_until > ctx_.now)
                part = tr("{clock}, on vacation until {time}",
                          {{"clock", part}, {"time", format_utc(p.vacation_until)}});
        }
        parts =
            s == Seat::White ? part : tr("{first}; {second}", {{"first", parts}, {"second", part}});
    }
    const Text control = control_words(tc);
    Text line = l.rec.rated ? tr(" Clock ({control}; rated): {clocks}.",
                                 {{"control", control}, {"clocks", parts}})
                            : tr(" Clock ({control}; unrated): {clocks}.",
                                 {{"control", control}, {"clocks", parts}});
    if (l.rec.paused)
        line += tr(" The game is paused by a moderator.");
    return line;
}

void Clocks::sync_clocks(Loaded& l) {
    const TimeControl tc = control_of(l.rec);
    auto rows = clock_rows(l.rec);
    const bool stored = ctx_.store.clocks(l.rec.id).size() == rows.size();
    std::vector<Seat> ds;
    if (l.rec.status == GameStatus::Ongoing)
        ds = deciders(l);
    for (Seat seat : {Seat::White, Seat::Black}) {
        auto& c = rows[rules::index(seat)];
        const storage::ClockRecord before = c;
        const bool deciding = contains(ds, seat);
        std::optional<PlayerRecord> p;
        if (auto pid = detail::seated(l.rec, seat))
            p = people_.player(*pid);
        const bool away = p && p->vacation_until > ctx_.now;
        const bool run = deciding && tc.kind != TimeControl::Kind::None && !l.rec.paused && !away;
        const bool fresh = deciding && c.deciding_since == 0;
        if (!deciding)
            c.deciding_since = 0;
        if (c.running_since != 0 && !run) {
            c.remaining = time_left(as_clock(c), ctx_.now);
            c.running_since = 0;
        }
        if (fresh) {
            c.deciding_since = ctx_.now;
            c.budget = c.remaining;
            c.warned = false;
        }
        if (c.running_since == 0 && run) {
            c.running_since = ctx_.now;
            // A vacation that ended while the decision waited: the clock restarted at its end,
            // not when the job next looked.
            if (!fresh && p && p->vacation_until > c.deciding_since && p->vacation_until < ctx_.now)
                c.running_since = p->vacation_until;
        }
        if (!stored || !same(c, before))
            ctx_.store.put_clock(l.rec.id, c);
        if (fresh && p && p->reminders && p->id != ctx_.author.id && answering_ != p->id) {
            Text what = trc("decision", "decide");
            for (const auto& d : l.game->pending())
                if (d.seat == seat)
                    what = said(d.said());
            Text text = tr("Game #{game}, {variant}: it is your decision, you must {decision}.",
                           {{"game", std::to_string(l.rec.id)},
                            {"variant", game_word("variant", l.info().title)},
                            {"decision", what}});
            if (c.running_since != 0)
                text += verbatim(" ") + tr("Your time runs out at {time} ({left} from now).",
                                           {{"time", format_utc(c.running_since + c.remaining)},
                                            {"left", format_duration(c.remaining)}});
            else if (away)
                text += verbatim(" ") +
                        tr("Your clock stands still until your vacation ends at {time}.",
                           {{"time", format_utc(p->vacation_until)}});
            out_.tell(*p, text, {}, &l.rec);
        }
    }
    store_deadline(l);
}

void Clocks::store_deadline(const Loaded& l) {
    // The earliest moment at which tick_game would do something: a loss on time, the 80 %
    // reminder, the deadline of a decision the rules answer for, or a clock to restart when a
    // vacation ends.
    // An early deadline costs one look; a late one would be a bug, so each mirrors tick_game.
    std::optional<Seconds> next;
    const auto consider = [&](Seconds at) {
        if (!next || at < *next)
            next = at;
    };
    if (l.rec.status == GameStatus::Ongoing && !l.rec.paused) {
        const TimeControl tc = control_of(l.rec);
        const auto ds = deciders(l);
        for (const auto& c : clock_rows(l.rec)) {
            if (c.running_since != 0) {
                consider(c.running_since + c.remaining);
                // tick_game warns once 5 * left <= budget.
                if (!c.warned && c.budget > 0)
                    consider(c.running_since + c.remaining - c.budget / 5);
            }
            if (!contains(ds, c.seat))
                continue;
            if (c.deciding_since != 0 && l.game->deadline_action(c.seat))
                consider(c.deciding_since + ctx_.settings.combat_deadline);
            if (c.running_since == 0 && tc.kind != TimeControl::Kind::None) {
                if (auto pid = detail::seated(l.rec, c.seat)) {
                    const PlayerRecord p = people_.player(*pid);
                    if (p.vacation_until > ctx_.now)
                        consider(p.vacation_until);
                }
            }
        }
    }
    ctx_.store.set_next_deadline(l.rec.id, next);
}

void Clocks::clocks_after_action(Loaded& l, Seat seat, bool decision) {
    auto rows = clock_rows(l.rec);
    auto& c = rows[rules::index(seat)];
    const bool still = l.rec.status == GameStatus::Ongoing && contains(deciders(l), seat);
    // An anytime action (a peek, a standing policy) is no answer to the decision: the clock
    // keeps running unless it ended the seat's decision after all.
    if (c.deciding_since != 0 && (decision || ctx_.defaulting || !still)) {
        const PlayerClock after = after_move(control_of(l.rec), as_clock(c), ctx_.now);
        c.remaining = after.remaining;
        c.running_since = 0;
        c.deciding_since = 0;
        ctx_.store.put_clock(l.rec.id, c);
    }
    sync_clocks(l);
}

bool Clocks::may_act(Loaded& l, Seat) {
    const std::string id = std::to_string(l.rec.id);
    if (!ctx_.defaulting && refuse_banned(ctx_))
        return false;
    if (l.rec.paused) {
        out_.say(tr("Not played: game #{game} is paused by a moderator until one resumes it.",
                    {{"game", id}}));
        return false;
    }
    return !flag_if_out(l);
}

bool Clocks::flag_if_out(Loaded& l) {
    if (l.rec.status != GameStatus::Ongoing || l.rec.paused)
        return false;
    auto rows = clock_rows(l.rec);
    std::optional<Seat> out;
    Seconds when = 0;
    for (const auto& c : rows) {
        if (c.running_since == 0 || time_left(as_clock(c), ctx_.now) > 0)
            continue;
        // A seat the rules answer for at its deadline (Game::deadline_action) never loses on
        // time there: tick_due plays that answer, for each late seat in turn.
        if (contains(deciders(l), c.seat) && l.game->deadline_action(c.seat))
            continue;
        const Seconds at = c.running_since + c.remaining;
        if (!out || at < when) {
            out = c.seat;
            when = at;
        }
    }
    if (!out)
        return false;
    for (auto& c : rows) {
        if (c.running_since != 0)
            c.remaining = std::max<Seconds>(0, time_left(as_clock(c), when));
        c.running_since = 0;
        c.deciding_since = 0;
        ctx_.store.put_clock(l.rec.id, c);
    }
    const Seat winner = rules::opponent(*out);
    const Text loser = people_.who(l.rec, l.info(), *out);
    const std::string id = std::to_string(l.rec.id);
    // As on correspondence servers, a game that ran out before both sides moved never really
    // began: it is aborted and counts for nobody. A tournament game is still a loss, so that
    // the event's pairings stand.
    if (!games_.both_sides_moved(l.rec.id) && !ctx_.store.pairing_of_game(l.rec.id)) {
        games_.abort_game(l.rec);
        out_.say_in(l.rec, tr("{player} ran out of time in game #{game} at {time} before both "
                              "sides had moved: the game is aborted and counts for nobody.",
                              {{"player", loser}, {"game", id}, {"time", format_utc(when)}}));
        return true;
    }
    if (l.game->could_win(winner))
        games_.finish(l.rec,
                      winner == Seat::White ? rules::Status::WhiteWins : rules::Status::BlackWins,
                      "timeout");
    else
        games_.finish(l.rec, rules::Status::Draw, "timeout against insufficient material");
    out_.say_in(l.rec, tr("{player} ran out of time in game #{game} at {time}. {next}",
                          {{"player", loser},
                           {"game", id},
                           {"time", format_utc(when)},
                           {"next", games_.over_line(l.rec, l.info())}}));
    return true;
}

bool PostRun::tick_game(std::int64_t game_id) {
    auto rec = run_.ctx.store.game(game_id);
    if (rec && rec->status == GameStatus::Challenge)
        return run_.clocks.lapse_challenge(*rec);
    if (!rec || rec->status != GameStatus::Ongoing)
        return false;
    Loaded l = run_.games.load(*rec);
    run_.clocks.sync_clocks(l);
    if (l.rec.paused)
        return false;
    const bool changed = tick_due(l);
    if (l.rec.status == GameStatus::Ongoing)
        run_.clocks.store_deadline(l);
    return changed;
}

bool Clocks::lapse_challenge(GameRecord& g) {
    const Seconds lapses = g.created_at + ctx_.settings.challenge_expiry;
    if (ctx_.now < lapses) {
        ctx_.store.set_next_deadline(g.id, lapses);
        return false;
    }
    g.status = GameStatus::Cancelled;
    g.reason = "expired";
    ctx_.store.update_game(g);
    const Seconds expiry = ctx_.settings.challenge_expiry;
    const std::string id = std::to_string(g.id);
    const std::string challenger = out_.at(people_.player(g.challenger));
    out_.say_in(
        g, expiry % day == 0
               ? tr("Challenge #{game} by {player} lapsed: nobody answered it within "
                    "{days, plural, one {# day} other {# days}}.",
                    {{"game", id}, {"player", challenger}, {"days", expiry / day}})
               : tr("Challenge #{game} by {player} lapsed: nobody answered it within "
                    "{time}.",
                    {{"game", id}, {"player", challenger}, {"time", format_duration(expiry)}}));
    return true;
}

bool PostRun::tick_due(Loaded& l) {
    bool changed = false;
    // A seat that let the deadline of such a decision pass gets the rules' answer for it
    // (Game::deadline_action). A shorter clock brings the deadline forward, so nobody loses on
    // time in the middle of a decision the rules would answer.
    const auto waiting = deciders(l);
    for (Seat seat : waiting) {
        if (l.rec.status != GameStatus::Ongoing || !contains(deciders(l), seat))
            continue;
        const std::optional<rules::NotatedAction> answer = l.game->deadline_action(seat);
        if (!answer)
            continue;
        auto rows = run_.clocks.clock_rows(l.rec);
        auto& c = rows[rules::index(seat)];
        if (c.deciding_since == 0)
            continue;
        Seconds deadline = c.deciding_since + run_.ctx.settings.combat_deadline;
        if (c.running_since != 0)
            deadline = std::min(deadline, c.running_since + c.remaining);
        auto pid = detail::seated(l.rec, seat);
        if (run_.ctx.now < deadline || !pid)
            continue;
        if (c.running_since != 0) {
            // Charged up to the deadline only: the job may look a little after it.
            c.remaining = std::max<Seconds>(0, time_left(as_clock(c), deadline));
            c.running_since = 0;
            run_.ctx.store.put_clock(l.rec.id, c);
        }
        // The answer may be secret (a dice choice), so the service plays it as if the seat's
        // player had sent it by direct message: they hear the details privately, the channel
        // the rest.
        const PlayerRecord owner = run_.people.player(*pid);
        Post as_owner;
        as_owner.platform =
            owner.platform; // its account there (a linked player may have none on the game's)
        as_owner.channel = "@" + owner.user_id;
        as_owner.direct = true;
        as_owner.author_id = owner.user_id;
        as_owner.author_name = owner.name;
        as_owner.author_handle = owner.handle;
        PostRun inner(run_.service, as_owner);
        PostParts& in = inner.parts();
        in.ctx.author = owner;
        in.ctx.defaulting = true;
        in.session.play(l, seat, answer->text);
        inner.conclude();
        run_.games.adopt(in.games.take_cache());
        changed = true;
    }
    changed = run_.teams.close_due_team_votes(l) || changed;
    if (run_.clocks.flag_if_out(l))
        return true;
    auto rows = run_.clocks.clock_rows(l.rec);
    for (auto& c : rows) {
        if (c.running_since == 0 || c.warned || c.budget <= 0)
            continue;
        const Seconds left = time_left(as_clock(c), run_.ctx.now);
        if ((c.budget - left) * 5 < c.budget * 4)
            continue;
        c.warned = true;
        run_.ctx.store.put_clock(l.rec.id, c);
        auto pid = detail::seated(l.rec, c.seat);
        if (!pid)
            continue;
        PlayerRecord p = run_.people.player(*pid);
        if (!p.reminders)
            continue;
        run_.out.tell(p,
                      tr("Game #{game}, {variant}: 80 % of your time for this decision is used.",
                         {{"game", std::to_string(l.rec.id)},
                          {"variant", game_word("variant", l.info().title)}}) +
                          verbatim(" ") +
                          tr("Your time runs out at {time} ({left} from now).",
                             {{"time", format_utc(c.running_since + c.remaining)},
                              {"left", format_duration(left)}}),
                      {}, &l.rec);
        changed = true;
    }
    return changed;
}

int PostRun::forgive_downtime(const std::vector<std::int64_t>& game_ids, std::int64_t from,
                              std::int64_t to) {
    std::vector<std::pair<std::int64_t, Text>> told; // each game and its line
    for (const std::int64_t id : game_ids)
        if (run_.clocks.forgive_game(id, from, to)) {
            // Its line as a Text, for each reader's language (forgive_game's is English).
            const Loaded l = run_.games.load(*run_.ctx.store.game(id));
            told.emplace_back(id, tr("Game #{game}.", {{"game", std::to_string(id)}}) +
                                      run_.clocks.clock_line(l));
        }
    if (told.empty())
        return 0;
    const Text notice = tr("I was down from {from} to {to} ({duration}). That time is charged to "
                           "nobody: the clocks stood still.",
                           {{"from", format_utc(from)},
                            {"to", format_utc(to)},
                            {"duration", format_duration(to - from)}});
    // One notice for the channel, however many of its games it concerns; a channel that
    // follows one of them (!invite) hears of that game alone, not of its neighbours.
    Text all = notice;
    for (const auto& [id, line] : told)
        all += verbatim("\n") + line;
    run_.out.say_at(run_.ctx.post.channel, all);
    for (const auto& [id, line] : told)
        for (const auto& [platform, channel] : run_.ctx.store.bound_channels(id)) {
            const std::string text = Replies::written(notice + verbatim("\n") + line,
                                                      run_.out.channel_language(platform, channel));
            auto m = run_.out.message(
                false, channel, platform == run_.ctx.post.platform ? text : run_.out.unpinged(text),
                {});
            m.platform = platform;
            m.reply_to.clear();
            run_.out.enqueue(std::move(m));
        }
    return static_cast<int>(told.size());
}

std::optional<std::string> Clocks::forgive_game(std::int64_t game_id, std::int64_t from,
                                                std::int64_t to) {
    auto rec = ctx_.store.game(game_id);
    if (!rec || rec->status != GameStatus::Ongoing)
        return std::nullopt;
    const Seconds gap = to - from;
    bool ran = false;
    auto rows = clock_rows(*rec);
    for (auto& c : rows) {
        bool moved = false;
        if (c.running_since != 0 && c.running_since <= from) {
            c.running_since += gap;
            moved = ran = true;
        }
        // The combat deadline stood still too.
        if (c.deciding_since != 0 && c.deciding_since <= from) {
            c.deciding_since += gap;
            moved = true;
        }
        if (moved)
            ctx_.store.put_clock(rec->id, c);
    }
    if (!ran)
        return std::nullopt;
    Loaded l = games_.load(*rec);
    store_deadline(l);
    // In English, as clocks.h has it: forgive_downtime words the line for each reader itself.
    return plain(tr("Game #{game}.", {{"game", std::to_string(l.rec.id)}}) + clock_line(l));
}

void cmd_vacation(PostParts& run, const std::vector<std::string>& args) {
    PlayerRecord p = run.ctx.author;
    const int year = utc_year(run.ctx.now);
    if (p.vacation_year != year) {
        p.vacation_year = year;
        p.vacation_used = 0;
    }
    const Seconds allowance = Seconds{run.ctx.settings.vacation_days} * day;
    auto days_left = [&] {
        // TRANSLATORS: {days} of the vacation replies, e.g. "5 of 30 vacation days left in 2024".
        return tr("{left} of {total, plural, one {# vacation day} other {# vacation days}} left in "
                  "{year}",
                  {{"left", std::to_string((allowance - p.vacation_used) / day)},
                   {"total", run.ctx.settings.vacation_days},
                   {"year", std::to_string(year)}});
    };
    auto games = run.ctx.store.games_of_player(p, {GameStatus::Ongoing});
    auto resync = [&] {
        std::vector<std::string> ids;
        for (const auto& g : games) {
            if (!detail::seat_of(g, p.id))
                continue;
            Loaded l = run.games.load(g);
            run.clocks.sync_clocks(l);
            ids.push_back("#" + std::to_string(g.id));
        }
        if (ids.empty()) {
            // TRANSLATORS: {games} of "the clocks run again in {games}" (or "stand still in").
            return tr("no game under way");
        }
        // TRANSLATORS: {games} of "the clocks run again in {games}": "game #4", "games #4, #7".
        return tr("{count, plural, one {game {games}} other {games {games}}}",
                  {{"count", ids.size()}, {"games", join(ids, ", ")}});
    };
    if (args.empty()) {
        if (p.vacation_until > run.ctx.now)
            run.out.say(tr("{player} is on vacation until {time}; {days}.",
                           {{"player", run.out.at(p)},
                            {"time", format_utc(p.vacation_until)},
                            {"days", days_left()}}));
        else
            run.out.say(
                tr("{player} has {days}. Use: {form}", {{"player", run.out.at(p)},
                                                        {"days", days_left()},
                                                        {"form", run.out.form("vacation")}}));
        return;
    }
    const std::string a = lower(args[0]);
    if (args.size() > 1) {
        run.out.usage_error("vacation",
                            tr("I did not understand \"{text}\".", {{"text", shorten(args[1])}}));
        return;
    }
    if (a == "off") {
        if (p.vacation_until <= run.ctx.now) {
            run.out.say(tr("{player} is not on vacation. Use: {form}",
                           {{"player", run.out.at(p)}, {"form", run.out.form("vacation")}}));
            return;
        }
        // Whole days not taken go back to the allowance.
        p.vacation_used -= (p.vacation_until - run.ctx.now) / day * day;
        p.vacation_until = run.ctx.now;
        run.ctx.store.save_vacation(p);
        run.ctx.author = p;
        run.out.say(tr("{player} is back from vacation: the clocks run again in {games}; {days}.",
                       {{"player", run.out.at(p)}, {"games", resync()}, {"days", days_left()}}));
        return;
    }
    auto length = parse_span(a);
    if (!length || a.back() != 'd') {
        run.out.usage_error("vacation", tr("\"{text}\" is not a number of days (say 5d).",
                                           {{"text", shorten(args[0])}}));
        return;
    }
    if (p.vacation_until > run.ctx.now) {
        run.out.say(tr("{player} is already on vacation until {time}. Say {command} first to "
                       "start another.",
                       {{"player", run.out.at(p)},
                        {"time", format_utc(p.vacation_until)},
                        {"command", run.ctx.settings.prefix + "vacation off"}}));
        return;
    }
    if (p.vacation_used + *length > allowance) {
        run.out.say(tr("Not enough vacation left: {player} has {days}.",
                       {{"player", run.out.at(p)}, {"days", days_left()}}));
        return;
    }
    p.vacation_used += *length;
    p.vacation_until = run.ctx.now + *length;
    run.ctx.store.save_vacation(p);
    run.ctx.author = p;
    run.out.say(tr("{player} is on vacation until {time}: the clocks stand still in {games}; "
                   "{days}.",
                   {{"player", run.out.at(p)},
                    {"time", format_utc(p.vacation_until)},
                    {"games", resync()},
                    {"days", days_left()}}));
}

int Service::tick() {
    const std::int64_t now = clock_();
    retry_conflicts([&] {
        store_.transaction([&] {
            store_.put_heartbeat(now);
            // Retention: delivered replies are kept a day (for the log's sake); a post id only
            // as long as a platform might deliver the post again behind its cursor.
            store_.prune(now - day, now - 7 * day);
        });
    });
    int changed = 0;
    // Only the games whose stored deadline has come: the others have nothing to do.
    for (const auto& g : store_.games_due(now)) {
        changed += retry_conflicts([&] {
            Post p;
            p.platform = g.platform;
            p.channel = g.channel;
            PostRun run(parts(), p);
            bool did = false;
            store_.transaction([&] {
                // Another daemon's job may be at this game right now, or have done it since
                // the list was read: then it is not ours.
                if (!store_.claim_due_game(g.id, now))
                    return;
                did = run.tick_game(g.id);
                run.conclude();
            });
            run.publish_cache();
            return did ? 1 : 0;
        });
    }
    send_digests(now);
    return changed;
}

int Service::start_up() {
    const std::int64_t now = clock_();
    // The last heartbeat is read and replaced at once: of several daemons starting together
    // after an outage, one forgives it (the others see its heartbeat, or conflict and then do).
    std::optional<std::int64_t> last;
    retry_conflicts([&] {
        store_.transaction([&] {
            last = store_.heartbeat();
            store_.put_heartbeat(now);
        });
    });
    int told = 0;
    if (last && now - *last > settings_.downtime_notice_after) {
        // A game whose clocks ran has a deadline; the others have nothing to forgive. Each
        // channel is told once, in one transaction with the clocks it concerns.
        std::map<std::pair<std::string, std::string>, std::vector<std::int64_t>> by_channel;
        for (const auto& g : store_.games_due(std::numeric_limits<std::int64_t>::max()))
            by_channel[{g.platform, g.channel}].push_back(g.id);
        for (const auto& [where, in_channel] : by_channel) {
            Post p;
            p.platform = where.first;
            p.channel = where.second;
            // A named reference: clang does not let a lambda capture a structured binding.
            const std::vector<std::int64_t>& ids = in_channel;
            told += retry_conflicts([&] {
                PostRun run(parts(), p);
                int did = 0;
                store_.transaction([&] { did = run.forgive_downtime(ids, *last, now); });
                run.publish_cache();
                return did;
            });
        }
    }
    return told;
}

} // namespace ghostpost::bot
