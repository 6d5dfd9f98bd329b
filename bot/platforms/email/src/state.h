// The e-mail adapter's own small table, in a SQLite file of its own: what the service does not
// keep because no other platform needs it. Who is in a thread (the addresses a public reply goes
// to), the thread's subject, the addresses that bounce, and the secret the reply keys are made
// from. Every write is idempotent, so a mail read again after a crash changes nothing twice.
#pragma once

#include <filesystem>
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

private:
    void exec(const char* sql, const std::vector<std::string>& values) const;
    std::vector<std::string> column(const char* sql, const std::string& value) const;
    void* db_ = nullptr; // sqlite3*
    std::string secret_;
};

} // namespace ghostpost::bot::email_detail
