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

std::string PostRun::new_code() {
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
        store_.put_code({code, "link", author_.id, 0, "", now_ + code_lifetime});
        tell(author_, "Your link code is " + code + ". Within 15 minutes, send " +
                          s_.settings_.prefix + "link " + code +
                          " from your account on the other platform (best in a direct message "
                          "to me there): both accounts then become one player, with the same "
                          "ratings, games and settings. Give the code to nobody.");
        if (!post_.direct)
            say("I sent you a link code by direct message.");
        return;
    }
    const std::string code = normal_code(args[0]);
    const auto found = code.empty() ? std::nullopt : store_.take_code(code, now_);
    if (!found || found->kind != "link") {
        if (found) // an invite code: it stays usable where it belongs
            store_.put_code(*found);
        say("\"" + shorten(args[0], 20) + "\" is no link code I know, or it expired. Send " +
            s_.settings_.prefix + "link from your other account for a new one.");
        return;
    }
    const std::int64_t owner = found->player;
    if (account_.id == owner || account_.linked_to == owner) {
        say("This account is already part of that player.");
        return;
    }
    if (account_.linked_to != 0) {
        say("This account is already part of another player; nothing changed.");
        return;
    }
    if (const auto there = store_.account_on(owner, post_.platform)) {
        say("That player has an account here already (" + at(*there) +
            "); a player has one account per platform. Nothing changed.");
        return;
    }
    if (store_.player_has_history(account_.id)) {
        say("This account has games or ratings of its own, so it cannot join another player. "
            "Send " +
            s_.settings_.prefix +
            "link here for a code, and post that code from the "
            "other account instead (if that one has played nothing yet). Nothing changed.");
        return;
    }
    store_.link_account(account_.id, owner);
    author_ = as_player(*store_.player(account_.id), post_.platform);
    const auto home = store_.player(owner);
    say("Linked: this account and " + (home ? at(*home) + " on " + home->platform : "yours") +
        " are now one player, with the same ratings, games and settings.");
}

void PostRun::cmd_invite(const std::vector<std::string>& args) {
    if (args.empty()) {
        usage_error("invite", "Say which platform the channel to follow the game is on.");
        return;
    }
    const std::string platform = lower(args[0]);
    const auto& known = s_.settings_.platforms;
    if (!known.empty() && std::find(known.begin(), known.end(), platform) == known.end()) {
        say("I am not on \"" + shorten(args[0], 20) + "\"; I am on " + join(known, ", ") + ".");
        return;
    }
    std::size_t used = 0;
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    auto g = pick_game(rest, used, "invite", false);
    if (!g)
        return;
    if (!seat_of(*g, author_.id) && g->challenger != author_.id) {
        say("Only the players of game #" + std::to_string(g->id) + " may invite a channel.");
        return;
    }
    if (g->status != GameStatus::Ongoing && g->status != GameStatus::Challenge) {
        say("Game #" + std::to_string(g->id) + " is over: there is nothing left to follow.");
        return;
    }
    const std::string code = new_code();
    store_.put_code({code, "invite", 0, g->id, platform, now_ + code_lifetime});
    // Privately: whoever reads a code first can redeem it, so it is never posted in a channel.
    tell(author_,
         "To follow game #" + std::to_string(g->id) + " in a " + platform + " channel, post " +
             s_.settings_.prefix + "join " + code +
             " there within 15 minutes: it will get every public reply of the game, and its "
             "players may play from there.",
         {}, &*g);
    if (!post_.direct)
        say(at(author_) + ": I sent you the invitation code for game #" + std::to_string(g->id) +
            " privately.");
}

void PostRun::cmd_join(const std::vector<std::string>& args) {
    const std::string code = args.empty() ? std::string() : normal_code(args[0]);
    const auto found = code.empty() ? std::nullopt : store_.take_code(code, now_);
    if (found && found->kind == "team") {
        join_team_challenge(*found);
        return;
    }
    if (!found || found->kind != "invite") {
        if (found)
            store_.put_code(*found);
        say("That is no invitation code I know, or it expired. A player of the game gets one "
            "with " +
            s_.settings_.prefix + "invite <platform>.");
        return;
    }
    if (found->platform != post_.platform || post_.direct) {
        store_.put_code(*found); // still good where it belongs
        say(post_.direct ? "Post the code in the channel that should follow the game."
                         : "That code is for a " + found->platform + " channel.");
        return;
    }
    auto g = store_.game(found->game);
    if (!g)
        return;
    if (g->platform == post_.platform && g->channel == post_.channel) {
        say("Game #" + std::to_string(g->id) + " is played here already.");
        return;
    }
    store_.bind_channel(g->id, post_.platform, post_.channel);
    const rules::Variant* v = rules::find_variant(g->variant);
    say_in(*g, "This channel now follows game #" + std::to_string(g->id) +
                   (v ? " (" + v->info().title + ")" : std::string()) + ", played on " +
                   g->platform + ": every public reply of the game comes here too.");
}

} // namespace ghostpost::bot
