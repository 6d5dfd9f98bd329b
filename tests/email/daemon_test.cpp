// `ghostpost run` as a process on real Dovecot and Postfix: a chess game by mail, from the
// challenge to moves quoted back and signed, an illegal move, a move in ISO-8859-1 and one in
// HTML only, a forged From refused, an auto-reply and a bounce ignored, and the daemon SIGKILLed
// while mail arrives and started again: every mail handled once, every answer sent once.
#include "ghostpost/email/mail.h"
#include "ghostpost/storage/store.h"
#include "mail_servers.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

using namespace ghostpost;
using bot::decode_mail;
using bot::DecodedMail;
using bot::mail_header;
using bot::mail_plain_body;
using test::MailServers;

namespace {

const std::string bot_address = "ghostpost@example.org";
const std::string alice = "alice@example.net";
const std::string bob = "bob@example.com";
const std::string mallory = "mallory@example.com";

std::filesystem::path write_config(const test::TempDir& dir, const MailServers& servers) {
    const auto path = dir.path() / "ghostpost.toml";
    std::ofstream(path) << "[storage]\npath = \"games.sqlite\"\n[log]\nlevel = \"debug\"\n"
                        << "[platform.email]\nimap_url = \"" << servers.imap_url() << "\"\n"
                        << "smtp_url = \"" << servers.smtp_url() << "\"\n"
                        << "username = \"" << bot_address << "\"\n"
                        << "address = \"" << bot_address << "\"\n"
                        << "handled_folder = \"Handled\"\n"
                        << "allow_plaintext = true\npoll_interval = 1\n"
                        << "per_domain_interval_ms = 0\n";
    return path;
}

std::unique_ptr<test::Child> start_daemon(const test::TempDir& dir,
                                          const std::filesystem::path& config) {
    return std::make_unique<test::Child>(
        std::vector<std::string>{GHOSTPOST_BINARY, "run", "--config", config.string()},
        dir.path() / "daemon.out", dir.path() / "daemon.err",
        std::vector<std::string>{"GHOSTPOST_EMAIL_PASSWORD=" +
                                 MailServers::password_of(bot_address)});
}

// What a player's program shows of one mail from the bot: its subject and its text, the board
// after a blank line.
std::string summary(const std::string& raw) {
    return mail_header(raw, "Subject") + " | " + mail_plain_body(raw);
}

std::vector<std::string> action_texts(const std::filesystem::path& database, std::int64_t game) {
    const auto store = storage::open_sqlite_store(database.string());
    std::vector<std::string> texts;
    for (const auto& action : store->actions(game))
        texts.push_back(action.text);
    return texts;
}

template <typename Predicate> bool eventually(Predicate done, std::chrono::seconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
        if (done())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return done();
}

// A player's answer to the bot's newest mail to them, written as a mail program does: to its
// Reply-To, in its thread, quoting it.
std::string answer(const std::string& from, const std::string& to_mail, const std::string& body,
                   const std::string& id, const std::string& extra_headers = "") {
    const DecodedMail parent = decode_mail(to_mail, {from, ""});
    std::string references;
    for (const auto& r : parent.references)
        references += "<" + r + "> ";
    references += "<" + parent.message_id + ">";
    std::string quoted;
    const std::string original = mail_plain_body(to_mail);
    std::size_t at = 0;
    while (at < original.size()) {
        auto end = original.find('\n', at);
        if (end == std::string::npos)
            end = original.size();
        quoted += "> " + original.substr(at, end - at) + "\n";
        at = end + 1;
    }
    return "From: " + from + "\nTo: " + mail_header(to_mail, "Reply-To") +
           "\nSubject: Re: " + parent.subject + "\nMessage-ID: <" + id + ">\nIn-Reply-To: <" +
           parent.message_id + ">\nReferences: " + references + "\n" + extra_headers + "\n" + body +
           "\n\nOn Sat, 28 Nov 2026, ghostpost wrote:\n" + quoted;
}

// The address of a mail's Reply-To: where a player's answer goes.
std::string reply_to(const std::string& raw) {
    const std::string value = mail_header(raw, "Reply-To");
    const auto open = value.find('<');
    return value.substr(open + 1, value.find('>') - open - 1);
}

} // namespace

TEST_CASE("a chess game is played by e-mail through real servers, a SIGKILL and a restart",
          "[daemon][email][slow]") {
    test::TempDir dir;
    MailServers servers(dir, {bot_address, alice, bob, mallory});
    const auto config = write_config(dir, servers);
    auto daemon = start_daemon(dir, config);
    std::size_t alice_seen = 0;
    std::size_t bob_seen = 0;
    // The Message-IDs each player has read. A SIGKILL just after the SMTP server took a mail,
    // before the daemon noted it, leaves its outcome unknown: the restarted daemon finds the
    // bot's own copy of it and does not send it again, so each is read once.
    std::map<std::string, std::set<std::string>> read;
    std::map<std::string, std::size_t> copies;
    // The next mail to `account` not read yet: waits for it, and fails the test when none comes.
    const auto next = [&](const std::string& account, std::size_t& seen) {
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (std::chrono::steady_clock::now() < end) {
            const auto mails = servers.inbox(account, copies[account] + 1);
            for (std::size_t i = copies[account]; i < mails.size(); ++i) {
                ++copies[account];
                if (read[account].insert(mail_header(mails[i], "Message-ID")).second) {
                    ++seen;
                    return mails[i];
                }
            }
        }
        INFO(test::read_file(dir.path() / "daemon.err"));
        FAIL("no new mail to " << account);
        return std::string();
    };

    // A challenge to the bot's plain address: nobody vouches for alice, so it changes nothing
    // and she hears of her own address for playing, as Reply-To of the answer.
    servers.send(alice, {bot_address}, R"(From: Alice <alice@example.net>
To: ghostpost@example.org
Subject: Chess?
Message-ID: <a1@example.net>

!new chess bob@example.com white tc=none
)");
    const std::string notice = next(alice, alice_seen);
    const std::string alice_key = reply_to(notice);
    CHECK(mail_plain_body(notice).starts_with("Your mail was not read, and nothing was done"));
    // Her answer to it comes to her key: the challenge, in the thread her first mail began.
    servers.send(alice, {alice_key},
                 answer(alice, notice, "!new chess bob@example.com white tc=none\n\n-- \nAlice",
                        "a2@example.net"));
    const std::string challenge = next(bob, bob_seen);
    CHECK(summary(challenge) ==
          "ghostpost game 1: FIDE chess, alice@example.net vs bob@example.com | "
          "alice@example.net challenges bob@example.com to FIDE chess, game #1. "
          "alice@example.net would play White. Options: none. Clock: none; rated. "
          "bob@example.com: answer !accept 1 or !decline 1.");
    CHECK(summary(next(alice, alice_seen)) == summary(challenge));
    const std::string bob_key = reply_to(challenge);
    CHECK(bob_key != alice_key);

    // Each move answers the newest mail, quoting it (board and all) and signed.
    std::string last_to_bob = challenge;
    std::string last_to_alice;
    const auto round = [&]() {
        last_to_alice = next(alice, alice_seen);
        last_to_bob = next(bob, bob_seen);
        CHECK(mail_plain_body(last_to_alice) == mail_plain_body(last_to_bob));
        const std::string body = mail_plain_body(last_to_bob);
        return body.substr(0, body.find('\n'));
    };
    servers.send(bob, {bob_key}, answer(bob, last_to_bob, "!accept", "b1@example.com"));
    CHECK(round() == "bob@example.com accepts. Game #1, FIDE chess: alice@example.net (White) vs "
                     "bob@example.com (Black). alice@example.net (White) must move. No clock; "
                     "rated.");
    servers.send(alice, {alice_key},
                 answer(alice, last_to_alice, "e4\n\n-- \nAlice\nSent from my kitchen table",
                        "a3@example.net"));
    CHECK(round() ==
          "alice@example.net (White) played e4 in game #1. bob@example.com (Black) must move.");
    // Björn's mail program writes ISO-8859-1, quoted-printable.
    servers.send(bob, {bob_key},
                 answer(bob, last_to_bob, "e5\n\n-- \nBj=F6rn, f=FCr immer", "b2@example.com",
                        "MIME-Version: 1.0\nContent-Type: text/plain; charset=ISO-8859-1\n"
                        "Content-Transfer-Encoding: quoted-printable\n"));
    CHECK(round() ==
          "bob@example.com (Black) played e5 in game #1. alice@example.net (White) must move.");
    servers.send(alice, {alice_key}, answer(alice, last_to_alice, "Ke3", "a4@example.net"));
    CHECK(round() == "Not played in game #1: Ke3 is not possible: no king can reach e3.");
    // HTML only, the quote in a blockquote.
    servers.send(alice, {alice_key},
                 "From: alice@example.net\nTo: " + alice_key +
                     "\nSubject: Re: Chess?\nMessage-ID: <a5@example.net>\nReferences: "
                     "<a1@example.net>\nMIME-Version: 1.0\nContent-Type: text/html; "
                     "charset=utf-8\n\n<html><body><div>Nf3</div><div class=\"gmail_quote\">"
                     "<div>On Sat, ghostpost wrote:<br></div><blockquote>8 r n b q k b n r"
                     "</blockquote></div></body></html>\n");
    CHECK(round() ==
          "alice@example.net (White) played Nf3 in game #1. bob@example.com (Black) must move.");
    const auto log_has = [&](const std::string& text) {
        return eventually(
            [&] {
                return test::read_file(dir.path() / "daemon.err").find(text) != std::string::npos;
            },
            std::chrono::seconds(20));
    };
    // Mallory writes as alice to the bot's plain address, in the thread: nothing is done, and
    // alice, who was told how to play today, is not told again (a forger could make the bot
    // mail her once per forged mail).
    servers.send(mallory, {bot_address},
                 "From: Alice <alice@example.net>\nTo: ghostpost@example.org\nSubject: Re: "
                 "Chess?\nMessage-ID: <forged@example.com>\nReferences: <a1@example.net>\n\n"
                 "!resign\n");
    CHECK(log_has("\"message_id\":\"<forged@example.com>\""));
    // Bob's vacation notice answers the bot: no person's words, no answer.
    servers.send(bob, {bob_key},
                 "From: bob@example.com\nTo: " + bob_key +
                     "\nSubject: Away: Re: Chess?\nAuto-Submitted: auto-replied\nMessage-ID: "
                     "<vacation@example.com>\nReferences: <a1@example.net>\n\nI am away.\n");
    // A challenge to an address that does not exist: the bot's mail to it bounces, and the
    // bounce is no person's words either.
    servers.send(alice, {alice_key},
                 "From: alice@example.net\nTo: " + alice_key +
                     "\nSubject: Another\nMessage-ID: <a6@example.net>\n\n!new chess "
                     "nobody@example.net tc=none\n");
    CHECK(summary(next(alice, alice_seen)) ==
          "ghostpost game 2: FIDE chess, alice@example.net vs nobody@example.net | "
          "alice@example.net challenges nobody@example.net to FIDE chess, game #2. "
          "alice@example.net would play White. Options: none. Clock: none; rated. "
          "nobody@example.net: answer !accept 2 or !decline 2.");
    CHECK(log_has("\"message_id\":\"<vacation@example.com>\""));
    // Postfix's bounce, from its own Message-ID.
    CHECK(log_has("@mx.example.org>\",\"duplicate\":false"));

    // The daemon is killed while the players' mail arrives, and started again each time.
    servers.send(bob, {bob_key}, answer(bob, last_to_bob, "Nc6", "b3@example.com"));
    daemon->signal(SIGKILL);
    CHECK(daemon->wait_exit(std::chrono::seconds(10)) == 128 + SIGKILL);
    daemon = start_daemon(dir, config);
    CHECK(round() ==
          "bob@example.com (Black) played Nc6 in game #1. alice@example.net (White) must move.");
    servers.send(alice, {alice_key}, answer(alice, last_to_alice, "Bb5", "a7@example.net"));
    std::this_thread::sleep_for(std::chrono::milliseconds(1200)); // about when it is read
    daemon->signal(SIGKILL);
    CHECK(daemon->wait_exit(std::chrono::seconds(10)) == 128 + SIGKILL);
    daemon = start_daemon(dir, config);
    CHECK(round() ==
          "alice@example.net (White) played Bb5 in game #1. bob@example.com (Black) must move.");
    servers.send(bob, {bob_key}, answer(bob, last_to_bob, "a6", "b4@example.com"));
    CHECK(round() ==
          "bob@example.com (Black) played a6 in game #1. alice@example.net (White) must move.");

    // Every mail was handled once, every answer sent once; the handled mail is in its folder.
    CHECK(action_texts(dir.path() / "games.sqlite", 1) ==
          std::vector<std::string>{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6"});
    auto bot_box = servers.session(bot_address);
    CHECK(eventually([&] { return bot_box.search("ALL").empty(); }, std::chrono::seconds(20)));
    std::this_thread::sleep_for(std::chrono::seconds(2)); // a late mail would be here by now
    for (const auto& [account, count] :
         std::vector<std::pair<std::string, std::size_t>>{{alice, alice_seen}, {bob, bob_seen}}) {
        const auto mails = servers.inbox(account, count);
        std::set<std::string> ids;
        for (const auto& mail : mails)
            ids.insert(mail_header(mail, "Message-ID"));
        CHECK(ids == read[account]);       // no answer the players have not read
        CHECK(mails.size() == ids.size()); // and none twice
    }
    CHECK(alice_seen == 11);
    CHECK(bob_seen == 9);
    daemon->signal(SIGTERM);
    CHECK(daemon->wait_exit(std::chrono::seconds(30)) == 0);
}

TEST_CASE("a Phantom game by e-mail sends what one player may know to that player alone",
          "[daemon][email][slow]") {
    test::TempDir dir;
    const std::string carol = "carol@example.net";
    MailServers servers(dir, {bot_address, alice, bob, carol});
    const auto config = write_config(dir, servers);
    auto daemon = start_daemon(dir, config);
    std::size_t alice_seen = 0;
    std::size_t bob_seen = 0;
    const auto next = [&](const std::string& account, std::size_t& seen) {
        const auto mails = servers.inbox(account, seen + 1);
        INFO(test::read_file(dir.path() / "daemon.err"));
        REQUIRE(mails.size() > seen);
        return mails[seen++];
    };
    servers.send(alice, {bot_address},
                 "From: alice@example.net\nTo: ghostpost@example.org\nSubject: Phantoms\n"
                 "Message-ID: <p1@example.net>\n\nhello\n");
    const std::string alice_key = reply_to(next(alice, alice_seen));
    servers.send(alice, {alice_key},
                 "From: alice@example.net\nTo: " + alice_key +
                     "\nSubject: Phantoms\nMessage-ID: <p2@example.net>\n\n!new phantom "
                     "bob@example.com white tc=none\n");
    std::string to_bob = next(bob, bob_seen);
    next(alice, alice_seen);
    const std::string bob_key = reply_to(to_bob);
    const auto play = [&](const std::string& from, const std::string& key, const std::string& text,
                          const std::string& id) {
        servers.send(from, {key},
                     "From: " + from + "\nTo: " + key + "\nSubject: Re: Phantoms\nMessage-ID: <" +
                         id + ">\nReferences: <p2@example.net>\n\n" + text + "\n");
    };
    const auto first_line = [](const std::string& raw) {
        const std::string body = mail_plain_body(raw);
        return body.substr(0, body.find('\n'));
    };
    play(bob, bob_key, "!accept", "q1@example.com");
    CHECK(first_line(next(alice, alice_seen)).starts_with("bob@example.com accepts."));
    CHECK(first_line(next(bob, bob_seen)).starts_with("bob@example.com accepts."));
    play(alice, alice_key, "e4", "p3@example.net");
    next(alice, alice_seen);
    next(bob, bob_seen);
    play(bob, bob_key, "e5", "q2@example.com");
    next(alice, alice_seen);
    next(bob, bob_seen);
    // Carol, no player, follows the game by mail: a mail to her own address for playing.
    std::size_t carol_seen = 0;
    servers.send(carol, {bot_address},
                 "From: carol@example.net\nTo: ghostpost@example.org\nSubject: Hi\n"
                 "Message-ID: <c1@example.net>\n\nhello\n");
    const std::string carol_key = reply_to(next(carol, carol_seen));
    servers.send(carol, {carol_key},
                 "From: carol@example.net\nTo: " + carol_key +
                     "\nSubject: Watching\nMessage-ID: <c2@example.net>\n\n!follow 1\n");
    CHECK(summary(next(carol, carol_seen)) ==
          "ghostpost: You now follow game #1 | You now follow game #1: every public mail of the "
          "game comes to you too, never a player's private one. !unfollow 1 stops them.");
    // The Phantom enters: where it stands goes to alice alone, by a mail of its own.
    play(alice, alice_key, "F@c3", "p4@example.net");
    std::vector<std::string> to_alice{next(alice, alice_seen), next(alice, alice_seen)};
    std::sort(to_alice.begin(), to_alice.end(), [](const std::string& a, const std::string& b) {
        return mail_header(a, "Subject") < mail_header(b, "Subject");
    });
    const std::string public_to_bob = next(bob, bob_seen);
    CHECK(mail_header(to_alice[0], "Subject") ==
          "ghostpost game 1: Phantom Chess, alice@example.net vs bob@example.com");
    CHECK(first_line(to_alice[0]) == "alice@example.net (White) played F@c3 in game #1. "
                                     "bob@example.com (Black) must move.");
    CHECK(mail_plain_body(to_alice[0]) == mail_plain_body(public_to_bob));
    CHECK(mail_plain_body(public_to_bob).find("F?") == std::string::npos);
    const std::string to_carol = next(carol, carol_seen);
    CHECK(mail_header(to_carol, "Subject") == mail_header(public_to_bob, "Subject"));
    CHECK(mail_plain_body(to_carol) == mail_plain_body(public_to_bob));
    const std::string secret = to_alice[1];
    CHECK(mail_header(secret, "Subject") == "ghostpost: Game #1: your Phantom now stands on c3");
    CHECK(mail_header(secret, "To") == "<alice@example.net>");
    CHECK(mail_header(secret, "References") == "");
    CHECK(mail_plain_body(secret).find(" 3   .   .  *F?  .") != std::string::npos);
    // Her answer to the private mail is a direct message, answered to her alone.
    servers.send(alice, {reply_to(secret)}, answer(alice, secret, "!board", "p5@example.net"));
    const std::string board = next(alice, alice_seen);
    CHECK(mail_header(board, "Subject") ==
          "ghostpost: Game #1, Phantom Chess: alice@example.net (White) vs bob@...");
    CHECK(mail_header(board, "To") == "<alice@example.net>");
    CHECK(first_line(board) == "Game #1, Phantom Chess: alice@example.net (White) vs "
                               "bob@example.com (Black). bob@example.com (Black) must move. No "
                               "clock; rated.");
    // Carol stops following: the next move's mail goes to the players alone.
    servers.send(carol, {carol_key},
                 "From: carol@example.net\nTo: " + carol_key +
                     "\nSubject: Enough\nMessage-ID: <c3@example.net>\n\n!unfollow #1\n");
    CHECK(summary(next(carol, carol_seen)) ==
          "ghostpost: You no longer follow game #1 | You no longer follow game #1: its mail "
          "stops.");
    play(bob, bob_key, "Nc6", "q3@example.com");
    CHECK(first_line(next(bob, bob_seen)) == "bob@example.com (Black) played Nc6 in game #1. "
                                             "alice@example.net (White) must move.");
    next(alice, alice_seen);
    std::this_thread::sleep_for(std::chrono::seconds(2)); // a stray copy would be here
    CHECK(servers.inbox(bob, bob_seen).size() == 6);
    CHECK(servers.inbox(alice, alice_seen).size() == 9);
    // Carol had the notice, two answers and the one public mail: no private one, none after.
    CHECK(servers.inbox(carol, carol_seen).size() == 4);
    daemon->signal(SIGTERM);
    CHECK(daemon->wait_exit(std::chrono::seconds(30)) == 0);
}
