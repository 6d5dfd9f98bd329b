// libFuzzer target: the mail decoder (decode_mail) on any bytes, and on a well-formed mail whose
// headers and body come from the bytes, so that MIME, the charsets, the HTML reducer and the
// quote stripper all see them. It must never throw, and what it passes on must keep the
// adapter's promises: valid UTF-8 without controls in one-line fields, capped texts, addresses
// in lowercase, a reply key of the key alphabet, and a Malformed mail passes nothing on.
#include "ghostpost/email/mail.h"
#include "invariant.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

using ghostpost::bot::decode_mail;
using ghostpost::bot::DecodedMail;
using ghostpost::bot::mail_utf8;
using ghostpost::bot::MailIdentity;
using ghostpost::fuzz::check;

bool one_line(const std::string& text, std::size_t limit) {
    return text.size() <= limit && mail_utf8(text) &&
           std::none_of(text.begin(), text.end(),
                        [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; });
}

bool no_upper(const std::string& text) {
    return std::none_of(text.begin(), text.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

bool message_id_ok(const std::string& id) {
    return id.size() <= 250 && std::all_of(id.begin(), id.end(), [](char c) {
               return c > ' ' && c <= '~' && c != '<' && c != '>';
           });
}

void check_decoded(const DecodedMail& d) {
    if (d.kind == DecodedMail::Kind::Malformed) {
        check(!d.problem.empty() && d.problem.size() <= 200, "a malformed mail says why");
        check(d.from.empty() && d.text.empty() && d.reply_key.empty() && !d.vouched,
              "a malformed mail passes nothing on");
        return;
    }
    check(d.problem.empty(), "a read mail has no problem");
    check(one_line(d.from, 254) && no_upper(d.from) && d.from.find('@') != std::string::npos,
          "the sender is an address", d.from);
    check(one_line(d.from_name, 128), "the sender's name is capped, valid and plain");
    check(one_line(d.subject, 200), "the subject is capped, valid and plain");
    check(d.text.size() <= 8000 && mail_utf8(d.text), "the text is capped valid UTF-8");
    check(std::none_of(d.text.begin(), d.text.end(),
                       [](char c) {
                           return (static_cast<unsigned char>(c) < 0x20 && c != '\n' &&
                                   c != '\t') ||
                                  c == 0x7F;
                       }),
          "the text has no controls but line breaks and tabs");
    check(d.reply_key.size() <= 64 &&
              std::all_of(d.reply_key.begin(), d.reply_key.end(),
                          [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }),
          "a reply key is of the key alphabet", d.reply_key);
    check(d.reply_key.empty() || d.to_bot, "a reply key is an address of the bot");
    check(message_id_ok(d.message_id) && message_id_ok(d.in_reply_to),
          "Message-IDs are kept clean");
    check(d.references.size() <= 32, "references are capped");
    for (const auto& id : d.references)
        check(!id.empty() && message_id_ok(id), "a reference is a clean Message-ID", id);
    check(d.kind == DecodedMail::Kind::Person || d.text.empty(), "only a person's text is read");
    check(d.kind == DecodedMail::Kind::Bounce || d.bounced.empty(), "only a bounce bounces");
    check(one_line(d.bounced, 254) && no_upper(d.bounced), "a bounced address is clean");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const MailIdentity identity{"ghostpost@example.org", "mx.example.org"};
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    check_decoded(decode_mail(bytes, identity));

    // A well-formed envelope: the first byte picks the body's type and encoding, the rest is
    // split at the first newline into a header value and a body.
    if (size < 1)
        return 0;
    static const char* const types[] = {
        "text/plain; charset=utf-8",
        "text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable",
        "text/html; charset=utf-8",
        "text/plain\r\nContent-Transfer-Encoding: base64",
        "multipart/alternative; boundary=\"b\"",
        "multipart/report; report-type=delivery-status; boundary=\"b\"",
    };
    const std::string_view rest = bytes.substr(1);
    const auto newline = rest.find('\n');
    const std::string_view value = rest.substr(0, newline);
    const std::string_view body =
        newline == std::string_view::npos ? std::string_view{} : rest.substr(newline + 1);
    std::string mail = "From: Alice <alice@example.net>\r\nTo: ghostpost+k1@example.org\r\n"
                       "Subject: Re: " +
                       std::string(value) + "\r\nReferences: " + std::string(value) +
                       "\r\nAuthentication-Results: " + std::string(value) +
                       "\r\nContent-Type: " + types[data[0] % 6] + "\r\n\r\n" + std::string(body);
    const DecodedMail d = decode_mail(mail, identity);
    check_decoded(d);
    return 0;
}
