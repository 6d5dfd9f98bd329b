#include "ghostpost/email/email.h"

#include "mail_session.h"
#include "state.h"

#include <algorithm>
#include <charconv>
#include <ctime>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <thread>

namespace ghostpost::bot {

using email_detail::MailFailure;
using email_detail::MailServerOptions;
using email_detail::MailSession;
using email_detail::MailState;

namespace {

// The IMAP keyword that says the bot handled a mail: what a changed UIDVALIDITY falls back on.
constexpr const char* handled_keyword = "$GhostpostHandled";

std::string hex(const unsigned char* data, std::size_t size) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < size; ++i) {
        out += digits[data[i] >> 4];
        out += digits[data[i] & 15];
    }
    return out;
}

std::string sha256_hex(const std::string& text, std::size_t bytes) {
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
    return hex(digest, std::min<std::size_t>(bytes, sizeof digest));
}

std::string base64(const std::uint8_t* data, std::size_t size) {
    static const char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t line = 0;
    for (std::size_t i = 0; i < size; i += 3) {
        const std::uint32_t n = (std::uint32_t{data[i]} << 16) |
                                (i + 1 < size ? std::uint32_t{data[i + 1]} << 8 : 0) |
                                (i + 2 < size ? std::uint32_t{data[i + 2]} : 0);
        out += table[(n >> 18) & 63];
        out += table[(n >> 12) & 63];
        out += i + 1 < size ? table[(n >> 6) & 63] : '=';
        out += i + 2 < size ? table[n & 63] : '=';
        line += 4;
        if (line >= 76) {
            out += "\r\n";
            line = 0;
        }
    }
    if (line > 0)
        out += "\r\n";
    return out;
}

std::string base64(const std::string& text) {
    return base64(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

// A header value in RFC 2047's encoded words when it is not plain ASCII.
std::string header_text(const std::string& text) {
    const bool ascii = std::all_of(text.begin(), text.end(), [](char c) {
        return static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7F;
    });
    if (ascii)
        return text;
    std::string encoded = base64(text);
    encoded.erase(std::remove_if(encoded.begin(), encoded.end(),
                                 [](char c) { return c == '\r' || c == '\n'; }),
                  encoded.end());
    return "=?UTF-8?B?" + encoded + "?=";
}

std::string html_escaped(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '<')
            out += "&lt;";
        else if (c == '>')
            out += "&gt;";
        else if (c == '&')
            out += "&amp;";
        else if (c == '"')
            out += "&quot;";
        else
            out += c;
    }
    return out;
}

std::string rfc5322_date() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    static const char* const days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static const char* const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%s, %02d %s %04d %02d:%02d:%02d +0000",
                  days[utc.tm_wday % 7], utc.tm_mday, months[utc.tm_mon % 12], utc.tm_year + 1900,
                  utc.tm_hour, utc.tm_min, utc.tm_sec);
    return buffer;
}

// "<validity>:<uid>", or nothing.
std::optional<std::pair<std::uint64_t, std::uint64_t>> parse_cursor(const std::string& cursor) {
    const auto colon = cursor.find(':');
    if (colon == std::string::npos)
        return std::nullopt;
    std::uint64_t validity = 0;
    std::uint64_t uid = 0;
    const char* begin = cursor.data();
    const char* end = begin + cursor.size();
    if (std::from_chars(begin, begin + colon, validity).ec != std::errc() ||
        std::from_chars(begin + colon + 1, end, uid).ec != std::errc())
        return std::nullopt;
    return std::pair{validity, uid};
}

std::string uid_set(const std::vector<std::uint64_t>& uids) {
    std::string out;
    for (std::uint64_t uid : uids)
        out += (out.empty() ? "" : ",") + std::to_string(uid);
    return out;
}

// The addresses a mail's text names ("bob@example.org", "@bob@example.org"), lowercase, each
// once: the accounts "!new chess bob@example.org" challenges.
std::vector<std::string> addresses_in(const std::string& text) {
    std::vector<std::string> out;
    std::size_t at = 0;
    while ((at = text.find('@', at)) != std::string::npos) {
        std::size_t begin = at;
        while (begin > 0 && text[begin - 1] != ' ' && text[begin - 1] != '\n' &&
               text[begin - 1] != '\t' && text[begin - 1] != '<' && text[begin - 1] != '(' &&
               text[begin - 1] != '@')
            --begin;
        std::size_t end = at + 1;
        while (end < text.size() && text[end] != ' ' && text[end] != '\n' && text[end] != '\t' &&
               text[end] != '>' && text[end] != ')' && text[end] != ',' && text[end] != ';')
            ++end;
        std::string address = text.substr(begin, end - begin);
        while (!address.empty() && (address.back() == '.' || address.back() == '!' ||
                                    address.back() == '?' || address.back() == ':'))
            address.pop_back();
        at = end;
        const auto sign = address.find('@');
        if (sign == 0 || sign == std::string::npos ||
            address.find('@', sign + 1) != std::string::npos ||
            address.find('.', sign) == std::string::npos || address.size() > 254)
            continue;
        for (char& c : address)
            if (c >= 'A' && c <= 'Z')
                c = static_cast<char>(c - 'A' + 'a');
        const bool plain = std::all_of(address.begin(), address.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
                   c == '_' || c == '+' || c == '@';
        });
        if (plain && std::find(out.begin(), out.end(), address) == out.end() && out.size() < 16)
            out.push_back(address);
    }
    return out;
}

PlatformError platform_error(const MailFailure& failure) {
    switch (failure.kind()) {
    case MailFailure::Kind::Unauthorized:
        return PlatformError(PlatformError::Kind::Unauthorized, failure.what());
    case MailFailure::Kind::Cancelled:
        return PlatformError(PlatformError::Kind::Cancelled, "stopping");
    default:
        return PlatformError(PlatformError::Kind::Transient, failure.what());
    }
}

std::string_view domain_of(std::string_view address) {
    const auto at = address.rfind('@');
    return at == std::string_view::npos ? std::string_view{} : address.substr(at + 1);
}

} // namespace

EmailPlatform::EmailPlatform(EmailOptions options) : options_(std::move(options)) {
    MailServerOptions server;
    server.imap_url = options_.imap_url;
    server.mailbox = options_.mailbox;
    server.smtp_url = options_.smtp_url;
    server.username = options_.username;
    server.password = options_.password;
    server.allow_plaintext = options_.allow_plaintext;
    server.ca_file = options_.ca_file;
    server.timeout = options_.request_timeout;
    server.stopping = options_.stopping;
    session_ = std::make_unique<MailSession>(std::move(server));
    state_ = std::make_unique<MailState>(options_.state_file);
}

EmailPlatform::~EmailPlatform() = default;

bool EmailPlatform::is_group(const std::string& channel) const {
    return channel.starts_with('<');
}

std::string EmailPlatform::pacing_key(const std::string& destination) const {
    if (destination.starts_with('<'))
        return destination;
    return "@" + std::string(domain_of(destination));
}

std::string EmailPlatform::key_of(const std::string& address) const {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    const std::string& secret = state_->secret();
    HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
         reinterpret_cast<const unsigned char*>(address.data()), address.size(), digest, &length);
    return hex(digest, 8);
}

std::string EmailPlatform::reply_address(const std::string& address) const {
    const std::string& bot = options_.identity.address;
    const auto at = bot.rfind('@');
    return bot.substr(0, at) + "+" + key_of(address) + bot.substr(at);
}

void EmailPlatform::mark_handled(std::uint64_t validity, std::uint64_t last) {
    std::vector<std::uint64_t> uids;
    if (!backlog_flagged_) {
        // What an earlier run handled but did not flag before it stopped.
        if (last > 0)
            uids = session_->search("UID 1:" + std::to_string(last) + " NOT KEYWORD " +
                                    handled_keyword);
        std::erase_if(uids, [&](std::uint64_t uid) { return uid > last; });
        backlog_flagged_ = true;
    } else if (validity == flagged_validity_ && last > flagged_) {
        uids = session_->search("UID " + std::to_string(flagged_ + 1) + ":" + std::to_string(last) +
                                " NOT KEYWORD " + handled_keyword);
        std::erase_if(uids, [&](std::uint64_t uid) { return uid > last || uid <= flagged_; });
    }
    flagged_validity_ = validity;
    flagged_ = std::max(flagged_, last);
    if (uids.empty())
        return;
    const std::string set = uid_set(uids);
    session_->command("UID STORE " + set + " +FLAGS.SILENT (\\Seen " + handled_keyword + ")");
    if (!options_.handled_folder.empty())
        session_->command("UID MOVE " + set + " \"" + options_.handled_folder + "\"");
}

std::vector<Post> EmailPlatform::poll(const std::string& cursor, std::chrono::seconds timeout) {
    std::vector<Post> posts;
    try {
        const MailSession::Status status = session_->status();
        send_notices(); // what an earlier poll or run queued and could not send
        const auto position = parse_cursor(cursor);
        std::vector<std::uint64_t> uids;
        if (position && position->first == status.uidvalidity) {
            mark_handled(status.uidvalidity, position->second);
            uids = session_->search("UID " + std::to_string(position->second + 1) + ":*");
            std::erase_if(uids, [&](std::uint64_t uid) { return uid <= position->second; });
        } else {
            // A first start, or a mailbox renumbered: the keyword says what was handled, and
            // the service knows the Message-IDs of what was handled but not flagged yet.
            backlog_flagged_ = true;
            flagged_validity_ = status.uidvalidity;
            flagged_ = 0;
            uids = session_->search(std::string("NOT KEYWORD ") + handled_keyword);
            if (uids.empty()) {
                Post mark;
                mark.platform = "email";
                mark.message_id = "start-" + std::to_string(status.uidvalidity);
                mark.cursor = std::to_string(status.uidvalidity) + ":" +
                              std::to_string(status.uidnext > 0 ? status.uidnext - 1 : 0);
                posts.push_back(std::move(mark));
                return posts;
            }
        }
        if (uids.size() > static_cast<std::size_t>(options_.max_per_poll))
            uids.resize(static_cast<std::size_t>(options_.max_per_poll));
        for (std::uint64_t uid : uids)
            posts.push_back(read_mail(status.uidvalidity, uid));
        send_notices();
    } catch (const MailFailure& failure) {
        throw platform_error(failure);
    }
    if (posts.empty() && timeout.count() > 0 && options_.sleep &&
        !options_.sleep(std::chrono::duration_cast<std::chrono::milliseconds>(timeout)))
        throw PlatformError(PlatformError::Kind::Cancelled, "stopping");
    return posts;
}

Post EmailPlatform::read_mail(std::uint64_t uidvalidity, std::uint64_t uid) {
    const DecodedMail mail = decode_mail(session_->fetch(uid), options_.identity);
    Post post;
    post.platform = "email";
    post.cursor = std::to_string(uidvalidity) + ":" + std::to_string(uid);
    post.message_id = mail.message_id.empty()
                          ? "uid-" + std::to_string(uidvalidity) + "-" + std::to_string(uid)
                          : "<" + mail.message_id + ">";
    if (mail.kind == DecodedMail::Kind::Bounce && !mail.bounced.empty())
        state_->set_failing(mail.bounced, true);
    if (mail.kind != DecodedMail::Kind::Person)
        return post;
    // A reply to one of the bot's private mails is a direct message; anything else belongs to
    // the thread it started or answers.
    bool direct = false;
    std::vector<std::string> ids = mail.references;
    ids.push_back(mail.in_reply_to);
    for (const std::string& id : ids)
        if (is_own_message_id(id, options_.identity) && id.find(".p@") != std::string::npos)
            direct = true;
    const std::string root = mail.thread_root().empty() ? mail.message_id : mail.thread_root();
    if (root.empty())
        direct = true;
    const bool known =
        (!mail.reply_key.empty() && mail.reply_key == key_of(mail.from)) || mail.vouched;
    if (!known) {
        queue_notice(mail, direct);
        return post;
    }
    state_->set_failing(mail.from, false);
    if (follow_command(mail))
        return post; // answered here: the service has no part in it
    post.author_id = mail.from;
    post.author_handle = mail.from;
    post.author_name = mail.from_name.empty() ? mail.from : mail.from_name;
    post.text = mail.text;
    post.direct = direct;
    post.channel = direct ? mail.from : "<" + root + ">";
    const std::string& own_address = options_.identity.address;
    for (const std::string& address : addresses_in(mail.text)) {
        post.mentions.push_back({address, address, address});
        // The bot never mails itself: its own addresses are no thread's members.
        const bool own = domain_of(address) == domain_of(own_address) &&
                         (address == own_address ||
                          address.starts_with(own_address.substr(0, own_address.find('@')) + "+"));
        if (!direct && !own)
            state_->add_member(post.channel, address);
    }
    if (!direct) {
        state_->add_member(post.channel, mail.from);
        state_->keep_subject(post.channel, mail.subject);
    }
    return post;
}

void EmailPlatform::queue_notice(const DecodedMail& mail, bool direct) {
    if (mail.from.empty() || state_->failing(mail.from))
        return;
    const std::string id = own_message_id(
        sha256_hex("notice\n" + mail.message_id + "\n" + mail.from, 12) + (direct ? ".p" : ""),
        options_.identity);
    std::vector<std::string> references = mail.references;
    if (!mail.message_id.empty())
        references.push_back(mail.message_id);
    const std::string& p = options_.command_prefix;
    const std::string text =
        "Your mail was not read, and nothing was done: I take a mail as yours only when it "
        "comes to your own address for playing, " +
        reply_address(mail.from) +
        ", or when your mail server signs it. Answer this mail (it goes to that address) with "
        "your move or command.\n\n" +
        p + "help lists the commands; " + p + "new chess friend@example.org challenges someone.";
    const std::string raw =
        compose(mail.from, id, mail.subject.empty() ? "ghostpost" : "Re: " + mail.subject,
                mail.message_id, references, text, "", {});
    state_->queue_notice({id, mail.from, raw}, static_cast<std::int64_t>(std::time(nullptr)),
                         options_.notice_interval.count());
}

bool EmailPlatform::follow_command(const DecodedMail& mail) {
    // "!follow 12", "!unfollow #12", and nothing else in the mail.
    const std::string& p = options_.command_prefix;
    std::string text = mail.text;
    while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r'))
        text.pop_back();
    bool follow = true;
    if (text.starts_with(p + "follow "))
        text = text.substr(p.size() + 7);
    else if (text.starts_with(p + "unfollow ")) {
        text = text.substr(p.size() + 9);
        follow = false;
    } else
        return false;
    if (text.starts_with('#'))
        text = text.substr(1);
    std::int64_t game = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), game);
    if (ec != std::errc() || end != text.data() + text.size() || game <= 0)
        return false; // the service says what is wrong with it
    const std::string number = "#" + std::to_string(game);
    std::string answer;
    if (follow && !state_->knows_game(game)) {
        answer = "I know no game " + number +
                 " played by mail: nothing changed. Its number is in the subject of its mail.";
    } else if (follow) {
        state_->add_follower(game, mail.from);
        answer = "You now follow game " + number +
                 ": every public mail of the game comes to you too, never a player's private "
                 "one. " +
                 p + "unfollow " + std::to_string(game) + " stops them.";
    } else if (state_->remove_follower(game, mail.from)) {
        answer = "You no longer follow game " + number + ": its mail stops.";
    } else {
        answer = "You did not follow game " + number + ": nothing changed.";
    }
    const std::string id = own_message_id(
        sha256_hex("follow\n" + mail.message_id + "\n" + mail.from, 12) + ".p", options_.identity);
    std::vector<std::string> references = mail.references;
    if (!mail.message_id.empty())
        references.push_back(mail.message_id);
    const std::string raw =
        compose(mail.from, id, "ghostpost: " + answer.substr(0, answer.find(':')), mail.message_id,
                references, answer, "", {});
    state_->queue_notice({id, mail.from, raw}, static_cast<std::int64_t>(std::time(nullptr)),
                         options_.notice_interval.count(), false);
    return true;
}

void EmailPlatform::send_notices() {
    for (const MailState::Notice& notice : state_->pending_notices()) {
        if (state_->failing(notice.address)) {
            state_->notice_done(notice.message_id);
            continue;
        }
        try {
            deliver(notice.address, notice.message_id, notice.raw);
            state_->notice_done(notice.message_id);
        } catch (const MailFailure& failure) {
            if (failure.kind() == MailFailure::Kind::Cancelled)
                throw;
            if (failure.kind() == MailFailure::Kind::Refused) {
                state_->notice_done(notice.message_id);
                continue;
            }
            return; // the server is out of reach: the next poll tries again
        }
    }
}

bool EmailPlatform::wait(std::chrono::milliseconds duration) const {
    if (options_.sleep)
        return options_.sleep(duration);
    std::this_thread::sleep_for(duration);
    return !(options_.stopping && options_.stopping());
}

bool EmailPlatform::copy_arrived(const std::string& message_id, std::int64_t attempted_at) {
    // Dovecot and most servers match HEADER by substring: the angle brackets make it exact.
    const std::string criteria = "HEADER Message-ID \"<" + message_id + ">\"";
    const auto now = [] { return static_cast<std::int64_t>(std::time(nullptr)); };
    const std::int64_t until =
        std::min(attempted_at, now()) + static_cast<std::int64_t>(options_.copy_wait.count());
    for (;;) {
        if (!session_->search(criteria).empty())
            return true;
        if (!options_.handled_folder.empty() &&
            !session_->search_in(options_.handled_folder, criteria).empty())
            return true;
        if (now() >= until)
            return false;
        if (!wait(std::chrono::milliseconds(500)))
            throw MailFailure(MailFailure::Kind::Cancelled, "stopping");
    }
}

bool EmailPlatform::deliver(const std::string& recipient, const std::string& message_id,
                            const std::string& raw) {
    if (state_->sent(message_id))
        return false;
    if (const auto at = state_->attempted(message_id); at && copy_arrived(message_id, *at)) {
        state_->remember_sent(message_id);
        return false;
    }
    // Noted before the server can take it: a crash after that leaves a trace to look for.
    state_->remember_attempt(message_id, static_cast<std::int64_t>(std::time(nullptr)));
    const std::string& bot = options_.identity.address;
    std::vector<std::string> recipients{recipient};
    // The bot's own copy, in the same SMTP transaction: the server takes both or neither, so
    // the copy says whether a send a crash cut short went out.
    if (recipient != bot)
        recipients.push_back(bot);
    try {
        session_->send(bot, recipients, raw);
    } catch (const MailFailure& failure) {
        // Nothing to look for before the next try: it did not go out.
        if (failure.unsent())
            state_->forget_attempt(message_id);
        throw;
    }
    state_->remember_sent(message_id);
    return true;
}

std::string EmailPlatform::compose(const std::string& recipient, const std::string& message_id,
                                   const std::string& subject, const std::string& in_reply_to,
                                   const std::vector<std::string>& references,
                                   const std::string& text, const std::string& code,
                                   const std::vector<std::uint8_t>& png) const {
    const std::string& bot = options_.identity.address;
    const std::string token = message_id.substr(0, message_id.find('@'));
    std::string m;
    m += "From: ghostpost <" + bot + ">\r\n";
    m += "To: <" + recipient + ">\r\n";
    m += "Reply-To: ghostpost <" + reply_address(recipient) + ">\r\n";
    m += "Subject: " + header_text(subject) + "\r\n";
    m += "Date: " + rfc5322_date() + "\r\n";
    m += "Message-ID: <" + message_id + ">\r\n";
    if (!in_reply_to.empty())
        m += "In-Reply-To: <" + in_reply_to + ">\r\n";
    if (!references.empty()) {
        m += "References:";
        for (const std::string& r : references)
            m += " <" + r + ">";
        m += "\r\n";
    }
    m += "Auto-Submitted: auto-replied\r\n";
    m += "MIME-Version: 1.0\r\n";
    const std::string plain = code.empty() ? text : text + "\n\n" + code;
    const auto crlf = [](const std::string& s) {
        std::string out;
        for (char c : s) {
            if (c == '\n')
                out += '\r';
            out += c;
        }
        return out;
    };
    if (png.empty()) {
        m += "Content-Type: text/plain; charset=utf-8\r\n";
        m += "Content-Transfer-Encoding: base64\r\n\r\n";
        m += base64(crlf(plain));
    } else {
        // The board as text in a plain part for any reader, and as a picture shown inline by a
        // reader of HTML: multipart/related holds the HTML and the image it names by cid.
        const std::string related = "=_related_" + token;
        const std::string alternative = "=_alternative_" + token;
        const std::string cid = "board." + message_id;
        m += "Content-Type: multipart/related; type=\"multipart/alternative\"; boundary=\"" +
             related + "\"\r\n\r\n";
        m += "--" + related + "\r\n";
        m += "Content-Type: multipart/alternative; boundary=\"" + alternative + "\"\r\n\r\n";
        m += "--" + alternative + "\r\n";
        m += "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n";
        m += base64(crlf(plain));
        m += "--" + alternative + "\r\n";
        m += "Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n";
        std::string html = "<html><body><p>";
        for (char c : html_escaped(text))
            html += c == '\n' ? std::string("<br>") : std::string(1, c);
        html += "</p>";
        if (!code.empty())
            html += "<pre>" + html_escaped(code) + "</pre>";
        html += "<p><img src=\"cid:" + cid + "\" alt=\"the board\"></p></body></html>";
        m += base64(html);
        m += "--" + alternative + "--\r\n";
        m += "--" + related + "\r\n";
        m += "Content-Type: image/png; name=\"board.png\"\r\n";
        m += "Content-Disposition: inline; filename=\"board.png\"\r\n";
        m += "Content-ID: <" + cid + ">\r\n";
        m += "Content-Transfer-Encoding: base64\r\n\r\n";
        m += base64(png.data(), png.size());
        m += "--" + related + "--\r\n";
    }
    return m;
}

Delivery EmailPlatform::send(const Reply& reply) {
    const bool private_mail = reply.to == Reply::To::User;
    // The service names players "@handle"; a handle here is an address, which reads better
    // without an '@' before it.
    std::string text;
    for (std::size_t i = 0; i < reply.text.size(); ++i) {
        const char c = reply.text[i];
        if (c == '@' && (i == 0 || reply.text[i - 1] == ' ' || reply.text[i - 1] == '\n' ||
                         reply.text[i - 1] == '(')) {
            const auto end = reply.text.find_first_of(" \n\t", i + 1);
            const auto word =
                reply.text.substr(i + 1, end == std::string::npos ? end : end - i - 1);
            if (word.find('@') != std::string::npos)
                continue;
        }
        text += c;
    }
    std::vector<std::string> recipients;
    std::string subject;
    std::vector<std::string> references;
    std::string in_reply_to = reply.reply_to;
    if (in_reply_to.starts_with('<') && in_reply_to.ends_with('>'))
        in_reply_to = in_reply_to.substr(1, in_reply_to.size() - 2);
    else
        in_reply_to.clear(); // a cursor mark, not a mail
    if (private_mail) {
        recipients.push_back(reply.destination);
        if (in_reply_to.empty() || is_own_message_id(in_reply_to, options_.identity))
            in_reply_to.clear();
        const auto line = text.substr(0, text.find('\n'));
        subject = "ghostpost: " + (line.size() > 60 ? line.substr(0, 57) + "..." : line);
    } else {
        recipients = state_->members(reply.destination);
        const std::string root = reply.destination.substr(1, reply.destination.size() - 2);
        references.push_back(root);
        if (!in_reply_to.empty() && in_reply_to != root)
            references.push_back(in_reply_to);
        if (in_reply_to.empty())
            in_reply_to = root;
        const std::string thread = state_->subject(reply.destination);
        // The game's number, variant and players: what a reader sorts a mailbox by. The
        // References keep it in its thread.
        subject = !reply.topic.empty() ? "ghostpost " + reply.topic
                  : thread.empty()     ? "ghostpost game"
                                       : "Re: " + thread;
        if (reply.game > 0) {
            state_->remember_game(reply.game);
            for (const std::string& follower : state_->followers(reply.game))
                if (std::find(recipients.begin(), recipients.end(), follower) == recipients.end())
                    recipients.push_back(follower);
        }
    }
    if (recipients.empty())
        return {Delivery::Status::Failed, {}, "nobody reads this thread"};
    if (private_mail && state_->failing(recipients.front()))
        return {Delivery::Status::Blocked, {}, "the address bounced"};
    std::size_t delivered = 0;
    std::string refused;
    for (const std::string& recipient : recipients) {
        if (!private_mail && state_->failing(recipient))
            continue; // the others still hear of the game; the player sees the thread later
        const std::string token =
            sha256_hex(reply.idempotency_key + "\n" + recipient, 12) + (private_mail ? ".p" : "");
        const std::string id = own_message_id(token, options_.identity);
        if (state_->sent(id)) {
            ++delivered;
            continue;
        }
        // The pacing of the recipient's domain: what its server's limits count.
        auto& times = domain_sent_[std::string(domain_of(recipient))];
        auto now = std::chrono::steady_clock::now();
        while (!times.empty() && now - times.front() >= std::chrono::minutes(1))
            times.pop_front();
        if (static_cast<int>(times.size()) >= options_.pacing.group_per_minute) {
            const auto free_at = times.front() + std::chrono::minutes(1);
            const auto seconds = std::chrono::ceil<std::chrono::seconds>(free_at - now);
            return {Delivery::Status::RetryAfter, std::max(seconds, std::chrono::seconds(1)),
                    "the pacing of " + std::string(domain_of(recipient))};
        }
        if (!times.empty() && now - times.back() < options_.pacing.per_chat) {
            if (!wait(std::chrono::duration_cast<std::chrono::milliseconds>(
                    options_.pacing.per_chat - (now - times.back()))))
                throw PlatformError(PlatformError::Kind::Cancelled, "stopping");
        }
        try {
            const std::string raw = compose(recipient, id, subject, in_reply_to, references, text,
                                            reply.code, reply.png);
            if (deliver(recipient, id, raw))
                times.push_back(std::chrono::steady_clock::now());
            ++delivered;
        } catch (const MailFailure& failure) {
            switch (failure.kind()) {
            case MailFailure::Kind::Cancelled:
                throw PlatformError(PlatformError::Kind::Cancelled, "stopping");
            case MailFailure::Kind::Refused:
                refused = failure.what();
                continue;
            default:
                return {Delivery::Status::Transient, {}, failure.what()};
            }
        }
    }
    if (delivered == 0 && !refused.empty())
        return {Delivery::Status::Failed, {}, refused.substr(0, 200)};
    return {Delivery::Status::Sent, {}, {}};
}

} // namespace ghostpost::bot
