#include "ghostpost/slack/settings.h"

#include "ghostpost/config/table_reader.h"

#include <algorithm>
#include <cctype>

namespace ghostpost::bot {

namespace {

// Slack's tokens are "<kind>-" and dash-separated letters and digits; whitespace or a
// "Bearer " prefix would only fail later, less clearly.
bool shaped_like(const std::string& token, const std::string& prefix) {
    return token.size() >= prefix.size() + 10 && token.starts_with(prefix) &&
           std::all_of(token.begin(), token.end(),
                       [](unsigned char c) { return std::isalnum(c) != 0 || c == '-'; });
}

} // namespace

SlackSettings read_slack_settings(const config::PlatformTable& table,
                                  const config::Environment& environment) {
    const config::TableReader reader(table, {"api_url", "bot_token_file", "app_token_file",
                                             "poll_timeout", "request_timeout",
                                             "per_chat_interval_ms", "group_messages_per_minute"});
    SlackSettings slack;
    if (auto url = config::read_http_url(reader, "api_url"))
        slack.api_url = *url;
    config::read_seconds(reader, "poll_timeout", 1, 50, slack.poll_timeout);
    config::read_seconds(reader, "request_timeout", 1, 300, slack.request_timeout);
    config::read_pacing(reader, slack.per_chat_interval, slack.group_messages_per_minute);
    const config::Secret bot = config::read_secret(reader, environment, "GHOSTPOST_SLACK_BOT_TOKEN",
                                                   "bot_token_file", "bot token", false);
    if (!shaped_like(bot.value, "xoxb-"))
        reader.fail_unplaced("bot_token_file",
                             "the token in " + bot.origin +
                                 " is not a Slack bot token (xoxb-..., from the app's OAuth & "
                                 "Permissions page)");
    const config::Secret app = config::read_secret(reader, environment, "GHOSTPOST_SLACK_APP_TOKEN",
                                                   "app_token_file", "app-level token", false);
    if (!shaped_like(app.value, "xapp-"))
        reader.fail_unplaced("app_token_file",
                             "the token in " + app.origin +
                                 " is not a Slack app-level token (xapp-..., from the app's Basic "
                                 "Information page, with the connections:write scope)");
    slack.bot_token = bot.value;
    slack.app_token = app.value;
    return slack;
}

} // namespace ghostpost::bot
