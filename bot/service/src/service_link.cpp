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

void cmd_link(PostParts& run, const std::vector<std::string>& args) {
    if (args.empty()) {
        const std::string code = new_code();
        run.ctx.store.put_code(
            {code, "link", run.ctx.author.id, 0, "", run.ctx.now + code_lifetime});
        run.out.tell(run.ctx.author,
                     tr("Your link code is {code}. Within 15 minutes, send {command} from your "
                        "account on the other platform (best in a direct message to me there): "
                        "both accounts then become one player, with the same ratings, games and "
                        "settings. Give the code to nobody.",
                        {{"code", code}, {"command", run.ctx.settings.prefix + "link " + code}}));
        if (!run.ctx.post.direct)
            run.out.say(tr("I sent you a link code by direct message."));
        return;
    }
    const std::string code = normal_code(args[0]);
    const auto found = code.empty() ? std::nullopt : run.ctx.store.take_code(code, run.ctx.now);
    if (!found || found->kind != "link") {
        if (found) // an invite code: it stays usable where it belongs
            run.ctx.store.put_code(*found);
        run.out.say(
            tr("\"{code}\" is no link code I know, or it expired. Send {command} from "
               "your other account for a new one.",
               {{"code", shorten(args[0], 20)}, {"command", run.ctx.settings.prefix + "link"}}));
        return;
    }
    const std::int64_t owner = found->player;
    if (run.ctx.account.id == owner || run.ctx.account.linked_to == owner) {
        run.out.say(tr("This account is already part of that player."));
        return;
    }
    if (run.ctx.account.linked_to != 0) {
        run.out.say(tr("This account is already part of another player; nothing changed."));
        return;
    }
    if (const auto there = run.ctx.store.account_on(owner, run.ctx.post.platform)) {
        run.out.say(tr("That player has an account here already ({player}); a player has one "
                       "account per platform. Nothing changed.",
                       {{"player", run.out.at(*there)}}));
        return;
    }
    if (run.ctx.store.player_has_history(run.ctx.account.id)) {
        run.out.say(tr("This account has games or ratings of its own, so it cannot join another "
                       "player. Send {command} here for a code, and post that code from the other "
                       "account instead (if that one has played nothing yet). Nothing changed.",
                       {{"command", run.ctx.settings.prefix + "link"}}));
        return;
    }
    run.ctx.store.link_account(run.ctx.account.id, owner);
    run.ctx.author =
        run.people.as_player(*run.ctx.store.player(run.ctx.account.id), run.ctx.post.platform);
    const auto home = run.ctx.store.player(owner);
    run.out.say(home ? tr("Linked: this account and {player} on {platform} are now one player, "
                          "with the same ratings, games and settings.",
                          {{"player", run.out.at(*home)}, {"platform", home->platform}})
                     : tr("Linked: this account and yours are now one player, with the same "
                          "ratings, games and settings."));
}

void cmd_invite(PostParts& run, const std::vector<std::string>& args) {
    if (args.empty()) {
        run.out.usage_error("invite",
                            tr("Say which platform the channel to follow the game is on."));
        return;
    }
    const std::string platform = lower(args[0]);
    const auto& known = run.ctx.settings.platforms;
    if (!known.empty() && std::find(known.begin(), known.end(), platform) == known.end()) {
        run.out.say(tr("I am not on \"{platform}\"; I am on {platforms}.",
                       {{"platform", shorten(args[0], 20)}, {"platforms", join(known, ", ")}}));
        return;
    }
    std::size_t used = 0;
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    auto g = run.games.pick_game(rest, used, "invite", false);
    if (!g)
        return;
    if (!detail::seat_of(*g, run.ctx.author.id) && g->challenger != run.ctx.author.id) {
        run.out.say(tr("Only the players of game #{game} may invite a channel.",
                       {{"game", std::to_string(g->id)}}));
        return;
    }
    if (g->status != GameStatus::Ongoing && g->status != GameStatus::Challenge) {
        run.out.say(tr("Game #{game} is over: there is nothing left to follow.",
                       {{"game", std::to_string(g->id)}}));
        return;
    }
    const std::string code = new_code();
    run.ctx.store.put_code({code, "invite", 0, g->id, platform, run.ctx.now + code_lifetime});
    // Privately: whoever reads a code first can redeem it, so it is never posted in a channel.
    run.out.tell(run.ctx.author,
                 tr("To follow game #{game} in a {platform} channel, post {command} there within "
                    "15 minutes: it will get every public reply of the game, and its players may "
                    "play from there.",
                    {{"game", std::to_string(g->id)},
                     {"platform", platform},
                     {"command", run.ctx.settings.prefix + "join " + code}}),
                 {}, &*g);
    if (!run.ctx.post.direct)
        run.out.say(tr("{player}: I sent you the invitation code for game #{game} privately.",
                       {{"player", run.out.at(run.ctx.author)}, {"game", std::to_string(g->id)}}));
}

void cmd_join(PostParts& run, const std::vector<std::string>& args) {
    const std::string code = args.empty() ? std::string() : normal_code(args[0]);
    const auto found = code.empty() ? std::nullopt : run.ctx.store.take_code(code, run.ctx.now);
    if (found && found->kind == "team") {
        run.teams.join_team_challenge(*found);
        return;
    }
    if (!found || found->kind != "invite") {
        if (found)
            run.ctx.store.put_code(*found);
        run.out.say(tr("That is no invitation code I know, or it expired. A player of the game "
                       "gets one with {command}.",
                       {{"command", run.ctx.settings.prefix + "invite <platform>"}}));
        return;
    }
    if (found->platform != run.ctx.post.platform || run.ctx.post.direct) {
        run.ctx.store.put_code(*found); // still good where it belongs
        run.out.say(
            run.ctx.post.direct
                ? tr("Post the code in the channel that should follow the game.")
                : tr("That code is for a {platform} channel.", {{"platform", found->platform}}));
        return;
    }
    auto g = run.ctx.store.game(found->game);
    if (!g)
        return;
    if (g->platform == run.ctx.post.platform && g->channel == run.ctx.post.channel) {
        run.out.say(tr("Game #{game} is played here already.", {{"game", std::to_string(g->id)}}));
        return;
    }
    run.ctx.store.bind_channel(g->id, run.ctx.post.platform, run.ctx.post.channel);
    const rules::Variant* v = rules::find_variant(g->variant);
    const std::string id = std::to_string(g->id);
    run.out.say_in(*g, v ? tr("This channel now follows game #{game} ({variant}), played on "
                              "{platform}: every public reply of the game comes here too.",
                              {{"game", id},
                               {"variant", game_word("variant", v->info().title)},
                               {"platform", g->platform}})
                         : tr("This channel now follows game #{game}, played on {platform}: "
                              "every public reply of the game comes here too.",
                              {{"game", id}, {"platform", g->platform}}));
}

} // namespace ghostpost::bot
