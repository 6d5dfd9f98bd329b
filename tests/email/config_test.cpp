// [platform.email] in the configuration: every key, the password's two sources, the defaults,
// and errors that name the key and line without quoting the password.
#include "ghostpost/config/config.h"
#include "ghostpost/email/module.h"
#include "ghostpost/email/settings.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace ghostpost::config;
using ghostpost::bot::email_module;
using ghostpost::bot::EmailSettings;
using ghostpost::bot::read_email_settings;

namespace {

Environment environment_of(std::map<std::string, std::string> variables) {
    return
        [variables = std::move(variables)](const std::string& name) -> std::optional<std::string> {
            const auto it = variables.find(name);
            return it == variables.end() ? std::nullopt : std::optional<std::string>(it->second);
        };
}

const Environment with_password = environment_of({{"GHOSTPOST_EMAIL_PASSWORD", " s3cret-pw \n"}});

EmailSettings read(std::string_view text, const Environment& environment,
                   const std::filesystem::path& base_dir = "/etc/ghostpost") {
    const Settings settings =
        parse(text, "ghostpost.toml", environment, base_dir, {email_module.claim()});
    return read_email_settings(settings.platforms.at("email"), environment);
}

std::string error_of(std::string_view text, const Environment& environment) {
    try {
        (void)read(text, environment);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "no error";
}

const std::string head = "[storage]\npath = \"g.sqlite\"\n[platform.email]\n";
const std::string minimal = head + "imap_url = \"imaps://mail.example.org\"\n"
                                   "smtp_url = \"smtps://mail.example.org:465\"\n"
                                   "username = \"ghostpost\"\n"
                                   "address = \"ghostpost@example.org\"\n";

} // namespace

TEST_CASE("an e-mail table is read into typed settings", "[config][email]") {
    const EmailSettings e = read(head + R"(imap_url = "imap://127.0.0.1:1143/"
mailbox = "Games"
smtp_url = "smtp://127.0.0.1:1587"
username = "bot@example.org"
address = "GhostPost@Example.org"
authserv_id = "mx.example.org"
handled_folder = "Handled"
state_file = "mail/state.sqlite"
allow_plaintext = true
poll_interval = 10
request_timeout = 20
per_domain_interval_ms = 500
domain_messages_per_minute = 40
ca_file = "tls/ca.pem"
notice_interval = 3600
copy_wait = 5
)",
                                 with_password);
    CHECK(e.imap_url == "imap://127.0.0.1:1143");
    CHECK(e.mailbox == "Games");
    CHECK(e.smtp_url == "smtp://127.0.0.1:1587");
    CHECK(e.username == "bot@example.org");
    CHECK(e.password == "s3cret-pw");
    CHECK(e.address == "ghostpost@example.org");
    CHECK(e.authserv_id == "mx.example.org");
    CHECK(e.handled_folder == "Handled");
    CHECK(e.state_file == std::filesystem::path("/etc/ghostpost/mail/state.sqlite"));
    CHECK(e.allow_plaintext);
    CHECK(e.poll_interval == std::chrono::seconds(10));
    CHECK(e.request_timeout == std::chrono::seconds(20));
    CHECK(e.per_domain_interval == std::chrono::milliseconds(500));
    CHECK(e.domain_messages_per_minute == 40);
    CHECK(e.ca_file == std::filesystem::path("/etc/ghostpost/tls/ca.pem"));
    CHECK(e.notice_interval == std::chrono::seconds(3600));
    CHECK(e.copy_wait == std::chrono::seconds(5));

    const EmailSettings d = read(minimal, with_password);
    CHECK(d.mailbox == "INBOX");
    CHECK(d.authserv_id == "");
    CHECK(d.handled_folder == "");
    CHECK(d.state_file == std::filesystem::path("/etc/ghostpost/email-state.sqlite"));
    CHECK_FALSE(d.allow_plaintext);
    CHECK(d.poll_interval == std::chrono::seconds(30));
    CHECK(d.per_domain_interval == std::chrono::milliseconds(2000));
    CHECK(d.domain_messages_per_minute == 20);
    CHECK(d.ca_file.empty());
    CHECK(d.notice_interval == std::chrono::seconds(86400));
    CHECK(d.copy_wait == std::chrono::seconds(10));
}

TEST_CASE("the mailbox password comes from the environment first, then from password_file",
          "[config][email]") {
    const auto dir = std::filesystem::temp_directory_path() / "ghostpost-email-config";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "mail.password") << "pw-from-file\n";
    const std::string text = minimal + "password_file = \"mail.password\"\n";
    CHECK(read(text, environment_of({}), dir).password == "pw-from-file");
    CHECK(read(text, with_password, dir).password == "s3cret-pw");
    CHECK(error_of(minimal, environment_of({})) ==
          "ghostpost.toml: platform.email.password_file: no mailbox password: set "
          "GHOSTPOST_EMAIL_PASSWORD or [platform.email] password_file");
    std::filesystem::remove_all(dir);
}

TEST_CASE("a bad e-mail table is refused naming the key and its line", "[config][email]") {
    CHECK(error_of(head + "smtp_url = \"smtps://m\"\nusername = \"b\"\naddress = \"b@x.org\"\n",
                   with_password) == "ghostpost.toml:3: platform.email.imap_url: is required");
    CHECK(error_of(head + "imap_url = \"https://m\"\n", with_password) ==
          "ghostpost.toml:4: platform.email.imap_url: must start with imaps:// or imap://");
    CHECK(error_of(head + "imap_url = \"imaps://bot:pw@m\"\n", with_password) ==
          "ghostpost.toml:4: platform.email.imap_url: must be a scheme, a host and a port only "
          "(the login has its own keys)");
    CHECK(error_of(head + "imap_url = \"imaps://m/INBOX\"\n", with_password) ==
          "ghostpost.toml:4: platform.email.imap_url: must be a scheme, a host and a port only "
          "(the login has its own keys)");
    CHECK(error_of(minimal + "password = \"x\"\n", with_password) ==
          "ghostpost.toml:8: platform.email.password: unknown key");
    const std::string no_address = head + "imap_url = \"imaps://m\"\nsmtp_url = \"smtps://m\"\n"
                                          "username = \"b\"\n";
    CHECK(error_of(no_address, with_password) ==
          "ghostpost.toml:3: platform.email.address: is required");
    CHECK(error_of(no_address + "address = \"ghostpost+games@example.org\"\n", with_password) ==
          "ghostpost.toml:7: platform.email.address: must be a plain address like "
          "ghostpost@example.org, without a +tag");
    CHECK(error_of(no_address + "address = \"ghostpost\"\n", with_password) ==
          "ghostpost.toml:7: platform.email.address: must be a plain address like "
          "ghostpost@example.org, without a +tag");
    CHECK(error_of(minimal + "handled_folder = \"a\\\"b\"\n", with_password) ==
          "ghostpost.toml:8: platform.email.handled_folder: must be a folder name without "
          "quotes, backslashes or controls");
    CHECK(error_of(minimal + "poll_interval = 0\n", with_password) ==
          "ghostpost.toml:8: platform.email.poll_interval: must be between 1 and 3600 seconds");
    CHECK(error_of(minimal + "notice_interval = 10\n", with_password) ==
          "ghostpost.toml:8: platform.email.notice_interval: must be between 60 and 2592000 "
          "seconds");
    CHECK(error_of(minimal + "ca_file = \" \"\n", with_password) ==
          "ghostpost.toml:8: platform.email.ca_file: must not be empty");
    CHECK(error_of(minimal + "domain_messages_per_minute = 0\n", with_password) ==
          "ghostpost.toml:8: platform.email.domain_messages_per_minute: must be between 1 and "
          "1000");
}

TEST_CASE("the e-mail module names the password as its secret", "[config][email]") {
    const Settings settings =
        parse(minimal, "ghostpost.toml", with_password, "/tmp", {email_module.claim()});
    const auto configured = email_module.read(settings.platforms.at("email"), with_password);
    CHECK(configured->secrets() == std::vector<std::string>{"s3cret-pw"});
}

TEST_CASE("the example configuration's e-mail table reads as it stands", "[config][email]") {
    std::ifstream in(GHOSTPOST_SOURCE_DIR "/ghostpost.example.toml");
    std::stringstream text;
    text << in.rdbuf();
    // The commented table with its keys uncommented, and nothing else of the file.
    std::istringstream lines(text.str());
    std::string table = "[storage]\npath = \"g.sqlite\"\n";
    bool inside = false;
    for (std::string line; std::getline(lines, line);) {
        if (line == "# [platform.email]")
            inside = true;
        else if (line.empty() || line.starts_with("# ["))
            inside = inside && line == "# [platform.email]";
        if (inside && line.starts_with("# ") &&
            (line.starts_with("# [") || line.find(" = ") != std::string::npos))
            table += line.substr(2) + "\n";
    }
    const EmailSettings e = read(table, with_password);
    CHECK(e.imap_url == "imaps://mail.example.org");
    CHECK(e.smtp_url == "smtps://mail.example.org:465");
    CHECK(e.address == "ghostpost@example.org");
    CHECK(e.authserv_id == "mx.example.org");
    CHECK(e.handled_folder == "Handled");
    CHECK(e.state_file == std::filesystem::path("/var/lib/ghostpost/email-state.sqlite"));
    CHECK(e.poll_interval == std::chrono::seconds(30));
}
