// One player, several platforms: !link joins an account of another platform to a player, and
// !invite / !join make a channel of another platform follow a game. Posts of two platforms go
// through one service and one store, as the daemon's lanes do.
#include "../storage/temp_path.h"
#include "ghostpost/service/service.h"

#include <catch2/catch.hpp>
#include <regex>
#include <string>
#include <vector>

using namespace ghostpost;
using bot::Post;
using ghostpost::testing::TempPath;

namespace {

std::int64_t fixed_clock() {
    return 1700000000;
}

struct Account {
    std::string platform;
    std::string id;
    std::string handle;
};

const Account alice_tg{"telegram", "100", "alice"};
const Account bob_tg{"telegram", "200", "bob"};
const Account alice_dc{"discord", "900", "alice_dc"};
const Account carol_dc{"discord", "902", "carol"};
const Account bob_dc{"discord", "901", "bob"}; // another person, who holds "bob" on Discord

class Chats {
public:
    Chats() : store_(storage::open_sqlite_store(path_.str())), service_(*store_, {}, fixed_clock) {}

    // A post of `who` in `channel` (empty: a direct message). Returns what went out, each as
    // "<platform> <destination>: <text>" (destination "dm <user>" for a direct message).
    std::vector<std::string> say(const Account& who, const std::string& text,
                                 const std::string& channel = {}) {
        Post p;
        p.platform = who.platform;
        p.direct = channel.empty();
        p.channel = channel.empty() ? who.id : channel;
        p.message_id = std::to_string(++next_id_);
        p.author_id = who.id;
        p.author_name = who.handle;
        p.author_handle = who.handle;
        p.text = text;
        for (std::size_t at = text.find('@'); at != std::string::npos; at = text.find('@', at + 1))
            p.mentions.push_back({text.substr(at + 1, text.find(' ', at) - at - 1), {}, {}});
        service_.handle(p);
        std::vector<std::string> out;
        for (const std::string platform : {"telegram", "discord"})
            for (const auto& e : store_->due(platform, 2000000000, 100)) {
                out.push_back(platform + " " + (e.message.to_user ? "dm " : "") +
                              e.message.destination + ": " + e.message.text +
                              (e.message.code.empty() ? "" : "\n" + e.message.code));
                store_->mark_sent(e.id, 0);
            }
        return out;
    }
    storage::Store& store() { return *store_; }

private:
    TempPath path_;
    std::unique_ptr<storage::Store> store_;
    bot::Service service_;
    int next_id_ = 0;
};

std::string code_in(const std::string& text) {
    std::smatch m;
    REQUIRE(std::regex_search(text, m, std::regex("[A-Z2-9]{4}-[A-Z2-9]{4}")));
    return m.str();
}

} // namespace

TEST_CASE("!link makes an account of another platform the same player, once per code",
          "[bot][link]") {
    Chats chats;
    auto out = chats.say(alice_tg, "!link", "group");
    REQUIRE(out.size() == 2);
    CHECK(out[1] == "telegram group: I sent you a link code by direct message.");
    REQUIRE(out[0].starts_with("telegram dm 100: Your link code is "));
    const std::string code = code_in(out[0]);
    CHECK(out[0] == "telegram dm 100: Your link code is " + code +
                        ". Within 15 minutes, send !link " + code +
                        " from your account on the other platform (best in a direct message to "
                        "me there): both accounts then become one player, with the same "
                        "ratings, games and settings. Give the code to nobody.");

    // Typed by hand: lower case, without the dash.
    std::string typed = code;
    typed.erase(4, 1);
    for (char& c : typed)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    CHECK(chats.say(alice_dc, "!link " + typed) ==
          std::vector<std::string>{"discord dm 900: Linked: this account and @alice on telegram "
                                   "are now one player, with the same ratings, games and "
                                   "settings."});
    const auto tg = chats.store().player_by_account("telegram", "100");
    const auto dc = chats.store().player_by_account("discord", "900");
    CHECK(dc->linked_to == tg->id);
    // Used up: nobody else can take the account's place with it.
    CHECK(chats.say(carol_dc, "!link " + code) ==
          std::vector<std::string>{"discord dm 902: \"" + code +
                                   "\" is no link code I know, or it expired. Send !link from "
                                   "your other account for a new one."});
    CHECK_FALSE(chats.store().player_by_account("discord", "902")->linked_to);
}

TEST_CASE("!link refuses an account with games of its own, and a second account per platform",
          "[bot][link]") {
    Chats chats;
    chats.say(bob_dc, "!new chess @carol", "dc-room"); // bob on Discord has a game
    auto code = code_in(chats.say(alice_tg, "!link")[0]);
    CHECK(chats.say(bob_dc, "!link " + code) ==
          std::vector<std::string>{
              "discord dm 901: This account has games or ratings of its own, so it cannot join "
              "another player. Send !link here for a code, and post that code from the other "
              "account instead (if that one has played nothing yet). Nothing changed."});
    code = code_in(chats.say(alice_tg, "!link")[0]);
    CHECK(chats.say(alice_dc, "!link " + code).size() == 1);
    code = code_in(chats.say(alice_tg, "!link")[0]);
    CHECK(chats.say(carol_dc, "!link " + code) ==
          std::vector<std::string>{"discord dm 902: That player has an account here already "
                                   "(@alice_dc); a player has one account per platform. Nothing "
                                   "changed."});
}

TEST_CASE("A game followed on another platform: replies in both channels, moves from either",
          "[bot][link]") {
    Chats chats;
    chats.say(alice_dc, "hello", "dc-room"); // alice's Discord account exists
    chats.say(alice_dc, "!link " + code_in(chats.say(alice_tg, "!link")[0]));
    chats.say(bob_tg, "!new chess @alice white tc=none", "group");
    chats.say(alice_tg, "!accept", "group");
    chats.say(bob_tg, "e4", "group");

    // The code goes to bob alone: whoever reads it first could redeem it.
    auto out = chats.say(bob_tg, "!invite discord", "group");
    REQUIRE(out.size() == 2);
    const std::string code = code_in(out[0]);
    CHECK(out[0] == "telegram dm 200: To follow game #1 in a discord channel, post !join " + code +
                        " there within 15 minutes: it will get every public reply of the "
                        "game, and its players may play from there.");
    CHECK(out[1] == "telegram group: @bob: I sent you the invitation code for game #1 privately.");
    CHECK(chats.say(carol_dc, "!join " + code) ==
          std::vector<std::string>{"discord dm 902: Post the code in the channel that should "
                                   "follow the game."});
    CHECK(chats.say(carol_dc, "!join " + code, "dc-room") ==
          std::vector<std::string>{
              "telegram group: This channel now follows game #1 (FIDE chess), played on "
              "telegram: every public reply of the game comes here too.",
              "discord dc-room: This channel now follows game #1 (FIDE chess), played on "
              "telegram: every public reply of the game comes here too."});

    // alice answers from Discord. There she is @alice_dc; bob has no Discord account, so he is
    // named without '@' (the Discord user "bob" is somebody else). The Telegram copy names
    // nobody with '@': its handles are Discord's.
    out = chats.say(alice_dc, "e5", "dc-room");
    REQUIRE(out.size() == 2);
    CHECK(out[0].starts_with("telegram group: alice_dc (Black) played e5 in game #1. bob "
                             "(White) must move."));
    CHECK(out[1].starts_with("discord dc-room: @alice_dc (Black) played e5 in game #1. bob "
                             "(White) must move."));
    // bob plays on from Telegram; both channels see it.
    out = chats.say(bob_tg, "Nf3", "group");
    REQUIRE(out.size() == 2);
    CHECK(out[0].starts_with("telegram group: @bob (White) played Nf3 in game #1. @alice"));
    CHECK(out[1].starts_with("discord dc-room: bob (White) played Nf3 in game #1. alice"));
    // carol, not a player, cannot move from the followed channel.
    CHECK(chats.say(carol_dc, "Nc6", "dc-room").empty());
    std::vector<std::string> log;
    for (const auto& a : chats.store().actions(1))
        log.push_back(a.text);
    CHECK(log == std::vector<std::string>{"e4", "e5", "Nf3"});
    // !games from either account lists the game.
    const auto games = chats.say(alice_dc, "!games");
    REQUIRE(games.size() == 1);
    CHECK(games[0] == "discord dm 900: Games of @alice_dc, those waiting for them first:\n"
                      "#1 chess vs bob: @alice_dc (Black) must move.\n");
}
