#include "ghostpost/matrix/module.h"

#include "ghostpost/log/log.h"
#include "ghostpost/matrix/matrix.h"
#include "ghostpost/matrix/settings.h"

namespace ghostpost::bot {

namespace {

class ConfiguredMatrix : public ConfiguredPlatform {
public:
    explicit ConfiguredMatrix(MatrixSettings settings) : settings_(std::move(settings)) {}

    std::vector<std::string> secrets() const override { return {settings_.token}; }

    // /account/whoami confirms the token and names the account it belongs to.
    PlatformStart start(const StartContext& context) const override {
        MatrixOptions options;
        options.homeserver_url = settings_.homeserver_url;
        options.access_token = settings_.token;
        options.user_id = settings_.user_id;
        options.join_any = settings_.join_any;
        options.join_servers = settings_.join_servers;
        options.request_timeout = settings_.request_timeout;
        options.command_prefix = context.command_prefix;
        options.pacing.per_chat = settings_.per_chat_interval;
        options.pacing.group_per_minute = settings_.group_messages_per_minute;
        auto matrix = std::make_unique<MatrixPlatform>(context.http, options);
        const std::string account = matrix->whoami();
        if (account != settings_.user_id)
            log::warning("matrix_account_mismatch", {{"platform", "matrix"},
                                                     {"configured", settings_.user_id},
                                                     {"token_for", account}});
        log::info("bot_identified", {{"platform", "matrix"}, {"username", account}});
        // The service writes "@" + bot_name: a Matrix id already starts with its "@".
        return {std::move(matrix), account.substr(1), settings_.poll_timeout};
    }

private:
    MatrixSettings settings_;
};

std::unique_ptr<ConfiguredPlatform> read(const config::PlatformTable& table,
                                         const config::Environment& environment) {
    return std::make_unique<ConfiguredMatrix>(read_matrix_settings(table, environment));
}

} // namespace

const PlatformModule matrix_module{"matrix", "", "Matrix", read, true};

} // namespace ghostpost::bot
