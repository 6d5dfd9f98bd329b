// Reading one mail (RFC 5322 with MIME, as IMAP's UID FETCH gives it) into what the e-mail
// adapter needs: who sent it and to which address, where it belongs in a thread, whether a
// person wrote it, and only the new words of it. GMime parses; this file knows no game and no
// service, so the fuzz target compiles it with the platform boundary's headers alone.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ghostpost::bot {

// What the decoder must know of the bot's own mailbox.
struct MailIdentity {
    std::string address; // the bot's address, "ghostpost@example.org"
    // The authserv-id of the operator's own mail server, whose Authentication-Results headers
    // may vouch for a sender; empty: no header is trusted.
    std::string authserv_id;
};

// One mail, read. Addresses are lowercase; texts valid UTF-8 and capped.
struct DecodedMail {
    enum class Kind : unsigned char {
        Person,    // a person's mail: its text may be read
        Automatic, // an auto-reply, a vacation notice, a list's copy: never answered
        Bounce,    // a delivery status notification: `bounced` names the failing address
        Own,       // one of the bot's own messages come back (a loop)
        Malformed, // not a mail: `problem` says why
    };
    Kind kind = Kind::Malformed;
    std::string message_id;              // without the angle brackets; may be empty
    std::string in_reply_to;             // the same
    std::vector<std::string> references; // oldest first, capped
    std::string from;                    // the sender's address
    std::string from_name;               // display name, for display only; plain, capped
    std::string reply_key; // <key> of a recipient "<bot local part>+<key>@<bot domain>"
    bool to_bot = false;   // some recipient is the bot's address, with or without a key
    bool vouched = false;  // the trusted server's Authentication-Results pass for `from`
    std::string subject;   // without its "Re:"/"Fwd:" prefixes
    std::string text;      // only the new text: no quotes, attribution, signature
    std::string bounced;   // for a Bounce: the recipient that failed, when the report says
    std::string problem;   // for Malformed

    // The Message-ID that names the thread: the first of References, else In-Reply-To; empty
    // for a mail that starts no thread of a mail before it.
    std::string thread_root() const;
};

// Reads one mail. Pure; never throws, whatever the bytes.
DecodedMail decode_mail(std::string_view raw, const MailIdentity& identity);

// The new text of a plain-text body: quoted lines ("> "), the attribution before them ("On ...
// wrote:"), a forwarded or "Original Message" block and the signature ("-- ") taken out, blank
// lines at either end trimmed. Pure.
std::string new_text(std::string_view body);

// An HTML body reduced to plain text: tags out, block elements as line breaks, entities
// decoded, <blockquote>, <style>, <script> and <head> dropped. Pure.
std::string html_to_text(std::string_view html);

// A subject without its reply and forward prefixes ("Re: ", "RE:", "Fwd:", "AW:", "Re[2]:").
std::string bare_subject(std::string_view subject);

// The Message-ID of a message the bot sends: "<bot local part>.<token>@<bot domain>", where
// `token` is made from the reply's idempotency key, so a retried send is the same message.
std::string own_message_id(std::string_view token, const MailIdentity& identity);

// Whether a Message-ID is one own_message_id makes (the bot's own mail come back).
bool is_own_message_id(std::string_view message_id, const MailIdentity& identity);

// What a reader of the bot's own mail sees (tests, and the operator's tools): one header's
// decoded value ("" when absent), the first text/plain part in full as UTF-8, and the content
// types of the leaf parts in order ("text/plain", "image/png"...). Pure; never throw.
std::string mail_header(std::string_view raw, const char* name);
std::string mail_plain_body(std::string_view raw);
std::vector<std::string> mail_part_types(std::string_view raw);

// Whether `text` is valid UTF-8.
bool mail_utf8(std::string_view text);

} // namespace ghostpost::bot
