// What the service's command handlers share: the PostRun that one post runs in, and the small
// text helpers its replies use. Private to bot/service/src: the handlers live in several files
// (service.cpp for games, others for further command families), members of PostRun; what a
// post is, what it says, its players and its boards are parts of their own (replies.h,
// people.h, boards.h).
#pragma once

#include "boards.h"
#include "ghostpost/render/png.h"
#include "ghostpost/render/text.h"
#include "ghostpost/rules/game.h"
#include "ghostpost/service/command.h"
#include "ghostpost/service/engine_player.h"
#include "ghostpost/service/service.h"
#include "people.h"
#include "replies.h"
#include "service_memory.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ghostpost::bot {

using rules::Seat;
using storage::GameRecord;
using storage::GameStatus;
using storage::OfferKind;
using storage::PlayerRecord;

namespace detail {

// One command's form (after the prefix) and its line in !help.
struct Usage {
    const char* name;
    const char* form;
    const char* help;
};
// The usage of a command or sub-command ("tourney join"), by its name or an alias; nullptr for
// none (commands.cpp).
const Usage* find_usage(const std::string& name);
std::string canonical_command(const std::string& name); // "m" -> "move", ...

std::string lower(std::string_view s);
std::string strip_at(std::string_view s);
// How a player is named in replies: "@handle", or the display name when the account has no
// handle (then no "@": nobody could write it back).
std::string at(const PlayerRecord& p);
// "#12" or "12" as a game id; nullopt for anything else.
std::optional<std::int64_t> game_id_arg(const std::string& arg);
std::string result_text(rules::Status s); // "1-0", "0-1", "1/2-1/2", "*"
std::string capitalized(std::string s);
// Rules messages are clauses; a reply ends them as a sentence once.
std::string sentence_end(std::string s);
std::string join(const std::vector<std::string>& items, const std::string& sep);
std::string options_text(const rules::Options& options);
// Movetext "1. e4 e5 2. Nf3": a number before each turn of White's.
std::string movetext(const std::vector<storage::ActionRecord>& log);
// The public reveals, rolls and results that chance made of one action, one per line, as the
// action log keeps them for !verify (service_verify.cpp).
std::string chance_record(const std::vector<rules::Event>& events);
// Breaks text into lines of at most `width` characters at spaces.
std::string wrap(const std::string& text, std::size_t width);
// Movetext in lines of at most `width` characters, broken only before a move number, so "12."
// never stands apart from its moves (a turn longer than a line is broken at spaces).
std::string wrap_moves(const std::string& movetext, std::size_t width);
// Whether `text` names an action `seat` may take turn or no turn (a Phantom Chess peek).
bool names_anytime_action(const rules::Game& game, rules::Seat seat, const std::string& text);

// The buttons under a challenge: Accept, and Decline when it is addressed to someone
// (service_chat.cpp, as the next three). `prefix` is the command prefix.
std::vector<storage::ButtonRecord> challenge_buttons(const std::string& prefix,
                                                     const GameRecord& g);
// The buttons under a board of a game under way: Offer draw, and Resign (which asks first);
// none once the game is over.
std::vector<storage::ButtonRecord> game_buttons(const std::string& prefix, const GameRecord& g);
std::vector<storage::ButtonRecord> draw_offer_buttons(const std::string& prefix,
                                                      const GameRecord& g);
// Under the question a Resign press asks `asker`: Yes (for that seat only) and No.
std::vector<storage::ButtonRecord> resign_buttons(const std::string& prefix, const GameRecord& g,
                                                  Seat asker);
// Whether the channel's board of `g` leaves out a piece some seat sees.
inline bool hides_pieces(const rules::Game& g) {
    const rules::BoardView shown = g.public_view().board();
    return g.seat_view(Seat::White).board().cells != shown.cells ||
           g.seat_view(Seat::Black).board().cells != shown.cells;
}
std::string service_options_text(const GameRecord& g); // "Clock: 3d per move; rated."
// The digest as !settings shows it: "08:00" (UTC), or "off" (service_digest.cpp).
std::string digest_words(const std::optional<storage::DigestRecord>& digest);
std::string new_code(); // "K7QD-M2XP": 8 characters nobody reads wrongly (service_link.cpp)

} // namespace detail

namespace tourney {
struct Field;
struct PlannedBoard;
struct CreatedBoard;
} // namespace tourney

class PostRun {
public:
    // One row of the command table (commands.cpp): the one place a command is defined.
    struct CommandRow {
        detail::Usage usage;
        std::array<const char*, 2> aliases; // other names it answers to; nullptr when unused
        bool acts; // changes a game, a player or a tournament: refused to anonymous senders
        void (PostRun::*handler)(const std::vector<std::string>&); // nullptr: a sub-command's
                                                                   // usage, run by its command
    };
    static std::span<const CommandRow> command_table();

    PostRun(const ServiceParts& parts, const Post& post)
        : parts_(parts), ctx_(parts, post), out_(ctx_), people_(ctx_, out_),
          boards_(ctx_, parts.memory) {}

    void run();
    void publish_cache();
    // What publish_cache would do, to be done later (after a group's commit).
    std::function<void()> take_publication();
    // The time-driven work for one game (service_clock.cpp); true when something changed or
    // was said. The caller settles and commits as after run().
    // An unanswered challenge past its expiry is cancelled and the channel told; true then.
    bool lapse_challenge(GameRecord& g);
    bool tick_game(std::int64_t game_id);
    // After downtime from `from` to `to`: the clocks that ran in the games (of one channel) are
    // moved on by the gap, and the channel told once; the number of games told of.
    int forgive_downtime(const std::vector<std::int64_t>& game_ids, std::int64_t from,
                         std::int64_t to);
    // One game's clocks moved on; its line for the notice ("Game #4. Clock ..."), or nullopt
    // when no clock ran.
    std::optional<std::string> forgive_game(std::int64_t game_id, std::int64_t from,
                                            std::int64_t to);
    // The daily digest `d` is due (service_digest.cpp): reschedules it for its next hour and,
    // when one of the player's games or challenges waits for their decision, sends it. True
    // when it was sent. The caller commits as after run().
    bool send_digest(const storage::DigestRecord& d);
    // What follows the end of the games that ended in this run, after the run's own replies
    // and before its commit: every subscriber of game_end_subscribers, in that order, over
    // all of them. Whoever ends games (a post, the time-driven job) calls it.
    void conclude();

private:
    // --- games
    Loaded load(const GameRecord& rec);
    // Keeps `l` for the next post, under the revision the game has now (this post's own
    // changes included); it reaches the service's cache only when the post commits.
    void remember(Loaded& l) {
        l.revision = ctx_.store.game_revision(l.rec.id);
        pending_cache_.insert_or_assign(
            l.rec.id, Service::CachedGame{l.game->clone(), *l.rng, l.plies, l.revision});
    }
    std::string vs_line(const Loaded& l) {
        return "Game #" + std::to_string(l.rec.id) + ", " + l.info().title + ": " +
               people_.who(l.rec, l.info(), Seat::White) + " vs " +
               people_.who(l.rec, l.info(), Seat::Black) + ".";
    }
    std::string next_line(const Loaded& l);
    std::string over_line(const GameRecord& g, const rules::VariantInfo& info);
    void finish(GameRecord& g, rules::Status status, const std::string& reason) {
        g.status = GameStatus::Finished;
        g.result = detail::result_text(status);
        g.reason = reason;
        ctx_.store.update_game(g);
        ctx_.store.clear_offer(g.id, OfferKind::Draw);
        ctx_.store.clear_offer(g.id, OfferKind::Takeback);
        game_over(g);
        ended_.back().finished = true;
    }
    // Ends a game that counts for nobody (no result, no rating change).
    void abort_game(GameRecord& g) {
        g.status = GameStatus::Aborted;
        ctx_.store.update_game(g);
        ctx_.store.clear_offer(g.id, OfferKind::Draw);
        ctx_.store.clear_offer(g.id, OfferKind::Takeback);
        game_over(g);
    }
    // Whether each side has made at least one decision in game `id`.
    bool both_sides_moved(std::int64_t id) {
        const auto log = ctx_.store.actions(id);
        auto moved = [&](Seat seat) {
            return std::any_of(log.begin(), log.end(),
                               [&](const auto& a) { return a.seat == seat; });
        };
        return moved(Seat::White) && moved(Seat::Black);
    }
    std::vector<GameRecord> my_games_here(const std::vector<GameStatus>& statuses) {
        std::vector<GameRecord> out;
        auto all = ctx_.post.direct ? ctx_.store.games_of_player(ctx_.author, statuses)
                                    : ctx_.store.games_in_channel(ctx_.post.platform,
                                                                  ctx_.post.channel, statuses);
        for (auto& g : all)
            if (detail::seat_of(g, ctx_.author.id))
                out.push_back(std::move(g));
        return out;
    }
    std::optional<GameRecord> pick_game(const std::vector<std::string>& args, std::size_t& used,
                                        const std::string& command, bool for_viewing);
    std::vector<Seat> deciders(const Loaded& l) const {
        std::vector<Seat> out;
        for (const auto& d : l.game->pending())
            out.push_back(d.seat);
        return out;
    }

    // --- what a post can be
    // True when the author's account posted more than commands_per_minute commands in the
    // minute that began with the first of them; the first such post gets a notice of when
    // commands are read again, the others no reply at all.
    bool over_command_limit();
    void run_command(const Command& c);
    bool try_bare_move();
    void play(Loaded& l, Seat seat, const std::string& text);
    // What act() did: the action's events, its public notes ("Rescue: ..."), whether all its
    // events were private (a secret decision), and the seat whose forecast answers it at once.
    struct Acted {
        std::vector<std::string> public_notes;
        bool secret = false;
        std::optional<Seat> answering;
    };
    // Applies `action` (one of `seat`'s legal or anytime actions, `decision` when legal) for
    // player `by` and logs it under `message_id`: clocks, offers, stored forecasts, private
    // events told, the game finished when it ended. Nothing is said in the channel. nullopt,
    // after replying, when the game refused the action.
    std::optional<Acted> act(Loaded& l, Seat seat, const rules::NotatedAction& action,
                             std::int64_t by, const std::string& message_id, bool decision);

    void cmd_new(const std::vector<std::string>& args);
    // True, after replying with the limit and the games that reach it, when the author may not
    // take on one more game: max_open_games in all, or max_bot_games when `against_bot`.
    // `then` ends the refusal: what stays as it was.
    bool refuse_over_game_limits(bool against_bot, const std::string& then);
    void cmd_answer(const std::vector<std::string>& args, const std::string& command);
    // The game `g` (made by !new, not yet stored) against the engine at `level`, seated and
    // started at once: the engine accepts every challenge (service_engine.cpp).
    void start_engine_game(GameRecord g, int level);
    void cmd_accept(const std::vector<std::string>& args) { cmd_answer(args, "accept"); }
    void cmd_decline(const std::vector<std::string>& args) { cmd_answer(args, "decline"); }
    void cmd_cancel(const std::vector<std::string>& args) { cmd_answer(args, "cancel"); }
    void cmd_record(const std::vector<std::string>& args) { cmd_history(args, false); }
    void cmd_pgn(const std::vector<std::string>& args) { cmd_history(args, true); }
    void cmd_move(const std::vector<std::string>& args);
    void cmd_board(const std::vector<std::string>& args);
    void cmd_games(const std::vector<std::string>& args);
    void cmd_history(const std::vector<std::string>& args, bool pgn);
    void cmd_resign(const std::vector<std::string>& args);
    void cmd_draw(const std::vector<std::string>& args);
    void cmd_takeback(const std::vector<std::string>& args);
    void cmd_abort(const std::vector<std::string>& args);
    void cmd_rules(const std::vector<std::string>& args);
    void cmd_help(const std::vector<std::string>& args);
    void cmd_settings(const std::vector<std::string>& args);
    void cmd_channel(const std::vector<std::string>& args);

    // --- dice anyone can verify (service_verify.cpp)
    // A fresh secret seed for a new game (derived from settings.fixed_seed in tests).
    std::vector<std::uint8_t> new_seed() const;
    // For a variant with chance, the sentence that commits to the seed by its SHA-256; empty
    // for the others.
    std::string seed_commitment(const GameRecord& g, const rules::VariantInfo& info) const;
    // Before `seat` plays `action` from a public post: true, after replying, when the action
    // is a secret decision (all its events are private) that must come by direct message.
    bool refuse_secret_in_public(const Loaded& l, Seat seat, const rules::Action& action,
                                 const std::string& text);
    // The record of a game for !history and !pgn: movetext whose secret decisions stay hidden
    // while the game is under way and, for games with chance, every roll as a comment.
    std::string record_movetext(const GameRecord& g, const std::vector<storage::ActionRecord>& log);
    // The texts of `log` as the channel may see them: while the game is under way, a secret
    // decision reads "{a secret choice}".
    std::vector<std::string> public_action_texts(const GameRecord& g,
                                                 const std::vector<storage::ActionRecord>& log);
    // Whether the actions of `log` from index `from` on drew numbers from the game's random
    // stream: taking them back would let the same choices roll the same, now known, faces.
    bool draws_dice(const GameRecord& g, const std::vector<storage::ActionRecord>& log,
                    std::size_t from);
    // True, after replying, when taking back the actions of `log` from index `from` on would
    // undo dice that were rolled (service.cpp, with !takeback).
    bool refuse_takeback_of_dice(const GameRecord& g, const std::vector<storage::ActionRecord>& log,
                                 std::size_t from);
    void cmd_verify(const std::vector<std::string>& args);

    // --- correspondence clocks (service_clock.cpp)
    struct ServiceOptions {
        std::string time_control;  // canonical ("3d", "none")
        std::optional<bool> rated; // as rated= said; empty: the service's default
    };
    // Takes tc= and rated= out of `given` (they belong to the service, not the variant);
    // replies and returns nullopt when one cannot be read.
    std::optional<ServiceOptions> take_service_options(rules::Options& given);
    // The clocks of a game under way as a sentence with absolute deadlines, after a space;
    // empty once the game is over.
    std::string clock_line(const Loaded& l);
    // Before `seat` acts in `l`: false, after replying, when the author is banned, the game is
    // paused, or a clock of the game ran out (the game then ends on time).
    bool may_act(Loaded& l, Seat seat);
    // After `seat` acted (`decision`: one of its legal actions, not an anytime one): charges
    // and credits its clock, then starts and stops clocks to match who must decide now.
    void clocks_after_action(Loaded& l, Seat seat, bool decision);
    // Starts and stops the clocks of `l` to match who must decide now, vacations and pauses;
    // tells a player who opted in when a decision becomes theirs.
    void sync_clocks(Loaded& l);
    // Stores when the time-driven job must next look at `l` (service_clock.cpp).
    void store_deadline(const Loaded& l);
    bool tick_due(Loaded& l); // tick_game's work once the clocks are in sync
    // Ends the game on time when a running clock has run out; true when it did.
    bool flag_if_out(Loaded& l);
    void cmd_vacation(const std::vector<std::string>& args);
    std::array<storage::ClockRecord, 2> clock_rows(const GameRecord& g);

    // --- moderators (service_mod.cpp)
    // True when the author is banned, on this platform or on any account linked to theirs;
    // the post then gets no reply at all.
    bool refuse_banned();
    void cmd_mod(const std::vector<std::string>& args);
    void mod_log(const std::string& action);
    void announce(const GameRecord& g, const std::string& text);

    // --- tournaments (service_tourney.cpp) and ratings (service_rating.cpp)
    void cmd_tourney(const std::vector<std::string>& args);
    void cmd_rating(const std::vector<std::string>& args);

    // --- the record (service_record.cpp)
    void cmd_fen(const std::vector<std::string>& args);
    // The player's finished and aborted games, newest first, page `page`; `after_current`: as
    // the second part of "!games all" (says nothing when there are none).
    void say_finished(const PlayerRecord& whom, bool after_current, std::size_t page = 1);
    // !games answers in pages, so that one player's long list is no flood.
    static constexpr std::size_t games_per_page = 10;
    // The lines of page `page` (from 1) in `shown`, and in `more` ", page 2 of 3 (...)" when
    // there are several; false, after replying, when there is no such page.
    bool one_page(const std::vector<std::string>& lines, std::size_t page,
                  const std::string& command, std::vector<std::string>& shown, std::string& more);

    // --- conditional moves (service_forecast.cpp) and the daily digest (service_digest.cpp)
    void cmd_forecast(const std::vector<std::string>& args);
    // After `seat`'s action `canonical` was logged in `l` (l.plies counts it): each stored
    // forecast of the game keeps the lines that foresaw it, without it, and drops the others
    // (its owner hears why when a move of the opponent's was not foreseen). Returns the seat
    // whose forecast answers now, unless its owner must decide for themselves (an open draw
    // offer of the opponent's, a ban).
    std::optional<Seat> follow_forecasts(Loaded& l, Seat seat, const std::string& canonical);
    // Plays the replies of forecasts from `answering` on, as their owners' actions (each may
    // be answered by the other side's forecast in turn); returns their public sentences, each
    // after a space, and tells each owner privately what was played.
    std::string answer_forecasts(Loaded& l, std::optional<Seat> answering);
    // Deletes the game's forecasts; with `why`, tells each owner that theirs is gone and why.
    void clear_forecasts(const GameRecord& g, const std::string& why = {});
    // "digest=..." of !settings: applies the value to `digest`; false when it cannot be read.
    bool digest_setting(const std::string& value, std::optional<storage::DigestRecord>& digest);
    // The digest as !settings shows it: "08:00" (UTC), or "off".

    // --- one player, several platforms (service_link.cpp)
    void cmd_link(const std::vector<std::string>& args);
    void cmd_invite(const std::vector<std::string>& args);
    void cmd_join(const std::vector<std::string>& args);

    // --- team games: a channel plays as one (service_team.cpp)
    // The team of a channel, created if new.
    PlayerRecord team_of(const std::string& platform, const std::string& channel);
    std::optional<PlayerRecord> team_here(); // the post's channel's team, if it has one
    // What a vote is on: the decision under way, known by the game's revision.
    std::int64_t team_turn(const Loaded& l);
    void cmd_team(const std::vector<std::string>& args);
    void cmd_vote(const std::vector<std::string>& args);
    // `g` (made by !new, not stored) as a challenge of this channel's team to another channel:
    // a code any channel may post with !join; `other_channel`, when named, hears of it.
    void new_team_challenge(GameRecord g, const std::string& other_channel,
                            const std::string& window);
    void join_team_challenge(const storage::LinkCode& code);
    // A member's `text` as a vote on the team's decision (`game_arg`: the game named, if any);
    // false when it is no vote and `meant` is not set (a command always gets an answer).
    bool try_team_vote(const std::string& text, const std::vector<std::string>& game_arg,
                       bool meant);
    // Plays the vote's winner as the team (or resigns for it), saying why the vote closed.
    void close_team_vote(Loaded& l, Seat seat, const PlayerRecord& team, const std::string& why);
    // For the time-driven job: closes the votes whose window ran out; true when one did.
    bool close_due_team_votes(Loaded& l);
    void cmd_leaderboard(const std::vector<std::string>& args);
    // Wherever a game ends (finished, or aborted): a rated game's ratings change at once; what
    // is said about it (rating changes, a tournament round complete) waits for conclude().
    void game_over(const GameRecord& g);
    std::optional<storage::TournamentRecord> pick_tournament(const std::vector<std::string>& args,
                                                             std::size_t at);
    void tourney_create(const std::vector<std::string>& args);
    void tourney_entry(const std::vector<std::string>& args, bool join);
    void tourney_start(const std::vector<std::string>& args);
    void tourney_next(const std::vector<std::string>& args);
    void tourney_pairings(const std::vector<std::string>& args);
    void tourney_standings(const std::vector<std::string>& args);
    // --- organiser controls (service_tourney_controls.cpp)
    struct ControlTarget {
        storage::TournamentRecord t;
        std::vector<PlayerRecord> players; // the players named, in order
    };
    // "[name] [@a [@b]]": the tournament and up to `mentions` players; replies and returns
    // nullopt when either is wrong.
    std::optional<ControlTarget> control_target(const std::vector<std::string>& args,
                                                const std::string& command, std::size_t mentions);
    bool organiser_of(const storage::TournamentRecord& t) const;
    void tourney_withdraw(const std::vector<std::string>& args);
    void tourney_late_entry(storage::TournamentRecord& t);
    void tourney_bye(const std::vector<std::string>& args);
    void tourney_keep_apart(const std::vector<std::string>& args, bool apart);
    void tourney_trf(const std::vector<std::string>& args);
    // Pairs round `round` of a running tournament, creates its games and tells everyone.
    void start_round(storage::TournamentRecord& t, int round);
    // Every game of a round robin at once (schedule=allatonce): the channel is told once, each
    // player once with all their games.
    void start_all_rounds(storage::TournamentRecord& t);
    // Creates the games of a planned round and its pairings; says nothing.
    std::vector<tourney::CreatedBoard> create_round(const storage::TournamentRecord& t,
                                                    const tourney::Field& f, int round,
                                                    const std::vector<tourney::PlannedBoard>& plan);
    // A tournament game ended: announces a complete round (and starts the next unless the
    // tournament waits for !tourney next), or the final standings.
    void tourney_game_over(const GameRecord& g);
    // The last game is over: the tournament is finished and the channel hears the final table.
    void finish_tournament(storage::TournamentRecord& t, tourney::Field& f);

    // The seated, ongoing game a command is about, with the author's seat; replies and returns
    // nullopt when there is none.
    struct MyGame {
        Loaded loaded;
        Seat seat;
    };
    std::optional<MyGame> my_ongoing_game(const std::vector<std::string>& args,
                                          const std::string& command);

    ServiceParts parts_;
    PostContext ctx_;
    Replies out_;
    People people_;
    Boards boards_;
    // The player whose forecast answers the action being applied: the decision is theirs for
    // no time at all, so sync_clocks sends them no reminder of it.
    std::optional<std::int64_t> answering_;
    // What forecasts' owners are told privately about the action being played (player id,
    // text); sent after the channel's message about it (tell_forecast_notes).
    std::vector<std::pair<std::int64_t, std::string>> forecast_notes_;
    void tell_forecast_notes(const GameRecord& g) {
        for (const auto& [owner, text] : forecast_notes_)
            out_.tell(people_.player(owner), "Game #" + std::to_string(g.id) + ": " + text, {}, &g);
        forecast_notes_.clear();
    }
    std::map<std::int64_t, Service::CachedGame> pending_cache_;
    // A game that ended in this run (game_over), and what its end still has to say.
    struct Ended {
        GameRecord game;
        std::string rating_note; // empty when the game was not rated
        bool finished = false;   // it has a result (finish), not only aborted
        bool hid_pieces = false; // it ended while its channel's board hid pieces a player saw
    };
    std::vector<Ended> ended_;
    // Marks game `id`, ended in this run, as one whose channel's board hid pieces.
    void ended_hiding_pieces(std::int64_t id) {
        for (Ended& e : ended_)
            if (e.game.id == id)
                e.hid_pieces = true;
    }
    // What the end of games brings, each over all the games that ended in a run, in the
    // order of game_end_subscribers (conclude):
    // the rating changes and the tournament's next step (service_rating.cpp);
    void settle(const std::vector<Ended>& ended);
    // the seed of every finished game with chance (service_verify.cpp);
    void reveal_seeds(const std::vector<Ended>& ended);
    // what the rules hid, turned over (Game::ending_reveal), and the full record of every
    // game whose channel's board hid pieces: it names every hidden move's square
    // (service_offers.cpp).
    void publish_hidden_records(const std::vector<Ended>& ended);
    using GameEndSubscriber = void (PostRun::*)(const std::vector<Ended>&);
    static constexpr std::array<GameEndSubscriber, 3> game_end_subscribers = {
        &PostRun::settle, &PostRun::reveal_seeds, &PostRun::publish_hidden_records};

    // --- what a chat client offers besides text (service_chat.cpp)
    // Runs a post that says the channel moved to a new id: everything kept under the old id
    // follows it, and the new channel is told which games and tournaments did.
    void move_channel(const ChannelMove& move);
    // True, after answering, when a press of a button asks for something no button of ours
    // offers: only answers to challenges, draw offers and resignations come from buttons.
    bool refuse_foreign_button(const std::optional<Command>& c);
};

} // namespace ghostpost::bot
