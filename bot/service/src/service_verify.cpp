// Dice anyone can verify, by commit and reveal (Dice, dice.h; !verify). A game with chance draws
// every die from a stream seeded by a secret made when the game is created (random.h says how the
// stream is derived). When the game starts, the channel gets the seed's SHA-256: a commitment that
// the service can no longer change unnoticed. When it ends, the seed itself is published, and
// `!verify` replays the log from it. Decisions that are secret when made (the first dice choice of
// a combat round) stay out of the channel and out of the record until the game is over.
//
// What `!verify` compares. Each action in the log keeps, beside its text, what chance made of it
// as the channel was told at the time (reveals, rolls, combat results). Replaying the log from
// the published seed must give every one of those lines again, every logged action must be
// legal where it was played, and the replay must end as the game was recorded. A changed seed,
// a changed choice or a changed roll each shows as the first line that differs.
#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/service/game_loader.h"
#include "ghostpost/service/game_record.h"
#include "ghostpost/service/random.h"
#include "post_run.h"
#include "replayed.h"

#include <openssl/sha.h>

namespace ghostpost::bot {

using namespace detail;

namespace {

// The public events that belong in a game's record: reveals, rolls, and what combats and spells
// did. Moves need none: their text says it all.
bool recorded(const rules::Event& e) {
    return !e.only_for && !e.board &&
           (e.kind == rules::EventKind::Reveal || e.kind == rules::EventKind::Roll ||
            e.kind == rules::EventKind::Special);
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

} // namespace

std::string detail::chance_record(const std::vector<rules::Event>& events) {
    std::vector<std::string> texts;
    for (const auto& e : events)
        if (recorded(e))
            texts.push_back(e.text);
    return join(texts, "\n");
}

bool detail::is_secret(const std::vector<rules::Event>& events) {
    return !events.empty() && std::all_of(events.begin(), events.end(), [](const auto& e) {
        return e.only_for.has_value() || e.board.has_value();
    });
}

namespace {

// Counts and writes down what is drawn from the stream it passes on.
class RecordingRandom final : public rules::RandomSource {
public:
    RecordingRandom(rules::RandomSource& inner, std::vector<std::uint32_t>& draws)
        : inner_(inner), draws_(draws) {}
    std::uint32_t uniform(std::uint32_t n) override {
        draws_.push_back(inner_.uniform(n));
        return draws_.back();
    }

private:
    rules::RandomSource& inner_;
    std::vector<std::uint32_t>& draws_;
};

// The one seat every event of a secret action went to; nullopt when they went to several.
std::optional<Seat> told_only(const std::vector<rules::Event>& events) {
    std::optional<Seat> seat;
    for (const auto& e : events) {
        if (!e.only_for || (seat && *seat != *e.only_for))
            return std::nullopt;
        seat = e.only_for;
    }
    return seat;
}

// Whether the events show their seat a board and move nothing (a peek).
bool only_shows_a_board(const std::vector<rules::Event>& events) {
    const bool shows = std::any_of(events.begin(), events.end(),
                                   [](const auto& e) { return e.board.has_value(); });
    return shows && std::none_of(events.begin(), events.end(), [](const auto& e) {
               return e.kind == rules::EventKind::Moved || e.kind == rules::EventKind::Captured ||
                      e.kind == rules::EventKind::Roll || e.kind == rules::EventKind::Special ||
                      e.kind == rules::EventKind::GameOver;
           });
}

} // namespace

Replayed detail::replay_events(const GameRecord& g, const std::vector<storage::ActionRecord>& log,
                               const std::vector<std::uint8_t>& seed) {
    Replayed r;
    // Started like every stored game; the actions are read here one by one, since each one's
    // decision and events are looked at (and for !verify a seed that fails is a finding).
    r.game = GameReplay(g).release();
    r.stream.emplace(seed);
    RecordingRandom rng(*r.stream, r.draws);
    std::vector<std::size_t> kept; // the plies still secret
    for (const auto& a : log) {
        auto parsed = rules::read_recorded_action(*r.game, a.seat, a.text);
        bool asked = false;
        if (parsed) {
            for (const auto& n : r.game->notated_actions(a.seat))
                asked = asked || n.action == parsed->action;
            // The deadline's answer typed by the player (`default`) is a decision too.
            const auto on_time = r.game->deadline_action(a.seat);
            asked = asked || (on_time && on_time->action == parsed->action);
        }
        const int move_number = r.game->public_view().board().move_number;
        auto events = parsed ? r.game->apply(a.seat, parsed->action, rng)
                             : rules::Result<std::vector<rules::Event>>(parsed.error());
        if (!events) {
            r.error = "ply " + std::to_string(a.ply) + " (" + a.text +
                      ") is not possible: " + events.error().message;
            return r;
        }
        ReplayedPly p;
        p.secret = is_secret(*events);
        if (p.secret)
            p.told = told_only(*events);
        p.choice = parsed->action.kind == rules::ActionKind::Choice;
        p.anytime = !asked;
        p.only_shows = p.anytime && only_shows_a_board(*events);
        p.still_secret = p.secret && asked;
        // An action of another seat that the channel was told of reveals the secrets before it.
        if (!p.secret)
            std::erase_if(kept, [&](std::size_t i) {
                if (log[i].seat == a.seat)
                    return false;
                r.plies[i].still_secret = false;
                return true;
            });
        if (p.still_secret)
            kept.push_back(r.plies.size());
        p.move_number = move_number;
        p.dice_after = r.draws.size();
        for (const auto& e : *events)
            if (recorded(e)) {
                p.record.push_back(e.text);
                p.said.push_back(e.phrase);
            }
        r.plies.push_back(std::move(p));
    }
    return r;
}

namespace {

// Endings the service gives a game, not its rules: the replay leaves such a game under way.
bool ended_outside_the_rules(const std::string& reason, const rules::Game& replayed) {
    if (reason == "resignation" || reason == "agreement" || reason == replayed.claimable_draw())
        return true;
    // Clocks and moderators end games too ("timeout", "adjudication", "forfeit").
    return reason.find("time") != std::string::npos ||
           reason.find("adjudicat") != std::string::npos ||
           reason.find("forfeit") != std::string::npos;
}

} // namespace

std::vector<std::uint8_t> Dice::new_seed() const {
    if (ctx_.settings.fixed_seed.empty())
        return make_seed();
    // Reproducible for tests, still different for every game: the post that made it is unique.
    const std::string material = ctx_.settings.fixed_seed + "\n" + ctx_.post.platform + "\n" +
                                 ctx_.post.channel + "\n" + ctx_.post.message_id;
    std::vector<std::uint8_t> seed(SHA256_DIGEST_LENGTH);
    SHA256(reinterpret_cast<const unsigned char*>(material.data()), material.size(), seed.data());
    return seed;
}

Text Dice::seed_commitment(const GameRecord& g, const rules::VariantInfo& info) const {
    if (!info.uses_chance)
        return {};
    return verbatim(" ") +
           tr("Its dice come from a secret seed whose SHA-256 is {hash}; the seed is "
              "published when the game ends, and then {command} checks every roll.",
              {{"hash", sha256_hex(g.seed)},
               {"command", ctx_.settings.prefix + "verify " + std::to_string(g.id)}});
}

void reveal_seeds(PostParts& run, const std::vector<Ended>& ended) {
    for (const Ended& e : ended) {
        if (!e.finished)
            continue;
        const GameRecord& g = e.game;
        const rules::Variant* variant = rules::find_variant(g.variant);
        if (variant == nullptr || !variant->info().uses_chance)
            continue;
        const std::string id = std::to_string(g.id);
        run.out.say_in(g, tr("Game #{game} is over, so its dice seed is published: {seed}. Its "
                             "SHA-256 is {hash}, the hash posted when the game started. Anyone "
                             "can check every roll: {command}.",
                             {{"game", id},
                              {"seed", to_hex(g.seed)},
                              {"hash", sha256_hex(g.seed)},
                              {"command", run.ctx.settings.prefix + "verify " + id}}));
    }
}

bool Dice::refuse_secret_in_public(const Loaded& l, Seat seat, const rules::Action& action,
                                   const std::string& text) {
    // Tried on copies: the game and its stream stay as they are whatever the answer.
    auto trial = l.game->clone();
    SeededRandom rng = *l.rng;
    auto events = trial->apply(seat, action, rng);
    if (!events || !detail::is_secret(*events))
        return false;
    out_.say(
        tr("Not played in game #{game}: {move} is secret, so it must not be made in the "
           "channel, where the other side would see it. Send it to me by direct message "
           "(@{bot}); you may choose again there.",
           {{"game", std::to_string(l.rec.id)}, {"move", text}, {"bot", ctx_.settings.bot_name}}));
    return true;
}

std::vector<std::string> Dice::public_action_texts(const GameRecord& g,
                                                   const std::vector<storage::ActionRecord>& log) {
    return bot::public_action_texts(g, log);
}

std::vector<std::string> public_action_texts(const GameRecord& g,
                                             const std::vector<storage::ActionRecord>& log) {
    std::vector<std::string> out;
    for (const auto& a : log)
        out.push_back(a.text);
    if (g.status != GameStatus::Ongoing || log.empty())
        return out;
    Replayed r = replay_events(g, log, g.seed);
    // A secret decision the game asked for is known to have been made (the board says who has
    // chosen); a secret the player volunteered (a standing policy) is not even known to exist.
    for (std::size_t i = 0; i < r.plies.size(); ++i)
        if (r.plies[i].secret)
            out[i] = r.plies[i].anytime ? "" : "{a secret choice}";
    return out;
}

bool Dice::draws_dice(const GameRecord& g, const std::vector<storage::ActionRecord>& log,
                      std::size_t from) {
    const rules::Variant* variant = rules::find_variant(g.variant);
    if (variant == nullptr || !variant->info().uses_chance || from >= log.size())
        return false;
    const std::vector<storage::ActionRecord> before(
        log.begin(), log.begin() + static_cast<std::ptrdiff_t>(from));
    return replay_events(g, before, g.seed).dice() != replay_events(g, log, g.seed).dice();
}

std::string Dice::record_movetext(const GameRecord& g,
                                  const std::vector<storage::ActionRecord>& log) {
    return public_movetext(g, log);
}

std::string public_movetext(const GameRecord& g, const std::vector<storage::ActionRecord>& log) {
    const rules::Variant* variant = rules::find_variant(g.variant);
    const bool ongoing = g.status == GameStatus::Ongoing;
    const bool chance = variant != nullptr && variant->info().uses_chance;
    if (log.empty())
        return {};
    Replayed r = replay_events(g, log, g.seed);
    if (!r.error.empty())
        throw std::runtime_error("game #" + std::to_string(g.id) +
                                 ": the log does not replay: " + r.error);
    std::vector<storage::ActionRecord> shown = log;
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const ReplayedPly& p = r.plies[i];
        if (p.secret && ongoing)
            shown[i].text = p.anytime ? "" : "{a secret choice}";
        if (chance && !p.record.empty())
            shown[i].text += " {" + join(p.record, "; ") + "}";
    }
    // One numbering for every variant, by the board's full-move number: a number starts each
    // side's turn; what a seat decides in the other side's turn (a rescue choice, dice) joins that
    // turn unnumbered; what is no decision at all (a peek) is a comment. So numbers never shift,
    // and FIDE chess is plain PGN.
    const auto& seat_names = variant->info().seat_names;
    std::string out;
    std::optional<std::pair<int, Seat>> turn; // the turn numbered last
    bool interrupted = false;                 // a peek since: Black's turn is numbered again
    for (std::size_t i = 0; i < shown.size(); ++i) {
        if (shown[i].text.empty())
            continue; // a standing policy set by direct message, while the game is under way
        const ReplayedPly& p = r.plies[i];
        const Seat seat = shown[i].seat;
        if (!out.empty())
            out += ' ';
        if (p.anytime) {
            out += "{" + seat_names[index(seat)] + ": " + shown[i].text + "}";
            interrupted = true;
            continue;
        }
        const std::pair<int, Seat> here{p.move_number, seat};
        if (!p.choice && turn != here) {
            const bool in_blacks_turn =
                seat == Seat::White && turn == std::pair{p.move_number, Seat::Black};
            const bool after_white = turn == std::pair{p.move_number, Seat::White};
            if (seat == Seat::White && !in_blacks_turn)
                out += std::to_string(p.move_number) + ". ";
            else if (seat == Seat::Black && (!after_white || interrupted))
                out += std::to_string(p.move_number) + "... ";
            if (!in_blacks_turn)
                turn = here;
        }
        out += shown[i].text;
        interrupted = false;
    }
    return out;
}

bool Dice::refuse_takeback_of_dice(const GameRecord& g,
                                   const std::vector<storage::ActionRecord>& log,
                                   std::size_t from) {
    if (!draws_dice(g, log, from))
        return false;
    // The stream never runs backwards: replayed from the seed, the same choices would roll the
    // same faces, which everyone has now seen (the variant's rules document, Takebacks).
    out_.say(tr("No takeback in game #{game}: dice were rolled since that move, and taking it "
                "back would let the same choices roll the same faces again.",
                {{"game", std::to_string(g.id)}}));
    return true;
}

namespace {

// Why the replay `r` of `log` stopped (Replayed::error), in the reader's language: the action
// that did not replay is tried again on a copy of the replay, for the rules' own reason. As
// written when that reason is not the one found then.
Text replay_failure(const std::vector<storage::ActionRecord>& log, const Replayed& r) {
    const std::size_t i = r.plies.size();
    if (i < log.size() && r.game && r.stream) {
        const storage::ActionRecord& a = log[i];
        auto trial = r.game->clone();
        SeededRandom rng = *r.stream;
        auto parsed = rules::read_recorded_action(*trial, a.seat, a.text);
        auto events = parsed ? trial->apply(a.seat, parsed->action, rng)
                             : rules::Result<std::vector<rules::Event>>(parsed.error());
        if (!events) {
            const rules::RuleError& e = events.error();
            Text why = tr("ply {ply} ({move}) is not possible: {reason}",
                          {{"ply", std::to_string(a.ply)},
                           {"move", a.text},
                           {"reason", text_of(e.message, e.phrase)}});
            if (plain(why) == r.error)
                return why;
        }
    }
    return verbatim(r.error);
}

// How the replay of `log` from the seed (`r`) differs from what the game recorded: the first
// roll that differs, a replay that fails, or another end; empty when it matches. `compared`:
// whether the log kept any rolls to compare.
Text replay_mismatch(const GameRecord& g, const std::vector<storage::ActionRecord>& log,
                     const Replayed& r, bool& compared) {
    Text mismatch;
    const rules::Outcome end = r.game->outcome();
    // The log keeps what the channel was told each action caused; the replay must say the same.
    compared = false;
    if (r.error.empty()) {
        for (std::size_t i = 0; i < r.plies.size() && mismatch.empty(); ++i) {
            compared = compared || !log[i].rolls.empty();
            const std::string replayed = join(r.plies[i].record, "\n");
            if (log[i].rolls.empty() || replayed == log[i].rolls)
                continue;
            // Name the first line that differs, not the whole ply.
            const auto told = split_lines(log[i].rolls);
            const auto& seeded = r.plies[i].record;
            std::size_t k = 0;
            while (k < told.size() && k < seeded.size() && told[k] == seeded[k])
                ++k;
            const auto roll = [](const std::vector<std::string>& lines, std::size_t at) {
                // TRANSLATORS: what the record or the seed gives where the other has one more roll.
                return at < lines.size() ? verbatim(lines[at]) : tr("nothing more");
            };
            mismatch = tr("at ply {ply} ({move}) the record says \"{recorded}\" where this seed "
                          "gives \"{replayed}\"",
                          {{"ply", std::to_string(log[i].ply)},
                           {"move", log[i].text},
                           {"recorded", roll(told, k)},
                           {"replayed", roll(seeded, k)}});
        }
    }
    if (!r.error.empty()) {
        mismatch = tr("replaying the log from this seed fails: {reason}",
                      {{"reason", replay_failure(log, r)}});
    } else if (!mismatch.empty()) {
        // a roll differs from the record: said above
    } else if (g.status == GameStatus::Finished && end.over() &&
               (result_text(end.status) != g.result || end.reason != g.reason)) {
        mismatch = tr("the replay ends {result}, {reason}, but the game was recorded as "
                      "{recorded_result}, {recorded_reason}",
                      {{"result", result_text(end.status)},
                       {"reason", game_word("reason", end.reason)},
                       {"recorded_result", g.result},
                       {"recorded_reason", game_word("reason", g.reason)}});
    } else if (g.status == GameStatus::Finished && !end.over() &&
               !ended_outside_the_rules(g.reason, *r.game)) {
        mismatch = tr("the replay leaves the game under way, but it was recorded as {result}, "
                      "{reason}",
                      {{"result", g.result}, {"reason", game_word("reason", g.reason)}});
    }
    return mismatch;
}

// Every roll of the replay `r`, a line each, by the ply of `log` that made it.
Text rolls_listing(const std::vector<storage::ActionRecord>& log, const Replayed& r) {
    Text listing;
    for (std::size_t i = 0; i < r.plies.size(); ++i)
        for (std::size_t k = 0; k < r.plies[i].record.size(); ++k)
            listing += tr("ply {ply} ({move}): {roll}",
                          {{"ply", std::to_string(log[i].ply)},
                           {"move", log[i].text},
                           {"roll", text_of(r.plies[i].record[k], r.plies[i].said[k])}}) +
                       verbatim("\n");
    return listing.empty() ? tr("(no rolls)") + verbatim("\n") : listing;
}

} // namespace

void cmd_verify(PostParts& run, const std::vector<std::string>& args) {
    std::size_t used = 0;
    auto g = run.games.pick_game(args, used, "verify", true);
    if (!g)
        return;
    if (used < args.size()) {
        run.out.usage_error(
            "verify", tr("I did not understand \"{text}\".", {{"text", shorten(args[used])}}));
        return;
    }
    const rules::Variant* variant = rules::find_variant(g->variant);
    if (variant == nullptr)
        throw std::runtime_error("game #" + std::to_string(g->id) + ": unknown variant");
    const auto& info = variant->info();
    const std::string id = std::to_string(g->id);
    const std::string again = run.ctx.settings.prefix + "verify " + id;
    if (!info.uses_chance) {
        run.out.say(tr("Game #{game} is {variant}, which has no dice: there is nothing to verify.",
                       {{"game", id}, {"variant", game_word("variant", info.title)}}));
        return;
    }
    switch (g->status) {
    case GameStatus::Challenge:
    case GameStatus::Declined:
    case GameStatus::Cancelled:
        run.out.say(
            tr("Game #{game} never started, so it has no rolls to verify.", {{"game", id}}));
        return;
    case GameStatus::Ongoing:
        run.out.say(tr("Game #{game} is under way, so its seed stays secret until the game ends. "
                       "Its SHA-256 is {hash}, the hash posted when the game started; {command} "
                       "checks every roll once the game is over.",
                       {{"game", id}, {"hash", sha256_hex(g->seed)}, {"command", again}}));
        return;
    case GameStatus::Finished:
    case GameStatus::Aborted:
        break;
    }
    const auto log = run.ctx.store.actions(g->id);
    Replayed r = replay_events(*g, log, g->seed);
    const Text listing = rolls_listing(log, r);
    const Text head = tr("Game #{game}: the seed is {seed}; its SHA-256 is {hash}, which must be "
                         "the hash posted when the game started.",
                         {{"game", id}, {"seed", to_hex(g->seed)}, {"hash", sha256_hex(g->seed)}});
    bool compared = false;
    const Text mismatch = replay_mismatch(*g, log, r, compared);
    // The channel gets the verdict; the listing, one line per roll, is long, so it goes to the
    // asker alone (and is on the game's page, which shows every ply with its rolls). The listing
    // goes as the message's block, written in the language the message is.
    const auto answer = [&](const Text& verdict, bool rolls_differ) {
        if (run.ctx.post.direct) {
            run.out.say(verdict + verbatim(" ") +
                            (rolls_differ ? tr("The rolls this seed gives are below.")
                                          : tr("The listing of every roll is below.")),
                        Replies::written(listing, run.out.author_language()));
            return;
        }
        run.out.say(verdict + verbatim(" ") +
                    (rolls_differ
                         ? tr("The rolls this seed gives are sent to you by direct message.")
                         : tr("The listing of every roll is sent to you by direct message.")) +
                    run.boards.web_link(g->id));
        const std::vector<i18n::Arg> where{{"game", id}, {"command", again}};
        run.out.tell(run.ctx.author,
                     rolls_differ ? tr("Game #{game}, {command}: the rolls this seed gives are "
                                       "below.",
                                       where)
                                  : tr("Game #{game}, {command}: the listing of every roll is "
                                       "below.",
                                       where),
                     Replies::written(listing, run.out.player_language(run.ctx.author)), &*g);
    };
    if (!mismatch.empty()) {
        answer(head + verbatim(" ") +
                   tr("The rolls do NOT match: {mismatch}.", {{"mismatch", mismatch}}),
               true);
        return;
    }
    const Text ending =
        g->status == GameStatus::Aborted
            ? tr("the game was aborted")
            : tr("the game ends as recorded ({result}, {reason})",
                 {{"result", g->result}, {"reason", game_word("reason", g->reason)}});
    const std::vector<i18n::Arg> replayed{
        {"count", log.size()}, {"dice", std::to_string(r.dice())}, {"ending", ending}};
    answer(head + verbatim(" ") +
               (compared ? tr("Replaying its {count, plural, one {# action} other {# actions}} "
                              "from this seed re-derives every die ({dice}), each gives the rolls "
                              "the game recorded when it was played, every action is legal where "
                              "it was played, and {ending}: the rolls match.",
                              replayed)
                         : tr("Replaying its {count, plural, one {# action} other {# actions}} "
                              "from this seed re-derives every die ({dice}), every action is "
                              "legal where it was played, and {ending}: the rolls match.",
                              replayed)),
           false);
}

} // namespace ghostpost::bot
