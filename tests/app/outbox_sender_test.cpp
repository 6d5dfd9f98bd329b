// The outbox sender as every platform uses it, driven by a fake clock and a scripted platform:
// what it keeps of a platform's failure, and when it tries again.
#include "../storage/temp_path.h"
#include "ghostpost/app/daemon.h"
#include "ghostpost/log/log.h"
#include "ghostpost/storage/sqlite.h"

#include <catch2/catch.hpp>
#include <deque>
#include <iostream>
#include <sstream>

using namespace ghostpost;
using ghostpost::testing::TempPath;

namespace {

// Answers each send with the next scripted Delivery (Sent once the script is used up).
class ScriptedPlatform final : public bot::Platform {
public:
    std::string name() const override { return "script"; }
    std::vector<bot::Post> poll(const std::string&, std::chrono::seconds) override { return {}; }
    bot::Delivery send(const bot::Reply& reply) override {
        sent.push_back(reply.text);
        keys.push_back(reply.idempotency_key);
        mentions.push_back(reply.mentions);
        if (answers.empty())
            return {};
        bot::Delivery d = answers.front();
        answers.pop_front();
        return d;
    }
    bot::Pacing pacing() const override {
        bot::Pacing unpaced;
        unpaced.per_chat = std::chrono::milliseconds(0);
        return unpaced;
    }
    std::deque<bot::Delivery> answers;
    std::vector<std::string> sent;
    std::vector<std::string> keys;
    std::vector<std::vector<bot::Mention>> mentions;
};

storage::OutgoingMessage reply_to(const std::string& channel, const std::string& text) {
    storage::OutgoingMessage m;
    m.platform = "script";
    m.destination = channel;
    m.text = text;
    return m;
}

std::string last_error(const std::string& db, std::int64_t id) {
    storage::Database database(db);
    storage::Statement s(database, "SELECT last_error FROM outbox WHERE id = ?1");
    s.bind(1, id);
    REQUIRE(s.step());
    return s.column_text(0);
}

} // namespace

TEST_CASE("A platform's refusal is stored redacted and short and told in our own words",
          "[bot][outbox]") {
    TempPath path;
    auto store = storage::open_sqlite_store(path.str());
    std::int64_t now = 1700000000;
    ScriptedPlatform platform;
    bot::OutboxSender sender(*store, platform, [&] { return now; });
    const std::string token = "123456:AAF-very-secret-token";
    bot::log::add_secret(token);
    std::ostringstream log_lines;
    bot::log::set_sink(log_lines);

    const std::int64_t id = store->enqueue(reply_to("-100", "Your move, @bob."), now);
    bot::Delivery refused;
    refused.status = bot::Delivery::Status::Failed;
    refused.detail = "Bad Request: https://api.telegram.org/bot" + token +
                     "/sendMessage is wrong " + std::string(100000, 'x');
    platform.answers.push_back(refused);
    CHECK(sender.send_due() == 0); // refused for good: given up, a notice queued
    CHECK(sender.send_due() == 1); // the notice
    CHECK(store->pending_count("script") == 0);
    bot::log::set_sink(std::cerr);
    bot::log::clear_secrets();

    REQUIRE(platform.sent.size() == 2);
    CHECK(platform.sent[1] ==
          "A reply could not be delivered here; the operators can find why in the log.");
    const std::string kept = last_error(path.str(), id);
    CHECK(kept.find(token) == std::string::npos);
    CHECK(kept.starts_with("Bad Request: https://api.telegram.org/bot[redacted]"));
    CHECK(kept.size() <= 203); // 200 characters and "..."
    CHECK(log_lines.str().find(token) == std::string::npos);
    CHECK(log_lines.str().find(std::string(300, 'x')) == std::string::npos);
}

TEST_CASE("A retry_after is honoured to the second, never a fraction early", "[bot][outbox]") {
    TempPath path;
    auto store = storage::open_sqlite_store(path.str());
    std::int64_t now = 1700000000;
    ScriptedPlatform platform;
    bot::OutboxSender sender(*store, platform, [&] { return now; });
    std::ostringstream log_lines;
    bot::log::set_sink(log_lines);
    store->enqueue(reply_to("-100", "e4"), now);
    bot::Delivery limited;
    limited.status = bot::Delivery::Status::RetryAfter;
    limited.retry_after = std::chrono::seconds(7);
    platform.answers.push_back(limited);
    CHECK(sender.send_due() == 0);
    // The 429 may have come at any fraction of the second `now` began: seven whole seconds
    // have surely passed only once the clock reads now + 8.
    for (int waited = 1; waited <= 7; ++waited) {
        now = 1700000000 + waited;
        CHECK(sender.send_due() == 0);
    }
    now = 1700000008;
    CHECK(sender.send_due() == 1);
    bot::log::set_sink(std::cerr);
    CHECK(platform.sent == std::vector<std::string>{"e4", "e4"});
}

TEST_CASE("Every attempt at a reply carries its key, and no other reply ever has it",
          "[bot][outbox]") {
    TempPath path;
    auto store = storage::open_sqlite_store(path.str());
    std::int64_t now = 1700000000;
    ScriptedPlatform platform;
    bot::OutboxSender sender(*store, platform, [&] { return now; });
    std::ostringstream log_lines;
    bot::log::set_sink(log_lines);
    const std::int64_t first = store->enqueue(reply_to("-100", "e4"), now);
    bot::Delivery transient;
    transient.status = bot::Delivery::Status::Transient;
    platform.answers.push_back(transient);
    CHECK(sender.send_due() == 0);
    now += 600;
    CHECK(sender.send_due() == 1);
    const std::string key = std::to_string(first) + ".1700000000";
    CHECK(platform.keys == std::vector<std::string>{key, key});
    // Pruned, the newest row's id comes back for the next reply; its key does not.
    now += 10;
    CHECK(store->prune(now, 0) == 1);
    const std::int64_t second = store->enqueue(reply_to("-100", "e5"), now);
    CHECK(second == first);
    CHECK(sender.send_due() == 1);
    bot::log::set_sink(std::cerr);
    REQUIRE(platform.keys.size() == 3);
    CHECK(platform.keys[2] == std::to_string(first) + ".1700000610");
}

TEST_CASE("A reply carries the accounts its @handles name, as the store knows them",
          "[bot][outbox]") {
    TempPath path;
    auto store = storage::open_sqlite_store(path.str());
    std::int64_t now = 1700000000;
    ScriptedPlatform platform;
    bot::OutboxSender sender(*store, platform, [&] { return now; });
    store->upsert_player("script", "u-1", "Alice W.", "alice");
    store->upsert_player("script", "u-2", "Bob", "bob");
    store->upsert_player("other", "o-9", "Carol", "carol"); // another platform's account
    store->enqueue(reply_to("-100", "@Alice (White) played e4. @bob, @carol and @nobody watch; "
                                    "mail@bob is no name. Your move, @bob."),
                   now);
    CHECK(sender.send_due() == 1);
    REQUIRE(platform.mentions.size() == 1);
    const auto& named = platform.mentions[0];
    REQUIRE(named.size() == 2); // each once; carol is not of this platform, nobody is unknown
    CHECK(named[0].handle == "Alice"); // as the text writes it, for the platform to find
    CHECK(named[0].user_id == "u-1");
    CHECK(named[0].name == "Alice W.");
    CHECK(named[1].handle == "bob");
    CHECK(named[1].user_id == "u-2");
}

namespace {

// Sends like ScriptedPlatform, then dies (the process killed) on the send numbered `dies_at`.
class DyingPlatform final : public bot::Platform {
public:
    explicit DyingPlatform(int dies_at_send) : dies_at(dies_at_send) {}
    std::string name() const override { return "script"; }
    std::vector<bot::Post> poll(const std::string&, std::chrono::seconds) override { return {}; }
    bot::Delivery send(const bot::Reply& reply) override {
        if (static_cast<int>(sent.size()) + 1 == dies_at)
            throw std::runtime_error("killed");
        sent.push_back(reply.text);
        return {};
    }
    bot::Pacing pacing() const override {
        bot::Pacing unpaced;
        unpaced.per_chat = std::chrono::milliseconds(0);
        return unpaced;
    }
    int dies_at;
    std::vector<std::string> sent;
};

} // namespace

TEST_CASE("a reply is marked sent as it goes out: a crash repeats none already taken",
          "[bot][outbox]") {
    TempPath path;
    std::int64_t now = 1700000000;
    {
        auto store = storage::open_sqlite_store(path.str());
        for (int i = 1; i <= 5; ++i)
            store->enqueue(reply_to("-10" + std::to_string(i), "reply " + std::to_string(i)), now);
    }
    // The process dies while the fourth reply is on its way: three went out.
    {
        auto store = storage::open_sqlite_store(path.str());
        DyingPlatform dying(4);
        bot::OutboxSender sender(*store, dying, [&] { return now; });
        CHECK_THROWS_WITH(sender.send_due(), "killed");
        CHECK(dying.sent == std::vector<std::string>{"reply 1", "reply 2", "reply 3"});
    }
    // After the restart only the two that never went out are sent: none of the first three
    // again (before, the whole batch was marked at its end, and all five went out again).
    auto store = storage::open_sqlite_store(path.str());
    CHECK(store->pending_count("script") == 2);
    ScriptedPlatform platform;
    bot::OutboxSender sender(*store, platform, [&] { return now; });
    CHECK(sender.send_due() == 2);
    CHECK(platform.sent == std::vector<std::string>{"reply 4", "reply 5"});
    CHECK(store->pending_count("script") == 0);
}
