// The parts one post's run is made of, and the commands that use them: each command's handler
// is a free function over PostParts, named in the command table (commands.cpp). Private to the
// service.
#pragma once

#include "boards.h"
#include "clocks.h"
#include "dice.h"
#include "forecasts.h"
#include "games.h"
#include "ghostpost/service/command.h"
#include "helpers.h"
#include "people.h"
#include "replies.h"
#include "session.h"
#include "teams.h"
#include "tourneys.h"

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ghostpost::bot {

// What a post's run is made of, constructed in this order, each part handed the parts before
// it that it needs (Forecasts, being told of a game's end by Games, comes first of the game's
// parts). A handler is handed them all and uses what its command needs.
struct PostParts {
    PostParts(const ServiceParts& parts, const Post& post)
        : service(parts), ctx(parts, post), out(ctx), people(ctx, out), boards(ctx, parts.memory),
          forecasts(ctx, out, people), games(parts, ctx, out, people, forecasts),
          clocks(ctx, out, people, games), dice(ctx, out),
          session(ctx, out, people, boards, games, clocks, dice, forecasts),
          teams(parts, ctx, out, people, boards, games, clocks, dice),
          tourneys(ctx, out, people, games, clocks, dice) {}
    PostParts(const PostParts&) = delete;
    PostParts& operator=(const PostParts&) = delete;

    ServiceParts service;
    PostContext ctx;
    Replies out;
    People people;
    Boards boards;
    Forecasts forecasts;
    Games games;
    Clocks clocks;
    Dice dice;
    Session session;
    Teams teams;
    Tourneys tourneys;
};

using Args = std::vector<std::string>;
using Handler = void (*)(PostParts& run, const Args& args);

// One row of the command table (commands.cpp): the one place a command is defined.
struct CommandRow {
    detail::Usage usage;
    std::array<const char*, 2> aliases; // other names it answers to; nullptr when unused
    bool acts;       // changes a game, a player or a tournament: refused to anonymous senders
    Handler handler; // nullptr: a sub-command's usage, run by its command
};
std::span<const CommandRow> command_table();
// Runs the post's command through the table (commands.cpp).
void run_command(PostParts& run, const Command& c);

// --- challenges (service_challenge.cpp, service_engine.cpp)
void cmd_new(PostParts& run, const Args& args);
void cmd_answer(PostParts& run, const Args& args, const std::string& command);
inline void cmd_accept(PostParts& run, const Args& args) {
    cmd_answer(run, args, "accept");
}
inline void cmd_decline(PostParts& run, const Args& args) {
    cmd_answer(run, args, "decline");
}
inline void cmd_cancel(PostParts& run, const Args& args) {
    cmd_answer(run, args, "cancel");
}
// True, after replying with the limit and the games that reach it, when the author may not
// take on one more game: max_open_games in all, or max_bot_games when `against_bot`. `then`
// ends the refusal: what stays as it was.
bool refuse_over_game_limits(PostParts& run, bool against_bot, const std::string& then);
// The game `g` (made by !new, not yet stored) against the engine at `level`, seated and
// started at once: the engine accepts every challenge.
void start_engine_game(PostParts& run, storage::GameRecord g, int level);

// --- playing (service_play.cpp, service_board.cpp)
void cmd_move(PostParts& run, const Args& args);
// A post that is no command as a move in the author's one game here that it fits; false when
// it is none (then a channel's post gets no answer).
bool try_bare_move(PostParts& run);
void cmd_board(PostParts& run, const Args& args);

// --- offers and the end of a game (service_offers.cpp)
void cmd_resign(PostParts& run, const Args& args);
void cmd_draw(PostParts& run, const Args& args);
void cmd_takeback(PostParts& run, const Args& args);
void cmd_abort(PostParts& run, const Args& args);

// --- the record (service_record.cpp)
void cmd_games(PostParts& run, const Args& args);
void cmd_history(PostParts& run, const Args& args, bool pgn);
inline void cmd_record(PostParts& run, const Args& args) {
    cmd_history(run, args, false);
}
inline void cmd_pgn(PostParts& run, const Args& args) {
    cmd_history(run, args, true);
}
void cmd_fen(PostParts& run, const Args& args);
// The player's finished and aborted games, newest first, page `page`; `after_current`: as the
// second part of "!games all" (says nothing when there are none).
void say_finished(PostParts& run, const storage::PlayerRecord& whom, bool after_current,
                  std::size_t page = 1);
// The lines of page `page` (from 1) in `shown`, and in `more` ", page 2 of 3 (...)" when there
// are several; false, after replying, when there is no such page.
bool one_page(PostParts& run, const std::vector<std::string>& lines, std::size_t page,
              const std::string& command, std::vector<std::string>& shown, std::string& more);

// --- settings and help (service_settings.cpp, service_digest.cpp)
void cmd_rules(PostParts& run, const Args& args);
void cmd_help(PostParts& run, const Args& args);
void cmd_settings(PostParts& run, const Args& args);
void cmd_channel(PostParts& run, const Args& args);
// "digest=..." of !settings: applies the value to `digest`; false when it cannot be read.
bool digest_setting(PostParts& run, const std::string& value,
                    std::optional<storage::DigestRecord>& digest);

// --- clocks, dice, forecasts (service_clock.cpp, service_verify.cpp, service_forecast.cpp)
void cmd_vacation(PostParts& run, const Args& args);
void cmd_verify(PostParts& run, const Args& args);
void cmd_forecast(PostParts& run, const Args& args);

// --- moderators (service_mod.cpp)
void cmd_mod(PostParts& run, const Args& args);
// True when the author is banned, on this platform or on any account linked to theirs; the
// post then gets no reply at all.
bool refuse_banned(PostContext& ctx);
// Writes a moderator's (or organiser's) action to the audit log, in the post's transaction.
void mod_log(PostContext& ctx, const std::string& action);
// Says `text` in the game's channels, and where the command was posted when that is elsewhere.
void announce(PostContext& ctx, Replies& out, const storage::GameRecord& g,
              const std::string& text);

// --- one player, several platforms; teams (service_link.cpp, service_team.cpp)
void cmd_link(PostParts& run, const Args& args);
void cmd_invite(PostParts& run, const Args& args);
void cmd_join(PostParts& run, const Args& args);
void cmd_team(PostParts& run, const Args& args);
void cmd_vote(PostParts& run, const Args& args);

// --- tournaments and ratings (service_tourney*.cpp, service_rating.cpp)
void cmd_tourney(PostParts& run, const Args& args);
void tourney_create(PostParts& run, const Args& args);
void tourney_entry(PostParts& run, const Args& args, bool join);
void tourney_start(PostParts& run, const Args& args);
void tourney_next(PostParts& run, const Args& args);
void tourney_pairings(PostParts& run, const Args& args);
void tourney_standings(PostParts& run, const Args& args);
void tourney_withdraw(PostParts& run, const Args& args);
void tourney_bye(PostParts& run, const Args& args);
void tourney_keep_apart(PostParts& run, const Args& args, bool apart);
void tourney_trf(PostParts& run, const Args& args);
void cmd_rating(PostParts& run, const Args& args);
void cmd_leaderboard(PostParts& run, const Args& args);

// --- what a chat client offers besides text (service_chat.cpp)
// Runs a post that says the channel moved to a new id: everything kept under the old id
// follows it, and the new channel is told which games and tournaments did.
void move_channel(PostParts& run, const ChannelMove& move);
// True, after answering, when a press of a button asks for something no button of ours offers:
// only answers to challenges, draw offers and resignations come from buttons.
bool refuse_foreign_button(PostParts& run, const std::optional<Command>& c);

// --- what the end of games brings, each over all the games that ended in a run, in the order
// of game_end_subscribers (PostRun::conclude):
// the rating changes and the tournament's next step (service_rating.cpp);
void settle(PostParts& run, const std::vector<Ended>& ended);
// the seed of every finished game with chance (service_verify.cpp);
void reveal_seeds(PostParts& run, const std::vector<Ended>& ended);
// what the rules hid, turned over (Game::ending_reveal), and the full record of every game
// whose channel's board hid pieces: it names every hidden move's square (service_offers.cpp).
void publish_hidden_records(PostParts& run, const std::vector<Ended>& ended);
using GameEndSubscriber = void (*)(PostParts& run, const std::vector<Ended>& ended);
inline constexpr std::array<GameEndSubscriber, 3> game_end_subscribers = {&settle, &reveal_seeds,
                                                                          &publish_hidden_records};

} // namespace ghostpost::bot
