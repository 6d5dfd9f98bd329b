// The IMAP and SMTP exchanges of the e-mail adapter, through libcurl: one easy handle for each
// protocol, kept, so that the IMAP connection (and its selected mailbox) lives across polls.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ghostpost::bot::email_detail {

// An exchange that failed. The message never holds the password or a URL with it.
class MailFailure : public std::runtime_error {
public:
    enum class Kind : std::uint8_t {
        Transient,    // network, timeout, a 4xx: try again
        Unauthorized, // the login was refused
        Refused,      // SMTP: the server refused the message or a recipient for good (5xx)
        Cancelled,    // the daemon is stopping
    };
    MailFailure(Kind kind, const std::string& message, bool unsent = false)
        : std::runtime_error(message), kind_(kind), unsent_(unsent) {}
    Kind kind() const noexcept { return kind_; }
    // SMTP: the server cannot have taken the message (it refused it, or its end was never
    // sent). Otherwise a failed send's outcome is unknown.
    bool unsent() const noexcept { return unsent_; }

private:
    Kind kind_;
    bool unsent_;
};

struct MailServerOptions {
    std::string imap_url; // "imaps://host[:port]" or "imap://..."
    std::string mailbox;
    std::string smtp_url;
    std::string username;
    std::string password;
    bool allow_plaintext = false; // without it, imap:// and smtp:// must STARTTLS
    std::string ca_file;          // the CAs the servers' certificates are checked against; "":
                                  // the system's. Verification is never turned off.
    std::chrono::seconds timeout{30};
    std::function<bool()> stopping; // true once the daemon stops: the exchange is cut short
};

class MailSession {
public:
    explicit MailSession(MailServerOptions options);
    ~MailSession();
    MailSession(const MailSession&) = delete;
    MailSession& operator=(const MailSession&) = delete;

    struct Status {
        std::uint64_t uidvalidity = 0;
        std::uint64_t uidnext = 0;
    };
    // STATUS of the polled mailbox, on a new connection (what follows uses it). Errors:
    // MailFailure.
    Status status();
    // UID SEARCH <criteria> in the polled mailbox, ascending. Errors: MailFailure.
    std::vector<std::uint64_t> search(const std::string& criteria);
    // The same in another folder of the account. Errors: MailFailure.
    std::vector<std::uint64_t> search_in(const std::string& mailbox, const std::string& criteria);
    // The whole message of one UID (the server marks it \Seen). Errors: MailFailure.
    std::string fetch(std::uint64_t uid);
    // Any other command on the polled mailbox (UID STORE, UID MOVE); its untagged answer.
    // Errors: MailFailure.
    std::string command(const std::string& text);
    // SMTP: one message from `from` to `recipients`. Errors: MailFailure (Refused: 5xx).
    void send(const std::string& from, const std::vector<std::string>& recipients,
              const std::string& message);

private:
    std::string imap(const std::string& url, const std::string& custom);
    MailServerOptions options_;
    void* imap_ = nullptr; // CURL*, opaque so that curl.h stays in the .cpp
    void* smtp_ = nullptr;
};

} // namespace ghostpost::bot::email_detail
