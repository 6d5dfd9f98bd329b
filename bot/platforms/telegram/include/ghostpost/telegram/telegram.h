// The Telegram Bot API as a Platform: getUpdates long polling in, sendMessage/sendPhoto out.
// Thin by design: JSON and HTTP mapping only, every game decision stays in the service.
#pragma once

#include "ghostpost/http/http.h"
#include "ghostpost/platform/platform.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ghostpost::bot {

struct TelegramOptions {
    std::string api_url = "https://api.telegram.org";
    std::string token;
    std::string bot_username; // without '@'; asked with getMe on first use when empty
    std::chrono::seconds request_timeout{15};
    // The menu of commands that publish_commands() gives Telegram (setMyCommands).
    std::vector<MenuCommand> commands;
    Pacing pacing; // Telegram's published limits by default: 1 message/s a chat, 20/min a group
    // When a 429's retry_after ends; a test's fake clock in place of the steady clock.
    std::function<std::chrono::steady_clock::time_point()> clock = std::chrono::steady_clock::now;
};

// One update of getUpdates, read. `post` is always usable: for anything that is not a text
// message to this bot, and for a malformed update, its text is empty so that the service only
// moves the cursor past it.
struct DecodedUpdate {
    std::optional<std::int64_t> update_id; // absent when the update has no usable one
    Post post;                             // cursor set when update_id is
    std::string problem;                   // why the update was skipped; empty when it was read
    std::string ignored;     // why a well-formed update is nothing for the service (an edit)
    std::string callback_id; // a button press's query id, to answer; empty for other updates
};

// Reads one update (a JSON object) as Telegram sends it: identity from `from` (id, username),
// "@name"s from the `mention`/`text_mention` entities (UTF-16 offsets), anonymous senders
// flagged, names UTF-8-checked and capped. A message in a forum topic is in the channel
// "<chat id>/<topic id>"; a press of a button (callback_query) is a post of the presser in the
// channel of the message the button is under, message id "callback:<query id>", its data as
// the text; a group's upgrade to a supergroup (migrate_to_chat_id, migrate_from_chat_id) is a
// post that says the channel moved. An edited message is ignored. Pure; never throws,
// whatever the bytes.
DecodedUpdate decode_update(std::string_view update_json, const std::string& bot_username);

class TelegramPlatform final : public Platform {
public:
    // `http` must outlive the platform. The token is only used to build URLs.
    TelegramPlatform(HttpClient& http, TelegramOptions options);

    std::string name() const override { return "telegram"; }

    // getMe, always (even with a configured username): the bot's username, and whether it can
    // read every message of a group. When it cannot (privacy mode, the default), the log says
    // so and moderator_notices() holds a notice for the moderators. Errors: as poll().
    const std::string& identify();
    // setMyCommands with options.commands (names Telegram would refuse are left out,
    // descriptions capped), once for everyone and once per language the descriptions are
    // translated to (language_code: "de", "pt" for pt_BR); true when Telegram took the menu for
    // everyone. A failure is logged, never
    // thrown: the menu is a convenience, and Telegram keeps the last one it was given.
    // Errors: PlatformError of kind Cancelled only.
    bool publish_commands();
    std::vector<std::string> moderator_notices() const override { return notices_; }

    // getUpdates from offset `cursor` (an update id; empty: Telegram's own unconfirmed queue).
    // Every update becomes a Post whose cursor is its update_id + 1, in Telegram's order; ids
    // are never compared to filter (Telegram may jump them), so a repeated update comes back
    // and the service's record of handled (channel, message_id) is what drops it. Updates
    // that are not text messages, and malformed ones (logged as telegram_update_skipped),
    // become Posts with empty text, so the cursor moves past them in the service's transaction.
    // A press of a button is answered (answerCallbackQuery) by the reply to it (send); one
    // that no reply answered within two seconds is answered without words, so the presser's
    // client stops waiting, and while one waits a poll waits at most a second.
    // Errors: PlatformError: Conflict (409), Unauthorized (401/404), RateLimited (429, also
    // when called again before its retry_after ran out), Cancelled, Transient (the rest).
    std::vector<Post> poll(const std::string& cursor, std::chrono::seconds timeout) override;

    // sendMessage, or sendPhoto (multipart) when the reply has a PNG. A reply longer than
    // Telegram's limits (4096 characters, 1024 for a caption) goes as several messages in
    // order, split at line breaks. A channel "<chat>/<topic>" is written to in that forum
    // topic (message_thread_id). Buttons become an inline keyboard under the last message,
    // each press posting the button's command (callback_data, at most 64 bytes: a longer one
    // is left out). Players named without a handle get a text_mention, so they are notified.
    // A reply to a press (reply_to "callback:<id>") without buttons, board or image and short
    // enough is the press's answer, shown to the presser alone; any other reply to a press
    // answers it without words and is sent as usual. A chat that became a supergroup is
    // written to at its new id. Never throws for an answer from Telegram: the outcome is a
    // Delivery (the first failing piece's), whose detail is redacted and capped; a chat still
    // under a 429's retry_after is answered RetryAfter without a call.
    // Errors: PlatformError of kind Cancelled only.
    Delivery send(const Reply& reply) override;

    Pacing pacing() const override { return options_.pacing; }
    // Groups, supergroups and channels have negative ids ("@name" for a public channel).
    bool is_group(const std::string& channel) const override;
    // The chat of a destination: the topics of one group share its limits.
    std::string pacing_key(const std::string& destination) const override;

    // The bot's username, asking getMe once when it was not configured.
    // Errors: as poll().
    const std::string& bot_username();

private:
    // One setMyCommands: the menu in `language` (a translation's name), "" for everyone else.
    bool publish_menu(const std::string& language);
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
    // answerCallbackQuery; `text` empty answers without words. The Delivery it came to.
    Delivery answer_callback(const std::string& query, const std::string& text, const Reply& reply);
    // Answers without words the presses no reply answered within a while.
    void sweep_callbacks();
    // Sends `reply` to `chat` (and topic): its messages, in order. Errors: as send().
    Delivery deliver(const Reply& reply, const std::string& chat,
                     std::optional<std::int64_t> topic);

    HttpClient& http_;
    TelegramOptions options_;
    Instant poll_not_before_{};                 // getUpdates' last retry_after
    std::map<std::string, Instant> not_before_; // per destination, sendMessage/sendPhoto's
    std::map<std::string, Instant> presses_;    // callback queries not answered yet, by id
    std::map<std::string, std::string> moved_;  // chats that became supergroups: old -> new id
    std::optional<std::int64_t> moved_to_;      // the new id a refused send was told of
    std::vector<std::string> notices_;          // for the moderators, from identify()
};

// Text of a message as the service should see it: "/cmd@thisbot args" -> "/cmd args";
// a command addressed to another bot ("/cmd@otherbot") -> std::nullopt (not for us).
std::optional<std::string> strip_bot_address(const std::string& text, const std::string& bot);

// Escapes text for parse_mode HTML: & < > become entities.
std::string escape_html(const std::string& text);

} // namespace ghostpost::bot
