// Who a post's author is, and whom an "@name" names: platform accounts, never display names.
// Each case reproduces a way the service could be fooled when identity was a display name.
#include "../storage/temp_path.h"
#include "ghostpost/service/service.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace ghostpost;
using bot::Mention;
using bot::Post;
using bot::Service;
using ghostpost::testing::TempPath;

namespace {

std::int64_t fixed_clock() {
    return 1700000000;
}

struct Account {
    std::string id;
    std::string name;   // display name
    std::string handle; // username, empty when the account has none
};

const Account alice{"100", "Alice", "alice"};
const Account bob{"200", "Robert", "bob"};
const Account decoy{"300", "bob", ""}; // no username; first name "bob"
const Account carol{"400", "Carol", "carol"};

class Chat {
public:
    explicit Chat(bot::ServiceSettings settings = {})
        : store_(storage::open_sqlite_store(path_.str())),
          service_(*store_, std::move(settings), fixed_clock) {}

    // A post of `who` in `channel` (empty: a direct message); every "@word" of the text is a
    // handle mention, as a platform marks them.
    std::vector<std::string> say(const Account& who, const std::string& text,
                                 const std::string& channel = "group",
                                 std::vector<Mention> extra = {}) {
        Post p;
        p.platform = "telegram";
        p.direct = channel.empty();
        p.channel = channel.empty() ? who.id : channel;
        p.message_id = std::to_string(++next_id_);
        p.author_id = who.id;
        p.author_name = who.name;
        p.author_handle = who.handle;
        p.text = text;
        for (std::size_t at = text.find('@'); at != std::string::npos;
             at = text.find('@', at + 1)) {
            std::size_t end = text.find(' ', at);
            p.mentions.push_back(
                {text.substr(at + 1, end == std::string::npos ? end : end - at - 1), {}, {}});
        }
        for (auto& m : extra)
            p.mentions.push_back(std::move(m));
        p.anonymous = anonymous_next_;
        anonymous_next_ = false;
        service_.handle(p);
        return drain();
    }
    void next_is_anonymous() { anonymous_next_ = true; }
    storage::Store& store() { return *store_; }

private:
    std::vector<std::string> drain() {
        std::vector<std::string> out;
        for (const auto& e : store_->due("telegram", 2000000000, 100)) {
            out.push_back(e.message.text);
            store_->mark_sent(e.id, 0);
        }
        return out;
    }
    TempPath path_;
    std::unique_ptr<storage::Store> store_;
    Service service_;
    int next_id_ = 0;
    bool anonymous_next_ = false;
};

bool starts_with(const std::vector<std::string>& replies, const std::string& text) {
    return replies.size() == 1 && replies[0].starts_with(text);
}

} // namespace

TEST_CASE("An account whose display name is bob cannot take a challenge made to @bob",
          "[bot][identity]") {
    Chat chat;
    chat.say(bob, "!games"); // the real @bob has written before
    chat.say(alice, "!new chess @bob");
    CHECK(chat.say(decoy, "!accept 1") ==
          std::vector<std::string>{"Challenge #1 is not addressed to you."});
    CHECK(chat.say(decoy, "!accept") ==
          std::vector<std::string>{"There is no challenge for you here."});
    CHECK(chat.store().game(1)->status == storage::GameStatus::Challenge);
    // The decoy's bare move is chatter: it plays in no game.
    CHECK(chat.say(decoy, "e4").empty());

    const auto accepted = chat.say(bob, "!accept");
    REQUIRE(accepted.size() == 1);
    CHECK(accepted[0].starts_with("@bob accepts. Game #1, FIDE chess: @alice (White) vs @bob "
                                  "(Black)."));
    CHECK(chat.store().game(1)->black == chat.store().player_by_account("telegram", bob.id)->id);
}

TEST_CASE("A challenge to a handle nobody has used yet waits for that handle's account",
          "[bot][identity]") {
    Chat chat;
    chat.say(alice, "!new chess @bob");
    CHECK(chat.say(decoy, "!accept 1") ==
          std::vector<std::string>{"Challenge #1 is not addressed to you."});
    CHECK(starts_with(chat.say(bob, "!accept 1"), "@bob accepts."));
    CHECK(chat.store().game(1)->challenged_id ==
          chat.store().player_by_account("telegram", bob.id)->id);
}

TEST_CASE("A mention by account challenges that account even without a username",
          "[bot][identity]") {
    Chat chat;
    // Telegram's text_mention: the platform names the account behind the words.
    chat.say(alice, "!new chess bob", "group", {Mention{"", decoy.id, "bob"}});
    CHECK(chat.say(bob, "!accept 1") ==
          std::vector<std::string>{"Challenge #1 is not addressed to you."});
    CHECK(starts_with(chat.say(decoy, "!accept 1"), "bob accepts."));
}

TEST_CASE("A moderator's ban lands on the account of the handle, not on a look-alike",
          "[bot][identity][mod]") {
    bot::ServiceSettings settings;
    settings.moderators = {carol.id};
    Chat chat(settings);
    chat.say(bob, "!games");
    chat.say(decoy, "!games"); // seen last, with the display name "bob"
    const auto banned = chat.say(carol, "!mod ban @bob cheating");
    REQUIRE(banned.size() == 1);
    CHECK(banned[0].starts_with("@bob is banned by moderator @carol"));
    CHECK(chat.store().ban("telegram", bob.id).has_value());
    CHECK_FALSE(chat.store().ban("telegram", decoy.id).has_value());
    CHECK(chat.say(carol, "!mod ban @nobody") ==
          std::vector<std::string>{"I do not know @nobody yet. Nothing was done."});
}

TEST_CASE("Anonymous senders may look but not play", "[bot][identity]") {
    Chat chat;
    chat.next_is_anonymous();
    CHECK(chat.say(Account{"1087968824", "Group", "GroupAnonymousBot"}, "!new chess") ==
          std::vector<std::string>{
              "Anonymous posts cannot play or change anything: I cannot tell who is behind "
              "them. Post as yourself to use !new."});
    CHECK(chat.store().game(1) == std::nullopt);
    chat.say(alice, "!new chess");
    chat.next_is_anonymous();
    CHECK(starts_with(chat.say(Account{"1087968824", "Group", "GroupAnonymousBot"}, "!accept"),
                      "Anonymous posts cannot play"));
    chat.next_is_anonymous();
    CHECK(starts_with(chat.say(Account{"1087968824", "Group", "GroupAnonymousBot"}, "!help rules"),
                      "!rules [variant]: "));
}

TEST_CASE("An open challenge is accepted only in the channel where it was made",
          "[bot][identity]") {
    Chat chat;
    chat.say(alice, "!new chess");
    CHECK(chat.say(bob, "!accept 1", "other-group") ==
          std::vector<std::string>{"Challenge #1 is open to anyone in the channel where it was "
                                   "made: accept it there."});
    CHECK(chat.say(bob, "!accept 1", "") ==
          std::vector<std::string>{"Challenge #1 is open to anyone in the channel where it was "
                                   "made: accept it there."});
    CHECK(chat.say(bob, "!accept", "other-group") ==
          std::vector<std::string>{"There is no challenge for you here."});
    CHECK(chat.store().game(1)->status == storage::GameStatus::Challenge);
    CHECK(starts_with(chat.say(bob, "!accept 1", "group"), "@bob accepts."));
}

TEST_CASE("A board at a ply past any game's end is answered and changes nothing",
          "[bot][service]") {
    Chat chat;
    chat.say(alice, "!new chess @bob");
    chat.say(bob, "!accept");
    chat.say(alice, "e4");
    for (const char* ply : {"2147483648", "4294967297", "999999999999"})
        CHECK(chat.say(bob, std::string("!board 1 ") + ply) ==
              std::vector<std::string>{"Game #1 has only 1 ply."});
    CHECK(
        chat.say(bob, "!board 1 9999999999999") ==
        std::vector<std::string>{"I did not understand \"9999999999999\". Use: !board [game] [ply] "
                                 "[ascii|unicode|png] [flip]"});
}

TEST_CASE("A post without an author moves on and leaves no player behind", "[bot][identity]") {
    Chat chat;
    CHECK(chat.say(Account{"", "", ""}, "!new chess").empty());
    CHECK_FALSE(chat.store().player_by_account("telegram", "").has_value());
    CHECK(chat.store().game(1) == std::nullopt);
}
