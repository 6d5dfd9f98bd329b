// The command table: every command's name, aliases, usage and handler in one place, and the
// dispatch that runs a post's command through it.
#include "ghostpost/rules/registry.h"
#include "post_run.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace ghostpost::bot {

namespace {

const CommandRow* find_row(const std::string& name) {
    for (const auto& row : command_table()) {
        if (name == row.usage.name)
            return &row;
        for (const char* alias : row.aliases)
            if (alias != nullptr && name == alias)
                return &row;
    }
    return nullptr;
}

bool is_variant_command(std::string_view name) {
    for (const rules::Variant* variant : rules::variants())
        for (const rules::VariantCommand& c : variant->info().commands)
            if (c.word == name)
                return true;
    return false;
}

} // namespace

namespace {

// The service's own commands, in the order !help lists them.
const CommandRow service_rows[] = {
    {{"new",
      "new <variant> [@opponent|team[=#channel] [window=4h]] [white|black|random] "
      "[tc=3d|7d+1d/14d|none] [rated=yes|no] [option=value ...]",
      N_("challenge someone (no @opponent: anyone here may accept); the side may also be named "
         "as the variant names it (!rules shows the names); tc= sets the correspondence clock "
         "(time "
         "per move in d, h or m, or base+increment/cap, no cap when left out), rated= whether "
         "the result counts for ratings; team: this channel's team against another channel's, "
         "voting on each move within the window (!team)")},
     {"challenge", nullptr},
     true,
     &cmd_new},
    {{"accept", "accept [game]", N_("accept a challenge made to you")},
     {nullptr, nullptr},
     true,
     &cmd_accept},
    {{"decline", "decline [game]", N_("decline a challenge made to you")},
     {nullptr, nullptr},
     true,
     &cmd_decline},
    {{"cancel", "cancel [game]", N_("withdraw your challenge")},
     {nullptr, nullptr},
     true,
     &cmd_cancel},
    {{"move", "move [game] <move>",
      N_("play a move (also !m); a bare move works when you must "
         "decide in just one game here")},
     {"m", nullptr},
     true,
     &cmd_move},
    {{"forecast", "forecast [game] [<line>; <line>; ...|clear]",
      N_("by direct message only: conditional moves. A line is the moves you expect and your "
         "replies (!forecast 4 Nf3 Nc6 Bb5 a6), starting with your opponent's next move, or "
         "with yours when it is your decision (it is played at once); when their move is the "
         "first of a line I play your reply at once, in public. Alone: your forecasts; clear: "
         "delete them. Not in games with hidden pieces or dice")},
     {"conditional", nullptr},
     true,
     &cmd_forecast},
    {{"board", "board [game] [ply] [ascii|unicode|png] [flip]",
      N_("show a board, now or at an earlier ply")},
     {"b", nullptr},
     false,
     &cmd_board},
    {{"games", "games [@user] [finished|all] [page=N]",
      N_("list games, those waiting for a decision first; finished: the games played, all: "
         "both; 10 to a page, page=2 the next")},
     {nullptr, nullptr},
     false,
     &cmd_games},
    {{"history", "history [game]", N_("list the moves played")},
     {nullptr, nullptr},
     false,
     &cmd_record},
    {{"pgn", "pgn [game]", N_("the game in PGN")}, {nullptr, nullptr}, false, &cmd_pgn},
    {{"fen", "fen [game]", N_("the position in FEN (once it is over, for games that hide some)")},
     {nullptr, nullptr},
     false,
     &cmd_fen},
    {{"resign", "resign [game]",
      N_("give up the game (with ? after it I ask first: !resign 3 ?, then !resign 3 or "
         "!resign 3 no)")},
     {nullptr, nullptr},
     true,
     &cmd_resign},
    {{"draw", "draw [game]",
      N_("offer a draw, accept one, or claim one the rules allow; !draw 3 accept or !draw 3 "
         "decline answers an offer and does nothing else")},
     {nullptr, nullptr},
     true,
     &cmd_draw},
    {{"takeback", "takeback [game]",
      N_("ask to take back your last move, or accept such a request; !takeback 3 accept or "
         "!takeback 3 decline answers a request and does nothing else")},
     {"undo", nullptr},
     true,
     &cmd_takeback},
    {{"abort", "abort [game]", N_("end a game before each side has moved")},
     {nullptr, nullptr},
     true,
     &cmd_abort},
    {{"rules", "rules [variant]", N_("the variants and their rules")},
     {nullptr, nullptr},
     false,
     &cmd_rules},
    {{"verify", "verify [game]",
      N_("check a game's dice: the seed's hash while it runs, every roll from the seed once it "
         "ended")},
     {nullptr, nullptr},
     false,
     &cmd_verify},
    {{"help", "help [command]", N_("this list, or one command")},
     {"start", nullptr},
     false,
     &cmd_help},
    {{"link", "link [code]",
      N_("one player on several platforms: a code by direct message, to post with !link "
         "<code> from your account on the other platform")},
     {nullptr, nullptr},
     true,
     &cmd_link},
    {{"invite", "invite <platform> [game]",
      N_("a code that makes a channel of that platform follow your game")},
     {nullptr, nullptr},
     true,
     &cmd_invite},
    {{"join", "join <code>",
      N_("make this channel follow the game of an !invite code, or play as a team the team "
         "challenge of that code")},
     {nullptr, nullptr},
     true,
     &cmd_join},
    {{"team", "team [join|leave|name <name>]",
      N_("this channel's team: its members vote here on its moves in team games (!new chess "
         "team window=4h challenges another channel)")},
     {nullptr, nullptr},
     true,
     &cmd_team},
    {{"vote", "vote [game] <move>",
      N_("vote for your team's move (a member may also post the move itself)")},
     {nullptr, nullptr},
     true,
     &cmd_vote},
    {{"settings",
      "settings [orientation=white|black|auto] [notation=ascii|unicode] [images=on|off] "
      "[reminders=on|off] [digest=on|off|<hour>] [language=<language>|auto]",
      N_("how the boards I send you privately look (auto: your side at the bottom), whether I "
         "remind you privately of your decisions, a daily digest by direct message of the "
         "games where the decision is yours (at 08:00 UTC, or the hour of UTC given, 0 to 23; "
         "only on days when one waits), and the language I write to you in (en, de, fr, es, "
         "ru, pt-BR, zh-CN; auto: your channel's or your app's)")},
     {nullptr, nullptr},
     true,
     &cmd_settings},
    {{"channel",
      "channel settings [orientation=white|black] [notation=ascii|unicode] [images=on|off] "
      "[style=board|compact] [language=<language>|auto]",
      N_("how the boards posted in this channel look, for everyone in it (style=compact: one "
         "line after each move, with the image or a link to the game's page), and the language "
         "of the replies everyone here reads; anyone may ask, moderators change them")},
     {nullptr, nullptr},
     false,
     &cmd_channel},
    {{"vacation", "vacation [<N>d|off]",
      N_("stop your clocks in all your games for N days (a yearly allowance), or end it early")},
     {nullptr, nullptr},
     true,
     &cmd_vacation},
    {{"mod", "mod adjudicate|forfeit|extend|pause|resume|void|ban|unban|log ...",
      N_("moderators only: adjudicate <game> <1-0|0-1|1/2-1/2>, forfeit <game> @player, extend "
         "<game> <time>, pause|resume <game>, void <game>, ban|unban @user [reason], log")},
     {nullptr, nullptr},
     true,
     &cmd_mod},
    {{"tourney",
      "tourney create <name> <variant> <roundrobin|double|swiss|knockout> [rounds=N] [tc=...] "
      "[next=auto|manual] [schedule=rounds|allatonce]",
      N_("open a tournament run from this channel (rounds= for Swiss only; next=manual: rounds "
         "wait for !tourney next; schedule=allatonce: every game of a round robin at once); then "
         "!tourney join, leave, start, pairings, standings, next, withdraw, bye, forbid, "
         "allow and trf")},
     {"tournament", nullptr},
     true,
     &cmd_tourney},
    {{"tourney join", "tourney join|leave <name>",
      N_("enter or leave a tournament before it starts; a Swiss takes late entries before its "
         "last round")},
     {nullptr, nullptr},
     true,
     nullptr},
    {{"tourney start", "tourney start <name>",
      N_("seed the entrants and start the first round (the creator or a moderator)")},
     {nullptr, nullptr},
     true,
     nullptr},
    {{"tourney pairings", "tourney pairings [name] [round]", N_("a round's games and results")},
     {nullptr, nullptr},
     false,
     nullptr},
    {{"tourney standings", "tourney standings [name]", N_("the table with its tie-breaks")},
     {nullptr, nullptr},
     false,
     nullptr},
    {{"tourney next", "tourney next [name]",
      N_("start the next round of a next=manual tournament once every game of this one is "
         "over")},
     {nullptr, nullptr},
     true,
     nullptr},
    {{"tourney withdraw", "tourney withdraw [name] [@player]",
      N_("leave a running Swiss: not paired from the next round on, the games played kept (a "
         "moderator or the creator may withdraw another player)")},
     {nullptr, nullptr},
     true,
     nullptr},
    {{"tourney bye", "tourney bye [name] <round> [cancel] [@player]",
      N_("sit out a Swiss round not yet paired, for half a point")},
     {nullptr, nullptr},
     true,
     nullptr},
    {{"tourney forbid", "tourney forbid|allow [name] @player @player",
      N_("keep two players of a Swiss from being paired with each other, or allow it again "
         "(the creator or a moderator)")},
     {"tourney allow", nullptr},
     true,
     nullptr},
    {{"tourney trf", "tourney trf [name]",
      N_("a round robin or Swiss as a FIDE Tournament Report File, which pairing programs "
         "check")},
     {nullptr, nullptr},
     false,
     nullptr},
    {{"rating", "rating [@user] [variant]", N_("Glicko-2 ratings, one per variant")},
     {"ratings", nullptr},
     false,
     &cmd_rating},
    {{"leaderboard", "leaderboard <variant>", N_("the best ratings of a variant")},
     {nullptr, nullptr},
     false,
     &cmd_leaderboard},
};

} // namespace

std::span<const CommandRow> command_table() {
    // The variants' own commands follow the commands of play, before those that show a game.
    static const std::vector<CommandRow> rows = [] {
        std::vector<CommandRow> all;
        for (const CommandRow& row : service_rows) {
            if (std::string_view(row.usage.name) == "board")
                for (const rules::Variant* variant : rules::variants())
                    for (const rules::VariantCommand& c : variant->info().commands)
                        all.push_back({{c.word.c_str(), c.form.c_str(), c.help.c_str()},
                                       {nullptr, nullptr},
                                       true,
                                       &cmd_move});
            all.push_back(row);
        }
        return all;
    }();
    return rows;
}

namespace detail {

const Usage* find_usage(const std::string& name) {
    const CommandRow* row = find_row(name);
    return row ? &row->usage : nullptr;
}

std::string canonical_command(const std::string& name) {
    const CommandRow* row = find_row(name);
    return row && row->handler ? row->usage.name : name;
}

} // namespace detail

void run_command(PostParts& run, const Command& c) {
    const CommandRow* row = find_row(c.name);
    if (row == nullptr || row->handler == nullptr) {
        run.out.say(tr("There is no command {name}. Say {command} for the list.",
                       {{"name", run.ctx.settings.prefix + shorten(c.name, 20)},
                        {"command", run.ctx.settings.prefix + "help"}}));
        return;
    }
    run.ctx.acting = row->acts;
    if (row->acts && run.ctx.post.anonymous) {
        run.out.say(tr("Anonymous posts cannot play or change anything: I cannot tell who is "
                       "behind them. Post as yourself to use {command}.",
                       {{"command", run.ctx.settings.prefix + row->usage.name}}));
        return;
    }
    // A variant's own command is the action its word names, taken like the bare word:
    // "!peek 3" is "!move 3 peek".
    std::vector<std::string> args = c.args;
    if (is_variant_command(row->usage.name))
        args.emplace_back(row->usage.name);
    row->handler(run, args);
}

} // namespace ghostpost::bot
