// The parts one post's run is made of, and the command table: each command's handler is a free
// function over PostParts (handler.h), declared in the header of its family (challenges.h,
// session.h, records.h, ...) and named in its row of the table (commands.cpp). Private to the
// service.
#pragma once

#include "boards.h"
#include "challenges.h"
#include "chat.h"
#include "clocks.h"
#include "dice.h"
#include "forecasts.h"
#include "games.h"
#include "ghostpost/service/command.h"
#include "handler.h"
#include "helpers.h"
#include "links.h"
#include "moderation.h"
#include "offers.h"
#include "people.h"
#include "ratings.h"
#include "records.h"
#include "replies.h"
#include "session.h"
#include "settings_commands.h"
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

// The end of games' subscribers, in the order PostRun::conclude runs them over all the games that
// ended in a run: the rating changes and the tournament's next step (ratings.h), the seed of
// every finished game with chance (dice.h), what the rules hid and the full record of a game
// whose board hid pieces (offers.h).
using GameEndSubscriber = void (*)(PostParts& run, const std::vector<Ended>& ended);
inline constexpr std::array<GameEndSubscriber, 3> game_end_subscribers = {&settle, &reveal_seeds,
                                                                          &publish_hidden_records};

} // namespace ghostpost::bot
