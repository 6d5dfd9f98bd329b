#include "ghostpost/telegram/settings.h"

#include "ghostpost/config/table_reader.h"

#include <algorithm>
#include <cctype>

namespace ghostpost::bot {

namespace {

// A Bot API token is "<bot id>:<secret>"; anything else is a misconfiguration worth naming
// before the first request fails with a bare 404.
bool looks_like_token(const std::string& token) {
    const auto colon = token.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == token.size()) {
        return false;
    }
    const bool id_ok = std::all_of(token.begin(), token.begin() + static_cast<long>(colon),
                                   [](unsigned char c) { return std::isdigit(c) != 0; });
    const bool secret_ok =
        std::all_of(token.begin() + static_cast<long>(colon) + 1, token.end(),
                    [](unsigned char c) { return std::isalnum(c) != 0 || c == '_' || c == '-'; });
    return id_ok && secret_ok;
}

} // namespace

TelegramSettings read_telegram_settings(const config::PlatformTable& table,
                                        const config::Environment& environment) {
    const config::TableReader reader(table, {"api_url", "token_file", "bot_username",
                                             "poll_timeout", "request_timeout",
                                             "per_chat_interval_ms", "group_messages_per_minute"});
    TelegramSettings telegram;
    if (auto url = config::read_http_url(reader, "api_url"))
        telegram.api_url = *url;
    if (auto name = reader.string("bot_username"))
        telegram.bot_username = name->starts_with("@") ? name->substr(1) : *name;
    config::read_seconds(reader, "poll_timeout", 1, 50, telegram.poll_timeout);
    config::read_seconds(reader, "request_timeout", 1, 300, telegram.request_timeout);
    config::read_pacing(reader, telegram.per_chat_interval, telegram.group_messages_per_minute);
    const config::Secret token = config::read_secret(
        reader, environment, "GHOSTPOST_TELEGRAM_TOKEN", "token_file", "token", false);
    telegram.token = token.value;
    if (!looks_like_token(telegram.token))
        reader.fail_unplaced("token_file",
                             "the token in " + token.origin +
                                 " is not of the form <bot id>:<secret> given by @BotFather");
    return telegram;
}

} // namespace ghostpost::bot
