// The Telegram Bot API as a Platform: getUpdates long polling in, sendMessage/sendPhoto out.
// Thin by design: JSON and HTTP mapping only, every game decision stays in the service.
#pragma once

#include "ghostpost/bot/http.h"
#include "ghostpost/bot/platform.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ghostpost::bot {

struct TelegramOptions {
    std::string api_url = "https://api.telegram.org";
    std::string token;
    std::string bot_username; // without '@'; asked with getMe on first use when empty
    std::chrono::seconds request_timeout{15};
    Pacing pacing; // Telegram's published limits by default: 1 message/s a chat, 20/min a group
    // When a 429's retry_after ends; a test's fake clock in place of the steady clock.
    std::function<std::chrono::steady_clock::time_point()> clock = std::chrono::steady_clock::now;
};

// One update of getUpdates, read. `post` is always usable: for anything that is not a text
// message to this bot, and for a malformed update, its text is empty so that the service only
// moves the cursor past it.
struct DecodedUpdate {
    std::optional<std::int64_t> update_id; // absent when the update has no usable one
    Post post;                              // cursor set when update_id is
    std::string problem;                    // why the update was skipped; empty when it was read
};

// Reads one update (a JSON object) as Telegram sends it: identity from `from` (id, username),
// "@name"s from the `mention`/`text_mention` entities (UTF-16 offsets), anonymous senders
// flagged, names UTF-8-checked and capped. Pure; never throws, whatever the bytes.
DecodedUpdate decode_update(std::string_view update_json, const std::string& bot_username);

class TelegramPlatform final : public Platform {
public:
    // `http` must outlive the platform. The token is only used to build URLs.
    TelegramPlatform(HttpClient& http, TelegramOptions options);

    std::string name() const override { return "telegram"; }

    // getUpdates from offset `cursor` (an update id; empty: Telegram's own unconfirmed queue).
    // Every update becomes a Post whose cursor is its update_id + 1, in Telegram's order; ids
    // are never compared to filter (Telegram may jump them), so a repeated update comes back
    // and the service's record of handled (channel, message_id) is what drops it. Updates
    // that are not text messages, and malformed ones (logged as telegram_update_skipped),
    // become Posts with empty text, so the cursor moves past them in the service's transaction.
    // Errors: PlatformError: Conflict (409), Unauthorized (401/404), RateLimited (429, also
    // when called again before its retry_after ran out), Cancelled, Transient (the rest).
    std::vector<Post> poll(const std::string& cursor, std::chrono::seconds timeout) override;

    // sendMessage, or sendPhoto (multipart) when the reply has a PNG. A reply longer than
    // Telegram's limits (4096 characters, 1024 for a caption) goes as several messages in
    // order, split at line breaks. Never throws for an answer from Telegram: the outcome is a
    // Delivery (the first failing piece's), whose detail is redacted and capped; a chat still
    // under a 429's retry_after is answered RetryAfter without a call.
    // Errors: PlatformError of kind Cancelled only.
    Delivery send(const Reply& reply) override;

    Pacing pacing() const override { return options_.pacing; }
    // Groups, supergroups and channels have negative ids ("@name" for a public channel).
    bool is_group(const std::string& channel) const override;

    // The bot's username, asking getMe once when it was not configured.
    // Errors: as poll().
    const std::string& bot_username();

private:
    using Instant = std::chrono::steady_clock::time_point;
    struct Answer; // Telegram's answer to one call, read (defined with the JSON code)
    // POSTs `request` to `method` and returns a successful answer. Errors: as poll().
    Answer call(const std::string& method, const HttpRequest& request);
    std::string method_url(const std::string& method) const;
    // Sends one sendMessage or sendPhoto request and reads Telegram's answer as a Delivery.
    Delivery post_message(const HttpRequest& request, const std::string& method,
                          const Reply& reply);
    // `text` without the token (in any spelling), valid UTF-8, at most a few hundred bytes.
    std::string scrub(std::string_view text) const;

    HttpClient& http_;
    TelegramOptions options_;
    Instant poll_not_before_{};                 // getUpdates' last retry_after
    std::map<std::string, Instant> not_before_; // per destination, sendMessage/sendPhoto's
};

// Text of a message as the service should see it: "/cmd@thisbot args" -> "/cmd args";
// a command addressed to another bot ("/cmd@otherbot") -> std::nullopt (not for us).
std::optional<std::string> strip_bot_address(const std::string& text, const std::string& bot);

// Escapes text for parse_mode HTML: & < > become entities.
std::string escape_html(const std::string& text);

} // namespace ghostpost::bot
