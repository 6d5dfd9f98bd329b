// The mail decoder on mails shaped as real clients and servers write them: Thunderbird's and
// Gmail's replies with quoted boards and signatures, Outlook's quoted header, quoted-printable
// ISO-8859-1, base64, HTML only, vacation notices, list copies, Postfix bounces, and the
// Authentication-Results that may vouch for a sender.
#include "ghostpost/email/mail.h"

#include <catch2/catch.hpp>
#include <string>

using ghostpost::bot::bare_subject;
using ghostpost::bot::decode_mail;
using ghostpost::bot::DecodedMail;
using ghostpost::bot::html_to_text;
using ghostpost::bot::is_own_message_id;
using ghostpost::bot::MailIdentity;
using ghostpost::bot::new_text;
using ghostpost::bot::own_message_id;

namespace {

const MailIdentity bot{"ghostpost@example.org", "mx.example.org"};

// Mail as it travels: CRLF line ends.
std::string crlf(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c == '\n')
            out += '\r';
        out += c;
    }
    return out;
}

const char* const thunderbird_reply = R"(Return-Path: <alice@example.net>
Delivered-To: ghostpost+k7q2m9x4@example.org
Authentication-Results: mx.example.org; dkim=pass (2048-bit key) header.d=example.net header.i=@example.net header.s=mail; spf=pass smtp.mailfrom=alice@example.net
Message-ID: <6f1d2c3b-aa01-4b6e-9d7e-0c1f2e3d4a5b@example.net>
Date: Sat, 28 Nov 2026 10:12:01 +0100
MIME-Version: 1.0
User-Agent: Mozilla Thunderbird
Subject: Re: [ghostpost] Game 12: chess, Alice vs Bob
To: Ghostpost <ghostpost+k7q2m9x4@example.org>
References: <ghostpost.root12@example.org> <ghostpost.a1b2c3@example.org>
In-Reply-To: <ghostpost.a1b2c3@example.org>
From: Alice Liddell <Alice@Example.NET>
Content-Type: text/plain; charset=UTF-8; format=flowed
Content-Transfer-Encoding: 7bit

e4

On 28/11/2026 10:05, Ghostpost wrote:
> Bob played e5. Alice to move.
>
>   8 r n b q k b n r
>   7 p p p p . p p p
>
-- 
Alice
Sent from my kitchen table
)";

} // namespace

TEST_CASE("a Thunderbird reply gives its new move only, its thread and its reply key",
          "[email][mail]") {
    const DecodedMail mail = decode_mail(crlf(thunderbird_reply), bot);
    CHECK(mail.problem == "");
    CHECK(mail.kind == DecodedMail::Kind::Person);
    CHECK(mail.text == "e4");
    CHECK(mail.from == "alice@example.net");
    CHECK(mail.from_name == "Alice Liddell");
    CHECK(mail.message_id == "6f1d2c3b-aa01-4b6e-9d7e-0c1f2e3d4a5b@example.net");
    CHECK(mail.in_reply_to == "ghostpost.a1b2c3@example.org");
    CHECK(mail.references ==
          std::vector<std::string>{"ghostpost.root12@example.org", "ghostpost.a1b2c3@example.org"});
    CHECK(mail.thread_root() == "ghostpost.root12@example.org");
    CHECK(mail.reply_key == "k7q2m9x4");
    CHECK(mail.to_bot);
    CHECK(mail.subject == "[ghostpost] Game 12: chess, Alice vs Bob");
    CHECK(mail.vouched);
}

TEST_CASE("a Gmail reply: attribution wrapped over two lines, text below the quote kept",
          "[email][mail]") {
    const std::string raw = crlf(R"(From: Bob <bob@example.com>
To: ghostpost@example.org
Subject: RE: Re: Fwd: Game 12
Message-ID: <CAB=x1@mail.gmail.com>
In-Reply-To: <ghostpost.a1b2c3@example.org>
Content-Type: multipart/alternative; boundary="000000000000abcd"

--000000000000abcd
Content-Type: text/plain; charset="UTF-8"

On Sat, 28 Nov 2026 at 10:05, Ghostpost <ghostpost@example.org>
wrote:

> Alice played e4. Bob to move.
> 8 r n b q k b n r

Nf6 !draw

--000000000000abcd
Content-Type: text/html; charset="UTF-8"

<div dir="ltr">this HTML must not be read when there is a plain part</div>

--000000000000abcd--
)");
    const DecodedMail mail = decode_mail(raw, bot);
    CHECK(mail.kind == DecodedMail::Kind::Person);
    CHECK(mail.text == "Nf6 !draw");
    CHECK(mail.subject == "Game 12");
    CHECK(mail.thread_root() == "ghostpost.a1b2c3@example.org");
    CHECK(mail.reply_key == "");
    CHECK(mail.to_bot);
    CHECK_FALSE(mail.vouched); // no Authentication-Results at all
}

TEST_CASE("quoted-printable ISO-8859-1 in body and header is read as UTF-8", "[email][mail]") {
    const std::string raw = crlf(R"(From: =?ISO-8859-1?Q?Ren=E9e_M=FCller?= <renee@example.de>
To: ghostpost@example.org
Subject: =?ISO-8859-1?Q?Partie_=E0_jouer?=
Message-ID: <1234@example.de>
MIME-Version: 1.0
Content-Type: text/plain; charset=ISO-8859-1
Content-Transfer-Encoding: quoted-printable

!new chess bob@example.com =E0 bient=F4t, S=E9bastien
)");
    const DecodedMail mail = decode_mail(raw, bot);
    CHECK(mail.kind == DecodedMail::Kind::Person);
    CHECK(mail.from_name == "Renée Müller");
    CHECK(mail.subject == "Partie à jouer");
    CHECK(mail.text == "!new chess bob@example.com à bientôt, Sébastien");
    CHECK(mail.thread_root() == "");
}

TEST_CASE("a base64 body without a declared charset that is not UTF-8 is read as Latin-1",
          "[email][mail]") {
    // "Dame é\n" in ISO-8859-1, base64.
    const std::string raw = crlf(R"(From: x@example.com
To: ghostpost@example.org
Content-Type: text/plain
Content-Transfer-Encoding: base64

RGFtZSDpCg==
)");
    const DecodedMail mail = decode_mail(raw, bot);
    CHECK(mail.text == "Dame é");
}

TEST_CASE("an HTML-only mail is reduced to its text, the blockquote dropped", "[email][mail]") {
    const std::string raw = crlf(R"(From: Carol <carol@example.com>
To: ghostpost@example.org
Subject: Re: Game 7
Message-ID: <h1@example.com>
MIME-Version: 1.0
Content-Type: text/html; charset=utf-8
Content-Transfer-Encoding: base64

)") + crlf("PGh0bWw+PGhlYWQ+PHN0eWxlPnAge2NvbG9yOnJlZH08L3N0eWxlPjwvaGVhZD48Ym9keT48ZGl2"
           "Pk5mMyZuYnNwOyZhbXA7IGcmbHQ7aDwvZGl2PjxkaXYgY2xhc3M9ImdtYWlsX3F1b3RlIj48ZGl2"
           "Pk9uIFNhdCwgR2hvc3Rwb3N0IHdyb3RlOjxicj48L2Rpdj48YmxvY2txdW90ZT44IHIgbiBiIHE8"
           "YnI+ZTQ8L2Jsb2NrcXVvdGU+PC9kaXY+PC9ib2R5PjwvaHRtbD4=\n");
    const DecodedMail mail = decode_mail(raw, bot);
    CHECK(mail.kind == DecodedMail::Kind::Person);
    CHECK(mail.text == "Nf3 & g<h");
}

TEST_CASE("HTML to text: line breaks, entities, whitespace and hidden elements", "[email][mail]") {
    CHECK(html_to_text("<p>Hello&#44;   <b>world</b></p><p>e4&#x21;</p>") == "Hello, world\n\ne4!");
    CHECK(html_to_text("a<br>b<br/>c") == "a\nb\nc");
    CHECK(html_to_text("<script>alert(1)</script>x<!-- hidden -->y") == "xy");
    CHECK(html_to_text("<blockquote>a<blockquote>b</blockquote>c</blockquote>d") == "d");
    CHECK(html_to_text("caf&eacute; &unknown; &#0; <") == "café &unknown; &#0;");
}

TEST_CASE("new text: quotes, attributions, signatures and Outlook's quoted header go",
          "[email][mail]") {
    CHECK(new_text("e4\n\n-- \nAlice\n") == "e4");
    CHECK(new_text("> old\n> older\nd4\n") == "d4");
    CHECK(new_text("Nf3\n\nAm 28.11.2026 um 10:05 schrieb Ghostpost:\n> x\n") == "Nf3");
    CHECK(new_text("c5\n-----Original Message-----\nFrom: Ghostpost\n\ne4\n") == "c5");
    CHECK(new_text("Qh5\n\nFrom: Ghostpost <ghostpost@example.org>\nSent: Saturday\nSubject: x\n"
                   "e4\n") == "Qh5");
    CHECK(new_text("c4\n________________________________\nFrom: Ghostpost\n") == "c4");
    CHECK(new_text("\n\n  e4  \n\n") == "  e4");
    // A line that merely mentions writing stays.
    CHECK(new_text("I wrote:\ne4") == "I wrote:\ne4");
}

TEST_CASE("subject prefixes of replies and forwards in several languages go", "[email][mail]") {
    CHECK(bare_subject("Re: Re[2]: AW: Fwd: Game 3") == "Game 3");
    CHECK(bare_subject("RE:Game") == "Game");
    CHECK(bare_subject("Regarding the game") == "Regarding the game");
    CHECK(bare_subject("Re (3): x") == "Re (3): x"); // a space before the count: not a prefix
}

TEST_CASE("vacation notices, auto-replies and list copies are not persons", "[email][mail]") {
    const auto kind_of = [](const std::string& extra) {
        return decode_mail(crlf("From: bob@example.com\nTo: ghostpost@example.org\n" + extra +
                                "Subject: Out of office\n\nI am away until Monday.\n"),
                           bot)
            .kind;
    };
    CHECK(kind_of("Auto-Submitted: auto-replied (vacation)\n") == DecodedMail::Kind::Automatic);
    CHECK(kind_of("Auto-Submitted: auto-generated\n") == DecodedMail::Kind::Automatic);
    CHECK(kind_of("Auto-Submitted: no\n") == DecodedMail::Kind::Person);
    CHECK(kind_of("Precedence: bulk\n") == DecodedMail::Kind::Automatic);
    CHECK(kind_of("Precedence: auto_reply\n") == DecodedMail::Kind::Automatic);
    CHECK(kind_of("Precedence: list\n") == DecodedMail::Kind::Automatic);
    CHECK(kind_of("List-Id: Chess club <club.lists.example.com>\n") ==
          DecodedMail::Kind::Automatic);
    CHECK(kind_of("X-Autoreply: yes\n") == DecodedMail::Kind::Automatic);
    CHECK(kind_of("") == DecodedMail::Kind::Person);
}

TEST_CASE("a Postfix bounce names the failed recipient", "[email][mail]") {
    const std::string raw = crlf(R"(Return-Path: <>
From: MAILER-DAEMON@mx.example.org (Mail Delivery System)
Subject: Undelivered Mail Returned to Sender
To: ghostpost@example.org
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
	boundary="4E1A2B3C.1764324000/mx.example.org"
Message-Id: <20261128100000.4E1A2B3C@mx.example.org>

This is a MIME-encapsulated message.

--4E1A2B3C.1764324000/mx.example.org
Content-Description: Notification
Content-Type: text/plain; charset=us-ascii

I'm sorry to have to inform you that your message could not
be delivered to one or more recipients.

<dave@gone.example>: host mx.gone.example said: 550 5.1.1 User unknown

--4E1A2B3C.1764324000/mx.example.org
Content-Description: Delivery report
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.org
Arrival-Date: Sat, 28 Nov 2026 10:00:00 +0000

Final-Recipient: rfc822; Dave@Gone.Example
Original-Recipient: rfc822;dave@gone.example
Action: failed
Status: 5.1.1

--4E1A2B3C.1764324000/mx.example.org
Content-Description: Undelivered Message Headers
Content-Type: text/rfc822-headers

From: ghostpost@example.org
Message-ID: <ghostpost.abc@example.org>

--4E1A2B3C.1764324000/mx.example.org--
)");
    const DecodedMail mail = decode_mail(raw, bot);
    CHECK(mail.kind == DecodedMail::Kind::Bounce);
    CHECK(mail.bounced == "dave@gone.example");
    CHECK(mail.text == "");
}

TEST_CASE("a delay report (Action: delayed) bounces nobody", "[email][mail]") {
    const std::string raw = crlf(R"(From: MAILER-DAEMON@mx.example.org
To: ghostpost@example.org
Content-Type: multipart/report; report-type=delivery-status; boundary="b"

--b
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.org

Final-Recipient: rfc822; dave@slow.example
Action: delayed

--b--
)");
    const DecodedMail mail = decode_mail(raw, bot);
    CHECK(mail.kind == DecodedMail::Kind::Bounce);
    CHECK(mail.bounced == "");
}

TEST_CASE("the bot's own mail come back is a loop, by Message-ID or by From", "[email][mail]") {
    const std::string id = own_message_id("0f3a9c", bot);
    CHECK(id == "ghostpost.0f3a9c@example.org");
    CHECK(is_own_message_id(id, bot));
    CHECK_FALSE(is_own_message_id("ghostpost.0f3a9c@evil.example", bot));
    CHECK_FALSE(is_own_message_id("alice.0f3a9c@example.org", bot));
    CHECK(decode_mail(crlf("From: someone@example.com\nMessage-ID: <" + id +
                           ">\nTo: ghostpost@example.org\n\ne4\n"),
                      bot)
              .kind == DecodedMail::Kind::Own);
    CHECK(decode_mail(crlf("From: GhostPost@Example.org\nTo: ghostpost@example.org\n\ne4\n"), bot)
              .kind == DecodedMail::Kind::Own);
}

TEST_CASE("Authentication-Results vouch only from the trusted server and for the From domain",
          "[email][mail]") {
    const auto vouched = [](const std::string& results) {
        return decode_mail(crlf("From: alice@example.net\nTo: ghostpost@example.org\n" + results +
                                "\ne4\n"),
                           bot)
            .vouched;
    };
    CHECK(vouched("Authentication-Results: mx.example.org; spf=pass "
                  "smtp.mailfrom=alice@example.net\n"));
    CHECK(
        vouched("Authentication-Results: mx.example.org 1; dmarc=pass header.from=example.net\n"));
    // Another server's word, a DKIM pass for another domain, a failure: no.
    CHECK_FALSE(
        vouched("Authentication-Results: mx.evil.example; dkim=pass header.d=example.net\n"));
    CHECK_FALSE(
        vouched("Authentication-Results: mx.example.org; dkim=pass header.d=evil.example\n"));
    CHECK_FALSE(
        vouched("Authentication-Results: mx.example.org; dkim=fail header.d=example.net\n"));
    CHECK_FALSE(vouched("Authentication-Results: mx.example.org; none\n"));
    // A comment cannot smuggle a pass in.
    CHECK_FALSE(vouched("Authentication-Results: mx.example.org; dkim=fail (dkim=pass "
                        "header.d=example.net) header.d=example.net\n"));
    // Only the first header of the trusted server counts: the one it added on top.
    CHECK_FALSE(vouched("Authentication-Results: mx.example.org; spf=fail "
                        "smtp.mailfrom=alice@example.net\n"
                        "Authentication-Results: mx.example.org; spf=pass "
                        "smtp.mailfrom=alice@example.net\n"));
    // No trusted server configured: nothing vouches.
    const MailIdentity untrusting{"ghostpost@example.org", ""};
    CHECK_FALSE(decode_mail(crlf("From: alice@example.net\nAuthentication-Results: ; spf=pass "
                                 "smtp.mailfrom=alice@example.net\n\ne4\n"),
                            untrusting)
                    .vouched);
}

TEST_CASE("reply keys are read only from the bot's own address", "[email][mail]") {
    const auto key_of = [](const std::string& to) {
        return decode_mail(crlf("From: alice@example.net\nTo: " + to + "\n\ne4\n"), bot).reply_key;
    };
    CHECK(key_of("ghostpost+abc123@example.org") == "abc123");
    CHECK(key_of("GhostPost+ABC123@EXAMPLE.ORG") == "abc123");
    CHECK(key_of("ghostpost+abc123@evil.example") == "");
    CHECK(key_of("ghostpostx+abc123@example.org") == "");
    CHECK(key_of("ghostpost+ab.c@example.org") == "");
    CHECK(key_of("undisclosed-recipients:;") == "");
    CHECK(key_of("friends: ghostpost+k1@example.org;") == "k1");
}

TEST_CASE("what is not a mail is Malformed with a reason, never a crash", "[email][mail]") {
    CHECK(decode_mail("", bot).kind == DecodedMail::Kind::Malformed);
    CHECK(decode_mail("", bot).problem == "the mail is empty");
    const DecodedMail no_from = decode_mail("Subject: x\r\n\r\ne4\r\n", bot);
    CHECK(no_from.kind == DecodedMail::Kind::Malformed);
    CHECK(no_from.problem == "the mail has no From address");
    CHECK(decode_mail(std::string("\0\xff\xfe garbage", 11), bot).kind ==
          DecodedMail::Kind::Malformed);
    // Control characters and invalid bytes do not pass on.
    const DecodedMail odd = decode_mail(
        std::string("From: a@b.example\r\nMessage-ID: <bad id@x>\r\n\r\ne4\x01\x7f\r\n"), bot);
    CHECK(odd.text == "e4");
    // Nor do controls an HTML entity names (found by the fuzz target).
    const DecodedMail entities = decode_mail(
        std::string("From: a@b.example\r\nContent-Type: text/html\r\n\r\nN&#6;f3&#127;\r\n"), bot);
    CHECK(entities.text == "Nf3");
    CHECK(odd.message_id == "");
}
