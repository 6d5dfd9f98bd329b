#include "ghostpost/email/module.h"

#include "ghostpost/email/email.h"
#include "ghostpost/email/settings.h"

#include <stdexcept>

namespace ghostpost::bot {

namespace {

class ConfiguredEmail : public ConfiguredPlatform {
public:
    explicit ConfiguredEmail(EmailSettings settings) : settings_(std::move(settings)) {}

    std::vector<std::string> secrets() const override { return {settings_.password}; }

    // The first poll logs in: a refused password stops the lane there. The lane's sleep
    // between polls lets SIGTERM end a quiet wait at once.
    PlatformStart start(const StartContext& context) const override {
        EmailOptions options;
        options.imap_url = settings_.imap_url;
        options.mailbox = settings_.mailbox;
        options.smtp_url = settings_.smtp_url;
        options.username = settings_.username;
        options.password = settings_.password;
        options.allow_plaintext = settings_.allow_plaintext;
        options.ca_file = settings_.ca_file.string();
        options.notice_interval = settings_.notice_interval;
        options.copy_wait = settings_.copy_wait;
        options.identity = {settings_.address, settings_.authserv_id};
        options.handled_folder = settings_.handled_folder;
        options.state_file = settings_.state_file;
        options.command_prefix = context.command_prefix;
        options.request_timeout = settings_.request_timeout;
        options.pacing.per_chat = settings_.per_domain_interval;
        options.pacing.group_per_minute = settings_.domain_messages_per_minute;
        options.sleep = context.sleep;
        options.stopping = context.stopping;
        std::unique_ptr<Platform> platform;
        try {
            platform = std::make_unique<EmailPlatform>(std::move(options));
        } catch (const std::runtime_error& e) {
            // The state file cannot be opened: nothing the lane's retries can heal.
            throw PlatformError(PlatformError::Kind::Unauthorized, e.what());
        }
        return {std::move(platform), settings_.address, settings_.poll_interval};
    }

private:
    EmailSettings settings_;
};

std::unique_ptr<ConfiguredPlatform> read(const config::PlatformTable& table,
                                         const config::Environment& environment) {
    return std::make_unique<ConfiguredEmail>(read_email_settings(table, environment));
}

} // namespace

const PlatformModule email_module{"email", "", "E-mail", read};

} // namespace ghostpost::bot
