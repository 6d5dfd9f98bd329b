// One player, several platforms. `!link` gives a one-time code by direct message; posted with
// `!link <code>` from an account on another platform, that account becomes part of the same
// player (ratings, games, settings). `!invite <platform>` gives a code that, posted with
// `!join <code>` in a channel of that platform, makes the channel follow a game: it gets every
// public reply, and the game's players may play from there. Codes last 15 minutes and are
// used once.
#include "ghostpost/rules/registry.h"
#include "post_run.h"

#include <cctype>
#include <random>

namespace ghostpost::bot {

using namespace detail;

namespace {

constexpr std::int64_t code_lifetime = 15 * 60;
// No 0/O, 1/I/L: a code is copied by hand from one app to another.
constexpr std::string_view code_alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

// "k7qd-m2xp", "K7QDM2XP" -> "K7QD-M2XP"; empty when it cannot be a code.
std::string normal_code(const std::string& text) {
    std::string letters;
    for (const char c : text) {
        if (c == '-')
            continue;
        const char up = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        if (code_alphabet.find(up) == std::string_view::npos || letters.size() == 8)
            return {};
        letters += up;
    }
    return letters.size() == 8 ? letters.substr(0, 4) + "-" + letters.substr(4) : std::string();
}

} // namespace

std::string detail::new_code() {
    std::random_device entropy;
    std::uniform_int_distribution<std::size_t> pick(0, code_alphabet.size() - 1);
    std::string code;
    for (int i = 0; i < 8; ++i) {
        if (i == 4)
            code += '-';
        code += code_alphabet[pick(entropy)];
    }
    return code;
}

void PostRun::cmd_link(const std::vector<std::string>& args) {
    if (args.empty()) {
        const std::string code = new_code();
        ctx_.store.put_code({code, "link", ctx_.author.id, 0, "", ctx_.now + code_lifetime});
        out_.tell(ctx_.author,
                  "Your link code is " + code + ". Within 15 minutes, send " +
                      ctx_.settings.prefix + "link " + code +
                      " from your account on the other platform (best in a direct message "
                      "to me there): both accounts then become one player, with the same "
                      "ratings, games and settings. Give the code to nobody.");
        if (!ctx_.post.direct)
            out_.say("I sent you a link code by direct message.");
        return;
    }
    const std::string code = normal_code(args[0]);
    const auto found = code.empty() ? std::nullopt : ctx_.store.take_code(code, ctx_.now);
    if (!found || found->kind != "link") {
        if (found) // an invite code: it stays usable where it belongs
            ctx_.store.put_code(*found);
        out_.say("\"" + shorten(args[0], 20) + "\" is no link code I know, or it expired. Send " +
                 ctx_.settings.prefix + "link from your other account for a new one.");
        return;
    }
    const std::int64_t owner = found->player;
    if (ctx_.account.id == owner || ctx_.account.linked_to == owner) {
        out_.say("This account is already part of that player.");
        return;
    }
    if (ctx_.account.linked_to != 0) {
        out_.say("This account is already part of another player; nothing changed.");
        return;
    }
    if (const auto there = ctx_.store.account_on(owner, ctx_.post.platform)) {
        out_.say("That player has an account here already (" + out_.at(*there) +
                 "); a player has one account per platform. Nothing changed.");
        return;
    }
    if (ctx_.store.player_has_history(ctx_.account.id)) {
        out_.say("This account has games or ratings of its own, so it cannot join another player. "
                 "Send " +
                 ctx_.settings.prefix +
                 "link here for a code, and post that code from the "
                 "other account instead (if that one has played nothing yet). Nothing changed.");
        return;
    }
    ctx_.store.link_account(ctx_.account.id, owner);
    ctx_.author = people_.as_player(*ctx_.store.player(ctx_.account.id), ctx_.post.platform);
    const auto home = ctx_.store.player(owner);
    out_.say("Linked: this account and " +
             (home ? out_.at(*home) + " on " + home->platform : "yours") +
             " are now one player, with the same ratings, games and settings.");
}

void PostRun::cmd_invite(const std::vector<std::string>& args) {
    if (args.empty()) {
        out_.usage_error("invite", "Say which platform the channel to follow the game is on.");
        return;
    }
    const std::string platform = lower(args[0]);
    const auto& known = ctx_.settings.platforms;
    if (!known.empty() && std::find(known.begin(), known.end(), platform) == known.end()) {
        out_.say("I am not on \"" + shorten(args[0], 20) + "\"; I am on " + join(known, ", ") +
                 ".");
        return;
    }
    std::size_t used = 0;
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    auto g = pick_game(rest, used, "invite", false);
    if (!g)
        return;
    if (!detail::seat_of(*g, ctx_.author.id) && g->challenger != ctx_.author.id) {
        out_.say("Only the players of game #" + std::to_string(g->id) + " may invite a channel.");
        return;
    }
    if (g->status != GameStatus::Ongoing && g->status != GameStatus::Challenge) {
        out_.say("Game #" + std::to_string(g->id) + " is over: there is nothing left to follow.");
        return;
    }
    const std::string code = new_code();
    ctx_.store.put_code({code, "invite", 0, g->id, platform, ctx_.now + code_lifetime});
    // Privately: whoever reads a code first can redeem it, so it is never posted in a channel.
    out_.tell(ctx_.author,
              "To follow game #" + std::to_string(g->id) + " in a " + platform + " channel, post " +
                  ctx_.settings.prefix + "join " + code +
                  " there within 15 minutes: it will get every public reply of the game, and its "
                  "players may play from there.",
              {}, &*g);
    if (!ctx_.post.direct)
        out_.say(out_.at(ctx_.author) + ": I sent you the invitation code for game #" +
                 std::to_string(g->id) + " privately.");
}

void PostRun::cmd_join(const std::vector<std::string>& args) {
    const std::string code = args.empty() ? std::string() : normal_code(args[0]);
    const auto found = code.empty() ? std::nullopt : ctx_.store.take_code(code, ctx_.now);
    if (found && found->kind == "team") {
        join_team_challenge(*found);
        return;
    }
    if (!found || found->kind != "invite") {
        if (found)
            ctx_.store.put_code(*found);
        out_.say("That is no invitation code I know, or it expired. A player of the game gets one "
                 "with " +
                 ctx_.settings.prefix + "invite <platform>.");
        return;
    }
    if (found->platform != ctx_.post.platform || ctx_.post.direct) {
        ctx_.store.put_code(*found); // still good where it belongs
        out_.say(ctx_.post.direct ? "Post the code in the channel that should follow the game."
                                  : "That code is for a " + found->platform + " channel.");
        return;
    }
    auto g = ctx_.store.game(found->game);
    if (!g)
        return;
    if (g->platform == ctx_.post.platform && g->channel == ctx_.post.channel) {
        out_.say("Game #" + std::to_string(g->id) + " is played here already.");
        return;
    }
    ctx_.store.bind_channel(g->id, ctx_.post.platform, ctx_.post.channel);
    const rules::Variant* v = rules::find_variant(g->variant);
    out_.say_in(*g, "This channel now follows game #" + std::to_string(g->id) +
                        (v ? " (" + v->info().title + ")" : std::string()) + ", played on " +
                        g->platform + ": every public reply of the game comes here too.");
}

} // namespace ghostpost::bot
