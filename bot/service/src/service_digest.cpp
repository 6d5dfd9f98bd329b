// The daily digest (!settings digest=on|<hour>): once a day, at an hour of UTC the player
// chose, a direct message listing the games where the decision is theirs, each with its
// deadline, the challenges waiting for their answer, and one line for the games waiting on
// their opponents. Nothing is sent on a day when nothing waits for them.
//
// Like game deadlines, a digest's next time is data (digests.next_at, indexed): the time-driven
// job asks the database which digests are due, so a quiet hour costs one indexed look whatever
// the number of players and games, and a due digest reads only its own player's games.
#include "ghostpost/league/clock.h"
#include "ghostpost/rules/registry.h"
#include "post_run.h"

#include <algorithm>
#include <cstdio>

namespace ghostpost::bot {

using namespace detail;

namespace {

constexpr int default_digest_hour = 8;

// The first time after `now` at `hour` o'clock UTC.
Seconds next_hour(Seconds now, int hour) {
    Seconds at = now / day * day + Seconds{hour} * 3600;
    if (at <= now)
        at += day;
    return at;
}

// "8", "08", "8h", "08:00": an hour of the day; nullopt for anything else.
std::optional<int> read_hour(std::string v) {
    if (v.ends_with(":00"))
        v.resize(v.size() - 3);
    else if (v.ends_with("h"))
        v.pop_back();
    if (v.empty() || v.size() > 2 || v.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    const int hour = std::stoi(v);
    if (hour > 23)
        return std::nullopt;
    return hour;
}

std::string hour_text(int hour) {
    char text[8];
    std::snprintf(text, sizeof text, "%02d:00", hour);
    return text;
}

} // namespace

bool digest_setting(PostParts& run, const std::string& value,
                    std::optional<storage::DigestRecord>& digest) {
    if (value == "off") {
        digest.reset();
        return true;
    }
    int hour = digest ? digest->hour : default_digest_hour;
    if (value != "on") {
        const auto read = read_hour(value);
        if (!read)
            return false;
        hour = *read;
    }
    // Sent on the platform where it was asked for: the player reads their messages there.
    digest = storage::DigestRecord{run.ctx.author.id, run.ctx.post.platform, hour,
                                   next_hour(run.ctx.now, hour)};
    return true;
}

std::string detail::digest_words(const std::optional<storage::DigestRecord>& digest) {
    return digest ? hour_text(digest->hour) : std::string("off");
}

namespace {

// The lines of a digest: the games where the player must decide, the challenges for them, and
// the games that wait on their opponents.
struct DigestLines {
    std::vector<Text> decide, answer, waiting;
};

// Game or challenge `g` of player `p`, as its line of the digest, if it has one.
void digest_line(PostParts& run, const PlayerRecord& p, const GameRecord& g, DigestLines& lines) {
    const rules::Variant* v = rules::find_variant(g.variant);
    if (v == nullptr)
        return;
    const std::string id = std::to_string(g.id);
    const std::string& prefix = run.ctx.settings.prefix;
    if (g.status == GameStatus::Challenge) {
        if (g.challenger != p.id)
            lines.answer.push_back(
                tr("#{game} {variant} from {player}: {accept} or {decline}, until {time}.",
                   {{"game", id},
                    {"variant", game_word("variant", v->info().title)},
                    {"player", run.people.mention(g.challenger)},
                    {"accept", prefix + "accept " + id},
                    {"decline", prefix + "decline " + id},
                    {"time", format_utc(g.created_at + run.ctx.settings.challenge_expiry)}}));
        return;
    }
    const auto seat = detail::seat_of(g, p.id);
    if (!seat)
        return;
    const Loaded l = run.games.load(g);
    const Seat other = rules::opponent(*seat);
    const std::string against =
        detail::seated(g, other) ? run.people.mention(*detail::seated(g, other)) : "?";
    const auto rows = run.clocks.clock_rows(g);
    // The deadline of `s`'s decision, in words.
    const auto deadline = [&](Seat s, bool yours) {
        const auto& c = rows[rules::index(s)];
        if (g.paused)
            return tr("paused by a moderator");
        if (g.time_control == "none")
            return tr("no clock");
        if (c.running_since != 0) {
            const Seconds at = c.running_since + c.remaining;
            if (!yours)
                // TRANSLATORS: the deadline of the opponent's decision, in the daily digest.
                return tr("until {time}", {{"time", format_utc(at)}});
            return tr("your time runs out at {time} ({left} from now)",
                      {{"time", format_utc(at)},
                       {"left", format_duration(std::max<Seconds>(0, at - run.ctx.now))}});
        }
        return yours ? tr("your clock stands still") : tr("their clock stands still");
    };
    std::string what;
    std::optional<Text> decision;
    for (const auto& dec : l.game->pending())
        if (dec.seat == *seat) {
            what = dec.what;
            decision = said(dec.said());
        }
    if (what.empty()) {
        // Only the owner reads this: their forecast may be named.
        bool ready = false;
        for (const auto& f : run.ctx.store.forecasts(g.id))
            if (f.seat == *seat && f.ply == l.plies)
                ready = true;
        const std::vector<i18n::Arg> args{
            {"game", id}, {"player", against}, {"deadline", deadline(other, false)}};
        // TRANSLATORS: a game waiting on {player}, in the daily digest; {deadline} is theirs
        // ("until 2023-11-17 22:13 UTC", "no clock").
        Text waits = tr("#{game} ({player}, {deadline})", args);
        if (ready)
            // TRANSLATORS: a game of the daily digest, as "#{game} ({player}, {deadline})".
            waits = tr("#{game} ({player}, {deadline}, your forecast ready)", args);
        lines.waiting.push_back(waits);
        return;
    }
    lines.decide.push_back(tr("#{game} {variant} vs {player}: you must {decision}; {deadline}.",
                              {{"game", id},
                               {"variant", game_word("variant", l.info().title)},
                               {"player", against},
                               {"decision", decision.value_or(Text())},
                               {"deadline", deadline(*seat, true)}}));
}

} // namespace

bool PostRun::send_digest(const storage::DigestRecord& d) {
    // Once a day, even after a long downtime: the next is at the hour after now.
    storage::DigestRecord next = d;
    next.next_at = next_hour(run_.ctx.now, d.hour);
    run_.ctx.store.put_digest(next);
    const auto account = run_.ctx.store.player(d.player_id);
    if (!account)
        return false;
    const PlayerRecord p = run_.people.as_player(*account, d.platform);

    DigestLines lines;
    for (const auto& g :
         run_.ctx.store.games_of_player(p, {GameStatus::Challenge, GameStatus::Ongoing}))
        digest_line(run_, p, g, lines);
    const auto& [decide, answer, waiting] = lines;
    if (decide.empty() && answer.empty())
        return false;
    const Text newline = verbatim("\n");
    Text text;
    for (const auto& line : decide)
        text += line + newline;
    if (!answer.empty())
        text += tr("Challenges for you:") + newline;
    for (const auto& line : answer)
        text += line + newline;
    if (!waiting.empty()) {
        Text list = waiting.front();
        for (std::size_t i = 1; i < waiting.size(); ++i)
            list += verbatim(", ") + waiting[i];
        text += tr("Waiting on your opponents: {games}.", {{"games", list}}) + newline;
    }
    const std::size_t n = decide.size() + answer.size();
    // The listing goes as the message's block, written in the language the message is.
    run_.out.tell(p,
                  tr("Your daily digest, {time}: {count, plural, one {# decision waits} "
                     "other {# decisions wait}} for you. {command} stops it.",
                     {{"time", format_utc(run_.ctx.now)},
                      {"count", n},
                      {"command", run_.ctx.settings.prefix + "settings digest=off"}}),
                  Replies::written(text, run_.out.player_language(p)));
    return true;
}

void Service::send_digests(std::int64_t now) {
    for (const auto& listed : store_.digests_due(now)) {
        retry_conflicts([&] {
            Post p;
            p.platform = listed.platform;
            PostRun run(parts(), p);
            store_.transaction([&] {
                // Another daemon's job may be sending it right now, or have sent it since the
                // list was read: then it is not ours. Read again, as a retry may find it
                // changed (another platform, another hour).
                if (!store_.claim_digest(listed.player_id, now))
                    return;
                if (const auto d = store_.digest(listed.player_id))
                    run.send_digest(*d);
            });
            run.publish_cache();
        });
    }
}

} // namespace ghostpost::bot
