// The e-mail adapter against real Dovecot and Postfix: players send by SMTP and read the bot's
// mail by IMAP. What a post is (thread, direct message, who wrote it), the one answer to a mail
// the bot cannot trust, the bot's mail (thread headers, Message-ID from the idempotency key,
// Reply-To with the player's key, the PNG inline), bounces, the cursor and a renumbered mailbox.
#include "ghostpost/bot/email.h"
#include "ghostpost/bot/mail.h"
#include "mail_servers.h"

#include <catch2/catch.hpp>
#include <cstdlib>

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
            if (!post.message_id.starts_with("start-"))
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
