#include "ghostpost/telegram/telegram.h"

#include "ghostpost/log/log.h"
#include "telegram_text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

namespace ghostpost::bot {

namespace {

using nlohmann::json;

// Telegram's limits, counted in characters after entity parsing; bytes are a safe bound.
constexpr std::size_t max_text = 4096;
constexpr std::size_t max_caption = 1024;

std::optional<std::int64_t> to_integer(const std::string& text) {
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
        return std::nullopt;
    }
    return value;
}

// A chat id is an integer for every chat we talk to; "@channelname" stays a string.
json chat_id(const std::string& destination) {
    if (const auto id = to_integer(destination)) {
        return *id;
    }
    return destination;
}

// The Reply may grow a monospaced `code` block (the outbox has one); pick it up when it does.
template <typename R> std::string code_of(const R& reply) {
    if constexpr (requires { reply.code; }) {
        return reply.code;
    } else {
        return {};
    }
}

// Plain text needs no escaping and no parse_mode; a board block needs <pre>, hence HTML. A
// plain text that names players without a handle carries their text_mention entities.
struct Formatted {
    std::string text;
    std::string parse_mode;
    json entities; // null when none
};

// Where a reply goes: a chat, and the forum topic in it for a channel "<chat>/<topic>".
struct Destination {
    std::string chat;
    std::optional<std::int64_t> topic;
};

Destination destination_of(const std::string& destination) {
    const auto slash = destination.rfind(telegram_text::topic_separator);
    if (slash != std::string::npos && slash > 0)
        if (const auto topic = to_integer(destination.substr(slash + 1)); topic && *topic > 0)
            return {destination.substr(0, slash), topic};
    return {destination, std::nullopt};
}

// UTF-16 code units of UTF-8 text, as Telegram counts offsets and lengths.
std::int64_t utf16_units(std::string_view text) {
    std::int64_t units = 0;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if ((byte & 0xC0) != 0x80)
            units += byte >= 0xF0 ? 2 : 1;
    }
    return units;
}

// A name of a player without a handle, found in a text: [begin, end) in bytes.
struct Link {
    std::size_t begin = 0;
    std::size_t end = 0;
    std::int64_t user = 0;
    std::string name;
};

bool word_byte(char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte >= 0x80 || std::isalnum(byte) != 0 || c == '_';
}

// Every whole-word occurrence in `text` of the names of the reply's accounts without a handle
// (Reply::mentions with an empty handle), in the text's order, none overlapping.
std::vector<Link> links_in(std::string_view text, const std::vector<Mention>& mentions) {
    std::vector<Link> found;
    for (const Mention& m : mentions) {
        const auto user = to_integer(m.user_id);
        if (!m.handle.empty() || m.name.empty() || !user || *user <= 0)
            continue;
        for (auto at = text.find(m.name); at != std::string_view::npos;
             at = text.find(m.name, at + 1)) {
            const std::size_t end = at + m.name.size();
            if ((at == 0 || !word_byte(text[at - 1])) &&
                (end == text.size() || !word_byte(text[end])))
                found.push_back({at, end, *user, m.name});
        }
    }
    std::sort(found.begin(), found.end(), [](const Link& a, const Link& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
    });
    std::vector<Link> kept;
    for (Link& link : found)
        if (kept.empty() || link.begin >= kept.back().end)
            kept.push_back(std::move(link));
    return kept;
}

// The text_mention entities of a plain text; null when there are none.
json mention_entities(std::string_view text, const std::vector<Mention>& mentions) {
    json entities;
    for (const Link& link : links_in(text, mentions))
        entities.push_back(
            {{"type", "text_mention"},
             {"offset", utf16_units(text.substr(0, link.begin))},
             {"length", utf16_units(text.substr(link.begin, link.end - link.begin))},
             {"user", {{"id", link.user}, {"is_bot", false}, {"first_name", link.name}}}});
    return entities;
}

// Text escaped for parse_mode HTML, each name of a player without a handle a mention link
// (Telegram makes it a text_mention).
std::string html_linked(std::string_view text, const std::vector<Mention>& mentions) {
    std::string out;
    std::size_t at = 0;
    for (const Link& link : links_in(text, mentions)) {
        out += escape_html(std::string(text.substr(at, link.begin - at)));
        out += "<a href=\"tg://user?id=" + std::to_string(link.user) + "\">" +
               escape_html(link.name) + "</a>";
        at = link.end;
    }
    return out + escape_html(std::string(text.substr(at)));
}

// What one byte of text costs in a message: 1, or the length of its HTML escape.
std::size_t plain_cost(char) {
    return 1;
}
std::size_t html_cost(char c) {
    switch (c) {
    case '<':
    case '>':
        return 4; // &lt; &gt;
    case '&':
        return 5; // &amp;
    default:
        return 1;
    }
}

// Splits `text` into pieces that cost at most `limit` each (by `cost` per byte), at line breaks
// where it can, else at spaces, else at a UTF-8 character boundary. The separator at a cut is
// dropped.
std::vector<std::string> split_text(std::string_view rest, std::size_t limit,
                                    std::size_t (*cost)(char)) {
    std::vector<std::string> pieces;
    while (!rest.empty()) {
        std::size_t fit = 0, used = 0;
        for (std::size_t n = 0; n < rest.size(); ++n) {
            used += cost(rest[n]);
            if (used > limit)
                break;
            if (n + 1 == rest.size() || (static_cast<unsigned char>(rest[n + 1]) & 0xC0) != 0x80)
                fit = n + 1; // a character boundary
        }
        if (fit == 0) // a limit below one character: never loop forever
            fit = std::min<std::size_t>(rest.size(), 4);
        std::size_t cut = fit;
        if (fit < rest.size()) {
            const std::string_view head = rest.substr(0, fit);
            std::size_t at = head.rfind('\n');
            if (at == std::string_view::npos || at == 0)
                at = head.rfind(' ');
            if (at != std::string_view::npos && at > 0)
                cut = at;
        }
        pieces.emplace_back(rest.substr(0, cut));
        rest.remove_prefix(cut);
        if (cut < fit || (!rest.empty() && cut == fit && (rest.front() == '\n')))
            rest.remove_prefix(1); // the separator the cut was made at
    }
    return pieces;
}

// The messages one reply becomes: usually one; a reply longer than Telegram takes is sent as
// several in order, the text first, then the code block in pieces of whole lines, each piece a
// block of its own so that no HTML entity is ever cut.
std::vector<Formatted> format(const std::string& text, const std::string& code, std::size_t limit,
                              const std::vector<Mention>& mentions) {
    std::vector<Formatted> out;
    if (code.empty()) {
        for (auto& piece : split_text(text, limit, plain_cost)) {
            json entities = mention_entities(piece, mentions);
            out.push_back({std::move(piece), "", std::move(entities)});
        }
        return out;
    }
    // Telegram counts characters after parsing: links cost nothing against the limit.
    const std::size_t escaped = escape_html(text).size();
    const std::string block = "<pre>" + escape_html(code) + "</pre>";
    if ((escaped == 0 ? 0 : escaped + 1) + block.size() <= limit) {
        const std::string html = html_linked(text, mentions);
        out.push_back({html.empty() ? block : html + "\n" + block, "HTML", nullptr});
        return out;
    }
    for (const auto& piece : split_text(text, limit, html_cost))
        out.push_back({html_linked(piece, mentions), "HTML", nullptr});
    constexpr std::size_t pre_tags = 11; // <pre></pre>
    for (const auto& piece : split_text(code, limit - pre_tags, html_cost))
        out.push_back({"<pre>" + escape_html(piece) + "</pre>", "HTML", nullptr});
    return out;
}

constexpr std::size_t max_callback_data = 64;    // bytes of a button's callback_data
constexpr std::size_t max_callback_answer = 200; // characters of answerCallbackQuery's text
constexpr std::size_t max_button_label = 64;
constexpr std::size_t max_menu = 100; // commands in setMyCommands
// A press no reply answered within this is answered without words.
constexpr std::chrono::seconds press_patience{2};

// The reply's buttons as an inline keyboard in one row; null when it has none Telegram takes.
json keyboard(const std::vector<Button>& buttons) {
    json row = json::array();
    for (const Button& b : buttons) {
        const std::string data = telegram_text::valid_utf8(b.command);
        if (data.empty() || data.size() > max_callback_data || b.label.empty()) {
            log::warning("telegram_button_dropped",
                         {{"platform", "telegram"},
                          {"label", telegram_text::cap(telegram_text::valid_utf8(b.label), 64)},
                          {"why", "its command is empty or longer than 64 bytes"}});
            continue;
        }
        row.push_back(
            {{"text", telegram_text::cap(telegram_text::valid_utf8(b.label), max_button_label)},
             {"callback_data", data}});
    }
    if (row.empty())
        return nullptr;
    return {{"inline_keyboard", json::array({row})}};
}

// A command name Telegram's menu takes: 1 to 32 of [a-z0-9_].
bool menu_name(const std::string& name) {
    return !name.empty() && name.size() <= 32 && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
}

// Telegram's retry_after (seconds, an integer in practice) as milliseconds, rounded up and
// kept between one second and a day.
std::chrono::milliseconds retry_after_of(const json& body) {
    const auto parameters = body.find("parameters");
    if (parameters == body.end() || !parameters->is_object())
        return std::chrono::seconds(1);
    const auto value = parameters->find("retry_after");
    if (value == parameters->end() || !value->is_number())
        return std::chrono::seconds(1);
    const double seconds = std::clamp(value->get<double>(), 1.0, 86400.0);
    return std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(seconds * 1000.0)));
}

// A wait in whole seconds, never shorter than `wait`.
std::chrono::seconds whole_seconds(std::chrono::milliseconds wait) {
    return std::max(std::chrono::ceil<std::chrono::seconds>(wait), std::chrono::seconds(1));
}

void replace_all(std::string& text, const std::string& what, std::string_view with) {
    if (what.empty())
        return;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size()))
        text.replace(at, what.size(), with);
}

constexpr std::size_t max_detail = 200; // a log field, a stored last_error: never a wall of text

std::string lower(std::string text) {
    for (char& c : text) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return text;
}

} // namespace

std::string escape_html(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

// Telegram's answer to one call. `api` is false for anything that is not the Bot API's
// {"ok": ...} object (an HTML error page, a truncated body): such answers are transient.
struct TelegramPlatform::Answer {
    long status = 0;
    bool api = false;
    bool ok = false;
    json result;
    int code = 0;            // error_code, or the HTTP status when it has none
    std::string description; // as Telegram wrote it: scrub before use
    std::chrono::milliseconds retry_after{0};
    std::optional<std::int64_t> migrate_to; // the chat became a supergroup with this id

    explicit Answer(const HttpResponse& response) : status(response.status) {
        json body = json::parse(telegram_text::readable_json(response.body), nullptr, false);
        if (body.is_discarded() || !body.is_object())
            return;
        const auto is_ok = body.find("ok");
        if (is_ok == body.end() || !is_ok->is_boolean())
            return;
        api = true;
        ok = is_ok->get<bool>();
        if (ok) {
            if (const auto it = body.find("result"); it != body.end())
                result = std::move(*it);
            return;
        }
        code = static_cast<int>(std::clamp<long>(response.status, 0, 999));
        if (const auto it = body.find("error_code"); it != body.end() && it->is_number_integer())
            if (const auto value = it->get<std::int64_t>(); value >= 100 && value <= 999)
                code = static_cast<int>(value);
        const auto it = body.find("description");
        description =
            it != body.end() && it->is_string() ? it->get<std::string>() : "no description";
        retry_after = retry_after_of(body);
        if (const auto parameters = body.find("parameters");
            parameters != body.end() && parameters->is_object())
            if (const auto to = parameters->find("migrate_to_chat_id");
                to != parameters->end() && to->is_number_integer())
                migrate_to = to->get<std::int64_t>();
    }
};

TelegramPlatform::TelegramPlatform(HttpClient& http, TelegramOptions options)
    : http_(http), options_(std::move(options)) {
    while (!options_.api_url.empty() && options_.api_url.back() == '/') {
        options_.api_url.pop_back();
    }
    if (!options_.clock)
        options_.clock = std::chrono::steady_clock::now;
}

std::string TelegramPlatform::method_url(const std::string& method) const {
    return options_.api_url + "/bot" + options_.token + "/" + method;
}

bool TelegramPlatform::is_group(const std::string& channel) const {
    return channel.starts_with('-') || channel.starts_with('@');
}

std::string TelegramPlatform::pacing_key(const std::string& destination) const {
    return destination_of(destination).chat;
}

std::string TelegramPlatform::scrub(std::string_view text) const {
    std::string clean = telegram_text::valid_utf8(text);
    const std::string& token = options_.token;
    if (token.size() >= 8) {
        // Telegram may echo the URL, percent-encoded or not; the part after the colon is the
        // secret, so it goes even when it stands alone.
        replace_all(clean, token, "[redacted]");
        std::string encoded = token;
        replace_all(encoded, ":", "%3A");
        replace_all(clean, encoded, "[redacted]");
        replace_all(encoded, "%3A", "%3a");
        replace_all(clean, encoded, "[redacted]");
        if (const auto colon = token.find(':');
            colon != std::string::npos && token.size() - colon - 1 >= 8)
            replace_all(clean, token.substr(colon + 1), "[redacted]");
    }
    return telegram_text::cap(clean, max_detail);
}

TelegramPlatform::Answer TelegramPlatform::call(const std::string& method,
                                                const HttpRequest& request) {
    using Kind = PlatformError::Kind;
    std::optional<Answer> answer;
    try {
        answer.emplace(http_.post(request));
    } catch (const HttpError& e) {
        throw PlatformError(e.kind() == HttpError::Kind::Cancelled ? Kind::Cancelled
                                                                   : Kind::Transient,
                            scrub(method + ": " + e.what()));
    }
    if (!answer->api)
        throw PlatformError(Kind::Transient,
                            scrub(method + ": HTTP " + std::to_string(answer->status) +
                                  " without a Bot API answer"));
    if (answer->ok)
        return std::move(*answer);
    const std::string message =
        scrub(method + ": " + std::to_string(answer->code) + " " + answer->description);
    switch (answer->code) {
    case 429:
        poll_not_before_ = options_.clock() + answer->retry_after;
        throw PlatformError(Kind::RateLimited, message, answer->retry_after);
    case 409:
        throw PlatformError(Kind::Conflict, message);
    case 401:
    case 404: // the token is refused, or the api_url is not a Bot API server
        throw PlatformError(Kind::Unauthorized, message);
    default:
        throw PlatformError(Kind::Transient, message);
    }
}

const std::string& TelegramPlatform::bot_username() {
    if (options_.bot_username.empty())
        identify();
    return options_.bot_username;
}

const std::string& TelegramPlatform::identify() {
    HttpRequest request;
    request.url = method_url("getMe");
    request.body = "{}";
    request.timeout = options_.request_timeout;
    const Answer me = call("getMe", request);
    const auto username = me.result.is_object() ? me.result.find("username") : me.result.end();
    if (!me.result.is_object() || username == me.result.end() || !username->is_string())
        throw PlatformError(PlatformError::Kind::Transient, "getMe: no username in the answer");
    options_.bot_username = telegram_text::valid_utf8(username->get<std::string>());
    notices_.clear();
    const auto reads = me.result.find("can_read_all_group_messages");
    if (reads != me.result.end() && reads->is_boolean() && !reads->get<bool>()) {
        // Privacy mode, BotFather's default: in groups only commands reach the bot, so bare
        // moves are never seen there.
        log::warning("telegram_privacy_mode",
                     {{"platform", "telegram"},
                      {"bot", options_.bot_username},
                      {"hint", "in groups the bot sees only /commands, not bare moves such as "
                               "e4: send @BotFather /setprivacy, choose the bot, Disable, then "
                               "remove the bot from each group and add it again; until then "
                               "players can write /move e4"}});
        notices_.push_back(
            "Telegram's privacy mode is on for me (@" + options_.bot_username +
            "): in groups I see only commands, so bare moves such as e4 never reach me there. "
            "To fix it, send @BotFather /setprivacy, choose me and Disable, then remove me from "
            "each group and add me again. Until then players can write /move e4 (or /move@" +
            options_.bot_username + " e4).");
    }
    return options_.bot_username;
}

bool TelegramPlatform::publish_commands() {
    if (!publish_menu({}))
        return false;
    std::set<std::string> languages;
    for (const MenuCommand& c : options_.commands)
        for (const auto& [language, description] : c.translations)
            languages.insert(language);
    for (const std::string& language : languages)
        publish_menu(language); // a language left without its menu falls back to the default
    return true;
}

bool TelegramPlatform::publish_menu(const std::string& language) {
    // Telegram takes a two-letter ISO 639-1 code: "pt_BR" is "pt".
    const std::string code = language.substr(0, language.find('_'));
    if (!language.empty() &&
        (code.size() != 2 ||
         !std::all_of(code.begin(), code.end(), [](char c) { return c >= 'a' && c <= 'z'; })))
        return false;
    json commands = json::array();
    for (const MenuCommand& c : options_.commands) {
        if (!menu_name(c.name) || commands.size() >= max_menu)
            continue;
        const auto translated = c.translations.find(language);
        const std::string& words =
            translated != c.translations.end() ? translated->second : c.description;
        std::string description = telegram_text::cap(telegram_text::valid_utf8(words), 256);
        commands.push_back(
            {{"command", c.name}, {"description", description.empty() ? c.name : description}});
    }
    if (commands.empty())
        return false;
    json body{{"commands", commands}};
    if (!code.empty())
        body["language_code"] = code;
    HttpRequest request;
    request.url = method_url("setMyCommands");
    request.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
    request.timeout = options_.request_timeout;
    try {
        call("setMyCommands", request);
    } catch (const PlatformError& e) {
        if (e.kind() == PlatformError::Kind::Cancelled)
            throw;
        log::warning("telegram_commands_not_set",
                     {{"platform", "telegram"}, {"language", code}, {"error", e.what()}});
        return false;
    }
    log::info("telegram_commands_set", {{"platform", "telegram"},
                                        {"language", code},
                                        {"commands", static_cast<std::int64_t>(commands.size())}});
    return true;
}

void TelegramPlatform::sweep_callbacks() {
    const auto now = options_.clock();
    for (auto it = presses_.begin(); it != presses_.end();) {
        if (now - it->second < press_patience) {
            ++it;
            continue;
        }
        const std::string query = it->first;
        it = presses_.erase(it);
        Reply nobody;
        const Delivery d = answer_callback(query, {}, nobody);
        if (d.status != Delivery::Status::Sent)
            log::debug("telegram_press_not_answered",
                       {{"platform", "telegram"}, {"query", query}, {"detail", d.detail}});
    }
}

Delivery TelegramPlatform::answer_callback(const std::string& query, const std::string& text,
                                           const Reply& reply) {
    presses_.erase(query);
    json body = {{"callback_query_id", query}};
    if (!text.empty())
        body["text"] = text;
    HttpRequest request;
    request.url = method_url("answerCallbackQuery");
    request.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
    request.timeout = options_.request_timeout;
    return post_message(request, "answerCallbackQuery", reply);
}

std::vector<Post> TelegramPlatform::poll(const std::string& cursor, std::chrono::seconds timeout) {
    log::set_thread_platform(name());
    if (const auto now = options_.clock(); now < poll_not_before_) {
        // Called again before Telegram's retry_after ran out: wait the rest, to the millisecond.
        throw PlatformError(PlatformError::Kind::RateLimited,
                            "getUpdates: waiting out Telegram's retry_after",
                            std::chrono::ceil<std::chrono::milliseconds>(poll_not_before_ - now));
    }
    const std::string& bot = bot_username();
    sweep_callbacks();
    // A press waiting for its answer brings the loop back soon, to answer it in time.
    if (!presses_.empty())
        timeout = std::min(timeout, std::chrono::seconds(1));
    // Edited messages are not asked for: a move counts as first sent (decode_update).
    json body = {{"timeout", timeout.count()},
                 {"allowed_updates", json::array({"message", "callback_query"})}};
    const auto offset = to_integer(cursor);
    if (offset) {
        body["offset"] = *offset;
    }
    HttpRequest request;
    request.url = method_url("getUpdates");
    request.body = body.dump();
    request.timeout =
        std::chrono::duration_cast<std::chrono::milliseconds>(timeout + options_.request_timeout);
    const Answer answer = call("getUpdates", request);
    if (!answer.result.is_array()) {
        throw PlatformError(PlatformError::Kind::Transient,
                            "getUpdates: the result is not an array");
    }

    std::vector<Post> posts;
    // The id before the next update: where an update without a readable id is placed.
    std::optional<std::int64_t> previous;
    if (offset && *offset > std::numeric_limits<std::int64_t>::min())
        previous = *offset - 1;
    for (const json& update : answer.result) {
        DecodedUpdate decoded = telegram_text::decode_update_value(update, bot);
        if (decoded.update_id) {
            previous = decoded.update_id;
        } else if (previous && *previous < std::numeric_limits<std::int64_t>::max() - 2) {
            // Updates come in increasing ids, so this one is the only one that can hold id
            // previous + 1: confirming it skips nothing else.
            ++*previous;
            decoded.post.message_id = "update-" + std::to_string(*previous);
            decoded.post.cursor = std::to_string(*previous + 1);
        }
        if (!decoded.problem.empty()) {
            log::warning("telegram_update_skipped",
                         {{"platform", "telegram"},
                          {"update", decoded.post.cursor.empty() ? std::string("before any id")
                                                                 : decoded.post.message_id},
                          {"problem", scrub(decoded.problem)}});
        }
        if (!decoded.ignored.empty())
            log::debug("telegram_update_ignored", {{"platform", "telegram"},
                                                   {"update", decoded.post.message_id},
                                                   {"why", decoded.ignored}});
        if (!decoded.callback_id.empty() && presses_.size() < 1000)
            presses_.emplace(decoded.callback_id, options_.clock());
        if (decoded.post.moved) {
            // Replies still on their way to the old id go to the new one at once.
            moved_[decoded.post.moved->from] = decoded.post.moved->to;
            log::info("telegram_chat_moved", {{"platform", "telegram"},
                                              {"from", decoded.post.moved->from},
                                              {"to", decoded.post.moved->to}});
        }
        if (!decoded.post.cursor.empty())
            posts.push_back(std::move(decoded.post));
    }
    return posts;
}

Delivery TelegramPlatform::send(const Reply& reply) {
    log::set_thread_platform(name());
    if (const auto gate = not_before_.find(reply.destination); gate != not_before_.end()) {
        // The outbox counts whole seconds of wall time; Telegram's wait is honoured here to
        // the millisecond, so a retry that comes a fraction early waits one more second.
        if (const auto now = options_.clock(); now < gate->second) {
            return {Delivery::Status::RetryAfter,
                    whole_seconds(std::chrono::ceil<std::chrono::milliseconds>(gate->second - now)),
                    "waiting out Telegram's retry_after"};
        }
    }
    Destination to = destination_of(reply.destination);
    if (const auto moved = moved_.find(to.chat); moved != moved_.end())
        to = {moved->second, std::nullopt}; // a basic group had no topics

    if (reply.to == Reply::To::Channel &&
        reply.reply_to.starts_with(telegram_text::callback_prefix)) {
        // An answer to a press of a button. Words alone, short enough, are shown to the presser
        // alone; anything more goes to the chat, and the press is answered without words.
        const std::string query = reply.reply_to.substr(telegram_text::callback_prefix.size());
        const bool words_only =
            reply.buttons.empty() && reply.png.empty() && reply.code.empty() &&
            !reply.text.empty() &&
            utf16_units(reply.text) <= static_cast<std::int64_t>(max_callback_answer);
        const Delivery answered = answer_callback(query, words_only ? reply.text : "", reply);
        if (words_only) {
            if (answered.status != Delivery::Status::Failed)
                return answered; // sent, or to be tried again
            // Too old to answer (Telegram keeps a press a few seconds): the words go to the
            // chat after all, so the presser still reads why nothing happened.
            log::info("telegram_press_too_old",
                      {{"platform", "telegram"}, {"query", query}, {"detail", answered.detail}});
        }
    }

    moved_to_.reset();
    Delivery delivered = deliver(reply, to.chat, to.topic);
    if (delivered.status == Delivery::Status::Failed && moved_to_) {
        // The group became a supergroup before we heard of it: write to its new id.
        const std::string new_chat = std::to_string(*moved_to_);
        moved_[to.chat] = new_chat;
        log::info("telegram_chat_moved",
                  {{"platform", "telegram"}, {"from", to.chat}, {"to", new_chat}});
        moved_to_.reset();
        delivered = deliver(reply, new_chat, std::nullopt);
    }
    moved_to_.reset();
    return delivered;
}

Delivery TelegramPlatform::deliver(const Reply& reply, const std::string& chat,
                                   std::optional<std::int64_t> topic) {
    const bool has_photo = !reply.png.empty();
    std::vector<Formatted> parts =
        format(reply.text, code_of(reply), has_photo ? max_caption : max_text, reply.mentions);
    bool caption = has_photo;
    if (has_photo && parts.size() > 1) {
        // Too long for a caption: the image goes alone, the words follow as messages.
        parts = format(reply.text, code_of(reply), max_text, reply.mentions);
        caption = false;
    }
    json reply_parameters;
    // A reply_to names a message of the channel; a private message answers nothing there.
    if (reply.to == Reply::To::Channel) {
        if (const auto id = to_integer(reply.reply_to)) {
            reply_parameters = {{"message_id", *id}, {"allow_sending_without_reply", true}};
        }
    }
    // The buttons go under the last message of the reply.
    json markup = keyboard(reply.buttons);
    const std::size_t first_text = has_photo && caption && !parts.empty() ? 1 : 0;
    const bool markup_on_photo = has_photo && first_text >= parts.size();

    // In order; the first failure ends the reply and the outbox retries all of it (replies
    // are at least once: a retried long reply may repeat its first pieces).
    std::size_t next = 0;
    if (has_photo) {
        HttpRequest request;
        request.timeout = options_.request_timeout;
        request.url = method_url("sendPhoto");
        request.parts.push_back({"chat_id", chat, "", ""});
        if (topic)
            request.parts.push_back({"message_thread_id", std::to_string(*topic), "", ""});
        request.parts.push_back(
            {"photo", std::string(reply.png.begin(), reply.png.end()), "board.png", "image/png"});
        if (caption && !parts.empty()) {
            request.parts.push_back({"caption", parts.front().text, "", ""});
            if (!parts.front().parse_mode.empty()) {
                request.parts.push_back({"parse_mode", parts.front().parse_mode, "", ""});
            }
            if (!parts.front().entities.is_null()) {
                request.parts.push_back(
                    {"caption_entities", parts.front().entities.dump(), "", ""});
            }
            next = 1;
        }
        if (!reply_parameters.is_null()) {
            request.parts.push_back({"reply_parameters", reply_parameters.dump(), "", ""});
            reply_parameters = nullptr;
        }
        if (markup_on_photo && !markup.is_null())
            request.parts.push_back({"reply_markup", markup.dump(), "", ""});
        const Delivery d = post_message(request, "sendPhoto", reply);
        if (d.status != Delivery::Status::Sent) {
            return d;
        }
    }
    for (; next < parts.size(); ++next) {
        HttpRequest request;
        request.timeout = options_.request_timeout;
        request.url = method_url("sendMessage");
        json body = {{"chat_id", chat_id(chat)}, {"text", parts[next].text}};
        if (topic)
            body["message_thread_id"] = *topic;
        if (!parts[next].parse_mode.empty()) {
            body["parse_mode"] = parts[next].parse_mode;
        }
        if (!parts[next].entities.is_null()) {
            body["entities"] = parts[next].entities;
        }
        if (!reply_parameters.is_null()) {
            body["reply_parameters"] = reply_parameters;
            reply_parameters = nullptr;
        }
        if (next + 1 == parts.size() && !markup.is_null())
            body["reply_markup"] = markup;
        request.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
        const Delivery d = post_message(request, "sendMessage", reply);
        if (d.status != Delivery::Status::Sent) {
            return d;
        }
    }
    return {Delivery::Status::Sent, {}, {}};
}

Delivery TelegramPlatform::post_message(const HttpRequest& request, const std::string& method,
                                        const Reply& reply) {
    std::optional<Answer> answer;
    try {
        answer.emplace(http_.post(request));
    } catch (const HttpError& e) {
        if (e.kind() == HttpError::Kind::Cancelled) {
            throw PlatformError(PlatformError::Kind::Cancelled, scrub(method + ": " + e.what()));
        }
        return {Delivery::Status::Transient, {}, scrub(method + ": " + e.what())};
    }
    if (!answer->api) {
        // An HTML error page, a proxy's answer, a cut-off body, whatever its status: the
        // message may well not have been refused, so it is tried again.
        return {Delivery::Status::Transient,
                {},
                scrub(method + ": HTTP " + std::to_string(answer->status) +
                      " without a Bot API answer")};
    }
    if (answer->ok) {
        return {Delivery::Status::Sent, {}, {}};
    }
    const int code = answer->code;
    const std::string detail =
        scrub(method + ": " + std::to_string(code) + " " + answer->description);
    if (answer->migrate_to)
        moved_to_ = answer->migrate_to;
    if (code == 429) {
        const auto now = options_.clock();
        std::erase_if(not_before_, [&](const auto& entry) { return entry.second <= now; });
        not_before_[reply.destination] = now + answer->retry_after;
        return {Delivery::Status::RetryAfter, whole_seconds(answer->retry_after), detail};
    }
    if (code >= 500 || code == 401 || code == 404 || code == 409) {
        // A revoked token (401) or a wrong api_url (404) is the operator's to fix: keep the
        // replies until it is, rather than drop them.
        return {Delivery::Status::Transient, {}, detail};
    }
    const bool private_chat = reply.to == Reply::To::User;
    if (private_chat &&
        (code == 403 ||
         (code == 400 && lower(answer->description).find("chat not found") != std::string::npos))) {
        return {Delivery::Status::Blocked, {}, detail};
    }
    return {Delivery::Status::Failed, {}, detail};
}

} // namespace ghostpost::bot
