// [platform.email]: a mailbox polled over IMAP, answers sent by SMTP submission.
#pragma once

#include "ghostpost/config/config.h"

#include <chrono>
#include <filesystem>
#include <string>

namespace ghostpost::bot {

struct EmailSettings {
    std::string imap_url;          // "imaps://mail.example.org" (or imap:// with STARTTLS), no path
    std::string mailbox = "INBOX"; // the folder polled
    std::string smtp_url;          // "smtps://mail.example.org:465" (or smtp:// with STARTTLS)
    std::string username;          // the login for both
    std::string password;          // secret: from GHOSTPOST_EMAIL_PASSWORD or password_file
    std::string address;           // the bot's address, "ghostpost@example.org"; its "+<key>" forms
                                   // are the players' reply addresses
    std::string authserv_id;       // whose Authentication-Results may vouch for a sender; "": none
    std::string handled_folder;    // handled mail is moved here; "": flagged \Seen and left
    std::filesystem::path state_file; // the platform's own small table (thread members, reply
                                      // key secret, failing addresses), relative to the file
    bool allow_plaintext = false;     // imap:// and smtp:// without STARTTLS (a loopback test)
    std::filesystem::path ca_file;    // the CAs the servers' certificates are checked against,
                                      // relative to the file; empty: the system's
    std::chrono::seconds notice_interval{86400}; // one "not read" answer an address in this
    std::chrono::seconds copy_wait{10};       // a crash's unknown send: how long its copy may take
    std::chrono::seconds poll_interval{30};   // between two polls that found nothing
    std::chrono::seconds request_timeout{30}; // for every IMAP or SMTP exchange
    std::chrono::milliseconds per_domain_interval{2000}; // pacing: between two mails to a domain
    int domain_messages_per_minute = 20;                 // pacing: mails to a domain a minute
};

// Reads the table. Throws config::ConfigError naming the key (and line), never quoting the
// password: an unknown key, a missing or bad value, or no password.
EmailSettings read_email_settings(const config::PlatformTable& table,
                                  const config::Environment& environment);

} // namespace ghostpost::bot
