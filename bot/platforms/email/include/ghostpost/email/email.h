// Play by e-mail as a Platform: an IMAP mailbox polled, answers sent by SMTP, both through
// libcurl. A game is a thread: its channel is the thread's root Message-ID in angle brackets; a
// reply to one of the bot's private mails is a direct message, whose channel is the sender's
// address. A mail counts as its sender's only when it came to their own reply address
// ("<bot>+<key>@<domain>", the key a keyed hash of their address) or when the operator's mail
// server vouches for it; any other gets one answer saying how to play, and changes nothing.
#pragma once

#include "ghostpost/email/mail.h"
#include "ghostpost/platform/platform.h"

#include <chrono>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ghostpost::bot {

namespace email_detail {
class MailSession;
class MailState;
} // namespace email_detail

struct EmailOptions {
    std::string imap_url; // "imaps://host[:port]" or "imap://" (STARTTLS unless allow_plaintext)
    std::string mailbox = "INBOX";
    std::string smtp_url; // "smtps://host[:port]" or "smtp://"
    std::string username;
    std::string password; // secret
    bool allow_plaintext = false;
    std::string ca_file; // the CAs the servers' certificates are checked against; "": the system's
    MailIdentity identity;            // the bot's address and the trusted authserv-id
    std::string handled_folder;       // handled mail moved here; "": flagged and left
    std::filesystem::path state_file; // the adapter's own table (email_detail::MailState)
    std::string command_prefix = "!";
    std::chrono::seconds request_timeout{30};
    Pacing pacing{std::chrono::milliseconds(2000), 20, std::chrono::seconds(600),
                  std::chrono::seconds(3600)};
    int max_per_poll = 50; // mails fetched in one poll
    // At most one "this mail was not read" answer to an address in this time.
    std::chrono::seconds notice_interval{86400};
    // How long after a send whose outcome a crash left unknown the bot's own copy of it may
    // still arrive: it is looked for until then before the mail is sent again.
    std::chrono::seconds copy_wait{10};
    // Waits between two polls that found nothing; false when the daemon is stopping.
    std::function<bool(std::chrono::milliseconds)> sleep;
    // True once the daemon stops: an exchange in flight is cut short.
    std::function<bool()> stopping;
};

class EmailPlatform final : public Platform {
public:
    // Opens the state file. Errors: std::runtime_error when it cannot be opened.
    explicit EmailPlatform(EmailOptions options);
    ~EmailPlatform() override;

    std::string name() const override { return "email"; }

    // New mail after `cursor` ("<UIDVALIDITY>:<last UID handled>"; empty, or a UIDVALIDITY that
    // changed: every mail not flagged handled yet, whose Message-IDs the service has seen or
    // not). Mail the cursor has passed is flagged \Seen and $GhostpostHandled (and moved to the
    // handled folder) first. Each mail is one Post with its UID as cursor; a mail that is no
    // person's, or whose sender is not known to have written it, is an empty Post that only
    // moves the cursor. Errors: PlatformError: Unauthorized (login refused), Cancelled,
    // Transient (the rest).
    std::vector<Post> poll(const std::string& cursor, std::chrono::seconds timeout) override;

    // One mail per recipient (the thread's members, or the one player), each with a Message-ID
    // made from the reply's idempotency key and the recipient, the thread headers,
    // Auto-Submitted: auto-replied, the player's reply address as Reply-To, and a PNG board
    // inline when the reply has one. A copy the server took before is not sent again (the
    // state file keeps its Message-ID; a send a crash cut short is looked for in the bot's own
    // mailbox, which gets a copy of every mail, before it is sent again). Mail to one domain is
    // spaced by the pacing's per_chat, and at most group_per_minute go to it in a minute
    // (RetryAfter beyond). An address that bounced is Blocked until its owner writes again.
    // Errors: PlatformError of kind Cancelled only.
    Delivery send(const Reply& reply) override;

    Pacing pacing() const override { return options_.pacing; }
    bool is_group(const std::string& channel) const override;
    // Mail to one domain is paced together: that is what its server's limits count. A thread's
    // members may be at several domains: send() paces each of its mails by its recipient's.
    std::string pacing_key(const std::string& destination) const override;

    // The reply address of a player: "<bot local part>+<key>@<bot domain>".
    std::string reply_address(const std::string& address) const;

private:
    std::string key_of(const std::string& address) const;
    void mark_handled(std::uint64_t validity, std::uint64_t last);
    // The answer to a mail whose sender is not known to have written it, queued in the state
    // (at most one per address and notice_interval, none to an address that bounces).
    void queue_notice(const DecodedMail& mail, bool direct);
    // Mail `uid` of the mailbox read as a post: an empty one (only its cursor) when it is for
    // nobody, a stranger's, or a command this adapter answers itself. Errors: MailFailure.
    Post read_mail(std::uint64_t uidvalidity, std::uint64_t uid);
    // "!follow <game>" or "!unfollow <game>" alone in a mail of a known sender: the follower
    // list changes here, and the answer is queued like a notice. False for any other mail.
    bool follow_command(const DecodedMail& mail);
    // Sends the queued answers; one that fails for now waits for the next poll. Errors:
    // MailFailure of kind Cancelled.
    void send_notices();
    // One mail to one recipient, ready for SMTP.
    std::string compose(const std::string& recipient, const std::string& message_id,
                        const std::string& subject, const std::string& in_reply_to,
                        const std::vector<std::string>& references, const std::string& text,
                        const std::string& code, const std::vector<std::uint8_t>& png) const;
    // Sends it once: not when the state says it went, nor when a send a crash cut short left
    // the bot's copy in its mailbox. True when it was sent now. Errors: MailFailure.
    bool deliver(const std::string& recipient, const std::string& message_id,
                 const std::string& raw);
    bool copy_arrived(const std::string& message_id, std::int64_t attempted_at);
    // Waits; false when the daemon is stopping.
    bool wait(std::chrono::milliseconds duration) const;

    EmailOptions options_;
    std::unique_ptr<email_detail::MailSession> session_;
    std::unique_ptr<email_detail::MailState> state_;
    std::uint64_t flagged_validity_ = 0; // the mailbox whose mail up to flagged_ is flagged
    std::uint64_t flagged_ = 0;
    bool backlog_flagged_ = false; // handled mail of an earlier run flagged at start
    // When mail last went to each domain, the last minute's: the pacing per domain.
    std::map<std::string, std::deque<std::chrono::steady_clock::time_point>> domain_sent_;
};

} // namespace ghostpost::bot
