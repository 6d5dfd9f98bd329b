// Telegram's chat features through the real daemon and the fake Bot API server: a game played
// with buttons in a forum topic, a group upgraded to a supergroup in the middle of a game, stale
// and forged button presses, the privacy warning to the moderators, the menu of commands,
// "/move e4" for groups in privacy mode, text mentions, and edited messages.
#include "fake_telegram.h"
#include "ghostpost/storage/store.h"

#include <chrono>
#include <fstream>
#include <thread>

using namespace ghostpost;
using nlohmann::json;
using test::FakeTelegram;

namespace {

constexpr std::int64_t forum = -1005;
constexpr std::int64_t alice = 7, bob = 8, mallory = 3;

struct Daemon {
    explicit Daemon(int moderator = 0) : fake(dir), config(dir.path() / "ghostpost.toml") {
        std::ofstream out(config);
        out << "[storage]\npath = \"games.sqlite\"\n[log]\nlevel = \"debug\"\n";
        if (moderator != 0)
            out << "[bot]\nmoderators = [\"telegram:" << moderator << "\"]\n";
        out << "[telegram]\napi_url = \"" << fake.url() << "\"\npoll_timeout = 5\n"
            << "per_chat_interval_ms = 0\ngroup_messages_per_minute = 1000\n";
    }
    ~Daemon() {
        stop();
        CHECK(fake.violations().empty());
        CHECK(test::read_file(dir.path() / "daemon.err").find("FAKE-secret_token_value") ==
              std::string::npos);
    }
    void start() {
        child = std::make_unique<test::Child>(
            std::vector<std::string>{GHOSTPOST_BINARY, "run", "--config", config.string()},
            dir.path() / "daemon.out", dir.path() / "daemon.err",
            std::vector<std::string>{std::string("GHOSTPOST_TELEGRAM_TOKEN=") +
                                     FakeTelegram::token});
    }
    void dump() {
        for (const json& m : fake.sent())
            UNSCOPED_INFO(m["chat_id"].dump() + " " + m["text"].get<std::string>());
    }
    // Waits until every reply is delivered and marked so (stopping before the mark would
    // send them again after the restart: replies are at least once).
    void settle() {
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (store()->pending_count("telegram") > 0 && std::chrono::steady_clock::now() < end)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        REQUIRE(store()->pending_count("telegram") == 0);
    }
    void stop() {
        if (!child)
            return;
        child->signal(SIGTERM);
        CHECK(child->wait_exit(std::chrono::seconds(5)) == 0);
        child.reset();
    }

    // Posts `text` from a user; `thread`: in that forum topic. Returns the message id.
    std::int64_t say(std::int64_t chat, std::int64_t from, const json& username,
                     const std::string& text, json extra = json::object()) {
        extra.update({{"chat_id", chat},
                      {"from_id", from},
                      {"username", username},
                      {"first_name", username.is_string() ? username : json("Bob Stone")},
                      {"text", text}});
        return fake.control("message", extra)["message_id"].get<std::int64_t>();
    }
    std::int64_t in_topic(std::int64_t thread, std::int64_t from, const std::string& username,
                          const std::string& text) {
        return say(forum, from, username, text, {{"thread_id", thread}});
    }

    // Presses the button `label` under the bot's message; returns the callback query id.
    std::string press(std::int64_t chat, std::int64_t message_id, std::int64_t from,
                      const std::string& username, const std::string& label) {
        return fake
            .control("press", {{"chat_id", chat},
                               {"message_id", message_id},
                               {"from_id", from},
                               {"username", username},
                               {"label", label}})["callback_query_id"]
            .get<std::string>();
    }

    // The bot's messages in `chat` once there are `count`, waiting for them (fewer at the end
    // of the wait).
    json messages_in(std::int64_t chat, std::size_t count) {
        json found = json::array();
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (std::chrono::steady_clock::now() < end) {
            found = json::array();
            for (const json& m : fake.sent())
                if (m["chat_id"] == chat)
                    found.push_back(m);
            if (found.size() >= count)
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return found;
    }
    // How many messages the bot has sent to `chat` so far, after a moment for stragglers.
    std::size_t count_in(std::int64_t chat) {
        std::this_thread::sleep_for(std::chrono::milliseconds(700));
        std::size_t n = 0;
        for (const json& m : fake.sent())
            n += m["chat_id"] == chat;
        return n;
    }
    // The last of `count` messages in `chat`, asserting there are exactly that many by then.
    json nth(std::int64_t chat, std::size_t count) {
        const json all = messages_in(chat, count);
        if (all.size() != count)
            dump();
        REQUIRE(all.size() == count);
        return all.back();
    }

    // The answer to callback query `id`, waiting for it; null when none came.
    json answer(const std::string& id) {
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (std::chrono::steady_clock::now() < end) {
            const json answers = fake.control("answers")["answers"];
            for (const json& a : answers)
                if (a["callback_query_id"] == id)
                    return a;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return nullptr;
    }

    std::unique_ptr<storage::Store> store() {
        return storage::open_sqlite_store((dir.path() / "games.sqlite").string());
    }
    std::vector<std::string> moves(std::int64_t game) {
        std::vector<std::string> texts;
        for (const auto& action : store()->actions(game))
            texts.push_back(action.text);
        return texts;
    }

    test::TempDir dir;
    FakeTelegram fake;
    std::filesystem::path config;
    std::unique_ptr<test::Child> child;
};

using Labels = std::vector<std::pair<std::string, std::string>>;

// The buttons under a message, as (label, command).
Labels labels(const json& message) {
    Labels out;
    for (const json& row : message.value("buttons", json::array()))
        for (const json& b : row)
            out.emplace_back(b["text"], b["data"]);
    return out;
}

bool starts(const json& message, const std::string& prefix) {
    return message["text"].get<std::string>().starts_with(prefix);
}

} // namespace

TEST_CASE("a game is played with buttons in a forum topic, and the topic next door is another "
          "channel",
          "[daemon][telegram][buttons][topics]") {
    Daemon d;
    d.fake.control("chat", {{"chat_id", forum}, {"type", "supergroup"}, {"is_forum", true}});
    d.start();

    d.in_topic(7, alice, "alice", "!new chess @bob white tc=none");
    const json challenge = d.nth(forum, 1);
    CHECK(challenge["thread_id"] == 7);
    CHECK(starts(challenge, "@alice challenges @bob to FIDE chess, game #1."));
    CHECK(labels(challenge) == Labels{{"Accept", "!accept 1"}, {"Decline", "!decline 1"}});

    // A bystander's press changes nothing, and only they read why.
    const std::string bystander =
        d.press(forum, challenge["message_id"], mallory, "mallory", "Accept");
    CHECK(d.answer(bystander)["text"] == "Challenge #1 is not addressed to you.");

    const std::string accepted = d.press(forum, challenge["message_id"], bob, "bob", "Accept");
    const json started = d.nth(forum, 2);
    CHECK(started["thread_id"] == 7);
    CHECK(starts(started, "@bob accepts. Game #1, FIDE chess: @alice (White) vs @bob (Black)."));
    CHECK(started.value("reply_to", json()).is_null()); // for everyone, not a reply to the press
    CHECK(labels(started) == Labels{{"Offer draw", "!draw 1"}, {"Resign", "!resign 1 ?"}});
    CHECK(d.answer(accepted)["text"] == ""); // the press is answered, without words

    // The topic next door is another channel: no game there.
    const auto elsewhere = d.in_topic(8, bob, "bob", "!board");
    const json other_topic = d.nth(forum, 3);
    CHECK(other_topic["thread_id"] == 8);
    CHECK(other_topic["reply_to"] == elsewhere);
    CHECK(other_topic["text"] == "You have no game under way here. Use: !board [game] [ply] "
                                 "[ascii|unicode|png] [flip]");
    d.in_topic(8, alice, "alice", "e4"); // chatter there: no game of hers
    d.in_topic(7, alice, "alice", "e4");
    const json e4 = d.nth(forum, 4);
    CHECK(e4["thread_id"] == 7);
    CHECK(starts(e4, "@alice (White) played e4 in game #1. @bob (Black) must move."));

    // A draw offered and declined with buttons; the stale Accept under the offer then does
    // nothing but say so.
    d.press(forum, e4["message_id"], bob, "bob", "Offer draw");
    const json offer = d.nth(forum, 5);
    CHECK(starts(offer, "@bob (Black) offers a draw in game #1."));
    CHECK(labels(offer) ==
          Labels{{"Accept draw", "!draw 1 accept"}, {"Decline draw", "!draw 1 decline"}});
    d.press(forum, offer["message_id"], alice, "alice", "Decline draw");
    CHECK(d.nth(forum, 6)["text"] ==
          "@alice (White) declines the draw in game #1. @bob (Black) must move.");
    const std::string stale = d.press(forum, offer["message_id"], alice, "alice", "Accept draw");
    CHECK(d.answer(stale)["text"] == "There is no draw offer to accept in game #1.");

    d.in_topic(7, bob, "bob", "e5");
    const json e5 = d.nth(forum, 7);
    CHECK(starts(e5, "@bob (Black) played e5 in game #1."));

    // Resign asks first; "No" keeps the game going, "Yes" ends it.
    d.press(forum, e5["message_id"], alice, "alice", "Resign");
    const json question = d.nth(forum, 8);
    CHECK(question["thread_id"] == 7);
    CHECK(question["text"] ==
          "@alice: resign game #1? It cannot be undone. Say !resign 1 to resign.");
    CHECK(labels(question) ==
          Labels{{"Yes, resign", "!resign 1 white"}, {"No, play on", "!resign 1 no"}});
    const std::string no = d.press(forum, question["message_id"], alice, "alice", "No, play on");
    CHECK(d.answer(no)["text"] == "You play on in game #1.");
    // The question was alice's: bob pressing her Yes resigns nobody.
    const std::string not_yours = d.press(forum, question["message_id"], bob, "bob", "Yes, resign");
    CHECK(d.answer(not_yours)["text"] == "That button was for @alice (White): nothing was done.");
    CHECK(d.store()->game(1)->status == storage::GameStatus::Ongoing);

    const std::string yes = d.press(forum, question["message_id"], alice, "alice", "Yes, resign");
    const json ending = d.messages_in(forum, 10); // the resignation, then the ratings
    REQUIRE(ending.size() == 10);
    const json resigned = ending[8];
    CHECK(resigned["text"] == "@alice (White) resigns. Game #1 is over: @bob (Black) wins by "
                              "resignation (0-1).");
    CHECK(labels(resigned).empty());
    CHECK(d.answer(yes)["text"] == "");
    CHECK(starts(ending[9], "Ratings in FIDE chess after game #1: "));
    // The same Yes once more: the game is over, and nothing changes.
    const std::string again = d.press(forum, question["message_id"], alice, "alice", "Yes, resign");
    CHECK(d.answer(again)["text"] == "Game #1 is over: @bob (Black) wins by resignation (0-1).");
    CHECK(d.store()->game(1)->result == "0-1");
    CHECK(d.moves(1) == std::vector<std::string>{"e4", "e5"});

    const json all = d.messages_in(forum, 10);
    REQUIRE(all.size() == 10);
    for (std::size_t i = 0; i < all.size(); ++i)
        CHECK(all[i]["thread_id"] == (i == 2 ? 8 : 7));
}

TEST_CASE("a stale or forged press changes nothing and is answered to the presser alone",
          "[daemon][telegram][buttons]") {
    Daemon d;
    d.start();
    d.say(forum, alice, "alice", "!new chess @bob white tc=none");
    const json challenge = d.nth(forum, 1);
    const std::string declined = d.press(forum, challenge["message_id"], bob, "bob", "Decline");
    CHECK(d.nth(forum, 2)["text"] == "@bob declines challenge #1 from @alice.");
    CHECK(d.answer(declined)["text"] == "");

    // The Accept under the declined challenge: nothing is created, nothing said in the chat.
    const std::string stale = d.press(forum, challenge["message_id"], bob, "bob", "Accept");
    CHECK(d.answer(stale)["text"] == "Game #1 is not an open challenge.");
    CHECK(d.store()->game(1)->status == storage::GameStatus::Declined);

    // Data no button of ours carries, as any client may send: refused, not run.
    const json forged = d.fake.control("press", {{"chat_id", forum},
                                                 {"message_id", challenge["message_id"]},
                                                 {"from_id", mallory},
                                                 {"username", "mallory"},
                                                 {"data", "!new chess @bob"}});
    CHECK(d.answer(forged["callback_query_id"])["text"] ==
          "That button is not one of mine. Nothing was done.");
    CHECK_FALSE(d.store()->game(2));
    CHECK(d.count_in(forum) == 2);
}

TEST_CASE("a group upgraded to a supergroup mid-game: the game, its waiting replies and its moves "
          "follow the new id",
          "[daemon][telegram][migration]") {
    constexpr std::int64_t old_group = -1006, supergroup = -100006;
    Daemon d;
    d.fake.control("chat", {{"chat_id", old_group}, {"type", "group"}});
    d.start();
    d.say(old_group, alice, "alice", "!new chess @bob white tc=none");
    d.say(old_group, bob, "bob", "!accept");
    d.say(old_group, alice, "alice", "e4");
    CHECK(starts(d.nth(old_group, 3), "@alice (White) played e4 in game #1."));
    d.settle();
    d.stop();

    // While the daemon is down, bob moves and the group is upgraded: on the next start one
    // batch brings both, and the reply to e5 is still waiting when the chat moves.
    d.say(old_group, bob, "bob", "e5");
    d.fake.control("migrate", {{"chat_id", old_group},
                               {"new_chat_id", supergroup},
                               {"from_id", alice},
                               {"username", "alice"}});
    d.start();
    const json after = d.messages_in(supergroup, 2);
    if (after.size() != 2)
        d.dump();
    REQUIRE(after.size() == 2);
    CHECK(starts(after[0], "@bob (Black) played e5 in game #1."));
    CHECK(after[1]["text"] == "This chat moved to a new address, and everything under way here "
                              "follows it: game #1.");
    // The waiting reply was moved in the database: Telegram never had to refuse the old id.
    const json calls = d.fake.control("calls")["calls"];
    for (const json& call : calls)
        CHECK(call[3] != 400);
    CHECK(d.count_in(old_group) == 3);

    d.say(supergroup, alice, "alice", "Nf3");
    CHECK(starts(d.nth(supergroup, 3), "@alice (White) played Nf3 in game #1."));
    CHECK(d.store()->game(1)->channel == std::to_string(supergroup));
    CHECK(d.moves(1) == std::vector<std::string>{"e4", "e5", "Nf3"});
}

TEST_CASE("a reply sent to a group that became a supergroup before the bot heard of it reaches the "
          "new id",
          "[daemon][telegram][migration]") {
    constexpr std::int64_t old_group = -1007, supergroup = -100007;
    Daemon d;
    d.fake.control("chat", {{"chat_id", old_group}, {"type", "group"}});
    // The post, then the upgrade, whose notices are late: the bot's answer goes to the old id,
    // which Telegram refuses, naming the new one.
    d.say(old_group, alice, "alice", "!new chess @bob white tc=none");
    const json upgrade = {{"chat_id", old_group},
                          {"new_chat_id", supergroup},
                          {"from_id", alice},
                          {"username", "alice"}};
    json silent = upgrade;
    silent["notify"] = false;
    d.fake.control("migrate", silent);
    d.start();
    CHECK(starts(d.nth(supergroup, 1), "@alice challenges @bob to FIDE chess, game #1."));
    CHECK(d.count_in(old_group) == 0);
    const std::string err = test::read_file(d.dir.path() / "daemon.err");
    CHECK(err.find("\"event\":\"telegram_chat_moved\"") != std::string::npos);

    // The notices arrive: the game follows in the database too.
    d.fake.control("migrate", upgrade);
    CHECK(d.nth(supergroup, 2)["text"] == "This chat moved to a new address, and everything under "
                                          "way here follows it: game #1.");
    d.say(supergroup, bob, "bob", "!accept");
    CHECK(starts(d.nth(supergroup, 3), "@bob accepts. Game #1"));
    CHECK(d.store()->game(1)->channel == std::to_string(supergroup));
}

TEST_CASE("privacy mode is reported in the log and to the moderators; the menu lists the commands",
          "[daemon][telegram][privacy][menu]") {
    Daemon d(alice);
    d.fake.control("privacy", {{"on", true}});
    d.fake.control("start", {{"user_id", alice}});
    d.start();
    const json notice = d.nth(alice, 1);
    CHECK(starts(notice, "Telegram's privacy mode is on for me (@ghostpost_bot): in groups I see "
                         "only commands, so bare moves such as e4 never reach me there."));
    const std::string err = test::read_file(d.dir.path() / "daemon.err");
    CHECK(err.find("\"event\":\"telegram_privacy_mode\"") != std::string::npos);

    const json commands = d.fake.control("commands")["commands"];
    REQUIRE(commands.is_array());
    std::vector<std::string> names;
    for (const json& c : commands)
        names.push_back(c["command"]);
    CHECK(names.front() == "new");
    CHECK(std::find(names.begin(), names.end(), "move") != names.end());
    CHECK(std::find(names.begin(), names.end(), "resign") != names.end());
    CHECK(commands[4] == json{{"command", "move"}, {"description", "Play a move"}});
    // And a menu per shipped language, under the two-letter codes Telegram takes, with the same
    // commands in the same order.
    json menus;
    for (int i = 0; i < 100; ++i) {
        menus = d.fake.control("commands")["menus"];
        if (menus.size() == 6)
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    REQUIRE(menus.size() == 6);
    for (const char* code : {"de", "es", "fr", "pt", "ru", "zh"}) {
        INFO(code);
        REQUIRE(menus.contains(code));
        REQUIRE(menus[code].size() == commands.size());
        for (std::size_t i = 0; i < commands.size(); ++i)
            CHECK(menus[code][i]["command"] == commands[i]["command"]);
    }
    CHECK(menus["de"][4] == json{{"command", "move"}, {"description", "Einen Zug spielen"}});
    CHECK(d.fake.violations().empty());
}

TEST_CASE("/move e4 and /move@bot e4 play in a group, as groups in privacy mode must write them",
          "[daemon][telegram]") {
    Daemon d;
    d.start();
    d.say(forum, alice, "alice", "/new chess @bob white tc=none");
    d.say(forum, bob, "bob", "/accept@ghostpost_bot");
    d.say(forum, alice, "alice", "/move e4");
    d.say(forum, bob, "bob", "/move@other_bot d5"); // another bot's command: not ours
    d.say(forum, bob, "bob", "/move@ghostpost_bot e5");
    CHECK(starts(d.nth(forum, 4), "@bob (Black) played e5 in game #1."));
    CHECK(d.moves(1) == std::vector<std::string>{"e4", "e5"});
}

TEST_CASE("a player without a username is named with a text_mention, so Telegram notifies them",
          "[daemon][telegram][identity]") {
    Daemon d;
    d.start();
    d.say(forum, alice, "alice", "!new chess tc=none"); // open: anyone here may accept
    d.say(forum, bob, nullptr, "!accept");
    const json accepted = d.nth(forum, 2);
    // The text as Telegram shows it: the name, linked to the account.
    CHECK(accepted["shown"].get<std::string>().starts_with(
        "Bob Stone accepts. Game #1, FIDE chess: @alice (White) vs Bob Stone (Black)."));
    CHECK(accepted["method"] == "sendPhoto"); // the board as an image, the group's default
    CHECK(accepted["mentions"] == json{{{"user_id", bob}, {"text", "Bob Stone"}},
                                       {{"user_id", bob}, {"text", "Bob Stone"}}});
    d.say(forum, bob, nullptr, "!new chess @alice tc=none");
    const json challenge = d.nth(forum, 3);
    CHECK(starts(challenge, "Bob Stone challenges @alice to FIDE chess, game #2."));
    CHECK(challenge["parse_mode"].is_null());
    CHECK(challenge["mentions"] == json{{{"user_id", bob}, {"text", "Bob Stone"}},
                                        {{"user_id", bob}, {"text", "Bob Stone"}}});
}

TEST_CASE("an edited move is ignored: neither the new text is played nor the old one undone",
          "[daemon][telegram]") {
    Daemon d;
    // All of it before the first poll, while Telegram still sends edits (the bot's
    // allowed_updates leave them out from its first poll on).
    d.say(forum, alice, "alice", "!new chess @bob white tc=none");
    d.say(forum, bob, "bob", "!accept");
    const auto e4 = d.say(forum, alice, "alice", "e4");
    const json edit = d.fake.control("message", {{"chat_id", forum},
                                                 {"from_id", alice},
                                                 {"username", "alice"},
                                                 {"text", "d4"},
                                                 {"edited", e4}});
    CHECK(edit["delivered"] == true);
    d.say(forum, bob, "bob", "e5");
    d.start();
    CHECK(starts(d.nth(forum, 4), "@bob (Black) played e5 in game #1."));
    CHECK(d.count_in(forum) == 4);
    CHECK(d.moves(1) == std::vector<std::string>{"e4", "e5"});
    const std::string err = test::read_file(d.dir.path() / "daemon.err");
    CHECK(err.find("\"event\":\"telegram_update_ignored\"") != std::string::npos);
    // From the first poll on, Telegram is not asked for edits at all.
    const json later = d.fake.control(
        "message",
        {{"chat_id", forum}, {"from_id", bob}, {"username", "bob"}, {"text", "d5"}, {"edited", 1}});
    CHECK(later["delivered"] == false);
}
