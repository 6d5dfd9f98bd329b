#include "ghostpost/bot/telegram.h"

#include "ghostpost/bot/log.h"
#include "telegram_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
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
        if (const auto colon = token.find(':'); colon != std::string::npos &&
                                                token.size() - colon - 1 >= 8)
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
        throw PlatformError(Kind::Transient, scrub(method + ": HTTP " +
                                                   std::to_string(answer->status) +
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
    if (options_.bot_username.empty()) {
        HttpRequest request;
        request.url = method_url("getMe");
        request.body = "{}";
        request.timeout = options_.request_timeout;
        const Answer me = call("getMe", request);
        const auto username = me.result.is_object() ? me.result.find("username") : me.result.end();
        if (!me.result.is_object() || username == me.result.end() || !username->is_string())
            throw PlatformError(PlatformError::Kind::Transient, "getMe: no username in the answer");
        options_.bot_username = telegram_text::valid_utf8(username->get<std::string>());
    }
    return options_.bot_username;
}

std::vector<Post> TelegramPlatform::poll(const std::string& cursor, std::chrono::seconds timeout) {
    if (const auto now = options_.clock(); now < poll_not_before_) {
        // Called again before Telegram's retry_after ran out: wait the rest, to the millisecond.
        throw PlatformError(
            PlatformError::Kind::RateLimited, "getUpdates: waiting out Telegram's retry_after",
            std::chrono::ceil<std::chrono::milliseconds>(poll_not_before_ - now));
    }
    const std::string& bot = bot_username();
    json body = {{"timeout", timeout.count()}, {"allowed_updates", json::array({"message"})}};
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
                         {{"update", decoded.post.cursor.empty() ? std::string("before any id")
                                                                 : decoded.post.message_id},
                          {"problem", scrub(decoded.problem)}});
        }
        if (!decoded.post.cursor.empty())
            posts.push_back(std::move(decoded.post));
    }
    return posts;
}

Delivery TelegramPlatform::send(const Reply& reply) {
    if (const auto gate = not_before_.find(reply.destination); gate != not_before_.end()) {
        // The outbox counts whole seconds of wall time; Telegram's wait is honoured here to
        // the millisecond, so a retry that comes a fraction early waits one more second.
        if (const auto now = options_.clock(); now < gate->second) {
            return {Delivery::Status::RetryAfter,
                    whole_seconds(std::chrono::ceil<std::chrono::milliseconds>(gate->second - now)),
                    "waiting out Telegram's retry_after"};
        }
    }
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
        const Delivery d = post_message(request, "sendPhoto", reply);
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
