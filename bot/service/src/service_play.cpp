// Playing (Session, session.h): a bare move or !move, read against what the mover may see, applied
// by Session::act, and its replies.
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

bool detail::names_anytime_action(const rules::Game& game, Seat seat, const std::string& text) {
    auto parsed = rules::parse_action(game, seat, text);
    if (!parsed)
        return false;
    const auto anytime = game.anytime_action(seat, rules::word_key(text));
    return anytime && anytime->action == parsed->action;
}

bool try_bare_move(PostParts& run) {
    auto mine = run.games.my_games_here({GameStatus::Ongoing});
    if (mine.empty())
        return false;
    const std::string& text = run.ctx.post.text;
    // A direct message is always meant for the bot: it is read as a move even when it does not
    // look like one, so that the player hears why it is not.
    const bool meant = run.ctx.post.direct;
    // A move may be typed with the piece letters of the author's language ("Sf3" in German).
    const std::string language = run.out.author_language();
    std::vector<std::pair<Loaded, Seat>> deciding, waiting;
    for (const auto& g : mine) {
        Loaded l = run.games.load(g);
        Seat seat = *detail::seat_of(g, run.ctx.author.id);
        auto ds = deciders(l);
        bool decides = std::find(ds.begin(), ds.end(), seat) != ds.end();
        (decides ? deciding : waiting).emplace_back(std::move(l), seat);
    }
    if (deciding.size() == 1) {
        auto& [l, seat] = deciding.front();
        if (!meant && !rules::looks_like_action(*l.game, seat, text, language))
            return false;
        run.session.play(l, seat, text);
        return true;
    }
    if (deciding.size() > 1) {
        // The games that could take it: legal there, or refused for a reason only the mover
        // may hear (then run.session.play() says it by direct message). Counting the latter keeps a
        // hidden piece from sending the move to another game without a word.
        std::vector<std::string> ids, takers;
        std::pair<Loaded, Seat>* taker = nullptr;
        bool looks = false;
        for (auto& entry : deciding) {
            auto& [l, seat] = entry;
            ids.push_back("#" + std::to_string(l.rec.id));
            if (!rules::looks_like_action(*l.game, seat, text, language))
                continue;
            looks = true;
            const auto parsed = rules::parse_action(*l.game, seat, text, language);
            if (parsed.ok() || !parsed.error().private_detail.empty()) {
                takers.push_back("#" + std::to_string(l.rec.id));
                taker = &entry;
            }
        }
        if (takers.size() == 1) {
            run.session.play(taker->first, taker->second, text);
            return true;
        }
        const std::string shown = shorten(text, 20);
        if (takers.size() > 1)
            run.out.say(
                tr("{move} can be played in several of your games ({games}): say which, for "
                   "example {example}.",
                   {{"move", shown},
                    {"games", join(takers, ", ")},
                    {"example",
                     run.ctx.settings.prefix + "move " + takers.front().substr(1) + " " + shown}}));
        else if (looks || meant)
            run.out.say(
                tr("You must decide in several games here ({games}), and {move} is "
                   "possible in none of them: say which with {form} to hear why.",
                   {{"games", join(ids, ", ")}, {"move", shown}, {"form", run.out.form("move")}}));
        return looks || meant;
    }
    if (waiting.size() == 1) {
        auto& [l, seat] = waiting.front();
        if (!meant && !rules::looks_like_action(*l.game, seat, text, language))
            return false;
        if (names_anytime_action(*l.game, seat, text)) {
            run.session.play(l, seat, text);
            return true;
        }
        run.out.say(tr("Not played: it is not your turn in game #{game}. {next}",
                       {{"game", l.rec.id}, {"next", run.games.next_line(l)}}));
        return true;
    }
    if (meant && waiting.size() > 1) {
        std::vector<std::string> ids;
        for (auto& [l, seat] : waiting)
            ids.push_back("#" + std::to_string(l.rec.id));
        run.out.say(tr("Not played: it is your opponents' turn in all your games ({games}).",
                       {{"games", join(ids, ", ")}}));
        return true;
    }
    return false;
}

void cmd_move(PostParts& run, const std::vector<std::string>& args) {
    if (args.empty()) {
        run.out.usage_error("move", tr("Say which move."));
        return;
    }
    std::optional<GameRecord> g;
    std::string text;
    if (args.size() >= 2 && game_id_arg(args[0])) {
        std::int64_t id = *game_id_arg(args[0]);
        g = run.ctx.store.game(id);
        if (!g || g->platform != run.ctx.post.platform) {
            run.out.say(tr("There is no game #{game}.", {{"game", id}}));
            return;
        }
        for (std::size_t i = 1; i < args.size(); ++i)
            text += (i > 1 ? " " : "") + args[i];
    } else {
        for (std::size_t i = 0; i < args.size(); ++i)
            text += (i ? " " : "") + args[i];
        auto mine = run.games.my_games_here({GameStatus::Ongoing});
        std::vector<GameRecord> deciding;
        for (const auto& m : mine) {
            Loaded l = run.games.load(m);
            auto ds = deciders(l);
            if (std::find(ds.begin(), ds.end(), *detail::seat_of(m, run.ctx.author.id)) != ds.end())
                deciding.push_back(m);
        }
        if (deciding.size() == 1) {
            g = deciding.front();
        } else if (mine.size() == 1) {
            g = mine.front();
        } else if (mine.empty()) {
            run.out.say(tr("You have no game under way here. Use: {form}",
                           {{"form", run.out.form("move")}}));
            return;
        } else {
            run.out.usage_error("move", tr("You play several games here: say which."));
            return;
        }
    }
    std::string id = std::to_string(g->id);
    if (g->status != GameStatus::Ongoing) {
        const rules::Variant* v = rules::find_variant(g->variant);
        run.out.say(tr("Not played. {why}",
                       {{"why", v ? run.games.over_line(*g, v->info())
                                  : tr("Game #{game} is not under way.", {{"game", id}})}}));
        return;
    }
    auto seat = detail::seat_of(*g, run.ctx.author.id);
    if (!seat) {
        Loaded l = run.games.load(*g);
        run.out.say(tr("Not played: you are not playing in game #{game}. {next}",
                       {{"game", id}, {"next", run.games.next_line(l)}}));
        return;
    }
    Loaded l = run.games.load(*g);
    auto ds = deciders(l);
    if (std::find(ds.begin(), ds.end(), *seat) == ds.end() &&
        !names_anytime_action(*l.game, *seat, text)) {
        run.out.say(tr("Not played: it is not your turn in game #{game}. {next}",
                       {{"game", id}, {"next", run.games.next_line(l)}}));
        return;
    }
    run.session.play(l, *seat, text);
}

void Session::play(Loaded& l, Seat seat, const std::string& text) {
    std::string id = std::to_string(l.rec.id);
    if (!clocks_.may_act(l, seat))
        return;
    auto parsed = rules::parse_action(*l.game, seat, text, out_.author_language());
    if (!parsed) {
        const rules::RuleError& e = parsed.error();
        // In a direct message the reason is the mover's alone already: say it in one reply.
        if (ctx_.post.direct && !e.private_detail.empty()) {
            out_.say(tr("Not played in game #{game}: {reason}",
                        {{"game", id}, {"reason", private_reason_of(e)}}));
            return;
        }
        out_.say(
            tr("Not played in game #{game}: {reason}", {{"game", id}, {"reason", reason_of(e)}}));
        if (!e.private_detail.empty())
            out_.tell(
                ctx_.author,
                tr("Game #{game}: {reason}", {{"game", id}, {"reason", private_reason_of(e)}}), {},
                &l.rec);
        return;
    }
    const std::string canonical = parsed->text;
    if (!ctx_.post.direct && dice_.refuse_secret_in_public(l, seat, parsed->action, canonical))
        return;
    const auto legal = l.game->notated_actions(seat);
    // The deadline's answer (Game::deadline_action), typed by the player, answers the decision
    // like any other choice.
    const auto on_time = l.game->deadline_action(seat);
    const bool decision = (on_time && on_time->action == parsed->action) ||
                          std::any_of(legal.begin(), legal.end(),
                                      [&](const auto& a) { return a.action == parsed->action; });
    auto acted = act(l, seat, *parsed, ctx_.author.id, ctx_.post.message_id, decision);
    if (!acted)
        return;
    // The clock answering for a seat is said as such; a `default` the player typed is not late.
    const Text player = people_.who(l.rec, l.info(), seat);
    Text line = ctx_.defaulting ? tr("{player} did not answer in time in game #{game}.",
                                     {{"player", player}, {"game", id}})
                                : tr("{player} played {move} in game #{game}.",
                                     {{"player", player}, {"move", canonical}, {"game", id}});
    if (acted->secret) {
        // A secret anytime action (a standing dice policy) is nobody else's business at all.
        if (decision || ctx_.defaulting)
            out_.say_in(
                l.rec, ctx_.defaulting
                           ? tr("{player} did not answer in time in game #{game}, so their "
                                "standing policy decided; the choice stays secret until it is "
                                "revealed. {next}",
                                {{"player", player}, {"game", id}, {"next", games_.next_line(l)}})
                           : tr("{player} has decided in game #{game}; the choice stays secret "
                                "until it is revealed. {next}",
                                {{"player", player}, {"game", id}, {"next", games_.next_line(l)}}));
        forecasts_.tell_forecast_notes(l.rec);
        return;
    }
    for (const auto& n : acted->public_notes)
        line += " " + n;
    // Replies a forecast had ready go in the same message, before the board they lead to.
    line += forecasts_.answer_forecasts(*this, l, acted->answering);
    out_.say_in(l.rec, line + verbatim(" ") + games_.next_line(l), boards_.channel_board(l),
                game_buttons(ctx_.settings.prefix, l.rec));
    forecasts_.tell_forecast_notes(l.rec);
}

std::optional<Acted> Session::act(Loaded& l, Seat seat, const rules::NotatedAction& action,
                                  std::int64_t by, const std::string& message_id, bool decision) {
    const std::string id = std::to_string(l.rec.id);
    // Judged before the action: the one that ends the game may show everything at once.
    const bool hid_pieces = hides_pieces(*l.game);
    auto events = l.game->apply(seat, action.action, *l.rng);
    if (!events) {
        out_.say(tr("Not played in game #{game}: {reason}",
                    {{"game", id}, {"reason", reason_of(events.error())}}));
        return std::nullopt;
    }
    ++l.plies;
    storage::ActionRecord logged{l.rec.id, l.plies, seat, by, action.text, message_id};
    if (l.info().uses_chance)
        logged.rolls = chance_record(*events);
    ctx_.store.append_action(logged);
    Acted out;
    out.answering = forecasts_.follow_forecasts(l, seat, action.text);
    if (out.answering)
        clocks_.set_answering(detail::seated(l.rec, *out.answering));
    clocks_.clocks_after_action(l, seat, decision);
    clocks_.set_answering(std::nullopt);
    // Playing on declines what the other side offered, and ends any takeback request.
    if (auto offer = ctx_.store.offer(l.rec.id, OfferKind::Draw); offer && offer->seat != seat)
        ctx_.store.clear_offer(l.rec.id, OfferKind::Draw);
    ctx_.store.clear_offer(l.rec.id, OfferKind::Takeback);
    games_.remember(l);

    for (const auto& ev : *events) {
        if (ev.only_for || ev.board) {
            // Private: only the seat it is for hears of it, with its own board when it has one.
            Seat to = ev.board ? ev.board->seat() : *ev.only_for;
            const auto pid = detail::seated(l.rec, to);
            if (!pid)
                continue;
            const PlayerRecord p = people_.player(*pid);
            std::string code;
            if (ev.board) {
                // A private board looks as its reader likes boards sent to them.
                const BoardLook look = boards_.personal_look(p, l.rec);
                render::TextStyle style;
                style.seat_names = l.info().seat_names;
                style.bottom = look.bottom;
                style.glyphs = look.glyphs;
                style.say = board_words(out_.player_language(p));
                code = render::render_text(*ev.board, style);
            }
            out_.tell(p,
                      tr("Game #{game}: {reason}",
                         {{"game", id}, {"reason", text_of(ev.text, ev.phrase)}}),
                      code, &l.rec);
            continue;
        }
        if (ev.kind == rules::EventKind::Roll || ev.kind == rules::EventKind::Reveal ||
            ev.kind == rules::EventKind::Special || ev.kind == rules::EventKind::Note)
            out.public_notes.push_back(
                Text::capitalized(text_of(ev.text, ev.phrase) + verbatim(".")));
    }
    rules::Outcome outcome = l.game->outcome();
    if (outcome.over()) {
        out.ended = true;
        games_.finish(l.rec, outcome.status, outcome.reason);
        if (hid_pieces)
            games_.ended_hiding_pieces(l.rec.id);
    }
    // A decision whose every event is private (a first dice choice in a combat) is secret: the
    // channel hears that it was made, not what it was, and sees no new board.
    out.secret = !events->empty() && std::all_of(events->begin(), events->end(), [](const auto& e) {
        return e.only_for.has_value() || e.board.has_value();
    });
    return out;
}

} // namespace ghostpost::bot
