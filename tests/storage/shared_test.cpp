// Several daemons on one PostgreSQL database: leases on polling, claims on outbox entries and
// due games, and posts of one game one after the other. Each daemon is a connection here.
#include "../support/test_stores.h"
#include "ghostpost/storage/store.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <functional>
#include <future>
#include <latch>
#include <mutex>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace ghostpost::storage;
using ghostpost::rules::Seat;
using ghostpost::testing::Backend;
using ghostpost::testing::FreshStore;

namespace {

std::int64_t new_game(Store& store) {
    const auto alice = store.upsert_player("telegram", "1", "alice", "alice");
    GameRecord g;
    g.variant = "chess";
    g.platform = "telegram";
    g.channel = "-100";
    g.challenger = alice.id;
    g.challenger_color = "white";
    g.white = alice.id;
    g.black = alice.id;
    g.status = GameStatus::Ongoing;
    g.seed = {1, 2, 3};
    return store.create_game(g);
}

std::vector<std::string> texts(const std::vector<OutboxEntry>& entries) {
    std::vector<std::string> out;
    for (const auto& e : entries)
        out.push_back(e.message.text);
    return out;
}

using Texts = std::vector<std::string>;

// Whether `attempt` succeeds within two seconds: the server ends a closed connection's session,
// and drops its locks, a moment after the client has gone.
bool within_two_seconds(const std::function<bool()>& attempt) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (std::chrono::steady_clock::now() < until) {
        if (attempt())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

// A daemon in a process of its own that takes what `take` takes on its own connection and is
// then killed, as kill -9 would: no destructor runs, the server sees the socket close.
void taken_by_a_killed_daemon(const FreshStore& fresh, const std::function<void(Store&)>& take) {
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        auto store = open_postgres_store(fresh.url(), {});
        take(*store);
        raise(SIGKILL);
    }
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    REQUIRE(WIFSIGNALED(status));
}

} // namespace

TEST_CASE("A lease is one daemon's until it runs out or is given up", "[storage][postgres]") {
    FreshStore fresh(Backend::Postgres);
    auto& a = fresh.store;
    auto b = fresh.open();
    CHECK(a->shared());
    CHECK(a->hold_lease("cursor:telegram", "A", 100, 130));
    CHECK_FALSE(b->hold_lease("cursor:telegram", "B", 110, 140));
    CHECK(b->hold_lease("cursor:discord", "B", 110, 140));  // another platform, another lease
    CHECK(a->hold_lease("cursor:telegram", "A", 120, 150)); // renewed
    CHECK_FALSE(b->hold_lease("cursor:telegram", "B", 149, 179));
    CHECK(b->hold_lease("cursor:telegram", "B", 150, 180)); // A stopped renewing: taken over
    CHECK_FALSE(a->hold_lease("cursor:telegram", "A", 151, 181));
    a->release_lease("cursor:telegram", "A"); // not A's to give up: nothing happens
    CHECK_FALSE(a->hold_lease("cursor:telegram", "A", 152, 182));
    b->release_lease("cursor:telegram", "B");
    CHECK(a->hold_lease("cursor:telegram", "A", 153, 183)); // at once, not at 180
}

TEST_CASE("A killed daemon's lease is taken over at once, not when it runs out",
          "[storage][postgres]") {
    FreshStore fresh(Backend::Postgres);
    auto& b = fresh.store;
    taken_by_a_killed_daemon(fresh, [](Store& a) {
        if (!a.hold_lease("cursor:telegram", "A", 100, 130))
            _exit(3); // not killed: the parent's check of the signal fails
    });
    // Still within A's 30 seconds: only its session's end frees the lease.
    CHECK(within_two_seconds([&] { return b->hold_lease("cursor:telegram", "B", 101, 131); }));
    CHECK(fresh.value("SELECT holder FROM leases WHERE name = 'cursor:telegram'") == "B");
}

TEST_CASE("A lease whose holder lives is not taken before it runs out, whatever other "
          "sessions end",
          "[storage][postgres]") {
    FreshStore fresh(Backend::Postgres);
    auto& a = fresh.store;
    auto b = fresh.open();
    CHECK(a->hold_lease("cursor:telegram", "A", 100, 130));
    fresh.open().reset(); // a connection comes and goes
    CHECK_FALSE(b->hold_lease("cursor:telegram", "B", 101, 131));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    CHECK_FALSE(b->hold_lease("cursor:telegram", "B", 129, 159));
    // The holder itself renews over its session, and A's renewal after a new connection of
    // its own (a broken one opened again) still counts as A's.
    auto a_again = fresh.open();
    CHECK(a_again->hold_lease("cursor:telegram", "A", 129, 159));
    CHECK_FALSE(b->hold_lease("cursor:telegram", "B", 130, 160));
}

TEST_CASE("A killed sender's claims are free at once and the order of its chat is kept",
          "[storage][postgres]") {
    FreshStore fresh(Backend::Postgres);
    auto& b = fresh.store;
    b->enqueue({"tg", false, "chan1", "m1", "", {}, ""}, 10);
    b->enqueue({"tg", false, "chan1", "m2", "", {}, ""}, 10);
    b->enqueue({"tg", false, "chan2", "n1", "", {}, ""}, 10);
    taken_by_a_killed_daemon(fresh, [](Store& a) {
        if (a.claim_due("tg", 10, 1, "A", 130).size() != 1)
            _exit(3);
    });
    // n1 was never A's; m1 was, and m2 waits behind it until A's session is gone.
    // (A claim of B's own comes back to B on each call, with whatever was freed since.)
    Texts got;
    CHECK(within_two_seconds([&] {
        got = texts(b->claim_due("tg", 11, 10, "B", 131));
        return got.size() == 3;
    }));
    CHECK(got == Texts{"m1", "m2", "n1"});
}

TEST_CASE("Three daemons taking slots of one shared limit never call more than it allows in "
          "any second",
          "[storage][postgres]") {
    FreshStore fresh(Backend::Postgres);
    using Clock = std::chrono::steady_clock;
    constexpr int per_daemon = 40;
    std::vector<Clock::time_point> calls;
    std::mutex mutex;
    std::vector<std::thread> daemons;
    const auto start = Clock::now();
    for (int d = 0; d < 3; ++d)
        daemons.emplace_back([&] {
            auto store = fresh.open();
            for (int i = 0; i < per_daemon; ++i) {
                const auto wait =
                    std::chrono::milliseconds(store->take_shared_slot("discord", 50, 4));
                // When the call would go: the answer's moment and the wait it names.
                const auto at = Clock::now() + wait;
                {
                    const std::lock_guard lock(mutex);
                    calls.push_back(at);
                }
                std::this_thread::sleep_until(at);
            }
        });
    for (auto& t : daemons)
        t.join();
    std::sort(calls.begin(), calls.end());
    REQUIRE(calls.size() == 3 * per_daemon);
    // Spaced 23 ms with four early: at most 48 in any second, 2 to spare for the clocks.
    int most = 0;
    for (std::size_t i = 0, j = 0; j < calls.size(); ++j) {
        while (calls[j] - calls[i] >= std::chrono::seconds(1))
            ++i;
        most = std::max(most, static_cast<int>(j - i + 1));
    }
    INFO("the busiest second held " << most << " calls");
    CHECK(most <= 50);
    CHECK(most >= 40); // the limit is used, not starved
    // 120 calls at 23 ms, the first five at once: 2.6 s at least.
    CHECK(calls.back() - start >= std::chrono::milliseconds(2500));
    // Another key is a limit of its own, free at once.
    CHECK(fresh.store->take_shared_slot("matrix", 50, 4) == 0);
    // SQLite: one daemon; nothing shared, nothing waited.
    FreshStore sqlite(Backend::Sqlite);
    CHECK(sqlite.store->take_shared_slot("discord", 50, 4) == 0);
    CHECK_THROWS_AS(fresh.store->take_shared_slot("discord", 5, 4), std::invalid_argument);
}

TEST_CASE("With SQLite one daemon owns the file: every lease is its own", "[storage]") {
    FreshStore fresh(Backend::Sqlite);
    CHECK_FALSE(fresh.store->shared());
    CHECK(fresh.store->hold_lease("cursor:telegram", "A", 100, 130));
    CHECK(fresh.store->hold_lease("cursor:telegram", "B", 110, 140));
}

TEST_CASE("Two senders share the outbox and each destination keeps its order",
          "[storage][postgres]") {
    FreshStore fresh(Backend::Postgres);
    auto& a = fresh.store;
    auto b = fresh.open();
    const auto m1 = a->enqueue({"tg", false, "chan1", "m1", "", {}, ""}, 10);
    const auto m2 = a->enqueue({"tg", false, "chan1", "m2", "", {}, ""}, 10);
    a->enqueue({"tg", false, "chan2", "n1", "", {}, ""}, 10);
    a->enqueue({"tg", true, "bob", "s1", "", {0x89, 0x50}, ""}, 10);

    const auto first = a->claim_due("tg", 10, 2, "A", 40);
    CHECK(texts(first) == Texts{"m1", "m2"});
    const auto second = b->claim_due("tg", 10, 10, "B", 40);
    CHECK(texts(second) == Texts{"n1", "s1"});
    CHECK(second[1].message.png == std::vector<std::uint8_t>{0x89, 0x50});
    b->mark_sent(second[0].id, 11);
    b->mark_sent(second[1].id, 11);

    // chan1 is A's while A delivers: a newer reply there waits behind A's.
    a->enqueue({"tg", false, "chan1", "m3", "", {}, ""}, 12);
    CHECK(b->claim_due("tg", 12, 10, "B", 42).empty());
    a->mark_sent(m1, 13);
    a->reschedule(m2, 20, "429");                       // given back, to be tried at 20
    CHECK(b->claim_due("tg", 15, 10, "B", 45).empty()); // m3 still behind m2
    CHECK(texts(b->claim_due("tg", 20, 10, "B", 50)) == Texts{"m2", "m3"});
    CHECK(a->claim_due("tg", 20, 10, "A", 50).empty());
    CHECK(a->pending_count("tg") == 2);
}

TEST_CASE("A hung sender's claim runs out and another sender delivers the entry",
          "[storage][postgres]") {
    FreshStore fresh(Backend::Postgres);
    auto& a = fresh.store;
    auto b = fresh.open();
    a->enqueue({"tg", false, "chan1", "m1", "", {}, ""}, 10);
    a->enqueue({"tg", false, "chan1", "m2", "", {}, ""}, 10);
    CHECK(texts(a->claim_due("tg", 10, 1, "A", 40)) == Texts{"m1"});
    // A hangs here, its connection open. Until its claim runs out, m1 is not sent twice and m2
    // not before it.
    CHECK(b->claim_due("tg", 39, 10, "B", 69).empty());
    CHECK(texts(b->claim_due("tg", 40, 10, "B", 70)) == Texts{"m1", "m2"});
}

TEST_CASE("A sender gives back at once what it claimed and did not send", "[storage][postgres]") {
    FreshStore fresh(Backend::Postgres);
    auto& a = fresh.store;
    auto b = fresh.open();
    const auto m1 = a->enqueue({"tg", false, "chan1", "m1", "", {}, ""}, 10);
    CHECK(texts(a->claim_due("tg", 10, 10, "A", 40)) == Texts{"m1"});
    b->unclaim({m1}, "B"); // not B's
    CHECK(b->claim_due("tg", 11, 10, "B", 41).empty());
    a->unclaim({m1}, "A"); // held back by A's pacing
    CHECK(texts(b->claim_due("tg", 11, 10, "B", 41)) == Texts{"m1"});
}

TEST_CASE("A post on a game waits for another daemon's post on it, then runs again",
          "[storage][postgres]") {
    FreshStore fresh(Backend::Postgres);
    auto& a = fresh.store;
    auto b = fresh.open();
    const std::int64_t game = new_game(*a);
    const std::int64_t before = a->game_revision(game);
    std::promise<void> locked;
    std::future<StorageError::Kind> loser = std::async(std::launch::async, [&] {
        locked.get_future().wait();
        const auto started = std::chrono::steady_clock::now();
        try {
            b->transaction([&] {
                b->lock_game(game); // waits for A's commit
                b->append_action({game, 1, Seat::White, 1, "d4", "b-1"});
            });
        } catch (const StorageError& e) {
            CHECK(std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(200));
            return e.kind();
        }
        return StorageError::Kind::Other;
    });
    a->transaction([&] {
        CHECK(a->lock_game(game) == before);
        a->append_action({game, 1, Seat::White, 1, "e4", "a-1"});
        locked.set_value();
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
    });
    CHECK(loser.get() == StorageError::Kind::Conflict);
    // Run again, the loser sees the winner's move and plays after it.
    b->transaction([&] {
        CHECK(b->lock_game(game) == before + 1);
        b->append_action({game, 2, Seat::Black, 1, "e5", "b-1"});
    });
    const auto log = a->actions(game);
    REQUIRE(log.size() == 2);
    CHECK(log[0].text == "e4");
    CHECK(log[1].text == "e5");
}

TEST_CASE("The same post handled by two daemons at once is kept once", "[storage][postgres]") {
    FreshStore fresh(Backend::Postgres);
    auto& a = fresh.store;
    auto b = fresh.open();
    const auto handle = [](Store& store, std::promise<void>* marked) {
        try {
            store.transaction([&] {
                if (!store.post_handled("telegram", "-100", "7"))
                    store.mark_post_handled("telegram", "-100", "7", 5);
                if (marked != nullptr) {
                    marked->set_value();
                    std::this_thread::sleep_for(std::chrono::milliseconds(200));
                }
            });
        } catch (const StorageError& e) {
            return e.kind();
        }
        return StorageError::Kind::Other; // committed
    };
    std::promise<void> marked;
    std::future<void> first_marked = marked.get_future();
    std::future<StorageError::Kind> first =
        std::async(std::launch::async, [&] { return handle(*a, &marked); });
    first_marked.wait();
    const StorageError::Kind second = handle(*b, nullptr);
    // Both read the post as new. The mark goes to the server with the commit (it is sent
    // ahead), so either may be the one to fail; never with a constraint error (a bug): with a
    // conflict, and run again it finds the post handled.
    const std::vector<StorageError::Kind> kinds{first.get(), second};
    CHECK(std::count(kinds.begin(), kinds.end(), StorageError::Kind::Conflict) == 1);
    CHECK(std::count(kinds.begin(), kinds.end(), StorageError::Kind::Other) == 1);
    CHECK(b->post_handled("telegram", "-100", "7"));
    CHECK(fresh.value("SELECT COUNT(*) FROM handled_posts") == "1");
}

TEST_CASE("Only one daemon's time-driven job takes a due game", "[storage][postgres]") {
    FreshStore fresh(Backend::Postgres);
    auto& a = fresh.store;
    auto b = fresh.open();
    const std::int64_t game = new_game(*a);
    a->set_next_deadline(game, 100);
    CHECK(a->games_due(100).size() == 1);
    std::promise<void> claimed;
    std::promise<void> tried;
    std::future<bool> other = std::async(std::launch::async, [&] {
        claimed.get_future().wait();
        bool got = true;
        b->transaction([&] { got = b->claim_due_game(game, 100); }); // does not wait
        tried.set_value();
        return got;
    });
    a->transaction([&] {
        CHECK(a->claim_due_game(game, 100));
        claimed.set_value();
        tried.get_future().wait();
        a->set_next_deadline(game, 200);
    });
    CHECK_FALSE(other.get());
    bool again = true;
    b->transaction([&] { again = b->claim_due_game(game, 150); }); // no longer due
    CHECK_FALSE(again);
    b->transaction([&] { again = b->claim_due_game(game, 200); });
    CHECK(again);
}

TEST_CASE("Only one daemon's time-driven job takes a due digest", "[storage][postgres]") {
    FreshStore fresh(Backend::Postgres);
    auto& a = fresh.store;
    auto b = fresh.open();
    const auto alice = a->upsert_player("telegram", "1", "alice", "alice");
    a->put_digest({alice.id, "telegram", 8, 100});
    std::promise<void> claimed;
    std::promise<void> tried;
    std::future<bool> other = std::async(std::launch::async, [&] {
        claimed.get_future().wait();
        bool got = true;
        b->transaction([&] { got = b->claim_digest(alice.id, 100); }); // does not wait
        tried.set_value();
        return got;
    });
    a->transaction([&] {
        CHECK(a->claim_digest(alice.id, 100));
        claimed.set_value();
        tried.get_future().wait();
        a->put_digest({alice.id, "telegram", 8, 100 + 86400}); // sent: tomorrow's next
    });
    CHECK_FALSE(other.get());
    bool again = true;
    b->transaction([&] { again = b->claim_digest(alice.id, 150); }); // sent today already
    CHECK_FALSE(again);
}

namespace {

// A running tournament of round 1 with two boards, games `first` and `second`.
struct Round {
    std::int64_t tournament = 0;
    std::int64_t first = 0;
    std::int64_t second = 0;
};

Round running_round(Store& store) {
    Round r;
    r.first = new_game(store);
    r.second = new_game(store);
    TournamentRecord t;
    t.platform = "telegram";
    t.channel = "-100";
    t.name = "Spring";
    t.variant = "chess";
    t.format = "swiss";
    t.rounds = 3;
    t.status = TournamentStatus::Running;
    t.current_round = 1;
    t.creator = store.game(r.first)->challenger;
    r.tournament = store.create_tournament(t);
    store.start_round(r.tournament, 1, 10);
    store.add_pairing({r.tournament, 1, 1, t.creator, t.creator, r.first});
    store.add_pairing({r.tournament, 1, 2, t.creator, t.creator, r.second});
    return r;
}

// What the service does in one transaction when a tournament game ends (tourney_game_over):
// the game's row held, its result saved, the round's other game read, and when both are over
// the round completed and the next one started. `meet` runs once, between the read and the
// commit. Run again on a conflict, as Service::retry_conflicts does. Returns whether this daemon
// started round 2, and counts its conflicts.
bool end_game(Store& store, std::int64_t tournament, std::int64_t mine, std::int64_t other,
              const std::function<void()>& meet, int& conflicts) {
    bool met = false;
    for (int attempt = 1; attempt <= 20; ++attempt) {
        bool started = false;
        try {
            store.transaction([&] {
                store.lock_game(mine);
                GameRecord g = *store.game(mine);
                g.status = GameStatus::Finished;
                g.result = "1-0";
                store.update_game(g);
                const bool round_over = store.game(other)->status == GameStatus::Finished;
                if (!met) {
                    met = true;
                    meet();
                }
                if (!round_over || !store.complete_round(tournament, 1, 20))
                    return;
                TournamentRecord t = *store.tournament(tournament);
                t.current_round = 2;
                store.update_tournament(t);
                store.start_round(tournament, 2, 20);
                started = true;
            });
            return started;
        } catch (const StorageError& e) {
            if (e.kind() != StorageError::Kind::Conflict)
                throw;
            ++conflicts;
        }
    }
    throw std::runtime_error("still conflicting after 20 attempts");
}

} // namespace

TEST_CASE("Two daemons ending a round's last two games at once start the next round once",
          "[storage][postgres][tournament]") {
    FreshStore fresh(Backend::Postgres);
    auto& a = fresh.store;
    auto b = fresh.open();
    const Round r = running_round(*a);
    // Each reads the other's game as still under way before either commits: unless the
    // database fails one of them, neither would start round 2.
    std::latch both_read(2);
    const auto meet = [&] { both_read.arrive_and_wait(); };
    int conflicts_a = 0;
    int conflicts_b = 0;
    std::future<bool> other = std::async(std::launch::async, [&] {
        return end_game(*b, r.tournament, r.second, r.first, meet, conflicts_b);
    });
    const bool started_a = end_game(*a, r.tournament, r.first, r.second, meet, conflicts_a);
    const bool started_b = other.get();
    CHECK(started_a != started_b);
    CHECK(conflicts_a + conflicts_b >= 1);
    CHECK(a->tournament(r.tournament)->current_round == 2);
    CHECK(fresh.value("SELECT COUNT(*) FROM tournament_rounds WHERE round = 2") == "1");
    CHECK(fresh.value("SELECT COUNT(*) FROM tournament_rounds WHERE completed_at IS NOT NULL") ==
          "1");
}

TEST_CASE("Of two daemons completing the same round, the second finds it complete",
          "[storage][postgres][tournament]") {
    FreshStore fresh(Backend::Postgres);
    auto& a = fresh.store;
    auto b = fresh.open();
    const Round r = running_round(*a);
    std::promise<void> completed;
    std::future<StorageError::Kind> loser = std::async(std::launch::async, [&] {
        completed.get_future().wait();
        try {
            b->transaction([&] { b->complete_round(r.tournament, 1, 20); }); // waits for A
        } catch (const StorageError& e) {
            return e.kind();
        }
        return StorageError::Kind::Other;
    });
    a->transaction([&] {
        CHECK(a->complete_round(r.tournament, 1, 20));
        completed.set_value();
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    });
    CHECK(loser.get() == StorageError::Kind::Conflict);
    bool again = true;
    b->transaction([&] { again = b->complete_round(r.tournament, 1, 21); });
    CHECK_FALSE(again); // so its completion is announced, and the next round started, once
}
