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
    if (args.empty()) {
        std::string text;
        for (const auto* v : rules::variants())
            text += v->info().name + ": " + v->info().title + "\n";
        run.out.say("Variants (" + run.ctx.settings.prefix + "rules <variant> for one):", text);
        return;
    }
    const rules::Variant* v = rules::find_variant(args[0]);
    if (v == nullptr) {
        run.out.say("There is no variant \"" + shorten(args[0], 20) + "\". Say " +
                    run.ctx.settings.prefix + "rules for the list.");
        return;
    }
    const auto& info = v->info();
    std::string text = info.summary + "\n\nNotation: " + info.notation + "\n\nOptions:";
    if (info.options.empty())
        text += " none";
    for (const auto& o : info.options) {
        text += "\n  " + o.name + "=" +
                (o.allowed.empty() ? std::string("<number>") : join(o.allowed, "|")) +
                " (default " + o.default_value + "): " + o.help;
    }
    run.out.say(info.title + " (" + info.name + ")", text + "\n");
}

void cmd_help(PostParts& run, const std::vector<std::string>& args) {
    const std::string& p = run.ctx.settings.prefix;
    if (!args.empty()) {
        std::string name = canonical_command(lower(strip_at(args[0])));
        if (!name.empty() && name.substr(0, p.size()) == p)
            name = name.substr(p.size());
        name = canonical_command(name);
        if (const Usage* u = find_usage(name)) {
            run.out.say(p + std::string(u->form) + ": " + std::string(u->help) + ".");
            return;
        }
        run.out.say("There is no command " + shorten(args[0], 20) + ". Say " + p +
                    "help for the list.");
        return;
    }
    std::string text;
    for (const auto& row : command_table())
        text += p + std::string(row.usage.form) + "\n";
    run.out.say("Commands (" + p +
                    "help <command> for one; a move alone works when it is your turn):",
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
    std::string text = "Settings of " + run.out.at(p) +
                       " for what I send you privately: orientation=" + p.orientation +
                       " notation=" + p.notation + " images=" + (p.images ? "on" : "off") +
                       " reminders=" + (p.reminders ? "on" : "off") +
                       " digest=" + digest_words(digest) +
                       " language=" + (p.language.empty() ? std::string("auto") : p.language) + ".";
    if (board_named && !run.ctx.post.direct)
        text += " Boards posted in this channel follow its own settings (" +
                run.ctx.settings.prefix + "channel).";
    if (digest_named && digest)
        text += " Your daily digest comes by direct message at " + digest_words(digest) +
                " UTC, the next at " + format_utc(digest->next_at) +
                ", on days when a decision waits for you.";
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
        run.out.say("Channel settings belong to a channel: say " + prefix +
                    "channel settings there. Your own boards are set with " + prefix + "settings.");
        return;
    }
    storage::ChannelSettings c =
        run.boards.channel_settings(run.ctx.post.platform, run.ctx.post.channel);
    if (args.size() > 1) {
        if (run.ctx.post.anonymous || !run.people.moderator()) {
            run.out.say("Only moderators change how boards look in this channel; " + prefix +
                        "settings changes the boards I send you privately.");
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
                run.out.usage_error("channel",
                                    tr("I did not understand \"{text}\".", {{"text", shorten(a)}}) +
                                        (key == "orientation" && value == "auto"
                                             ? " A channel's board has one side at the bottom "
                                               "for everyone: white or black."
                                             : ""));
                return;
            }
        }
        run.ctx.store.save_channel_settings(c);
        std::vector<std::string> changes(args.begin() + 1, args.end());
        mod_log(run.ctx, "channel " + run.ctx.post.channel + " " + lower(join(changes, " ")));
    }
    run.out.say("Boards in this channel: orientation=" + c.orientation + " notation=" + c.notation +
                " images=" + (c.images ? "on" : "off") + " style=" + c.style +
                " language=" + (c.language.empty() ? std::string("auto") : c.language) + ".");
}

} // namespace ghostpost::bot
