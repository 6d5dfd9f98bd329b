// The service keeps replayed games and board images in memory; they must never outlive the game
// they were made from, even when another process changes it.
#include "../storage/temp_path.h"
#include "ghostpost/service/service.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace ghostpost;
using bot::Post;
using bot::Service;
using ghostpost::testing::TempPath;

namespace {

std::int64_t fixed_clock() {
    return 1700000000;
}

// One daemon process: its own connection to the shared database and its own caches.
class Process {
public:
    explicit Process(const std::string& db, bot::ServiceSettings settings = {})
        : store_(storage::open_sqlite_store(db)),
          service_(*store_, std::move(settings), fixed_clock) {}
    std::vector<std::string> say(const std::string& id, const std::string& user,
                                 const std::string& text) {
        Post p;
        p.platform = "console";
        p.channel = "g";
        p.message_id = id;
        p.author_id = user;
        p.author_name = user;
        p.author_handle = user;
        p.text = text;
        service_.handle(p);
        std::vector<std::string> out;
        for (const auto& e : store_->due("console", 2000000000, 100)) {
            out.push_back(e.message.text + "\n" + e.message.code);
            if (!e.message.png.empty())
                last_png = e.message.png;
            store_->mark_sent(e.id, 0);
        }
        return out;
    }
    int replays() const { return service_.replays(); }
    std::size_t cached_games() const { return service_.cached_games(); }
    std::vector<std::uint8_t> last_png;

private:
    std::unique_ptr<storage::Store> store_;
    Service service_;
};

} // namespace

TEST_CASE("Another process's takeback and new move reach this process's cached game",
          "[bot][cache]") {
    TempPath path;
    Process a(path.str()), b(path.str());
    a.say("1", "alice", "!new chess @bob");
    a.say("2", "bob", "!accept");
    a.say("3", "alice", "e4");
    const auto before = a.say("4", "bob", "!board");
    REQUIRE(before.size() == 1);
    CHECK(before[0].find("Last move: e2-e4.") != std::string::npos);
    const int replays = a.replays();
    CHECK(a.say("5", "bob", "!board").size() == 1);
    CHECK(a.replays() == replays); // nothing changed: the cached game serves

    // The other process takes e4 back and plays d4: as many plies as before, another game.
    b.say("6", "alice", "!takeback");
    b.say("7", "bob", "!takeback");
    b.say("8", "alice", "d4");
    const auto after = a.say("9", "bob", "!board");
    REQUIRE(after.size() == 1);
    CHECK(after[0].find("Last move: d2-d4.") != std::string::npos);
    CHECK(a.replays() == replays + 1);
    // And the move the cached game would have refused is now the legal one.
    CHECK(a.say("10", "bob", "d5").front().find("d7-d5") != std::string::npos);
}

TEST_CASE("A board image is not served from the cache after another process changed the game",
          "[bot][cache]") {
    TempPath path;
    Process a(path.str()), b(path.str());
    a.say("1", "alice", "!new chess @bob");
    a.say("2", "bob", "!accept");
    a.say("3", "alice", "e4");
    a.say("4", "bob", "!board png");
    const auto stale = a.last_png;
    REQUIRE_FALSE(stale.empty());
    b.say("5", "alice", "!takeback");
    b.say("6", "bob", "!takeback");
    b.say("7", "alice", "d4");
    a.say("8", "bob", "!board png");
    // A third process that never saw e4 renders the d4 game afresh: the same image.
    Process c(path.str());
    c.say("9", "bob", "!board png");
    REQUIRE_FALSE(c.last_png.empty());
    CHECK(a.last_png != stale);
    CHECK(a.last_png == c.last_png);
}

TEST_CASE("The games kept in memory are bounded, the least recently used dropped first",
          "[bot][cache]") {
    TempPath path;
    bot::ServiceSettings settings;
    settings.game_cache_size = 2;
    Process p(path.str(), settings);
    int id = 0;
    const auto next = [&] { return std::to_string(++id); };
    for (int game = 1; game <= 3; ++game) {
        p.say(next(), "alice", "!new chess @bob");
        p.say(next(), "bob", "!accept " + std::to_string(game));
    }
    CHECK(p.cached_games() == 2); // games 2 and 3; game 1 was dropped
    const int replays = p.replays();
    p.say(next(), "bob", "!board 3");
    CHECK(p.replays() == replays); // kept
    p.say(next(), "bob", "!board 1");
    CHECK(p.replays() == replays + 1); // dropped, so rebuilt from its log
    CHECK(p.cached_games() == 2);
    p.say(next(), "bob", "!board 3");
    CHECK(p.replays() == replays + 1); // 3 was used more recently than 2: still kept
    p.say(next(), "bob", "!board 2");
    CHECK(p.replays() == replays + 2);
}
