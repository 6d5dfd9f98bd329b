// The outbox sender: order per destination, Telegram's pacing, and what each delivery
// outcome does to the queued reply.
#include "ghostpost/app/daemon.h"
#include "ghostpost/log/log.h"

#include <catch2/catch.hpp>
#include <deque>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <unistd.h>

using namespace ghostpost;
using namespace ghostpost::bot;

namespace {

class ScriptedPlatform final : public Platform {
public:
    std::string name() const override { return "telegram"; }
    std::vector<Post> poll(const std::string&, std::chrono::seconds) override { return {}; }
    Pacing pacing() const override;
    bool is_group(const std::string& channel) const override { return channel.starts_with('-'); }
    Delivery send(const Reply& reply) override {
        sent.push_back(reply.destination + ":" + reply.text);
        if (outcomes.empty()) {
            return {};
        }
        Delivery d = outcomes.front();
        outcomes.pop_front();
        return d;
    }
    std::deque<Delivery> outcomes;
    std::vector<std::string> sent;
};

struct Fixture {
    Fixture()
        : path(std::filesystem::temp_directory_path() /
               ("ghostpost-outbox-" + std::to_string(getpid()) + "-" + std::to_string(counter++) +
                ".sqlite")),
          store(storage::open_sqlite_store(path.string(), {5000, false, true})),
          sender(
              *store, platform, [this] { return now; }, [this] { return steady; }) {
        log::set_sink(log_lines);
    }
    ~Fixture() {
        log::set_sink(std::cerr);
        store.reset();
        for (const char* suffix : {"", "-wal", "-shm"}) {
            std::filesystem::remove(path.string() + suffix);
        }
    }
    static Pacing pacing() {
        Pacing p;
        p.per_chat = std::chrono::milliseconds(1000);
        p.group_per_minute = 20;
        p.max_backoff = std::chrono::seconds(300);
        p.blocked_retry = std::chrono::seconds(30);
        return p;
    }
    void queue(const std::string& destination, const std::string& text, bool to_user = false) {
        storage::OutgoingMessage m;
        m.platform = "telegram";
        m.to_user = to_user;
        m.destination = destination;
        m.text = text;
        store->enqueue(m, now);
    }
    static inline int counter = 0;
    std::ostringstream log_lines;
    std::filesystem::path path;
    std::unique_ptr<storage::Store> store;
    ScriptedPlatform platform;
    std::int64_t now = 1'700'000'000;
    std::chrono::steady_clock::time_point steady{std::chrono::hours(1)};
    OutboxSender sender;
};

Pacing ScriptedPlatform::pacing() const {
    return Fixture::pacing();
}

} // namespace

TEST_CASE("replies go out in order per chat, one a second per chat", "[outbox]") {
    Fixture f;
    f.queue("-1", "a1");
    f.queue("-1", "a2");
    f.queue("-2", "b1");
    f.queue("-1", "a3");
    CHECK(f.sender.send_due() == 2);
    CHECK(f.platform.sent == std::vector<std::string>{"-1:a1", "-2:b1"});
    f.steady += std::chrono::milliseconds(500);
    CHECK(f.sender.send_due() == 0);
    f.steady += std::chrono::milliseconds(500);
    CHECK(f.sender.send_due() == 1);
    f.steady += std::chrono::seconds(1);
    CHECK(f.sender.send_due() == 1);
    CHECK(f.platform.sent == std::vector<std::string>{"-1:a1", "-2:b1", "-1:a2", "-1:a3"});
    CHECK_FALSE(f.sender.pending());
}

TEST_CASE("a group gets at most twenty replies in any minute", "[outbox]") {
    Fixture f;
    for (int i = 0; i < 25; ++i) {
        f.queue("-7", "m" + std::to_string(i));
    }
    int sent = 0;
    for (int second = 0; second < 60; ++second) {
        sent += f.sender.send_due();
        f.steady += std::chrono::seconds(1);
    }
    CHECK(sent == 20);
    f.steady += std::chrono::seconds(1);
    CHECK(f.sender.send_due() == 1);
    CHECK(f.platform.sent.back() == "-7:m20");
}

TEST_CASE("a 429 holds the chat for retry_after and keeps the order", "[outbox]") {
    Fixture f;
    f.queue("-1", "first");
    f.queue("-1", "second");
    f.platform.outcomes.push_back({Delivery::Status::RetryAfter, std::chrono::seconds(7), "429"});
    CHECK(f.sender.send_due() == 0);
    // `now` is a second already begun: the wait ends one second after now + 7, never before.
    f.steady += std::chrono::seconds(5);
    f.now += 7;
    CHECK(f.sender.send_due() == 0);
    CHECK(f.platform.sent.size() == 1);
    f.now += 1;
    CHECK(f.sender.send_due() == 1);
    f.steady += std::chrono::seconds(1);
    CHECK(f.sender.send_due() == 1);
    CHECK(f.platform.sent == std::vector<std::string>{"-1:first", "-1:first", "-1:second"});
}

TEST_CASE("transient failures retry with a jittered, growing delay", "[outbox]") {
    Fixture f;
    f.queue("-1", "x");
    for (int i = 0; i < 3; ++i) {
        f.platform.outcomes.push_back({Delivery::Status::Transient, {}, "502"});
    }
    // Attempt n waits between 0.5 and 1.5 times 2^n seconds.
    const std::int64_t bounds[3][2] = {{1, 1}, {1, 3}, {2, 6}};
    for (const auto& bound : bounds) {
        const std::int64_t start = f.now;
        CHECK(f.sender.send_due() == 0);
        f.steady += std::chrono::seconds(10);
        std::int64_t waited = 0;
        while (f.store->due("telegram", f.now, 10).empty()) {
            ++f.now;
            ++waited;
            REQUIRE(waited < 20);
        }
        CHECK(f.now - start >= bound[0]);
        CHECK(f.now - start <= bound[1]);
    }
    CHECK(f.sender.send_due() == 1);
    CHECK(f.platform.sent.size() == 4);
}

TEST_CASE("a refused reply is given up and reported once in the same chat", "[outbox]") {
    Fixture f;
    f.queue("-1", "too long");
    f.platform.outcomes.push_back(
        {Delivery::Status::Failed, {}, "sendMessage: 400 Bad Request: message is too long"});
    f.platform.outcomes.push_back(
        {Delivery::Status::Failed, {}, "sendMessage: 400 Bad Request: again"});
    CHECK(f.sender.send_due() == 0);
    f.steady += std::chrono::seconds(2);
    CHECK(f.sender.send_due() == 0);
    // Our own words in the chat: the platform's description stays in the log.
    CHECK(f.platform.sent ==
          std::vector<std::string>{"-1:too long",
                                   "-1:A reply could not be delivered here; the operators can "
                                   "find why in the log."});
    CHECK(f.store->pending_count("telegram") == 0);
}

TEST_CASE("a private reply to a player who never opened the chat waits, never given up",
          "[outbox]") {
    Fixture f;
    f.queue("88", "your secret board", true);
    f.queue("88", "second secret", true);
    f.platform.outcomes.push_back({Delivery::Status::Blocked, {}, "403"});
    CHECK(f.sender.send_due() == 0);
    CHECK(f.store->pending_count("telegram") == 2);
    f.now += 29;
    f.steady += std::chrono::seconds(29);
    CHECK(f.sender.send_due() == 0);
    f.now += 1;
    CHECK(f.sender.send_due() == 1);
    CHECK(f.platform.sent ==
          std::vector<std::string>{"88:your secret board", "88:your secret board"});
}

TEST_CASE("a refused private reply posts the service's notice in the game's channel once",
          "[outbox]") {
    Fixture f;
    storage::OutgoingMessage secret;
    secret.platform = "telegram";
    secret.to_user = true;
    secret.destination = "88";
    secret.text = "Game #3: your Phantom stands on d5";
    secret.notice_channel = "-100";
    secret.blocked_notice = "@bob: open a private chat with me";
    f.store->enqueue(secret, f.now);
    f.platform.outcomes.push_back({Delivery::Status::Blocked, {}, "403"});
    CHECK(f.sender.send_due() == 0); // refused; the notice is queued for the next round
    CHECK(f.sender.send_due() == 1);
    // The secret was refused; the notice went to the channel, not the secret.
    CHECK(f.platform.sent == std::vector<std::string>{"88:Game #3: your Phantom stands on d5",
                                                      "-100:@bob: open a private chat with me"});
    f.now += 30;
    f.steady += std::chrono::seconds(30);
    f.platform.outcomes.push_back({Delivery::Status::Blocked, {}, "403"});
    CHECK(f.sender.send_due() == 0);
    CHECK(f.sender.send_due() == 0);
    CHECK(f.platform.sent.size() == 3); // retried privately, and no second notice
    CHECK(f.store->pending_count("telegram") == 1);
}
