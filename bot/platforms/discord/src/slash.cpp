// ghostpost's slash commands: their definitions for PUT .../commands, and an interaction read
// back as the text a player would have typed, so the service sees one kind of post. Pure.
#include "ghostpost/discord/discord.h"
#include "ghostpost/i18n/text.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace ghostpost::bot {

namespace {

using i18n::N_;
using nlohmann::json;

enum class OptionType : int { String = 3, Integer = 4, User = 6 };

struct SlashOption {
    const char* name;
    OptionType type;
    const char* description;
    bool required = false;
    std::vector<const char*> choices = {}; // String only; empty: any text
};

struct SlashCommand {
    const char* name; // the service's command word, too
    const char* description;
    std::vector<SlashOption> options; // in the order the command's text takes them
    // A variant's command brings its translations; the table's descriptions are the catalogs'.
    const std::map<std::string, std::string>* translations = nullptr;
};

constexpr std::size_t max_text_option = 200; // characters of a free text option

SlashOption game_option() {
    return {"game", OptionType::Integer,
            N_("the game's number (leave out when you play only one)")};
}

// The commands a player needs most, as slash commands; everything else stays a !command.
// "variant" is filled with the variants' names at registration.
const std::vector<SlashCommand>& commands() {
    static const std::vector<SlashCommand> table = {
        {"new",
         N_("challenge someone to a game (no opponent: anyone here may accept)"),
         {{"variant", OptionType::String, N_("the game to play"), true},
          {"opponent", OptionType::User, N_("who you challenge")},
          {"side",
           OptionType::String,
           N_("the side you take"),
           false,
           {"white", "black", "random"}},
          {"settings", OptionType::String, N_("more settings, e.g. tc=3d rated=no")}}},
        {"accept", N_("accept a challenge made to you"), {game_option()}},
        {"move",
         N_("play a move"),
         {{"move", OptionType::String, N_("the move, e.g. e4, Nf3, O-O, exd8=Q"), true},
          game_option()}},
        {"board",
         N_("show a game's board"),
         {game_option(),
          {"style", OptionType::String, N_("how to draw it"), false, {"ascii", "unicode", "png"}}}},
        {"games",
         N_("list games, those waiting for a decision first"),
         {{"player", OptionType::User, N_("whose games (leave out for yours)")}}},
        {"resign", N_("give up a game"), {game_option()}},
        {"draw", N_("offer a draw, accept one, or claim one the rules allow"), {game_option()}},
        {"takeback",
         N_("ask to take back your last move, or accept such a request"),
         {game_option()}},
        // The variants' own commands (DiscordOptions::variant_commands) come here, before help.
        {"help",
         N_("the commands, or one of them"),
         {{"command", OptionType::String, N_("a command's name")}}},
    };
    // The service reads the game before the move ("!move 3 Nf3"); Discord lists required
    // options first, so the table says "move, game" and the text is built game first.
    return table;
}

bool is_snowflake(const json& value) {
    if (!value.is_string())
        return false;
    const auto& text = value.get_ref<const std::string&>();
    return !text.empty() && text.size() <= 20 &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string string_of(const json& object, const char* key) {
    if (!object.is_object())
        return {};
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Free text from an option, on one line and capped at a character boundary.
std::string one_line(const std::string& text) {
    std::string out;
    std::size_t characters = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c & 0xC0) != 0x80 && ++characters > max_text_option)
            break;
        out += c < 0x20 || c == 0x7F ? ' ' : text[i];
    }
    return out;
}

// The table's commands with the variants' own inserted before the last (help): each takes a
// game's number, as "!peek 3" does.
std::vector<SlashCommand> with_variant_commands(const std::vector<MenuCommand>& variant_commands) {
    std::vector<SlashCommand> all = commands();
    std::vector<SlashCommand> own;
    for (const MenuCommand& c : variant_commands)
        if (std::none_of(all.begin(), all.end(), [&](const SlashCommand& s) {
                return c.name == s.name;
            })) // a variant's word never shadows a command of the service's
            own.push_back(
                {c.name.c_str(), c.description.c_str(), {game_option()}, &c.translations});
    all.insert(all.end() - 1, own.begin(), own.end());
    return all;
}

constexpr std::size_t max_description = 100; // characters of a description, in any language

std::string capped(const std::string& text) {
    std::size_t characters = 0;
    for (std::size_t i = 0; i < text.size(); ++i)
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && ++characters > max_description)
            return text.substr(0, i);
    return text;
}

// The Discord locales a catalog's language serves ("pt_BR" is "pt-BR"; Spanish is Spain's and
// Latin America's); a language Discord has no locale for gets none, as Discord refuses the
// whole list for one unknown locale.
std::vector<std::string> discord_locales(const std::string& language) {
    static const std::set<std::string> known = {
        "ar",    "bg", "cs", "da",    "de", "el", "en-GB", "en-US", "es-419", "es-ES", "fi", "fr",
        "he",    "hi", "hr", "hu",    "id", "it", "ja",    "ko",    "lt",     "nl",    "no", "pl",
        "pt-BR", "ro", "ru", "sv-SE", "th", "tr", "uk",    "vi",    "zh-CN",  "zh-TW"};
    if (language == "es")
        return {"es-ES", "es-419"};
    std::string locale = language;
    std::replace(locale.begin(), locale.end(), '_', '-');
    return known.count(locale) > 0 ? std::vector<std::string>{locale} : std::vector<std::string>{};
}

// What description_localizations holds for these translations; null for none.
json localizations(const std::map<std::string, std::string>& translations) {
    json out = json::object();
    for (const auto& [language, words] : translations)
        for (const std::string& locale : discord_locales(language))
            if (!words.empty())
                out[locale] = capped(words);
    return out.empty() ? json(nullptr) : out;
}

} // namespace

std::string slash_commands(const std::vector<std::string>& variants,
                           const std::vector<MenuCommand>& variant_commands,
                           const Translations& translate) {
    const auto translations_of = [&translate](const char* source) {
        return translate ? translate(source) : std::map<std::string, std::string>{};
    };
    json list = json::array();
    for (const SlashCommand& command : with_variant_commands(variant_commands)) {
        json options = json::array();
        // Required options first, as Discord demands.
        for (const bool required : {true, false})
            for (const SlashOption& option : command.options) {
                if (option.required != required)
                    continue;
                json o = {{"type", static_cast<int>(option.type)},
                          {"name", option.name},
                          {"description", option.description},
                          {"required", option.required}};
                if (json local = localizations(translations_of(option.description));
                    !local.is_null())
                    o["description_localizations"] = std::move(local);
                std::vector<std::string> choices(option.choices.begin(), option.choices.end());
                if (std::string_view(option.name) == "variant")
                    choices = variants;
                if (!choices.empty()) {
                    json c = json::array();
                    for (const std::string& choice : choices)
                        if (c.size() < 25)
                            c.push_back({{"name", choice}, {"value", choice}});
                    o["choices"] = c;
                } else if (option.type == OptionType::String) {
                    o["max_length"] = max_text_option;
                }
                if (option.type == OptionType::Integer)
                    o["min_value"] = 0;
                options.push_back(std::move(o));
            }
        json entry = {{"name", command.name},
                      {"type", 1},
                      {"description", command.description},
                      {"options", std::move(options)}};
        json local =
            localizations(command.translations != nullptr ? *command.translations
                                                          : translations_of(command.description));
        if (!local.is_null())
            entry["description_localizations"] = std::move(local);
        list.push_back(std::move(entry));
    }
    return list.dump();
}

DecodedInteraction decode_interaction(std::string_view interaction_json,
                                      const std::string& bot_user_id,
                                      const std::vector<MenuCommand>& variant_commands) {
    DecodedInteraction out;
    const json interaction = json::parse(interaction_json, nullptr, false);
    if (!interaction.is_object()) {
        out.problem = "not a JSON object";
        return out;
    }
    if (!is_snowflake(interaction.value("id", json())) || string_of(interaction, "token").empty()) {
        out.problem = "an interaction without id or token";
        return out;
    }
    out.id = interaction["id"].get<std::string>();
    out.token = string_of(interaction, "token");
    out.application_id = string_of(interaction, "application_id");
    if (interaction.value("type", json()) != json(2))
        return out; // not an application command: nothing ghostpost registered
    const bool in_guild = is_snowflake(interaction.value("guild_id", json()));
    const json& member = interaction.value("member", json());
    const json user = in_guild && member.is_object() ? member.value("user", json())
                                                     : interaction.value("user", json());
    const json data = interaction.value("data", json());
    if (!is_snowflake(interaction.value("channel_id", json())) || !user.is_object() ||
        !is_snowflake(user.value("id", json())) || !data.is_object()) {
        out.problem = "an application command without channel_id, user or data";
        return out;
    }
    if (user.value("bot", json(false)) == json(true) || user["id"] == bot_user_id)
        return out;
    const std::string name = string_of(data, "name");
    const std::vector<SlashCommand> all = with_variant_commands(variant_commands);
    const auto command = std::find_if(all.begin(), all.end(),
                                      [&name](const SlashCommand& c) { return name == c.name; });
    if (command == all.end()) {
        out.problem = "an application command ghostpost does not have";
        return out;
    }

    // The user's own post, with a name as a mention shows it.
    std::string handle = string_of(user, "username");
    std::string shown = string_of(member, "nick");
    if (shown.empty())
        shown = string_of(user, "global_name");
    const DecodedMessage as_message = decode_message(
        json{{"id", out.id},
             {"channel_id", interaction["channel_id"]},
             {"author", {{"id", user["id"]}, {"username", handle}, {"global_name", shown}}},
             {"content", ""},
             {"member", {{"nick", string_of(member, "nick")}}}}
            .dump(),
        bot_user_id);
    if (!as_message.post) {
        out.problem = "an application command from a user without a name";
        return out;
    }
    Post post = *as_message.post;
    post.direct = !in_guild;
    // The invoking user's client language ("de", "pt-BR"), sent on every command.
    if (const std::string locale = string_of(interaction, "locale");
        locale.size() <= 35 && std::all_of(locale.begin(), locale.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
        }))
        post.language = locale;

    std::map<std::string, json> given;
    if (const auto it = data.find("options"); it != data.end() && it->is_array())
        for (const json& option : *it)
            if (option.is_object() && option.contains("name") && option["name"].is_string() &&
                option.contains("value"))
                given[option["name"].get<std::string>()] = option["value"];
    const json resolved = data.value("resolved", json());
    const json users = resolved.is_object() ? resolved.value("users", json()) : json();

    std::string text = "!" + std::string(command->name);
    const auto word = [&](const SlashOption& option) {
        const auto it = given.find(option.name);
        if (it == given.end())
            return;
        const json& value = it->second;
        switch (option.type) {
        case OptionType::Integer:
            if (value.is_number_integer())
                text += " " + std::to_string(value.get<std::int64_t>());
            break;
        case OptionType::String:
            if (value.is_string() && !value.get_ref<const std::string&>().empty())
                text += " " + channel_mentions_as_ids(one_line(value.get<std::string>()));
            break;
        case OptionType::User: {
            if (!is_snowflake(value))
                break;
            const json whom =
                users.is_object() ? users.value(value.get<std::string>(), json()) : json();
            Mention m;
            m.user_id = value.get<std::string>();
            m.handle = one_line(string_of(whom, "username"));
            const std::string nick = string_of(whom, "global_name");
            m.name = nick.empty() ? m.handle : one_line(nick);
            if (m.handle.empty())
                break;
            text += " @" + m.handle;
            post.mentions.push_back(std::move(m));
            break;
        }
        }
    };
    // The game's number comes first, as every command's text takes it.
    for (const SlashOption& option : command->options)
        if (std::string_view(option.name) == "game")
            word(option);
    for (const SlashOption& option : command->options)
        if (std::string_view(option.name) != "game")
            word(option);
    post.text = std::move(text);
    out.post = std::move(post);
    return out;
}

} // namespace ghostpost::bot
