#include "ghostpost/email/settings.h"

#include "ghostpost/config/table_reader.h"

#include <algorithm>

namespace ghostpost::bot {

namespace {

// A mail server's address: one of the two schemes, a host, no path, no credentials (those have
// keys of their own, and a password in a URL would be logged with it).
std::string read_server_url(const config::TableReader& reader, const std::string& key,
                            const char* tls_scheme, const char* plain_scheme) {
    auto url = reader.string(key);
    if (!url)
        reader.fail_missing(key);
    const std::string tls = std::string(tls_scheme) + "://";
    const std::string plain = std::string(plain_scheme) + "://";
    if (!url->starts_with(tls) && !url->starts_with(plain))
        reader.fail_at(reader.node(key), key, "must start with " + tls + " or " + plain);
    while (!url->empty() && url->back() == '/')
        url->pop_back();
    const std::string rest = url->substr(url->find("://") + 3);
    if (rest.empty() || rest.find('/') != std::string::npos || rest.find('@') != std::string::npos)
        reader.fail_at(reader.node(key), key,
                       "must be a scheme, a host and a port only (the login has its own keys)");
    return *url;
}

} // namespace

EmailSettings read_email_settings(const config::PlatformTable& table,
                                  const config::Environment& environment) {
    const config::TableReader reader(
        table, {"imap_url", "mailbox", "smtp_url", "username", "password_file", "address",
                "authserv_id", "handled_folder", "state_file", "allow_plaintext", "poll_interval",
                "request_timeout", "per_domain_interval_ms", "domain_messages_per_minute",
                "ca_file", "notice_interval", "copy_wait"});
    EmailSettings email;
    email.imap_url = read_server_url(reader, "imap_url", "imaps", "imap");
    email.smtp_url = read_server_url(reader, "smtp_url", "smtps", "smtp");
    const auto folder_name = [&](const std::string& key) {
        std::string name = config::trim(*reader.string(key));
        if (name.empty() || name.size() > 200 || std::any_of(name.begin(), name.end(), [](char c) {
                return static_cast<unsigned char>(c) < 0x20 || c == '"' || c == '\\';
            }))
            reader.fail_at(reader.node(key), key,
                           "must be a folder name without quotes, backslashes or controls");
        return name;
    };
    if (reader.string("mailbox"))
        email.mailbox = folder_name("mailbox");
    if (reader.string("handled_folder"))
        email.handled_folder = folder_name("handled_folder");
    auto username = reader.string("username");
    if (!username)
        reader.fail_missing("username");
    email.username = config::trim(*username);
    if (email.username.empty())
        reader.fail_at(reader.node("username"), "username", "must not be empty");
    auto address = reader.string("address");
    if (!address)
        reader.fail_missing("address");
    email.address = config::trim(*address);
    for (char& c : email.address)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    const auto at = email.address.find('@');
    if (at == std::string::npos || at == 0 || at + 1 == email.address.size() ||
        email.address.find('@', at + 1) != std::string::npos ||
        email.address.find('+') != std::string::npos ||
        std::any_of(email.address.begin(), email.address.end(),
                    [](char c) { return c <= ' ' || c > '~' || c == '<' || c == '>'; }))
        reader.fail_at(reader.node("address"), "address",
                       "must be a plain address like ghostpost@example.org, without a +tag");
    if (auto id = reader.string("authserv_id"))
        email.authserv_id = config::trim(*id);
    email.state_file = reader.base_dir() / "email-state.sqlite";
    if (auto file = reader.string("state_file")) {
        if (config::trim(*file).empty())
            reader.fail_at(reader.node("state_file"), "state_file", "must not be empty");
        email.state_file = reader.base_dir() / config::trim(*file);
    }
    if (auto plain = reader.boolean("allow_plaintext"))
        email.allow_plaintext = *plain;
    if (auto file = reader.string("ca_file")) {
        if (config::trim(*file).empty())
            reader.fail_at(reader.node("ca_file"), "ca_file", "must not be empty");
        email.ca_file = reader.base_dir() / config::trim(*file);
    }
    config::read_seconds(reader, "notice_interval", 60, 30 * 86400, email.notice_interval);
    config::read_seconds(reader, "copy_wait", 0, 300, email.copy_wait);
    config::read_seconds(reader, "poll_interval", 1, 3600, email.poll_interval);
    config::read_seconds(reader, "request_timeout", 1, 300, email.request_timeout);
    if (auto millis = reader.integer("per_domain_interval_ms")) {
        if (*millis < 0 || *millis > 600000)
            reader.fail_at(reader.node("per_domain_interval_ms"), "per_domain_interval_ms",
                           "must be between 0 and 600000");
        email.per_domain_interval = std::chrono::milliseconds(*millis);
    }
    if (auto count = reader.integer("domain_messages_per_minute")) {
        if (*count < 1 || *count > 1000)
            reader.fail_at(reader.node("domain_messages_per_minute"), "domain_messages_per_minute",
                           "must be between 1 and 1000");
        email.domain_messages_per_minute = static_cast<int>(*count);
    }
    email.password = config::read_secret(reader, environment, "GHOSTPOST_EMAIL_PASSWORD",
                                         "password_file", "mailbox password", true)
                         .value;
    return email;
}

} // namespace ghostpost::bot
