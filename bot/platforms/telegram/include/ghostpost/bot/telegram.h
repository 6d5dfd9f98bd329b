// The Telegram Bot API as a Platform: getUpdates long polling in, sendMessage/sendPhoto out.
// Thin by design: JSON and HTTP mapping only, every game decision stays in the service.
#pragma once

#include "ghostpost/bot/http.h"
#include "ghostpost/bot/platform.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace ghostpost::bot {

struct TelegramOptions {
    std::string api_url = "https://api.telegram.org";
    std::string token;
    std::string bot_username; // without '@'; asked with getMe on first use when empty
    std::chrono::seconds request_timeout{15};
};

// Telegram answered a call with an error (or something that is not the Bot API).
// Never holds the token: messages are built from the method name and Telegram's description.
class TelegramError : public std::runtime_error {
public:
    TelegramError(int code, const std::string& message, std::chrono::seconds retry_after = {})
        : std::runtime_error(message), code_(code), retry_after_(retry_after) {}
    int code() const noexcept { return code_; } // 0: no usable answer
    std::chrono::seconds retry_after() const noexcept { return retry_after_; } // for 429
    bool conflict() const noexcept { return code_ == 409; } // another instance polls the bot

private:
    int code_;
    std::chrono::seconds retry_after_;
};

class TelegramPlatform final : public Platform {
public:
    // `http` must outlive the platform. The token is only used to build URLs.
    TelegramPlatform(HttpClient& http, TelegramOptions options);

    std::string name() const override { return "telegram"; }

    // getUpdates from offset `cursor` (an update id; empty: Telegram's own unconfirmed queue).
    // Every update becomes a Post whose cursor is its update_id + 1, in Telegram's order; ids
    // are never compared to filter (Telegram may jump them), so a repeated update comes back
    // and the service's record of handled (channel, message_id) is what drops it. Updates
    // that are not text messages become Posts with empty text, so the cursor still moves
    // past them in the service's transaction.
    // Errors: HttpError (network, timeout, cancelled), TelegramError (409 conflict, 429,
    // 401 bad token, 5xx...).
    std::vector<Post> poll(const std::string& cursor, std::chrono::seconds timeout) override;

    // sendMessage, or sendPhoto (multipart) when the reply has a PNG. A reply longer than
    // Telegram's limits (4096 characters, 1024 for a caption) goes as several messages in
    // order, split at line breaks. Never throws for an answer from Telegram: the outcome is a
    // Delivery (the first failing piece's). Errors: HttpError::Cancelled only.
    Delivery send(const Reply& reply) override;

    // The bot's username, asking getMe once when it was not configured.
    // Errors: as poll().
    const std::string& bot_username();

private:
    // POSTs a JSON body to `method`; returns the "result" member serialised, or throws.
    std::string call_json(const std::string& method, const std::string& body,
                          std::chrono::milliseconds timeout);
    std::string method_url(const std::string& method) const;
    // Sends one sendMessage or sendPhoto request and reads Telegram's answer as a Delivery.
    Delivery post_message(const HttpRequest& request, const std::string& method, Reply::To to);

    HttpClient& http_;
    TelegramOptions options_;
};

// Text of a message as the service should see it: "/cmd@thisbot args" -> "/cmd args";
// a command addressed to another bot ("/cmd@otherbot") -> std::nullopt (not for us).
std::optional<std::string> strip_bot_address(const std::string& text, const std::string& bot);

// Escapes text for parse_mode HTML: & < > become entities.
std::string escape_html(const std::string& text);

} // namespace ghostpost::bot
