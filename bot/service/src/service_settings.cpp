// What a player asks about or sets for themselves: !rules, !help and !settings.
#include "ghostpost/i18n/catalogs.h"
#include "ghostpost/league/clock.h"
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

void cmd_rules(PostParts& run, const std::vector<std::string>& args) {
    const std::string& p = run.ctx.settings.prefix;
    if (args.empty()) {
        Text text;
        for (const auto* v : rules::variants())
            text += verbatim(v->info().name + ": ") + game_word("variant", v->info().title) +
                    verbatim("\n");
        run.out.say(tr("Variants ({command} for one):", {{"command", p + "rules <variant>"}}),
                    run.out.written(text, run.out.author_language()));
        return;
    }
    const rules::Variant* v = rules::find_variant(args[0]);
    if (v == nullptr) {
        run.out.say(tr("There is no variant \"{name}\". Say {command} for the list.",
                       {{"name", shorten(args[0], 20)}, {"command", p + "rules"}}));
        return;
    }
    const auto& info = v->info();
    Text text = game_word("variant", info.title) + verbatim(" (" + info.name + ")\n") +
                tr(info.summary) + verbatim("\n\n") +
                tr("Notation: {notation}", {{"notation", tr(info.notation)}}) + verbatim("\n\n");
    if (info.options.empty())
        text += tr("Options: none");
    else
        text += tr("Options:");
    for (const auto& o : info.options)
        text +=
            verbatim("\n  " + o.name + "=" +
                     (o.allowed.empty() ? std::string("<number>") : join(o.allowed, "|")) + " ") +
            tr("(default {value}): {what}", {{"value", o.default_value}, {"what", tr(o.help)}});
    run.out.say(text);
}

void cmd_help(PostParts& run, const std::vector<std::string>& args) {
    const std::string& p = run.ctx.settings.prefix;
    if (!args.empty()) {
        std::string name = canonical_command(lower(strip_at(args[0])));
        if (!name.empty() && name.substr(0, p.size()) == p)
            name = name.substr(p.size());
        name = canonical_command(name);
        if (const Usage* u = find_usage(name)) {
            run.out.say(verbatim(p + std::string(u->form) + ": ") + tr(u->help) + verbatim("."));
            return;
        }
        run.out.say(tr("There is no command {name}. Say {command} for the list.",
                       {{"name", shorten(args[0], 20)}, {"command", p + "help"}}));
        return;
    }
    std::string text;
    for (const auto& row : command_table())
        text += p + std::string(row.usage.form) + "\n";
    run.out.say(tr("Commands ({command} for one; a move alone works when it is your turn):",
                   {{"command", p + "help <command>"}}),
                text);
}

void cmd_settings(PostParts& run, const std::vector<std::string>& args) {
    PlayerRecord p = run.ctx.author;
    std::optional<storage::DigestRecord> digest = run.ctx.store.digest(p.id);
    bool digest_named = false;
    bool board_named = false; // a key of how boards look
    for (const auto& a : args) {
        auto eq = a.find('=');
        std::string key = lower(a.substr(0, eq));
        std::string value = eq == std::string::npos ? std::string() : lower(a.substr(eq + 1));
        board_named = board_named || key == "orientation" || key == "notation" || key == "images";
        if (key == "orientation" && (value == "white" || value == "black" || value == "auto")) {
            p.orientation = value;
        } else if (key == "notation" && (value == "ascii" || value == "unicode")) {
            p.notation = value;
        } else if (key == "images" && (value == "on" || value == "off")) {
            p.images = value == "on";
        } else if (key == "reminders" && (value == "on" || value == "off")) {
            p.reminders = value == "on";
        } else if (key == "language" && (value == "auto" || i18n::supported_language(value))) {
            p.language = value == "auto" ? std::string() : *i18n::supported_language(value);
            run.ctx.author.language = p.language; // this very answer is in the new language
        } else if (key == "digest" && digest_setting(run, value, digest)) {
            digest_named = true;
        } else {
            run.out.usage_error("settings",
                                tr("I did not understand \"{text}\".", {{"text", shorten(a)}}));
            return;
        }
    }
    if (!args.empty())
        run.ctx.store.save_player_settings(p);
    if (digest_named) {
        if (digest)
            run.ctx.store.put_digest(*digest);
        else
            run.ctx.store.clear_digest(p.id);
    }
    // The settings as they are typed: words of the command, the same in every language.
    const std::string settings =
        "orientation=" + p.orientation + " notation=" + p.notation +
        " images=" + (p.images ? "on" : "off") + " reminders=" + (p.reminders ? "on" : "off") +
        " digest=" + digest_words(digest) +
        " language=" + (p.language.empty() ? std::string("auto") : p.language);
    Text text = tr("Settings of {player} for what I send you privately: {settings}.",
                   {{"player", run.out.at(p)}, {"settings", settings}});
    if (board_named && !run.ctx.post.direct)
        text += verbatim(" ") + tr("Boards posted in this channel follow its own settings "
                                   "({command}).",
                                   {{"command", run.ctx.settings.prefix + "channel"}});
    if (digest_named && digest)
        text += verbatim(" ") +
                tr("Your daily digest comes by direct message at {hour} UTC, the "
                   "next at {time}, on days when a decision waits for you.",
                   {{"hour", digest_words(digest)}, {"time", format_utc(digest->next_at)}});
    run.out.say(text);
}

void cmd_channel(PostParts& run, const std::vector<std::string>& args) {
    const std::string& prefix = run.ctx.settings.prefix;
    // "!channel" alone asks for the settings, the one thing there is to know of a channel.
    if (!args.empty() && lower(args[0]) != "settings") {
        run.out.usage_error("channel",
                            tr("I did not understand \"{text}\".", {{"text", shorten(args[0])}}));
        return;
    }
    if (run.ctx.post.direct) {
        run.out.say(
            tr("Channel settings belong to a channel: say {command} there. Your own "
               "boards are set with {settings}.",
               {{"command", prefix + "channel settings"}, {"settings", prefix + "settings"}}));
        return;
    }
    storage::ChannelSettings c =
        run.boards.channel_settings(run.ctx.post.platform, run.ctx.post.channel);
    if (args.size() > 1) {
        if (run.ctx.post.anonymous || !run.people.moderator()) {
            run.out.say(tr("Only moderators change how boards look in this channel; {command} "
                           "changes the boards I send you privately.",
                           {{"command", prefix + "settings"}}));
            return;
        }
        for (std::size_t i = 1; i < args.size(); ++i) {
            const std::string& a = args[i];
            const auto eq = a.find('=');
            const std::string key = lower(a.substr(0, eq));
            const std::string value =
                eq == std::string::npos ? std::string() : lower(a.substr(eq + 1));
            if (key == "orientation" && (value == "white" || value == "black")) {
                c.orientation = value;
            } else if (key == "notation" && (value == "ascii" || value == "unicode")) {
                c.notation = value;
            } else if (key == "images" && (value == "on" || value == "off")) {
                c.images = value == "on";
            } else if (key == "style" && (value == "board" || value == "compact")) {
                c.style = value;
            } else if (key == "language" && (value == "auto" || i18n::supported_language(value))) {
                c.language = value == "auto" ? std::string() : *i18n::supported_language(value);
            } else {
                Text what = tr("I did not understand \"{text}\".", {{"text", shorten(a)}});
                if (key == "orientation" && value == "auto")
                    what += verbatim(" ") + tr("A channel's board has one side at the bottom for "
                                               "everyone: white or black.");
                run.out.usage_error("channel", what);
                return;
            }
        }
        run.ctx.store.save_channel_settings(c);
        std::vector<std::string> changes(args.begin() + 1, args.end());
        mod_log(run.ctx, "channel " + run.ctx.post.channel + " " + lower(join(changes, " ")));
    }
    run.out.say(tr("Boards in this channel: {settings}.",
                   {{"settings",
                     "orientation=" + c.orientation + " notation=" + c.notation +
                         " images=" + (c.images ? "on" : "off") + " style=" + c.style +
                         " language=" + (c.language.empty() ? std::string("auto") : c.language)}}));
}

} // namespace ghostpost::bot
