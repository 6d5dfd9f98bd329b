#include "ghostpost/bot/telegram.h"

#include <charconv>
#include <nlohmann/json.hpp>

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

// Plain text needs no escaping and no parse_mode; a board block needs <pre>, hence HTML.
struct Formatted {
    std::string text;
    std::string parse_mode;
};

// What one byte of text costs in a message: 1, or the length of its HTML escape.
std::size_t plain_cost(char) { return 1; }
std::size_t html_cost(char c) {
    switch (c) {
    case '<':
    case '>': return 4; // &lt; &gt;
    case '&': return 5; // &amp;
    default: return 1;
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
std::vector<Formatted> format(const std::string& text, const std::string& code,
                              std::size_t limit) {
    std::vector<Formatted> out;
    if (code.empty()) {
        for (auto& piece : split_text(text, limit, plain_cost))
            out.push_back({std::move(piece), ""});
        return out;
    }
    const std::string html = escape_html(text);
    const std::string block = "<pre>" + escape_html(code) + "</pre>";
    if ((html.empty() ? 0 : html.size() + 1) + block.size() <= limit) {
        out.push_back({html.empty() ? block : html + "\n" + block, "HTML"});
        return out;
    }
    for (const auto& piece : split_text(text, limit, html_cost))
        out.push_back({escape_html(piece), "HTML"});
    constexpr std::size_t pre_tags = 11; // <pre></pre>
    for (const auto& piece : split_text(code, limit - pre_tags, html_cost))
        out.push_back({"<pre>" + escape_html(piece) + "</pre>", "HTML"});
    return out;
}

std::string describe(const json& answer) {
    if (answer.is_object() && answer.contains("description") && answer["description"].is_string()) {
        return answer["description"].get<std::string>();
    }
    return "no description";
}

std::chrono::seconds retry_after_of(const json& answer) {
    if (answer.is_object() && answer.contains("parameters") && answer["parameters"].is_object()) {
        const json& parameters = answer["parameters"];
        if (parameters.contains("retry_after") && parameters["retry_after"].is_number_integer()) {
            return std::chrono::seconds(parameters["retry_after"].get<std::int64_t>());
        }
    }
    return std::chrono::seconds(0);
}

std::string author_name(const json& from) {
    if (from.contains("username") && from["username"].is_string()) {
        return from["username"].get<std::string>();
    }
    std::string name = from.value("first_name", std::string());
    if (from.contains("last_name") && from["last_name"].is_string()) {
        name += " " + from["last_name"].get<std::string>();
    }
    return name;
}

std::string lower(std::string text) {
    for (char& c : text) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return text;
}

} // namespace

std::optional<std::string> strip_bot_address(const std::string& text, const std::string& bot) {
    if (!text.starts_with('/')) {
        return text;
    }
    const std::size_t word_end = std::min(text.find_first_of(" \t\n"), text.size());
    const std::size_t at = text.find('@');
    if (at == std::string::npos || at > word_end) {
        return text;
    }
    const std::string addressee = text.substr(at + 1, word_end - at - 1);
    if (bot.empty() || lower(addressee) != lower(bot)) {
        return std::nullopt;
    }
    return text.substr(0, at) + text.substr(word_end);
}

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

TelegramPlatform::TelegramPlatform(HttpClient& http, TelegramOptions options)
    : http_(http), options_(std::move(options)) {
    while (!options_.api_url.empty() && options_.api_url.back() == '/') {
        options_.api_url.pop_back();
    }
}

std::string TelegramPlatform::method_url(const std::string& method) const {
    return options_.api_url + "/bot" + options_.token + "/" + method;
}

std::string TelegramPlatform::call_json(const std::string& method, const std::string& body,
                                        std::chrono::milliseconds timeout) {
    HttpRequest request;
    request.url = method_url(method);
    request.body = body;
    request.timeout = timeout;
    const HttpResponse response = http_.post(request);
    const json answer = json::parse(response.body, nullptr, false);
    if (answer.is_discarded() || !answer.is_object()) {
        throw TelegramError(static_cast<int>(response.status), method + ": HTTP " +
                                                                   std::to_string(response.status) +
                                                                   " without a Bot API answer");
    }
    if (!answer.value("ok", false)) {
        const int code = answer.value("error_code", static_cast<int>(response.status));
        throw TelegramError(code, method + ": " + std::to_string(code) + " " + describe(answer),
                            retry_after_of(answer));
    }
    return answer.contains("result") ? answer["result"].dump() : "null";
}

const std::string& TelegramPlatform::bot_username() {
    if (options_.bot_username.empty()) {
        const json me = json::parse(call_json("getMe", "{}", options_.request_timeout));
        options_.bot_username = me.value("username", std::string());
    }
    return options_.bot_username;
}

std::vector<Post> TelegramPlatform::poll(const std::string& cursor, std::chrono::seconds timeout) {
    const std::string& bot = bot_username();
    json body = {{"timeout", timeout.count()}, {"allowed_updates", json::array({"message"})}};
    if (const auto offset = to_integer(cursor)) {
        body["offset"] = *offset;
    }
    const auto wait =
        std::chrono::duration_cast<std::chrono::milliseconds>(timeout + options_.request_timeout);
    const json updates = json::parse(call_json("getUpdates", body.dump(), wait));
    if (!updates.is_array()) {
        throw TelegramError(0, "getUpdates: the result is not an array");
    }

    std::vector<Post> posts;
    for (const json& update : updates) {
        if (!update.is_object() || !update.contains("update_id") ||
            !update["update_id"].is_number_integer()) {
            throw TelegramError(0, "getUpdates: an update without an update_id");
        }
        const std::int64_t update_id = update["update_id"].get<std::int64_t>();
        Post post;
        post.platform = "telegram";
        post.cursor = std::to_string(update_id + 1);
        // Updates we did not ask for still carry the cursor forward, as chatter.
        post.message_id = "update-" + std::to_string(update_id);
        const json* message = nullptr;
        if (update.contains("message") && update["message"].is_object()) {
            message = &update["message"];
        }
        if (message != nullptr && message->contains("chat") && message->contains("message_id")) {
            const json& chat = (*message)["chat"];
            post.channel = std::to_string(chat.value("id", std::int64_t{0}));
            post.message_id = std::to_string((*message)["message_id"].get<std::int64_t>());
            post.direct = chat.value("type", std::string()) == "private";
            if (message->contains("from") && (*message)["from"].is_object()) {
                const json& from = (*message)["from"];
                post.author_id = std::to_string(from.value("id", std::int64_t{0}));
                post.author_name = author_name(from);
            }
            if (message->contains("text") && (*message)["text"].is_string()) {
                // A command for another bot in the same group is none of ours: chatter.
                post.text = strip_bot_address((*message)["text"].get<std::string>(), bot)
                                .value_or(std::string());
            }
        }
        posts.push_back(std::move(post));
    }
    return posts;
}

Delivery TelegramPlatform::send(const Reply& reply) {
    const bool has_photo = !reply.png.empty();
    std::vector<Formatted> parts =
        format(reply.text, code_of(reply), has_photo ? max_caption : max_text);
    bool caption = has_photo;
    if (has_photo && parts.size() > 1) {
        // Too long for a caption: the image goes alone, the words follow as messages.
        parts = format(reply.text, code_of(reply), max_text);
        caption = false;
    }
    json reply_parameters;
    // A reply_to names a message of the channel; a private message answers nothing there.
    if (reply.to == Reply::To::Channel) {
        if (const auto id = to_integer(reply.reply_to)) {
            reply_parameters = {{"message_id", *id}, {"allow_sending_without_reply", true}};
        }
    }

    // In order; the first failure ends the reply and the outbox retries all of it (replies
    // are at least once: a retried long reply may repeat its first pieces).
    std::size_t next = 0;
    if (has_photo) {
        HttpRequest request;
        request.timeout = options_.request_timeout;
        request.url = method_url("sendPhoto");
        request.parts.push_back({"chat_id", reply.destination, "", ""});
        request.parts.push_back(
            {"photo", std::string(reply.png.begin(), reply.png.end()), "board.png", "image/png"});
        if (caption && !parts.empty()) {
            request.parts.push_back({"caption", parts.front().text, "", ""});
            if (!parts.front().parse_mode.empty()) {
                request.parts.push_back({"parse_mode", parts.front().parse_mode, "", ""});
            }
            next = 1;
        }
        if (!reply_parameters.is_null()) {
            request.parts.push_back({"reply_parameters", reply_parameters.dump(), "", ""});
            reply_parameters = nullptr;
        }
        const Delivery d = post_message(request, "sendPhoto", reply.to);
        if (d.status != Delivery::Status::Sent) {
            return d;
        }
    }
    for (; next < parts.size(); ++next) {
        HttpRequest request;
        request.timeout = options_.request_timeout;
        request.url = method_url("sendMessage");
        json body = {{"chat_id", chat_id(reply.destination)}, {"text", parts[next].text}};
        if (!parts[next].parse_mode.empty()) {
            body["parse_mode"] = parts[next].parse_mode;
        }
        if (!reply_parameters.is_null()) {
            body["reply_parameters"] = reply_parameters;
            reply_parameters = nullptr;
        }
        request.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
        const Delivery d = post_message(request, "sendMessage", reply.to);
        if (d.status != Delivery::Status::Sent) {
            return d;
        }
    }
    return {Delivery::Status::Sent, {}, {}};
}

Delivery TelegramPlatform::post_message(const HttpRequest& request, const std::string& method,
                                        Reply::To to) {
    HttpResponse response;
    try {
        response = http_.post(request);
    } catch (const HttpError& e) {
        if (e.kind() == HttpError::Kind::Cancelled) {
            throw;
        }
        return {Delivery::Status::Transient, {}, method + ": " + e.what()};
    }
    const json answer = json::parse(response.body, nullptr, false);
    if (answer.is_discarded() || !answer.is_object()) {
        const auto status = response.status >= 500 || response.status == 0
                                ? Delivery::Status::Transient
                                : Delivery::Status::Failed;
        return {status,
                {},
                method + ": HTTP " + std::to_string(response.status) + " without a Bot API answer"};
    }
    if (answer.value("ok", false)) {
        return {Delivery::Status::Sent, {}, {}};
    }
    const int code = answer.value("error_code", static_cast<int>(response.status));
    const std::string description = describe(answer);
    const std::string detail = method + ": " + std::to_string(code) + " " + description;
    if (code == 429) {
        return {Delivery::Status::RetryAfter,
                std::max(retry_after_of(answer), std::chrono::seconds(1)), detail};
    }
    if (code >= 500 || code == 401 || code == 404 || code == 409) {
        // A revoked token (401) or a wrong api_url (404) is the operator's to fix: keep the
        // replies until it is, rather than drop them.
        return {Delivery::Status::Transient, {}, detail};
    }
    const bool private_chat = to == Reply::To::User;
    if (private_chat && (code == 403 || (code == 400 && lower(description).find("chat not found") !=
                                                            std::string::npos))) {
        return {Delivery::Status::Blocked, {}, detail};
    }
    return {Delivery::Status::Failed, {}, detail};
}

} // namespace ghostpost::bot
