// The e-mail adapter against real Dovecot and Postfix: players send by SMTP and read the bot's
// mail by IMAP. What a post is (thread, direct message, who wrote it), the one answer to a mail
// the bot cannot trust, the bot's mail (thread headers, Message-ID from the idempotency key,
// Reply-To with the player's key, the PNG inline), bounces, the cursor and a renumbered mailbox.
#include "ghostpost/email/email.h"
#include "ghostpost/email/mail.h"
#include "mail_servers.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <sqlite3.h>

using ghostpost::bot::decode_mail;
using ghostpost::bot::DecodedMail;
using ghostpost::bot::Delivery;
using ghostpost::bot::EmailOptions;
using ghostpost::bot::EmailPlatform;
using ghostpost::bot::mail_header;
using ghostpost::bot::mail_part_types;
using ghostpost::bot::mail_plain_body;
using ghostpost::bot::Post;
using ghostpost::bot::Reply;
using ghostpost::test::MailServers;
using ghostpost::test::TempDir;

namespace {

const std::string bot_address = "ghostpost@example.org";
const std::string alice = "alice@example.net";
const std::string bob = "bob@example.com";
const std::string mallory = "mallory@example.com";

EmailOptions options_for(const MailServers& servers, const TempDir& dir) {
    EmailOptions options;
    options.imap_url = servers.imap_url();
    options.smtp_url = servers.smtp_url();
    options.username = bot_address;
    options.password = MailServers::password_of(bot_address);
    options.allow_plaintext = true;
    options.identity = {bot_address, "mx.example.org"};
    options.state_file = dir.path() / "email-state.sqlite";
    options.request_timeout = std::chrono::seconds(20);
    return options;
}

// Polls until the mailbox gave `count` posts (mail takes a moment through Postfix and LMTP).
std::vector<Post> poll_for(EmailPlatform& platform, std::string& cursor, std::size_t count) {
    std::vector<Post> all;
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (all.size() < count && std::chrono::steady_clock::now() < end) {
        for (Post& post : platform.poll(cursor, std::chrono::seconds(0))) {
            cursor = post.cursor;
            // The bot's own copies of what it sent come back to it: no person's words.
            if (!post.message_id.starts_with("start-") &&
                !post.message_id.starts_with("<ghostpost."))
                all.push_back(std::move(post));
        }
        if (all.size() < count)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    REQUIRE(all.size() == count);
    return all;
}

} // namespace

TEST_CASE("the e-mail adapter plays through real Dovecot and Postfix", "[email][slow]") {
    TempDir dir;
    MailServers servers(dir, {bot_address, alice, bob, mallory, "carol@example.net"});
    EmailPlatform platform(options_for(servers, dir));
    std::string cursor;
    // An empty mailbox: the first poll only sets the cursor.
    const auto first = platform.poll(cursor, std::chrono::seconds(0));
    REQUIRE(first.size() == 1);
    CHECK(first[0].author_id == "");
    CHECK(first[0].cursor.ends_with(":0"));
    cursor = first[0].cursor;

    INFO("step 1");
    // 1. A challenge to the bot's plain address: nobody vouches for alice, so it changes
    // nothing and she is told her own address for playing.
    servers.send(alice, {bot_address}, R"(From: Alice <alice@example.net>
To: ghostpost@example.org
Subject: A game?
Message-ID: <challenge-1@example.net>

!new chess bob@example.com
)");
    auto posts = poll_for(platform, cursor, 1);
    CHECK(posts[0].author_id == "");
    CHECK(posts[0].text == "");
    const std::string alice_key = platform.reply_address(alice);
    CHECK(alice_key.starts_with("ghostpost+"));
    CHECK(alice_key.ends_with("@example.org"));
    auto alice_mail = servers.inbox(alice, 1);
    REQUIRE(alice_mail.size() == 1);
    CHECK(mail_header(alice_mail[0], "Reply-To") == "ghostpost <" + alice_key + ">");
    CHECK(mail_header(alice_mail[0], "In-Reply-To") == "<challenge-1@example.net>");
    CHECK(mail_header(alice_mail[0], "Auto-Submitted") == "auto-replied");
    CHECK(mail_header(alice_mail[0], "Subject") == "Re: A game?");
    CHECK(mail_plain_body(alice_mail[0]) ==
          "Your mail was not read, and nothing was done: I take a mail as yours only when it "
          "comes to your own address for playing, " +
              alice_key +
              ", or when your mail server signs it. Answer this mail (it goes to that address) "
              "with your move or command.\n\n!help lists the commands; !new chess "
              "friend@example.org challenges someone.");
    const DecodedMail notice = decode_mail(alice_mail[0], {alice, ""});
    CHECK(notice.kind == DecodedMail::Kind::Automatic); // a program's mail, never answered

    INFO("step 2");
    // 2. Her answer to that mail comes to her key: a post of hers, in the thread her first
    // mail began, naming bob.
    servers.send(alice, {alice_key},
                 "From: Alice <alice@example.net>\nTo: <" + alice_key +
                     ">\nSubject: Re: A game?\nMessage-ID: "
                     "<challenge-2@example.net>\nIn-Reply-To: <" +
                     notice.message_id + ">\nReferences: <challenge-1@example.net> <" +
                     notice.message_id + ">\n\n!new chess bob@example.com\n\n-- \nAlice\n");
    posts = poll_for(platform, cursor, 1);
    CHECK(posts[0].author_id == alice);
    CHECK(posts[0].author_handle == alice);
    CHECK(posts[0].author_name == "Alice");
    CHECK(posts[0].text == "!new chess bob@example.com");
    CHECK(posts[0].channel == "<challenge-1@example.net>");
    CHECK(posts[0].message_id == "<challenge-2@example.net>");
    CHECK_FALSE(posts[0].direct);
    REQUIRE(posts[0].mentions.size() == 1);
    CHECK(posts[0].mentions[0].user_id == bob);
    CHECK(platform.is_group(posts[0].channel));

    INFO("step 3");
    // 3. A reply in the thread goes to both players, each with their own reply address, in
    // the thread, with a Message-ID made from the idempotency key.
    Reply reply;
    reply.to = Reply::To::Channel;
    reply.platform = "email";
    reply.destination = "<challenge-1@example.net>";
    reply.text = "Game #1: Alice (white) vs Bob (black).";
    reply.code = "8 r n b q k b n r\n1 R N B Q K B N R";
    reply.reply_to = "<challenge-2@example.net>";
    reply.idempotency_key = "outbox-1";
    CHECK(platform.send(reply).status == Delivery::Status::Sent);
    CHECK(platform.send(reply).status == Delivery::Status::Sent); // a retry sends nothing again
    auto bob_mail = servers.inbox(bob, 1);
    alice_mail = servers.inbox(alice, 2);
    REQUIRE(bob_mail.size() == 1);
    REQUIRE(alice_mail.size() == 2);
    CHECK(mail_header(bob_mail[0], "Subject") == "Re: A game?");
    CHECK(mail_header(bob_mail[0], "In-Reply-To") == "<challenge-2@example.net>");
    CHECK(mail_header(bob_mail[0], "References") ==
          "<challenge-1@example.net> <challenge-2@example.net>");
    CHECK(mail_header(bob_mail[0], "Reply-To") ==
          "ghostpost <" + platform.reply_address(bob) + ">");
    CHECK(mail_plain_body(bob_mail[0]) == "Game #1: Alice (white) vs Bob (black).\n\n8 r n b "
                                          "q k b n r\n1 R N B Q K B N R");
    const std::string bob_id = mail_header(bob_mail[0], "Message-ID");
    CHECK(bob_id.starts_with("<ghostpost."));
    CHECK(bob_id != mail_header(alice_mail[1], "Message-ID"));
    {
        // Another run of the daemon knows the reply was sent.
        EmailPlatform again(options_for(servers, dir));
        CHECK(again.send(reply).status == Delivery::Status::Sent);
    }

    INFO("step 4");
    // 4. Bob answers in the thread with the board quoted: only his move counts.
    servers.send(bob, {platform.reply_address(bob)},
                 "From: Bob <bob@example.com>\nTo: " + platform.reply_address(bob) +
                     "\nSubject: Re: A game?\nMessage-ID: <bob-1@example.com>\nIn-Reply-To: " +
                     bob_id + "\nReferences: <challenge-1@example.net> " + bob_id +
                     "\n\n!accept\n\nOn Sat, ghostpost wrote:\n> 8 r n b q k b n r\n");
    posts = poll_for(platform, cursor, 1);
    CHECK(posts[0].author_id == bob);
    CHECK(posts[0].text == "!accept");
    CHECK(posts[0].channel == "<challenge-1@example.net>");

    INFO("step 5");
    // 5. A forged From: mallory writes as alice to bob's key. Not alice's key: nothing.
    servers.send(mallory, {platform.reply_address(bob)},
                 "From: Alice <alice@example.net>\nTo: " + platform.reply_address(bob) +
                     "\nSubject: Re: A game?\nMessage-ID: <forged@example.com>\nReferences: "
                     "<challenge-1@example.net>\n\n!resign\n");
    posts = poll_for(platform, cursor, 1);
    CHECK(posts[0].author_id == "");
    CHECK(posts[0].text == "");

    INFO("step 6");
    // 6. A private reply with a PNG board: multipart/related with the image inline; its
    // answer is a direct message.
    Reply secret;
    secret.to = Reply::To::User;
    secret.platform = "email";
    secret.destination = bob;
    secret.text = "Your pieces see: e5.";
    secret.code = "8 . . . .";
    secret.png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 0};
    secret.idempotency_key = "outbox-2";
    CHECK(platform.send(secret).status == Delivery::Status::Sent);
    bob_mail = servers.inbox(bob, 2);
    REQUIRE(bob_mail.size() == 2);
    CHECK(mail_part_types(bob_mail[1]) ==
          std::vector<std::string>{"text/plain", "text/html", "image/png"});
    CHECK(mail_header(bob_mail[1], "Subject") == "ghostpost: Your pieces see: e5.");
    CHECK(bob_mail[1].find("Content-Type: multipart/related;") != std::string::npos);
    const std::string private_id = mail_header(bob_mail[1], "Message-ID");
    servers.send(bob, {platform.reply_address(bob)},
                 "From: bob@example.com\nTo: " + platform.reply_address(bob) +
                     "\nSubject: Re: x\nMessage-ID: <bob-2@example.com>\nIn-Reply-To: " +
                     private_id + "\nReferences: " + private_id + "\n\n!games\n");
    posts = poll_for(platform, cursor, 1);
    CHECK(posts[0].direct);
    CHECK(posts[0].channel == bob);
    CHECK(posts[0].text == "!games");

    INFO("step 7");
    // 7. A vacation notice and a bounce: no person's words. The bounced address then waits.
    servers.send(bob, {bot_address},
                 "From: bob@example.com\nTo: ghostpost@example.org\nAuto-Submitted: "
                 "auto-replied\nSubject: Away\n\nI am away.\n");
    Reply lost = secret;
    lost.destination = "nobody@example.net";
    lost.png.clear();
    lost.idempotency_key = "outbox-3";
    CHECK(platform.send(lost).status == Delivery::Status::Sent); // Postfix took it
    posts = poll_for(platform, cursor, 2);                       // the notice, then the bounce
    CHECK(posts[0].author_id == "");
    CHECK(posts[1].author_id == "");
    lost.idempotency_key = "outbox-4";
    CHECK(platform.send(lost).status == Delivery::Status::Blocked);

    INFO("step 8");
    // 8. Handled mail is flagged once the cursor has passed it.
    CHECK(platform.poll(cursor, std::chrono::seconds(0)).empty());
    auto bot_box = servers.session(bot_address);
    CHECK(bot_box.search("NOT KEYWORD $GhostpostHandled").empty());
    CHECK(bot_box.search("UNSEEN").empty());

    INFO("step 9");
    // 9. The mailbox renumbered (a restore, a migration): the old cursor's UIDVALIDITY no longer
    // holds, and only mail not flagged handled comes again.
    servers.send(alice, {alice_key},
                 "From: alice@example.net\nTo: " + alice_key +
                     "\nSubject: Re: A game?\nMessage-ID: <alice-3@example.net>\nReferences: "
                     "<challenge-1@example.net>\n\ne4\n");
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const std::string doveadm = "doveadm -c '" +
                                (dir.path() / "servers/dovecot/dovecot.conf").string() +
                                "' mailbox update -u ghostpost@example.org --uid-validity 7 INBOX";
    REQUIRE(std::system(doveadm.c_str()) == 0);
    posts = poll_for(platform, cursor, 1);
    CHECK(posts[0].text == "e4");
    CHECK(posts[0].cursor.starts_with("7:"));

    INFO("step 10");
    // 10. The operator's server vouches for carol (here the test writes the header the server
    // would add): her mail to the plain address is hers, though it came to no key.
    servers.send("carol@example.net", {bot_address},
                 "Authentication-Results: mx.example.org; spf=pass "
                 "smtp.mailfrom=carol@example.net\nFrom: Carol <carol@example.net>\nTo: "
                 "ghostpost@example.org\nSubject: Hello\nMessage-ID: <c1@example.net>\n\n"
                 "!help\n");
    posts = poll_for(platform, cursor, 1);
    CHECK(posts[0].author_id == "carol@example.net");
    CHECK(posts[0].text == "!help");
    CHECK(posts[0].channel == "<c1@example.net>");
}

TEST_CASE("a refused mailbox password stops the e-mail lane without the password in a word",
          "[email][slow]") {
    TempDir dir;
    MailServers servers(dir, {bot_address});
    EmailOptions options = options_for(servers, dir);
    options.password = "not-the-Password-42";
    EmailPlatform platform(options);
    try {
        (void)platform.poll("", std::chrono::seconds(0));
        FAIL("the login was taken");
    } catch (const ghostpost::bot::PlatformError& e) {
        CHECK(e.kind() == ghostpost::bot::PlatformError::Kind::Unauthorized);
        CHECK(std::string(e.what()).find("not-the-Password-42") == std::string::npos);
        CHECK(std::string(e.what()).starts_with("IMAP STATUS: "));
    }
    // SMTP refuses it too: the reply fails for now, with no password in its detail.
    Reply reply;
    reply.to = Reply::To::User;
    reply.destination = bot_address;
    reply.text = "hello";
    reply.idempotency_key = "k";
    const Delivery delivery = platform.send(reply);
    CHECK(delivery.status != Delivery::Status::Sent);
    CHECK(delivery.detail.find("not-the-Password-42") == std::string::npos);
}

TEST_CASE("forged mail gets one notice per address a day, queued so that a restart sends it",
          "[email][slow]") {
    TempDir dir;
    const std::string carol = "carol@example.net";
    MailServers servers(dir, {bot_address, alice, bob, mallory, carol});
    std::string cursor;
    {
        // The SMTP server is out of reach: the notice waits in the state for the next run.
        EmailOptions options = options_for(servers, dir);
        options.smtp_url = "smtp://127.0.0.1:1";
        options.copy_wait = std::chrono::seconds(1);
        EmailPlatform platform(options);
        cursor = platform.poll(cursor, std::chrono::seconds(0)).at(0).cursor;
        servers.send(mallory, {bot_address},
                     "From: Alice <alice@example.net>\nTo: ghostpost@example.org\nSubject: "
                     "Forged 0\nMessage-ID: <forged-0@example.com>\n\n!resign\n");
        CHECK(poll_for(platform, cursor, 1)[0].author_id == "");
    }
    EmailOptions options = options_for(servers, dir);
    options.copy_wait = std::chrono::seconds(30);
    EmailPlatform platform(options);
    // The send that failed never reached a server: nothing to look for, it goes at once.
    const auto start = std::chrono::steady_clock::now();
    for (const Post& post : platform.poll(cursor, std::chrono::seconds(0))) {
        CHECK(post.message_id.starts_with("<ghostpost.")); // its copy, at most
        cursor = post.cursor;
    }
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(15));
    CHECK(servers.inbox(alice, 1).size() == 1);
    // Nine more in alice's name, and one for bob: forged mails, each answered by the old code.
    for (int i = 1; i < 10; ++i)
        servers.send(
            mallory, {bot_address},
            "From: Alice <alice@example.net>\nTo: ghostpost@example.org\nSubject: Forged " +
                std::to_string(i) + "\nMessage-ID: <forged-" + std::to_string(i) +
                "@example.com>\n\n!resign\n");
    servers.send(mallory, {bot_address},
                 "From: bob@example.com\nTo: ghostpost@example.org\nSubject: Forged bob\n"
                 "Message-ID: <forged-bob@example.com>\n\n!resign\n");
    // A vacation notice and a list's copy are never answered.
    servers.send(carol, {bot_address},
                 "From: carol@example.net\nTo: ghostpost@example.org\nSubject: Away\n"
                 "Auto-Submitted: auto-replied\nMessage-ID: <away@example.net>\n\nAway.\n");
    servers.send(carol, {bot_address},
                 "From: carol@example.net\nTo: ghostpost@example.org\nSubject: News\n"
                 "List-Id: <news.example.net>\nMessage-ID: <list@example.net>\n\nNews.\n");
    for (const Post& post : poll_for(platform, cursor, 12))
        CHECK(post.author_id == "");
    std::this_thread::sleep_for(std::chrono::seconds(2)); // a second notice would be here by now
    const auto to_alice = servers.inbox(alice, 1);
    REQUIRE(to_alice.size() == 1);
    CHECK(mail_header(to_alice[0], "Subject") == "Re: Forged 0");
    CHECK(mail_header(to_alice[0], "In-Reply-To") == "<forged-0@example.com>");
    const auto to_bob = servers.inbox(bob, 1);
    REQUIRE(to_bob.size() == 1);
    CHECK(mail_header(to_bob[0], "Subject") == "Re: Forged bob");
    CHECK(servers.inbox(carol, 0).empty());
    // Another run within the day sends alice nothing more, even for a mail it never saw.
    EmailPlatform again(options);
    servers.send(mallory, {bot_address},
                 "From: alice@example.net\nTo: ghostpost@example.org\nSubject: Forged 10\n"
                 "Message-ID: <forged-10@example.com>\n\n!resign\n");
    CHECK(poll_for(again, cursor, 1)[0].author_id == "");
    std::this_thread::sleep_for(std::chrono::seconds(2));
    CHECK(servers.inbox(alice, 1).size() == 1);
}

TEST_CASE("an answer whose send a SIGKILL cut short goes out once, found by its copy",
          "[email][slow]") {
    TempDir dir;
    MailServers servers(dir, {bot_address, alice});
    EmailOptions options = options_for(servers, dir);
    options.copy_wait = std::chrono::seconds(3);
    Reply reply;
    reply.to = Reply::To::User;
    reply.platform = "email";
    reply.destination = alice;
    reply.text = "Your move.";
    reply.idempotency_key = "outbox-9";
    {
        EmailPlatform platform(options);
        CHECK(platform.send(reply).status == Delivery::Status::Sent);
    }
    // The daemon killed after the server took the mail, before it noted so: the state knows
    // the attempt began, not how it ended.
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open((dir.path() / "email-state.sqlite").c_str(), &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, "DELETE FROM sent", nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
    EmailPlatform platform(options);
    CHECK(platform.send(reply).status == Delivery::Status::Sent);
    std::this_thread::sleep_for(std::chrono::seconds(2)); // a second copy would be here by now
    const auto mails = servers.inbox(alice, 1);
    REQUIRE(mails.size() == 1);
    CHECK(mail_plain_body(mails[0]) == "Your move.");
    // The bot's own copy, in its mailbox, is what told it.
    auto bot_box = servers.session(bot_address);
    CHECK(bot_box.search("HEADER Message-ID \"" + mail_header(mails[0], "Message-ID") + "\"")
              .size() == 1);
}

TEST_CASE("mail to one domain is spaced by the pacing, mail to another is not held up",
          "[email][slow]") {
    TempDir dir;
    const std::string carol = "carol@example.net";
    MailServers servers(dir, {bot_address, alice, bob, carol});
    EmailOptions options = options_for(servers, dir);
    options.pacing.per_chat = std::chrono::milliseconds(3000);
    options.pacing.group_per_minute = 3;
    EmailPlatform platform(options);
    const auto send_to = [&](const std::string& to, const std::string& key) {
        Reply reply;
        reply.to = Reply::To::User;
        reply.platform = "email";
        reply.destination = to;
        reply.text = "Hello.";
        reply.idempotency_key = key;
        const auto start = std::chrono::steady_clock::now();
        const Delivery delivery = platform.send(reply);
        CHECK(delivery.status == Delivery::Status::Sent);
        return std::chrono::steady_clock::now() - start;
    };
    CHECK(send_to(alice, "k1") < std::chrono::milliseconds(2500));
    // Another domain: at once.
    CHECK(send_to(bob, "k2") < std::chrono::milliseconds(2500));
    // Alice's domain again, for another address: three seconds after the first.
    CHECK(send_to(carol, "k3") >= std::chrono::milliseconds(2000));
    CHECK(platform.pacing_key(alice) == "@example.net");
    CHECK(platform.pacing_key(carol) == "@example.net");
    // The fourth to one domain in a minute waits for the minute.
    CHECK(send_to(alice, "k4") >= std::chrono::milliseconds(2000));
    Reply fifth;
    fifth.to = Reply::To::User;
    fifth.platform = "email";
    fifth.destination = carol;
    fifth.text = "Hello.";
    fifth.idempotency_key = "k5";
    const Delivery later = platform.send(fifth);
    CHECK(later.status == Delivery::Status::RetryAfter);
    CHECK(later.retry_after > std::chrono::seconds(40));
    CHECK(later.retry_after <= std::chrono::seconds(60));
}

TEST_CASE("the e-mail adapter talks TLS to servers that require it, checking their certificate",
          "[email][slow]") {
    TempDir dir;
    MailServers servers(dir, {bot_address, alice}, true);
    REQUIRE_FALSE(servers.ca_file.empty());
    const auto tls_options = [&](const std::string& imap, const std::string& smtp) {
        EmailOptions options = options_for(servers, dir);
        options.imap_url = imap;
        options.smtp_url = smtp;
        options.allow_plaintext = false;
        options.ca_file = servers.ca_file;
        return options;
    };
    std::string cursor;
    {
        // Without the CA the certificate is not trusted: nothing is read, and no login is sent.
        EmailOptions untrusted = tls_options(servers.imaps_url(), servers.smtps_url());
        untrusted.ca_file.clear();
        EmailPlatform platform(untrusted);
        try {
            (void)platform.poll(cursor, std::chrono::seconds(0));
            FAIL("an untrusted certificate was taken");
        } catch (const ghostpost::bot::PlatformError& e) {
            CHECK(e.kind() == ghostpost::bot::PlatformError::Kind::Transient);
            CHECK(std::string(e.what()).starts_with("IMAP STATUS: "));
        }
    }
    for (const auto& [imap, smtp] : std::vector<std::pair<std::string, std::string>>{
             {servers.imaps_url(), servers.smtps_url()}, // TLS from the first byte
             {servers.imap_url(), servers.smtp_url()},   // STARTTLS, which both servers require
         }) {
        INFO(imap << " " << smtp);
        EmailPlatform platform(tls_options(imap, smtp));
        if (cursor.empty())
            cursor = platform.poll(cursor, std::chrono::seconds(0)).at(0).cursor;
        const std::size_t before = servers.inbox(alice, 0).size();
        servers.send(alice, {platform.reply_address(alice)},
                     "From: alice@example.net\nTo: " + platform.reply_address(alice) +
                         "\nSubject: Hello\nMessage-ID: <tls-" + std::to_string(before) +
                         "@example.net>\n\n!help\n");
        const auto posts = poll_for(platform, cursor, 1);
        CHECK(posts[0].author_id == alice);
        CHECK(posts[0].text == "!help");
        Reply reply;
        reply.to = Reply::To::User;
        reply.platform = "email";
        reply.destination = alice;
        reply.text = "Over TLS.";
        reply.idempotency_key = "tls-" + std::to_string(before);
        CHECK(platform.send(reply).status == Delivery::Status::Sent);
        const auto mails = servers.inbox(alice, before + 1);
        REQUIRE(mails.size() == before + 1);
        CHECK(mail_plain_body(mails.back()) == "Over TLS.");
    }
}
