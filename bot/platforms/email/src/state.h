// The e-mail adapter's own small table, in a SQLite file of its own: what the service does not
// keep because no other platform needs it. Who is in a thread (the addresses a public reply goes
// to), the thread's subject, the addresses that bounce, and the secret the reply keys are made
// from. Every write is idempotent, so a mail read again after a crash changes nothing twice.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ghostpost::bot::email_detail {

class MailState {
public:
    // Opens (or creates) the file. Errors: std::runtime_error naming the file.
    explicit MailState(const std::filesystem::path& file);
    ~MailState();
    MailState(const MailState&) = delete;
    MailState& operator=(const MailState&) = delete;

    // 32 random bytes made when the file was created, as hex.
    const std::string& secret() const { return secret_; }

    void add_member(const std::string& channel, const std::string& address);
    std::vector<std::string> members(const std::string& channel) const;
    // The first subject a thread was given stays its subject.
    void keep_subject(const std::string& channel, const std::string& subject);
    std::string subject(const std::string& channel) const;
    // The Message-IDs of mail the SMTP server took: a reply sent again after a restart is
    // recognised and not sent twice.
    void remember_sent(const std::string& message_id);
    bool sent(const std::string& message_id) const;
    void set_failing(const std::string& address, bool failing);
    bool failing(const std::string& address) const;

    // A send that began: after a crash its outcome is unknown until the bot's own copy of the
    // mail is looked for. The time is that of the latest attempt, in seconds since the epoch.
    void remember_attempt(const std::string& message_id, std::int64_t now);
    std::optional<std::int64_t> attempted(const std::string& message_id) const;
    void forget_attempt(const std::string& message_id); // it certainly did not go out

    // The answers to mail the bot cannot trust wait here until sent, so that a restart neither
    // loses nor repeats one. At most one is queued for an address in `interval` (a forger cannot
    // make the bot mail a victim once per forged mail); a mail read again queues nothing new.
    // True when this call queued it. An answer the address asked for (to !follow) is not
    // `limited`, but counts against the next notice's limit all the same.
    struct Notice {
        std::string message_id;
        std::string address;
        std::string raw; // the whole mail, CRLF, ready for SMTP
    };
    bool queue_notice(const Notice& notice, std::int64_t now, std::int64_t interval,
                      bool limited = true);
    std::vector<Notice> pending_notices() const;
    void notice_done(const std::string& message_id);

    // The games whose public replies went out by mail, and the addresses that follow them
    // (!follow by mail): they get each public reply of the game, never a private one.
    void remember_game(std::int64_t game);
    bool knows_game(std::int64_t game) const;
    void add_follower(std::int64_t game, const std::string& address);
    bool remove_follower(std::int64_t game, const std::string& address); // true: was following
    std::vector<std::string> followers(std::int64_t game) const;

private:
    void exec(const char* sql, const std::vector<std::string>& values) const;
    std::vector<std::string> column(const char* sql, const std::string& value) const;
    void* db_ = nullptr; // sqlite3*
    std::string secret_;
};

} // namespace ghostpost::bot::email_detail
