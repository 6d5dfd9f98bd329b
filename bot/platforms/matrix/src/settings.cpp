#include "ghostpost/matrix/settings.h"

#include "ghostpost/config/table_reader.h"

#include <algorithm>
#include <cctype>

namespace ghostpost::bot {

MatrixSettings read_matrix_settings(const config::PlatformTable& table,
                                    const config::Environment& environment) {
    const config::TableReader reader(table, {"homeserver_url", "user_id", "auto_join", "token_file",
                                             "poll_timeout", "request_timeout",
                                             "per_chat_interval_ms", "group_messages_per_minute"});
    MatrixSettings matrix;
    const auto url = config::read_http_url(reader, "homeserver_url");
    if (!url)
        reader.fail_missing("homeserver_url");
    matrix.homeserver_url = *url;
    const auto user = reader.string("user_id");
    if (!user)
        reader.fail_missing("user_id");
    const auto colon = user->find(':');
    if (!user->starts_with("@") || colon == std::string::npos || colon < 2 ||
        colon + 1 == user->size() ||
        std::any_of(user->begin(), user->end(), [](unsigned char c) { return std::isspace(c); }))
        reader.fail_at(reader.node("user_id"), "user_id",
                       "must be a full Matrix user id like \"@ghostpost:example.org\"");
    matrix.user_id = *user;
    if (const toml::node* join = reader.table().get("auto_join")) {
        if (join->is_string()) {
            if (*join->value<std::string>() != "all")
                reader.fail_at(*join, "auto_join", "must be \"all\" or a list of server names");
            matrix.join_any = true;
        } else {
            const auto servers = reader.strings("auto_join");
            if (std::any_of(servers->begin(), servers->end(), [](const std::string& s) {
                    return s.empty() || s.find('/') != std::string::npos;
                }))
                reader.fail_at(*join, "auto_join", "server names must not be empty or hold '/'");
            matrix.join_any = false;
            matrix.join_servers = *servers;
        }
    }
    config::read_seconds(reader, "poll_timeout", 1, 120, matrix.poll_timeout);
    config::read_seconds(reader, "request_timeout", 1, 300, matrix.request_timeout);
    config::read_pacing(reader, matrix.per_chat_interval, matrix.group_messages_per_minute);
    matrix.token = config::read_secret(reader, environment, "GHOSTPOST_MATRIX_TOKEN", "token_file",
                                       "token", true)
                       .value;
    if (std::any_of(matrix.token.begin(), matrix.token.end(),
                    [](unsigned char c) { return c <= 0x20 || c >= 0x7F; }))
        reader.fail_unplaced("token_file", "the access token holds spaces or control characters");
    return matrix;
}

} // namespace ghostpost::bot
