// What the service offers a chat client besides text, platform-neutral: buttons under
// challenges, draw offers and boards, presses read as posts and checked like typed commands,
// answers to a press for the presser alone, the resignation that asks first, channels that move
// to a new id, players named by display name with their account, notices for moderators and
// the menu of commands.
#include "../storage/temp_path.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/service/service.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace ghostpost;
using bot::Post;
using bot::Service;
using ghostpost::testing::TempPath;

namespace {

using Buttons = std::vector<std::pair<std::string, std::string>>;

// One reply as it left the service.
struct Out {
    std::string destination;
    std::string text;
    std::string code;
    std::string reply_to;
    Buttons buttons;
    std::vector<storage::NamedAccount> named;
    bool png = false; // an image of the board came along
};

class Chat {
public:
    explicit Chat(bot::ServiceSettings settings = {})
        : store_(storage::open_sqlite_store(path_.str())),
          service_(*store_, std::move(settings), [this] { return now_; }) {}

    // A post typed by `who` in `channel`; what went out.
    std::vector<Out> say(const std::string& who, const std::string& text,
                         const std::string& channel = "-100123") {
        return run(post(who, text, channel));
    }
    // A press of a button by `who` whose command is `command`, in `channel`.
    std::vector<Out> press(const std::string& who, const std::string& command,
                           const std::string& channel = "-100123") {
        Post p = post(who, command, channel);
        p.message_id = "callback:" + std::to_string(++next_id_);
        p.button = true;
        return run(p);
    }
    std::vector<Out> run(const Post& p) {
        service_.handle(p);
        std::vector<Out> out;
        for (const auto& e : store_->due("telegram", 2000000000, 100)) {
            Out o{e.message.destination, e.message.text, e.message.code, e.message.reply_to, {},
                  e.message.named};
            for (const auto& b : e.message.buttons)
                o.buttons.emplace_back(b.label, b.command);
            o.png = !e.message.png.empty();
            out.push_back(std::move(o));
            store_->mark_sent(e.id, 0);
        }
        return out;
    }
    Post post(const std::string& who, const std::string& text, const std::string& channel) {
        Post p;
        p.platform = "telegram";
        p.channel = channel;
        p.message_id = std::to_string(++next_id_);
        p.author_id = who == "alice" ? "7" : who == "bob" ? "8" : "3";
        p.author_name = who == "zoe" ? "Zoë Ann" : who;
        p.author_handle = who == "zoe" ? "" : who; // Zoë has no username
        p.text = text;
        return p;
    }
    // Game #1 under way: alice (White) against bob.
    void start() {
        say("alice", "!new chess @bob white tc=none");
        say("bob", "!accept");
    }
    storage::Store& store() { return *store_; }
    Service& service() { return service_; }
    // Moves the clock on and runs the time-driven job; what went out.
    std::vector<Out> later(std::int64_t seconds) {
        now_ += seconds;
        service_.tick();
        std::vector<Out> out;
        for (const auto& e : store_->due("telegram", 2000000000, 100)) {
            out.push_back({e.message.destination,
                           e.message.text,
                           e.message.code,
                           e.message.reply_to,
                           {},
                           e.message.named});
            store_->mark_sent(e.id, 0);
        }
        return out;
    }

private:
    std::int64_t now_ = 1700000000;
    TempPath path_;
    std::unique_ptr<storage::Store> store_;
    Service service_;
    int next_id_ = 0;
};

} // namespace

TEST_CASE("a challenge offers Accept and Decline, an open one Accept only", "[bot][chat]") {
    Chat chat;
    const auto made = chat.say("alice", "!new chess @bob white tc=none");
    REQUIRE(made.size() == 1);
    CHECK(made[0].buttons == Buttons{{"Accept", "!accept 1"}, {"Decline", "!decline 1"}});
    // The text still says what to type, for platforms without buttons.
    CHECK(made[0].text.ends_with("@bob: answer !accept 1 or !decline 1."));
    const auto open = chat.say("alice", "!new chess tc=none");
    CHECK(open.at(0).buttons == Buttons{{"Accept", "!accept 2"}});
}

TEST_CASE("a board of a game under way offers Offer draw and Resign, and none once it is over",
          "[bot][chat]") {
    Chat chat;
    chat.say("alice", "!new chess @bob white tc=none");
    const auto started = chat.say("bob", "!accept");
    REQUIRE(started.size() == 1);
    CHECK(started[0].buttons == Buttons{{"Offer draw", "!draw 1"}, {"Resign", "!resign 1 ?"}});
    const auto moved = chat.say("alice", "e4");
    CHECK(moved.at(0).buttons == Buttons{{"Offer draw", "!draw 1"}, {"Resign", "!resign 1 ?"}});
    chat.say("bob", "f6");
    chat.say("alice", "d4");
    chat.say("bob", "g5");
    const auto mate = chat.say("alice", "Qh5#");
    REQUIRE_FALSE(mate.empty());
    CHECK(mate[0].text.starts_with("@alice (White) played Qh5# in game #1."));
    CHECK(mate[0].buttons.empty());
}

TEST_CASE("a press is answered to the presser alone; what everyone must see is no answer to it",
          "[bot][chat]") {
    Chat chat;
    chat.say("alice", "!new chess @bob white tc=none");
    const auto refused = chat.press("mallory", "!accept 1");
    REQUIRE(refused.size() == 1);
    CHECK(refused[0].text == "Challenge #1 is not addressed to you.");
    CHECK(refused[0].reply_to.starts_with("callback:")); // for the presser alone
    CHECK(chat.store().game(1)->status == storage::GameStatus::Challenge);

    const auto accepted = chat.press("bob", "!accept 1");
    REQUIRE(accepted.size() == 1);
    CHECK(accepted[0].text.starts_with("@bob accepts. Game #1"));
    CHECK(accepted[0].reply_to.empty()); // for everyone in the channel
    CHECK(chat.store().game(1)->status == storage::GameStatus::Ongoing);

    // Stale: the challenge is taken. Nothing changes, and only the presser hears why.
    const auto stale = chat.press("bob", "!decline 1");
    REQUIRE(stale.size() == 1);
    CHECK(stale[0].text == "Game #1 is not an open challenge.");
    CHECK(stale[0].reply_to.starts_with("callback:"));
    CHECK(chat.store().game(1)->status == storage::GameStatus::Ongoing);
}

TEST_CASE("a press delivered twice is handled once", "[bot][chat]") {
    Chat chat;
    chat.say("alice", "!new chess @bob white tc=none");
    Post p = chat.post("bob", "!accept 1", "-100123/7");
    p.channel = "-100123";
    p.message_id = "callback:4711";
    p.button = true;
    CHECK(chat.service().handle(p) == bot::HandleStatus::Handled);
    CHECK(chat.service().handle(p) == bot::HandleStatus::Duplicate);
    CHECK(chat.store().pending_count("telegram") == 1); // one acceptance
}

TEST_CASE("what the service says unprompted goes to the game's own channel, a topic included",
          "[bot][chat]") {
    Chat chat;
    const std::string topic = "-100123/7";
    chat.say("alice", "!new chess @bob white tc=1d", topic);
    chat.say("bob", "!accept", topic);
    chat.say("alice", "e4", topic);
    chat.say("bob", "e5", topic);
    chat.say("alice", "!new chess @bob white", "-100123/8"); // a challenge in the next topic
    const auto timed_out = chat.later(2 * 86400);
    REQUIRE(timed_out.size() >= 1);
    CHECK(timed_out[0].destination == topic);
    CHECK(timed_out[0].text == "@alice (White) ran out of time in game #1 at 2023-11-15 22:13 UTC. "
                               "Game #1 is over: @bob (Black) wins by timeout (0-1).");
    const auto lapsed = chat.later(7 * 86400);
    REQUIRE(lapsed.size() == 1);
    CHECK(lapsed[0].destination == "-100123/8");
    CHECK(lapsed[0].text.starts_with("Challenge #2 by @alice"));
}

TEST_CASE("a press carrying what no button of ours posts is refused and runs nothing",
          "[bot][chat]") {
    Chat chat;
    chat.start();
    for (const std::string forged : {"!new chess @alice", "e4", "!mod void 1", ""}) {
        const auto out = chat.press("bob", forged);
        REQUIRE(out.size() == 1);
        CHECK(out[0].text == "That button is not one of mine. Nothing was done.");
    }
    CHECK_FALSE(chat.store().game(2));
    CHECK(chat.store().action_count(1) == 0);
    // The same words typed are ordinary posts.
    CHECK(chat.say("alice", "e4").at(0).text.starts_with("@alice (White) played e4 in game #1."));
}

TEST_CASE("!draw accept and !draw decline answer an offer and never make one", "[bot][chat]") {
    Chat chat;
    chat.start();
    CHECK(chat.say("bob", "!draw 1 accept").at(0).text ==
          "There is no draw offer to accept in game #1.");
    CHECK_FALSE(chat.store().offer(1, storage::OfferKind::Draw));

    const auto offered = chat.say("alice", "!draw 1");
    CHECK(offered.at(0).buttons ==
          Buttons{{"Accept draw", "!draw 1 accept"}, {"Decline draw", "!draw 1 decline"}});
    CHECK(chat.say("alice", "!draw 1 decline").at(0).text ==
          "You offered this draw in game #1; only @bob (Black) can decline it.");
    CHECK(chat.say("bob", "!draw decline").at(0).text ==
          "@bob (Black) declines the draw in game #1. @alice (White) must move.");
    CHECK_FALSE(chat.store().offer(1, storage::OfferKind::Draw));
    CHECK(chat.say("bob", "!draw 1 accept").at(0).text ==
          "There is no draw offer to accept in game #1.");

    chat.say("alice", "!draw");
    CHECK(chat.say("bob", "!draw 1 ACCEPT").at(0).text ==
          "@bob (Black) accepts the draw. Game #1 is over: drawn by agreement (1/2-1/2).");
    CHECK(chat.store().game(1)->result == "1/2-1/2");
}

TEST_CASE("Resign asks first; the Yes is the asker's alone, No plays on", "[bot][chat]") {
    Chat chat;
    chat.start();
    chat.say("alice", "e4");
    chat.say("bob", "e5");
    const auto asked = chat.press("alice", "!resign 1 ?");
    REQUIRE(asked.size() == 1);
    CHECK(asked[0].text == "@alice: resign game #1? It cannot be undone. Say !resign 1 to resign.");
    CHECK(asked[0].buttons ==
          Buttons{{"Yes, resign", "!resign 1 white"}, {"No, play on", "!resign 1 no"}});
    // It answers the press, and has buttons: a platform posts it in the channel (Reply::reply_to).
    CHECK(asked[0].reply_to.starts_with("callback:"));
    CHECK(chat.store().game(1)->status == storage::GameStatus::Ongoing);

    CHECK(chat.press("alice", "!resign 1 no").at(0).text == "You play on in game #1.");
    CHECK(chat.press("bob", "!resign 1 white").at(0).text ==
          "That button was for @alice (White): nothing was done.");
    CHECK(chat.press("mallory", "!resign 1 white").at(0).text == "You are not playing in game #1.");
    CHECK(chat.store().game(1)->status == storage::GameStatus::Ongoing);

    const auto resigned = chat.press("alice", "!resign 1 white");
    REQUIRE_FALSE(resigned.empty());
    CHECK(resigned[0].text == "@alice (White) resigns. Game #1 is over: @bob (Black) wins by "
                              "resignation (0-1).");
    CHECK(resigned[0].reply_to.empty());
    CHECK(chat.store().game(1)->result == "0-1");
    // Typed, the resignation still needs no question.
    chat.say("alice", "!new chess @bob white tc=none");
    chat.say("bob", "!accept 2");
    chat.say("alice", "!move 2 d4");
    chat.say("bob", "!move 2 d5");
    CHECK(chat.say("bob", "!resign 2").at(0).text.starts_with("@bob (Black) resigns."));
}

TEST_CASE("A game resigned before both sides moved is aborted and counts for nobody, unless it "
          "is a tournament's",
          "[bot][chat]") {
    Chat chat;
    chat.start();
    // Nobody has moved.
    CHECK(chat.say("alice", "!resign 1").at(0).text ==
          "@alice (White) resigns game #1 before both sides had moved: the game is aborted and "
          "counts for nobody.");
    CHECK(chat.store().game(1)->status == storage::GameStatus::Aborted);
    CHECK(chat.store().game(1)->result.empty());
    // White has moved, Black not yet: still no game.
    chat.say("alice", "!new chess @bob white tc=none");
    chat.say("bob", "!accept 2");
    chat.say("alice", "e4");
    CHECK(chat.say("bob", "!resign 2").at(0).text ==
          "@bob (Black) resigns game #2 before both sides had moved: the game is aborted and "
          "counts for nobody.");
    CHECK(chat.store().game(2)->status == storage::GameStatus::Aborted);
    CHECK_FALSE(chat.store().rating(chat.store().game(2)->white.value(), "chess").has_value());
    // Once both have moved, a resignation is a result.
    chat.say("alice", "!new chess @bob white tc=none");
    chat.say("bob", "!accept 3");
    chat.say("alice", "e4");
    chat.say("bob", "e5");
    CHECK(chat.say("bob", "!resign 3").at(0).text ==
          "@bob (Black) resigns. Game #3 is over: @alice (White) wins by resignation (1-0).");
    CHECK(chat.store().game(3)->status == storage::GameStatus::Finished);
}

TEST_CASE("a channel that moves takes its games along, and the new channel is told once",
          "[bot][chat]") {
    Chat chat;
    chat.start();
    chat.say("alice", "!new chess @bob white tc=none"); // #2, a challenge
    Post moved = chat.post("alice", "", "-100123");
    moved.author_id.clear(); // nobody wrote it
    moved.moved = bot::ChannelMove{"-100123", "-100999"};
    const auto told = chat.run(moved);
    REQUIRE(told.size() == 1);
    CHECK(told[0].destination == "-100999");
    CHECK(told[0].reply_to.empty());
    CHECK(told[0].text == "This chat moved to a new address, and everything under way here "
                          "follows it: games #1, #2.");
    Post again = chat.post("alice", "", "-100999");
    again.author_id.clear();
    again.moved = bot::ChannelMove{"-100123", "-100999"};
    CHECK(chat.run(again).empty());

    // The game is played on in the new channel, and no longer in the old one.
    CHECK(chat.say("alice", "e4", "-100123").empty());
    CHECK(chat.say("alice", "e4", "-100999").at(0).text.starts_with("@alice (White) played e4"));

    Post nothing = chat.post("alice", "", "-555");
    nothing.moved = bot::ChannelMove{"-555", "-100555"};
    CHECK(chat.run(nothing).empty()); // nothing was kept there: nothing to say
}

TEST_CASE("a player without a handle is named by display name, with the account attached",
          "[bot][chat]") {
    Chat chat;
    chat.say("alice", "!new chess tc=none");
    const auto accepted = chat.say("zoe", "!accept");
    REQUIRE(accepted.size() == 1);
    CHECK(accepted[0].text.starts_with("Zoë Ann accepts. Game #1, FIDE chess: @alice (White) vs "
                                       "Zoë Ann (Black)."));
    REQUIRE(accepted[0].named.size() == 1);
    CHECK(accepted[0].named[0].user_id == "3");
    CHECK(accepted[0].named[0].name == "Zoë Ann");
    // The Reply a platform gets names her account, without a handle.
    storage::OutboxEntry entry;
    entry.message.platform = "telegram";
    entry.message.text = accepted[0].text;
    entry.message.named = accepted[0].named;
    const bot::Reply reply = Service::to_reply(entry, &chat.store());
    const auto zoe = std::find_if(reply.mentions.begin(), reply.mentions.end(),
                                  [](const bot::Mention& m) { return m.user_id == "3"; });
    REQUIRE(zoe != reply.mentions.end());
    CHECK(zoe->handle.empty());
    CHECK(zoe->name == "Zoë Ann");
    CHECK(chat.say("alice", "e4").at(0).named.size() == 1); // "Zoë Ann (Black) must move."
    // Named only in a code block, where no platform links a name, or not at all: nothing.
    CHECK(chat.say("alice", "!games").at(0).named.empty());
    CHECK(chat.say("alice", "!help").at(0).named.empty());
}

TEST_CASE("a reply to a channel names the game its text is about, publicly", "[bot][chat]") {
    Chat chat;
    chat.start(); // game #1: alice (White) vs bob
    chat.say("zoe", "!new chess @alice tc=none");
    storage::OutboxEntry entry;
    entry.message.platform = "telegram";
    entry.message.destination = "-100123";
    const auto topic_of = [&](const std::string& text) {
        entry.message.text = text;
        const bot::Reply reply = Service::to_reply(entry, &chat.store());
        return std::to_string(reply.game) + " " + reply.topic;
    };
    CHECK(topic_of("@alice (White) played e4 in game #1.") == "1 game 1: FIDE chess, alice vs bob");
    // A challenge names its two sides until the seats are taken; no number: the newest game.
    CHECK(topic_of("Zoë Ann challenges @alice, game #2.") ==
          "2 game 2: FIDE chess, Zoë Ann vs alice");
    CHECK(topic_of("Hello.") == "2 game 2: FIDE chess, Zoë Ann vs alice");
    CHECK(topic_of("Game #12 is not here; game #1 is.") == "1 game 1: FIDE chess, alice vs bob");
    // A private reply, or a channel without games: nothing.
    entry.message.to_user = true;
    CHECK(topic_of("game #1") == "0 ");
    entry.message.to_user = false;
    entry.message.destination = "-100999";
    CHECK(topic_of("game #1") == "0 ");
}

TEST_CASE("the moderators hear the platform's notices by direct message", "[bot][chat]") {
    bot::ServiceSettings settings;
    settings.moderators = {"7", "9"};
    Chat chat(settings);
    chat.service().tell_moderators("telegram", {"Privacy mode is on."});
    const auto due = chat.store().due("telegram", 2000000000, 10);
    REQUIRE(due.size() == 2);
    CHECK(due[0].message.to_user);
    CHECK(due[0].message.destination == "7");
    CHECK(due[1].message.destination == "9");
    CHECK(due[1].message.text == "Privacy mode is on.");

    Chat unmoderated;
    unmoderated.service().tell_moderators("telegram", {"Privacy mode is on."});
    CHECK(unmoderated.store().pending_count("telegram") == 0);
}

TEST_CASE("a variant's own commands are the service's, each the action its word names",
          "[bot][chat]") {
    const auto menu = bot::command_menu();
    int commands = 0;
    for (const rules::Variant* variant : rules::variants())
        for (const rules::VariantCommand& c : variant->info().commands) {
            INFO(variant->info().name << " " << c.word);
            ++commands;
            CHECK(std::count_if(menu.begin(), menu.end(),
                                [&](const auto& m) { return m.name == c.word; }) == 1);
            Chat named;
            CHECK(named.say("alice", "!help " + c.word).at(0).text ==
                  "!" + c.form + ": " + c.help + ".");
            // Typed as a command and as a move, in the same game: the same answers.
            Chat as_command, as_move;
            for (Chat* chat : {&as_command, &as_move}) {
                chat->say("alice", "!new " + variant->info().name + " @bob white tc=none");
                chat->say("bob", "!accept");
            }
            const auto texts = [](const std::vector<Out>& out) {
                std::vector<std::string> t;
                for (const Out& o : out)
                    t.push_back(o.destination + ": " + o.text);
                return t;
            };
            const auto by_command = texts(as_command.say("alice", "!" + c.word));
            CHECK_FALSE(by_command.empty());
            CHECK(by_command == texts(as_move.say("alice", "!move " + c.word)));
        }
    CHECK(commands >= 1);
}

TEST_CASE("the menu lists every command of !help once, with the first clause of its help",
          "[bot][chat]") {
    const auto menu = bot::command_menu();
    std::set<std::string> names;
    for (const auto& c : menu)
        names.insert(c.name);
    CHECK(names.size() == menu.size());
    // The command words of !help's list ("!tourney join|leave <name>" is "tourney").
    Chat chat;
    const std::string list = chat.say("alice", "!help").at(0).code;
    std::set<std::string> helped;
    for (std::size_t at = 0; at < list.size();) {
        const std::size_t end = list.find('\n', at);
        const std::string line = list.substr(at, end - at);
        helped.insert(line.substr(1, line.find(' ') - 1));
        at = end == std::string::npos ? list.size() : end + 1;
    }
    CHECK(names == helped);
    CHECK(names.contains("tourney"));
    CHECK_FALSE(names.contains("tourney join"));
    const auto description = [&](const std::string& name) {
        for (const auto& c : menu)
            if (c.name == name)
                return c.description;
        return std::string("(missing)");
    };
    CHECK(description("move") == "Play a move");
    CHECK(description("resign") == "Give up the game");
    CHECK(description("draw") == "Offer a draw, accept one, or claim one the rules allow");
    CHECK(description("games") == "List games, those waiting for a decision first");
    for (const auto& c : menu)
        CHECK(c.description.size() <= 256);
}

TEST_CASE("a channel's boards are images where the platform shows them inline, and a compact "
          "channel gets one line per move",
          "[bot][chat]") {
    bot::ServiceSettings settings;
    settings.inline_images = {"telegram"};
    settings.web_base_url = "https://games.example.org";
    settings.moderators = {"3"}; // carol
    Chat chat(settings);
    chat.say("alice", "!new chess @bob white tc=none");
    const auto started = chat.say("bob", "!accept");
    REQUIRE_FALSE(started.empty());
    CHECK(started[0].png);
    CHECK(started[0].code.empty());
    CHECK(chat.say("carol", "!channel").at(0).text ==
          "Boards in this channel: orientation=white notation=ascii images=on style=board "
          "language=auto.");

    // Compact without images: one line, the game's page linked.
    CHECK(chat.say("carol", "!channel settings style=compact images=off").at(0).text ==
          "Boards in this channel: orientation=white notation=ascii images=off style=compact "
          "language=auto.");
    const auto moved = chat.say("alice", "e4");
    REQUIRE(moved.size() == 1);
    CHECK(moved[0].text == "@alice (White) played e4 in game #1. @bob (Black) must move. Web: "
                           "https://games.example.org/game/1");
    CHECK(moved[0].code.empty());
    CHECK_FALSE(moved[0].png);
    // !board still shows the whole board.
    CHECK_FALSE(chat.say("bob", "!board").at(0).code.empty());

    // Compact with images: the line and the image.
    chat.say("carol", "!channel settings images=on");
    const auto replied = chat.say("bob", "e5");
    REQUIRE(replied.size() == 1);
    CHECK(replied[0].text == "@bob (Black) played e5 in game #1. @alice (White) must move.");
    CHECK(replied[0].png);
    CHECK(replied[0].code.empty());

    // Where the platform shows no images inline (the console), text boards by default.
    bot::ServiceSettings plain;
    Chat text_chat(plain);
    text_chat.say("alice", "!new chess @bob white tc=none");
    const auto text_started = text_chat.say("bob", "!accept");
    CHECK_FALSE(text_started.at(0).png);
    CHECK_FALSE(text_started.at(0).code.empty());
}
