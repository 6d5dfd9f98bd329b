// Endings and offers: !resign, !draw, !takeback and !abort.
#include "ghostpost/render/png.h"
#include "ghostpost/render/text.h"
#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/rules/replay.h"
#include "ghostpost/service/command.h"
#include "ghostpost/service/game_loader.h"
#include "post_run.h"

#include <algorithm>
#include <stdexcept>

namespace ghostpost::bot {

using namespace detail;

// The first action from `log[first]` on that was no decision of the game's but was told to the
// channel (an anytime action that shows a board): a takeback never undoes it, since what it showed
// cannot be unseen and a life given back would be a free peek. nullopt when there is none.
static std::optional<std::string> undone_public_aside(const GameRecord& g,
                                                      const std::vector<storage::ActionRecord>& log,
                                                      std::size_t first) {
    auto started = rules::find_variant(g.variant)->start(g.options);
    if (!started)
        throw std::runtime_error("game #" + std::to_string(g.id) + ": cannot restart");
    rules::Game& game = *started.value();
    SeededRandom rng(g.seed);
    for (std::size_t i = 0; i < log.size(); ++i) {
        const auto& a = log[i];
        auto parsed = rules::read_recorded_action(game, a.seat, a.text);
        const bool aside = parsed && i >= first && names_anytime_action(game, a.seat, a.text);
        auto events = parsed ? game.apply(a.seat, parsed->action, rng)
                             : rules::Result<std::vector<rules::Event>>(parsed.error());
        if (!events)
            throw std::runtime_error("game #" + std::to_string(g.id) + ": the log does not replay");
        if (aside && std::any_of(events->begin(), events->end(),
                                 [](const auto& e) { return !e.only_for && !e.board; }))
            return a.text;
    }
    return std::nullopt;
}

void cmd_resign(PostParts& run, const std::vector<std::string>& args) {
    // "?" asks first (the Resign button); the answers under the question are "no", and the
    // asker's seat, so that nobody else's press of that Yes resigns anybody.
    std::vector<std::string> rest = args;
    std::string asking;
    if (!rest.empty()) {
        const std::string last = lower(rest.back());
        if (last == "?" || last == "no" || last == "white" || last == "black") {
            asking = last;
            rest.pop_back();
        }
    }
    auto mg = run.games.my_ongoing_game(rest, "resign");
    if (!mg)
        return;
    Loaded& l = mg->loaded;
    const std::string id = std::to_string(l.rec.id);
    if (asking == "?") {
        run.out.say(tr("{player}: resign game #{game}? It cannot be undone. Say {command} to "
                       "resign.",
                       {{"player", run.out.at(run.ctx.author)},
                        {"game", id},
                        {"command", run.ctx.settings.prefix + "resign " + id}}),
                    BoardOut{}, resign_buttons(run.ctx.settings.prefix, l.rec, mg->seat));
        return;
    }
    if (asking == "no") {
        run.out.say(tr("You play on in game #{game}.", {{"game", id}}));
        return;
    }
    if (!asking.empty() && asking != rules::seat_name(mg->seat)) {
        const Seat asked = asking == "white" ? Seat::White : Seat::Black;
        run.out.say(tr("That button was for {player}: nothing was done.",
                       {{"player", run.people.who(l.rec, l.info(), asked)}}));
        return;
    }
    Seat winner = rules::opponent(mg->seat);
    const Text resigner = run.people.who(l.rec, l.info(), mg->seat);
    // A game resigned before both sides moved never really began, as with a clock that ran
    // out then: aborted, for nobody. A tournament game stays a loss, so the pairings stand.
    if (!run.games.both_sides_moved(l.rec.id) && !run.ctx.store.pairing_of_game(l.rec.id)) {
        run.games.abort_game(l.rec);
        run.out.say_in(l.rec, tr("{player} resigns game #{game} before both sides had moved: the "
                                 "game is aborted and counts for nobody.",
                                 {{"player", resigner}, {"game", id}}));
        return;
    }
    run.games.finish(l.rec,
                     winner == Seat::White ? rules::Status::WhiteWins : rules::Status::BlackWins,
                     "resignation");
    if (hides_pieces(*l.game))
        run.games.ended_hiding_pieces(l.rec.id);
    run.out.say_in(l.rec, tr("{player} resigns. {next}",
                             {{"player", resigner}, {"next", run.games.next_line(l)}}));
}

void publish_hidden_records(PostParts& run, const std::vector<Ended>& ended) {
    std::vector<GameRecord> due;
    for (const Ended& e : ended)
        if (e.hid_pieces)
            due.push_back(e.game);
    // However a game ended (resignation, time, a draw, adjudication, a void), what its rules
    // hid is told now (Game::ending_reveal), and the record follows.
    for (const Ended& end : ended) {
        const GameRecord& g = end.game;
        Loaded l = run.games.load(g);
        const auto shown = l.game->ending_reveal();
        // What the rules reveal is a sentence of theirs, capitalized: their English as it is.
        for (const auto& e : shown)
            run.out.say_in(
                g, tr("Game #{game}: {reason}", {{"game", std::to_string(g.id)},
                                                 {"reason", verbatim(capitalized(e.text) + ".")}}));
        if (!shown.empty() &&
            std::none_of(due.begin(), due.end(), [&](const auto& d) { return d.id == g.id; }))
            due.push_back(g);
    }
    for (const auto& g : due) {
        auto log = run.ctx.store.actions(g.id);
        run.out.say_in(g,
                       tr("Game #{game} is over. Its full record, with the squares of the moves "
                          "that the boards in the channel did not show:",
                          {{"game", std::to_string(g.id)}}),
                       wrap_moves(run.dice.record_movetext(g, log), 60));
    }
}

void cmd_draw(PostParts& run, const std::vector<std::string>& args) {
    // "accept" and "decline" answer an open offer and do nothing else (the buttons under one):
    // pressed once the offer is gone, they neither claim nor offer a draw.
    std::vector<std::string> rest = args;
    std::string answer;
    if (!rest.empty() && (lower(rest.back()) == "accept" || lower(rest.back()) == "decline")) {
        answer = lower(rest.back());
        rest.pop_back();
    }
    auto mg = run.games.my_ongoing_game(rest, "draw");
    if (!mg)
        return;
    Loaded& l = mg->loaded;
    std::string id = std::to_string(l.rec.id);
    if (!answer.empty()) {
        auto open = run.ctx.store.offer(l.rec.id, OfferKind::Draw);
        if (!open) {
            run.out.say(
                answer == "accept"
                    ? tr("There is no draw offer to accept in game #{game}.", {{"game", id}})
                    : tr("There is no draw offer to decline in game #{game}.", {{"game", id}}));
            return;
        }
        if (open->seat == mg->seat) {
            const Text other = run.people.who(l.rec, l.info(), rules::opponent(mg->seat));
            run.out.say(answer == "accept"
                            ? tr("You offered this draw in game #{game}; only {player} can "
                                 "accept it.",
                                 {{"game", id}, {"player", other}})
                            : tr("You offered this draw in game #{game}; only {player} can "
                                 "decline it.",
                                 {{"game", id}, {"player", other}}));
            return;
        }
        if (answer == "decline") {
            run.ctx.store.clear_offer(l.rec.id, OfferKind::Draw);
            run.out.say_in(l.rec, tr("{player} declines the draw in game #{game}. {next}",
                                     {{"player", run.people.who(l.rec, l.info(), mg->seat)},
                                      {"game", id},
                                      {"next", run.games.next_line(l)}}));
            return;
        }
    }
    auto ds = deciders(l);
    if (answer.empty() && std::find(ds.begin(), ds.end(), mg->seat) != ds.end()) {
        if (auto claim = l.game->claimable_draw()) {
            run.games.finish(l.rec, rules::Status::Draw, *claim);
            if (hides_pieces(*l.game))
                run.games.ended_hiding_pieces(l.rec.id);
            run.out.say_in(l.rec, tr("{player} claims a draw. {next}",
                                     {{"player", run.people.who(l.rec, l.info(), mg->seat)},
                                      {"next", run.games.next_line(l)}}));
            return;
        }
    }
    auto offer = run.ctx.store.offer(l.rec.id, OfferKind::Draw);
    if (offer && offer->seat != mg->seat) {
        run.games.finish(l.rec, rules::Status::Draw, "agreement");
        if (hides_pieces(*l.game))
            run.games.ended_hiding_pieces(l.rec.id);
        run.out.say_in(l.rec, tr("{player} accepts the draw. {next}",
                                 {{"player", run.people.who(l.rec, l.info(), mg->seat)},
                                  {"next", run.games.next_line(l)}}));
        return;
    }
    const Text other = run.people.who(l.rec, l.info(), rules::opponent(mg->seat));
    const std::string command = run.ctx.settings.prefix + "draw " + id;
    if (offer) {
        run.out.say(tr("You already offered a draw in game #{game}; {player} can accept with "
                       "{command}.",
                       {{"game", id}, {"player", other}, {"command", command}}));
        return;
    }
    run.ctx.store.put_offer(l.rec.id, {OfferKind::Draw, mg->seat, l.plies});
    run.out.say_in(l.rec,
                   tr("{player} offers a draw in game #{game}. {opponent}: {command} accepts; "
                      "playing on declines. {next}",
                      {{"player", run.people.who(l.rec, l.info(), mg->seat)},
                       {"game", id},
                       {"opponent", other},
                       {"command", command},
                       {"next", run.games.next_line(l)}}),
                   BoardOut{}, draw_offer_buttons(run.ctx.settings.prefix, l.rec));
}

namespace {

// The opponent's request `offer` to take back their last move, accepted by the author.
void accept_takeback(PostParts& run, MyGame& mg, const storage::Offer& offer) {
    Loaded& l = mg.loaded;
    const std::string id = std::to_string(l.rec.id);
    auto log = run.ctx.store.actions(l.rec.id);
    const auto shown = run.dice.public_action_texts(l.rec, log); // a secret choice stays secret
    // The last move the channel knows of: a standing policy set by direct message is none.
    auto last = std::find_if(log.rbegin(), log.rend(), [&](const auto& a) {
        return a.seat == offer.seat && !shown[static_cast<std::size_t>(&a - log.data())].empty();
    });
    run.ctx.store.clear_offer(l.rec.id, OfferKind::Takeback);
    if (last == log.rend()) {
        run.out.say(tr("There is nothing to take back in game #{game}.", {{"game", id}}));
        return;
    }
    const auto first = static_cast<std::size_t>(log.rend() - last - 1);
    if (auto aside = undone_public_aside(l.rec, log, first)) {
        run.out.say(tr("Nothing was taken back in game #{game}: that would undo {action}, and "
                       "what it showed cannot be unseen.",
                       {{"game", id}, {"action", *aside}}));
        return;
    }
    if (run.dice.refuse_takeback_of_dice(l.rec, log,
                                         static_cast<std::size_t>(log.rend() - last - 1)))
        return;
    std::vector<std::string> undone;
    for (auto it = log.begin() + (log.rend() - last - 1); it != log.end(); ++it)
        if (const auto& text = shown[static_cast<std::size_t>(it - log.begin())]; !text.empty())
            undone.push_back(text);
    run.ctx.store.take_back(l.rec.id, last->ply);
    run.service.memory.images.forget_game(l.rec.id); // its images show positions no longer played
    run.ctx.store.clear_offer(l.rec.id, OfferKind::Draw);
    Loaded now = run.games.load(l.rec);
    run.clocks.sync_clocks(now);
    run.out.say_in(l.rec,
                   tr("{player} accepts the takeback in game #{game}: {moves} taken back. {next}",
                      {{"player", run.people.who(l.rec, l.info(), mg.seat)},
                       {"game", id},
                       {"moves", join(undone, " ")},
                       {"next", run.games.next_line(now)}}),
                   run.boards.channel_board(now), game_buttons(run.ctx.settings.prefix, now.rec));
    run.forecasts.clear_forecasts(l.rec, tr("a takeback changed the position"));
}

// The author asks to take back their last move.
void ask_takeback(PostParts& run, MyGame& mg, const Text& other) {
    Loaded& l = mg.loaded;
    const std::string id = std::to_string(l.rec.id);
    auto log = run.ctx.store.actions(l.rec.id);
    if (std::none_of(log.begin(), log.end(), [&](const auto& a) { return a.seat == mg.seat; })) {
        run.out.say(tr("You have not moved yet in game #{game}: there is nothing to take back.",
                       {{"game", id}}));
        return;
    }
    {
        const auto shown = run.dice.public_action_texts(l.rec, log);
        auto last = std::find_if(log.rbegin(), log.rend(), [&](const auto& a) {
            return a.seat == mg.seat && !shown[static_cast<std::size_t>(&a - log.data())].empty();
        });
        if (last != log.rend() && run.dice.refuse_takeback_of_dice(
                                      l.rec, log, static_cast<std::size_t>(log.rend() - last - 1)))
            return;
    }
    const auto mine =
        std::find_if(log.rbegin(), log.rend(), [&](const auto& a) { return a.seat == mg.seat; });
    const auto from = static_cast<std::size_t>(log.rend() - mine - 1);
    if (auto aside = undone_public_aside(l.rec, log, from)) {
        run.out.say(tr("You cannot take back your last move in game #{game}: that would undo "
                       "{action}, and what it showed cannot be unseen.",
                       {{"game", id}, {"action", *aside}}));
        return;
    }
    run.ctx.store.put_offer(l.rec.id, {OfferKind::Takeback, mg.seat, l.plies});
    run.out.say_in(l.rec, tr("{player} asks to take back their last move in game #{game}. "
                             "{opponent}: {accept} accepts; playing on declines.",
                             {{"player", run.people.who(l.rec, l.info(), mg.seat)},
                              {"game", id},
                              {"opponent", other},
                              {"accept", run.ctx.settings.prefix + "takeback " + id}}));
}

} // namespace

void cmd_takeback(PostParts& run, const std::vector<std::string>& args) {
    // "accept" and "decline" answer an open request and do nothing else, as for !draw.
    std::vector<std::string> rest = args;
    std::string answer;
    if (!rest.empty() && (lower(rest.back()) == "accept" || lower(rest.back()) == "decline")) {
        answer = lower(rest.back());
        rest.pop_back();
    }
    auto mg = run.games.my_ongoing_game(rest, "takeback");
    if (!mg)
        return;
    Loaded& l = mg->loaded;
    std::string id = std::to_string(l.rec.id);
    auto offer = run.ctx.store.offer(l.rec.id, OfferKind::Takeback);
    const Text other = run.people.who(l.rec, l.info(), rules::opponent(mg->seat));
    if (!answer.empty()) {
        if (!offer) {
            run.out.say(
                answer == "accept"
                    ? tr("There is no takeback request to accept in game #{game}.", {{"game", id}})
                    : tr("There is no takeback request to decline in game #{game}.",
                         {{"game", id}}));
            return;
        }
        if (offer->seat == mg->seat) {
            run.out.say(answer == "accept"
                            ? tr("You asked for this takeback in game #{game}; only {opponent} "
                                 "can accept it.",
                                 {{"game", id}, {"opponent", other}})
                            : tr("You asked for this takeback in game #{game}; only {opponent} "
                                 "can decline it.",
                                 {{"game", id}, {"opponent", other}}));
            return;
        }
        if (answer == "decline") {
            run.ctx.store.clear_offer(l.rec.id, OfferKind::Takeback);
            run.out.say_in(l.rec, tr("{player} declines the takeback in game #{game}. {next}",
                                     {{"player", run.people.who(l.rec, l.info(), mg->seat)},
                                      {"game", id},
                                      {"next", run.games.next_line(l)}}));
            return;
        }
    }
    if (offer && offer->seat != mg->seat) {
        accept_takeback(run, *mg, *offer);
        return;
    }
    if (offer) {
        run.out.say(tr("You already asked for a takeback in game #{game}; {opponent} can accept "
                       "with {accept}.",
                       {{"game", id},
                        {"opponent", other},
                        {"accept", run.ctx.settings.prefix + "takeback " + id}}));
        return;
    }
    ask_takeback(run, *mg, other);
}

void cmd_abort(PostParts& run, const std::vector<std::string>& args) {
    std::size_t used = 0;
    auto g = run.games.pick_game(args, used, "abort", false);
    if (!g)
        return;
    std::string id = std::to_string(g->id);
    if (used < args.size()) {
        run.out.usage_error(
            "abort", tr("I did not understand \"{text}\".", {{"text", shorten(args[used])}}));
        return;
    }
    if (g->status != GameStatus::Ongoing) {
        run.out.say(tr("Game #{game} is not under way.", {{"game", id}}));
        return;
    }
    if (!detail::seat_of(*g, run.ctx.author.id) && !run.people.moderator()) {
        run.out.say(tr("You are not playing in game #{game}.", {{"game", id}}));
        return;
    }
    if (run.ctx.store.pairing_of_game(g->id) && !run.people.moderator()) {
        run.out.say(
            tr("Game #{game} is a tournament game: it cannot be aborted. Use {resign} or "
               "{draw}.",
               {{"game", id}, {"resign", run.out.form("resign")}, {"draw", run.out.form("draw")}}));
        return;
    }
    if (run.games.both_sides_moved(g->id) && !run.people.moderator()) {
        run.out.say(
            tr("Too late to abort game #{game}: both sides have moved. Use {resign} or "
               "{draw}.",
               {{"game", id}, {"resign", run.out.form("resign")}, {"draw", run.out.form("draw")}}));
        return;
    }
    // What only a moderator's rights allowed goes to the moderator log with the abort itself.
    if (!detail::seat_of(*g, run.ctx.author.id) || run.ctx.store.pairing_of_game(g->id) ||
        run.games.both_sides_moved(g->id))
        mod_log(run.ctx, "abort #" + id);
    run.games.abort_game(*g);
    run.out.say_in(*g, tr("Game #{game} is aborted by {player}. It counts for nobody.",
                          {{"game", id}, {"player", run.out.at(run.ctx.author)}}));
}

} // namespace ghostpost::bot
