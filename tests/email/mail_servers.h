// Real Dovecot and Postfix for the e-mail tests (mail_servers.py), on loopback ports with their
// configuration in the test's temporary folder, and mail accounts on them: a player sends by
// SMTP and reads what came by IMAP, as any mail program would.
#pragma once

#include "../support/fake_server.h"
#include "ghostpost/email/mail.h"
#include "mail_session.h"

#include <map>
#include <string>
#include <vector>

namespace ghostpost::test {

class MailServers {
public:
    // Every account's password is its local part with "-pw" after it. With `tls`, both servers
    // require TLS, with a certificate from a CA of the test's own (ca_file), and have an imaps
    // and an smtps port as well.
    MailServers(const TempDir& dir, const std::vector<std::string>& accounts, bool tls = false)
        : out_(dir.path() / "mail-servers.out"), err_(dir.path() / "mail-servers.err"),
          child_(arguments(dir, accounts, tls), out_, err_) {
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (std::chrono::steady_clock::now() < end) {
            const std::string text = read_file(out_);
            if (text.find('\n') != std::string::npos) {
                const auto json = nlohmann::json::parse(text.substr(0, text.find('\n')));
                smtp_port = json.at("smtp").get<int>();
                imap_port = json.at("imap").get<int>();
                if (json.contains("ca")) {
                    smtps_port = json.at("smtps").get<int>();
                    imaps_port = json.at("imaps").get<int>();
                    ca_file = json.at("ca").get<std::string>();
                }
                break;
            }
            if (child_.wait_exit(std::chrono::milliseconds(50)) >= 0)
                break;
        }
        INFO(read_file(err_));
        REQUIRE(smtp_port != 0);
    }
    ~MailServers() {
        child_.tell("stop");
        (void)child_.wait_exit(std::chrono::seconds(30));
    }

    static std::string password_of(const std::string& account) {
        return account.substr(0, account.find('@')) + "-pw";
    }
    std::string imap_url() const { return "imap://127.0.0.1:" + std::to_string(imap_port); }
    std::string smtp_url() const { return "smtp://127.0.0.1:" + std::to_string(smtp_port); }
    std::string imaps_url() const { return "imaps://127.0.0.1:" + std::to_string(imaps_port); }
    std::string smtps_url() const { return "smtps://127.0.0.1:" + std::to_string(smtps_port); }

    bot::email_detail::MailSession session(const std::string& account) const {
        bot::email_detail::MailServerOptions options;
        options.imap_url = imap_url();
        options.mailbox = "INBOX";
        options.smtp_url = smtp_url();
        options.username = account;
        options.password = password_of(account);
        options.allow_plaintext = ca_file.empty();
        options.ca_file = ca_file;
        options.timeout = std::chrono::seconds(20);
        return bot::email_detail::MailSession(options);
    }

    // A mail as a player's program sends it: `raw` with CRLF line ends, envelope from `from`.
    void send(const std::string& from, const std::vector<std::string>& to, std::string raw) const {
        std::string crlf;
        for (char c : raw) {
            if (c == '\n')
                crlf += '\r';
            crlf += c;
        }
        session(from).send(from, to, crlf);
    }

    // The mail in `account`'s INBOX once it holds at least `count` (waits up to 20 s), oldest
    // first, each as received.
    std::vector<std::string> inbox(const std::string& account, std::size_t count) const {
        auto imap = session(account);
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        std::vector<std::uint64_t> uids;
        while (std::chrono::steady_clock::now() < end) {
            uids = imap.search("ALL");
            if (uids.size() >= count)
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        std::vector<std::string> mails;
        for (std::uint64_t uid : uids)
            mails.push_back(imap.fetch(uid));
        return mails;
    }

    int smtp_port = 0;
    int imap_port = 0;
    int smtps_port = 0;
    int imaps_port = 0;
    std::string ca_file; // with tls: the test CA's certificate

private:
    static std::vector<std::string> arguments(const TempDir& dir,
                                              const std::vector<std::string>& accounts, bool tls) {
        std::vector<std::string> argv{GHOSTPOST_PYTHON, GHOSTPOST_MAIL_SERVERS};
        if (tls)
            argv.push_back("--tls");
        argv.push_back((dir.path() / "servers").string());
        for (const std::string& a : accounts)
            argv.push_back(a + ":" + password_of(a));
        return argv;
    }
    std::filesystem::path out_;
    std::filesystem::path err_;
    Child child_;
};

} // namespace ghostpost::test
