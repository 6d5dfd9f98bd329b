#include "../storage/temp_path.h"
#include "ghostpost/app/daemon.h"
#include "ghostpost/console/console.h"
#include "ghostpost/log/log.h"
#include "ghostpost/service/service.h"

#include <catch2/catch.hpp>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>

using namespace ghostpost;
using bot::HandleStatus;
using bot::Post;
using bot::Service;
using ghostpost::testing::TempPath;

namespace {

// Passes everything to a real store, but throws on the n-th enqueue: a failure halfway through
// a post, after its action was appended.
class FailingStore final : public storage::Store {
public:
    explicit FailingStore(storage::Store& inner) : s_(inner) {}
    int fail_on_enqueue = -1;
    bool fail_on_append = false; // every appended action fails: a fault that never goes away
    int status_reads = 0;        // calls of games_with_status, which reads every such game

    // Transactions that fail at their end as if another daemon had changed what they read.
    int conflicts = 0;
    int transactions = 0;
    // Writes that fail as PostgreSQL fails a write to a row another daemon changed meanwhile:
    // saving a digest, completing a tournament's round.
    int digest_conflicts = 0;
    int round_conflicts = 0;

    void transaction(const std::function<void()>& w) override {
        ++transactions;
        s_.transaction([&] {
            w();
            if (conflicts > 0) {
                --conflicts;
                throw storage::StorageError(storage::StorageError::Kind::Conflict,
                                            "could not serialize access");
            }
        });
    }
    void relaxed_transaction(const std::function<void()>& w) override { s_.relaxed_transaction(w); }
    // The real group commit: the transactions above are then its savepoints.
    void group(const std::function<void()>& w) override { s_.group(w); }
    bool post_handled(const std::string& p, const std::string& c, const std::string& m) override {
        return s_.post_handled(p, c, m);
    }
    void mark_post_handled(const std::string& p, const std::string& c, const std::string& m,
                           std::int64_t n) override {
        s_.mark_post_handled(p, c, m, n);
    }
    std::optional<std::string> cursor(const std::string& p) override { return s_.cursor(p); }
    void set_cursor(const std::string& p, const std::string& c) override { s_.set_cursor(p, c); }
    storage::PlayerRecord upsert_player(const std::string& p, const std::string& u,
                                        const std::string& n, const std::string& h) override {
        return s_.upsert_player(p, u, n, h);
    }
    std::optional<storage::PlayerRecord> player(std::int64_t id) override { return s_.player(id); }
    std::optional<storage::PlayerRecord> player_by_account(const std::string& p,
                                                           const std::string& u) override {
        return s_.player_by_account(p, u);
    }
    std::optional<storage::PlayerRecord> player_by_handle(const std::string& p,
                                                          const std::string& h) override {
        return s_.player_by_handle(p, h);
    }
    void save_player_settings(const storage::PlayerRecord& p) override {
        s_.save_player_settings(p);
    }
    storage::ChannelSettings channel_settings(const std::string& platform,
                                              const std::string& channel) override {
        return s_.channel_settings(platform, channel);
    }
    void save_channel_settings(const storage::ChannelSettings& c) override {
        s_.save_channel_settings(c);
    }
    void link_account(std::int64_t a, std::int64_t o) override { s_.link_account(a, o); }
    std::optional<storage::PlayerRecord> account_on(std::int64_t o, const std::string& p) override {
        return s_.account_on(o, p);
    }
    bool player_has_history(std::int64_t p) override { return s_.player_has_history(p); }
    void put_code(const storage::LinkCode& c) override { s_.put_code(c); }
    std::optional<storage::LinkCode> take_code(const std::string& c, std::int64_t n) override {
        return s_.take_code(c, n);
    }
    void bind_channel(std::int64_t g, const std::string& p, const std::string& c) override {
        s_.bind_channel(g, p, c);
    }
    std::vector<std::pair<std::string, std::string>> bound_channels(std::int64_t g) override {
        return s_.bound_channels(g);
    }
    std::int64_t create_game(const storage::GameRecord& g) override { return s_.create_game(g); }
    std::optional<storage::GameRecord> game(std::int64_t id) override { return s_.game(id); }
    void update_game(const storage::GameRecord& g) override { s_.update_game(g); }
    std::vector<storage::GameRecord>
    games_in_channel(const std::string& p, const std::string& c,
                     const std::vector<storage::GameStatus>& st) override {
        return s_.games_in_channel(p, c, st);
    }
    std::vector<storage::GameRecord>
    games_of_player(const storage::PlayerRecord& p,
                    const std::vector<storage::GameStatus>& st) override {
        return s_.games_of_player(p, st);
    }
    int move_channel(const std::string& p, const std::string& f, const std::string& t) override {
        return s_.move_channel(p, f, t);
    }
    void append_action(const storage::ActionRecord& a) override {
        if (fail_on_append)
            throw std::runtime_error("log corrupted");
        s_.append_action(a);
    }
    std::vector<storage::ActionRecord> actions(std::int64_t g) override { return s_.actions(g); }
    int action_count(std::int64_t g) override { return s_.action_count(g); }
    std::int64_t game_revision(std::int64_t g) override { return s_.game_revision(g); }
    void take_back(std::int64_t g, int p) override { s_.take_back(g, p); }
    void put_offer(std::int64_t g, const storage::Offer& o) override { s_.put_offer(g, o); }
    std::optional<storage::Offer> offer(std::int64_t g, storage::OfferKind k) override {
        return s_.offer(g, k);
    }
    void clear_offer(std::int64_t g, storage::OfferKind k) override { s_.clear_offer(g, k); }
    std::int64_t enqueue(const storage::OutgoingMessage& m, std::int64_t now) override {
        if (fail_on_enqueue == 0)
            throw std::runtime_error("disk full");
        --fail_on_enqueue;
        return s_.enqueue(m, now);
    }
    std::vector<storage::OutboxEntry> due(const std::string& p, std::int64_t n, int l) override {
        return s_.due(p, n, l);
    }
    void mark_sent(std::int64_t id, std::int64_t n) override { s_.mark_sent(id, n); }
    void reschedule(std::int64_t id, std::int64_t n, const std::string& e) override {
        s_.reschedule(id, n, e);
    }
    void give_up(std::int64_t id, const std::string& e) override { s_.give_up(id, e); }
    int pending_count(const std::string& p) override { return s_.pending_count(p); }
    std::vector<storage::OutboxBacklog> backlog() override { return s_.backlog(); }
    std::vector<storage::GameRecord>
    games_with_status(const std::vector<storage::GameStatus>& st) override {
        ++status_reads;
        return s_.games_with_status(st);
    }
    void set_next_deadline(std::int64_t g, std::optional<std::int64_t> at) override {
        s_.set_next_deadline(g, at);
    }
    std::vector<storage::GameRecord> games_due(std::int64_t n) override { return s_.games_due(n); }
    int prune(std::int64_t s, std::int64_t h) override { return s_.prune(s, h); }
    std::vector<storage::ClockRecord> clocks(std::int64_t g) override { return s_.clocks(g); }
    void put_clock(std::int64_t g, const storage::ClockRecord& c) override { s_.put_clock(g, c); }
    std::optional<std::int64_t> heartbeat() override { return s_.heartbeat(); }
    void put_heartbeat(std::int64_t n) override { s_.put_heartbeat(n); }
    void save_vacation(const storage::PlayerRecord& p) override { s_.save_vacation(p); }
    void log_mod_action(const storage::ModAction& a) override { s_.log_mod_action(a); }
    std::vector<storage::ModAction> mod_actions(const std::string& p, int l) override {
        return s_.mod_actions(p, l);
    }
    std::optional<storage::Ban> ban(const std::string& p, const std::string& u) override {
        return s_.ban(p, u);
    }
    void put_ban(const storage::Ban& b) override { s_.put_ban(b); }
    void remove_ban(const std::string& p, const std::string& u) override { s_.remove_ban(p, u); }
    bool hold_lease(const std::string& n, const std::string& h, std::int64_t now,
                    std::int64_t until) override {
        return s_.hold_lease(n, h, now, until);
    }
    void release_lease(const std::string& n, const std::string& h) override {
        s_.release_lease(n, h);
    }
    std::int64_t lock_game(std::int64_t id) override { return s_.lock_game(id); }
    bool claim_due_game(std::int64_t id, std::int64_t now) override {
        return s_.claim_due_game(id, now);
    }
    std::vector<storage::OutboxEntry> claim_due(const std::string& p, std::int64_t now, int limit,
                                                const std::string& h, std::int64_t until) override {
        return s_.claim_due(p, now, limit, h, until);
    }
    void unclaim(const std::vector<std::int64_t>& ids, const std::string& h) override {
        s_.unclaim(ids, h);
    }
    bool shared() const override { return s_.shared(); }
    std::int64_t create_tournament(const storage::TournamentRecord& t) override {
        return s_.create_tournament(t);
    }
    std::optional<storage::TournamentRecord> tournament(std::int64_t id) override {
        return s_.tournament(id);
    }
    std::optional<storage::TournamentRecord> tournament_by_name(const std::string& p,
                                                                const std::string& n) override {
        return s_.tournament_by_name(p, n);
    }
    std::vector<storage::TournamentRecord> recent_tournaments(int limit) override {
        return s_.recent_tournaments(limit);
    }
    std::vector<storage::TournamentRecord> tournaments_in_channel(const std::string& p,
                                                                  const std::string& c) override {
        return s_.tournaments_in_channel(p, c);
    }
    void update_tournament(const storage::TournamentRecord& t) override { s_.update_tournament(t); }
    void add_entrant(std::int64_t t, std::int64_t p, std::int64_t n) override {
        s_.add_entrant(t, p, n);
    }
    void remove_entrant(std::int64_t t, std::int64_t p) override { s_.remove_entrant(t, p); }
    std::vector<storage::EntrantRecord> entrants(std::int64_t t) override { return s_.entrants(t); }
    void set_seed(std::int64_t t, std::int64_t p, int s) override { s_.set_seed(t, p, s); }
    void update_entrant(std::int64_t t, const storage::EntrantRecord& e) override {
        s_.update_entrant(t, e);
    }
    void request_bye(std::int64_t t, const storage::ByeRequest& b) override {
        s_.request_bye(t, b);
    }
    void withdraw_bye(std::int64_t t, const storage::ByeRequest& b) override {
        s_.withdraw_bye(t, b);
    }
    std::vector<storage::ByeRequest> byes(std::int64_t t) override { return s_.byes(t); }
    void forbid_pairing(std::int64_t t, std::int64_t a, std::int64_t b) override {
        s_.forbid_pairing(t, a, b);
    }
    void allow_pairing(std::int64_t t, std::int64_t a, std::int64_t b) override {
        s_.allow_pairing(t, a, b);
    }
    std::vector<storage::ForbiddenPairing> forbidden_pairings(std::int64_t t) override {
        return s_.forbidden_pairings(t);
    }
    bool add_team_member(const std::string& p, const std::string& c, std::int64_t id,
                         std::int64_t now) override {
        return s_.add_team_member(p, c, id, now);
    }
    bool remove_team_member(const std::string& p, const std::string& c, std::int64_t id) override {
        return s_.remove_team_member(p, c, id);
    }
    std::vector<std::int64_t> team_members(const std::string& p, const std::string& c) override {
        return s_.team_members(p, c);
    }
    void put_team_vote(std::int64_t g, std::int64_t turn, const storage::TeamVote& v) override {
        s_.put_team_vote(g, turn, v);
    }
    std::vector<storage::TeamVote> team_votes(std::int64_t g, std::int64_t turn) override {
        return s_.team_votes(g, turn);
    }
    void start_round(std::int64_t t, int r, std::int64_t n) override { s_.start_round(t, r, n); }
    bool complete_round(std::int64_t t, int r, std::int64_t n) override {
        const bool completed = s_.complete_round(t, r, n);
        conflict_if(round_conflicts);
        return completed;
    }
    void add_pairing(const storage::PairingRecord& p) override { s_.add_pairing(p); }
    std::vector<storage::PairingRecord> pairings(std::int64_t t) override { return s_.pairings(t); }
    std::optional<storage::PairingRecord> pairing_of_game(std::int64_t g) override {
        return s_.pairing_of_game(g);
    }
    std::optional<storage::RatingRecord> rating(std::int64_t p, const std::string& v) override {
        return s_.rating(p, v);
    }
    void save_rating(const storage::RatingRecord& r, std::int64_t n,
                     std::optional<std::int64_t> g = std::nullopt) override {
        s_.save_rating(r, n, g);
    }
    std::vector<storage::RatingRecord> ratings_of_player(std::int64_t p) override {
        return s_.ratings_of_player(p);
    }
    std::vector<storage::RatingRecord> leaderboard(const std::string& p, const std::string& v,
                                                   int l) override {
        return s_.leaderboard(p, v, l);
    }
    std::vector<storage::ForecastRecord> forecasts(std::int64_t g) override {
        return s_.forecasts(g);
    }
    void put_forecast(const storage::ForecastRecord& f) override { s_.put_forecast(f); }
    void clear_forecast(std::int64_t g, rules::Seat s) override { s_.clear_forecast(g, s); }
    std::optional<storage::DigestRecord> digest(std::int64_t p) override { return s_.digest(p); }
    void put_digest(const storage::DigestRecord& d) override {
        s_.put_digest(d);
        conflict_if(digest_conflicts);
    }
    void clear_digest(std::int64_t p) override { s_.clear_digest(p); }
    std::vector<storage::DigestRecord> digests_due(std::int64_t n) override {
        return s_.digests_due(n);
    }
    bool claim_digest(std::int64_t p, std::int64_t n) override { return s_.claim_digest(p, n); }
    std::vector<storage::GameRecord> newest_games(storage::GameStatus st, int l) override {
        return s_.newest_games(st, l);
    }
    std::vector<storage::NamedRating> top_ratings(const std::string& v, int l) override {
        return s_.top_ratings(v, l);
    }
    std::vector<std::pair<std::string, int>> games_under_way() override {
        return s_.games_under_way();
    }
    std::vector<storage::RatingPoint> rating_history(std::int64_t p) override {
        return s_.rating_history(p);
    }

private:
    static void conflict_if(int& count) {
        if (count > 0) {
            --count;
            throw storage::StorageError(storage::StorageError::Kind::Conflict,
                                        "could not serialize access due to concurrent update");
        }
    }
    storage::Store& s_;
};

Post post(const std::string& id, const std::string& user, const std::string& text) {
    Post p;
    p.platform = "console";
    p.channel = "lobby";
    p.message_id = id;
    p.author_id = user;
    p.author_name = user;
    p.author_handle = user;
    p.text = text;
    p.cursor = id;
    return p;
}

std::vector<std::string> drain_texts(storage::Store& store) {
    std::vector<std::string> out;
    for (const auto& e : store.due("console", 2000000000, 100)) {
        out.push_back(e.message.text);
        store.mark_sent(e.id, 0);
    }
    return out;
}

std::int64_t fixed_clock() {
    return 1700000000;
}

// A started game #1 of chess between alice (White) and bob.
void start_game(Service& service, storage::Store& store) {
    service.handle(post("1", "alice", "!new chess @bob white"));
    service.handle(post("2", "bob", "!accept"));
    drain_texts(store);
}

} // namespace

TEST_CASE("A post that throws halfway leaves no action, reply, cursor or handled mark",
          "[bot][service][storage]") {
    TempPath path;
    auto real = storage::open_sqlite_store(path.str());
    FailingStore store(*real);
    Service service(store, {}, fixed_clock);
    start_game(service, store);
    REQUIRE(real->cursor("console") == std::optional<std::string>("2"));

    store.fail_on_enqueue = 0; // the move is appended, then queuing its reply fails
    CHECK_THROWS_WITH(service.handle(post("3", "alice", "e4")), "disk full");
    CHECK(real->action_count(1) == 0);
    CHECK(real->pending_count("console") == 0);
    CHECK_FALSE(real->post_handled("console", "lobby", "3"));
    CHECK(real->cursor("console") == std::optional<std::string>("2"));

    // Delivered again, the post now goes through, and the cached game did not keep the move.
    store.fail_on_enqueue = -1;
    CHECK(service.handle(post("3", "alice", "e4")) == HandleStatus::Handled);
    CHECK(real->action_count(1) == 1);
    CHECK(real->actions(1).front().text == "e4");
    CHECK(service.handle(post("4", "bob", "e5")) == HandleStatus::Handled);
    CHECK(real->actions(1).back().text == "e5");
}

TEST_CASE("A post that conflicts with another daemon's is run again from the start, and kept "
          "once",
          "[bot][service][storage]") {
    TempPath path;
    auto real = storage::open_sqlite_store(path.str());
    FailingStore store(*real);
    Service service(store, {}, fixed_clock);
    start_game(service, store);

    store.conflicts = 2;
    store.transactions = 0;
    CHECK(service.handle(post("3", "alice", "e4")) == HandleStatus::Handled);
    CHECK(store.transactions == 3);
    CHECK(real->actions(1).size() == 1);
    CHECK(drain_texts(store).size() == 1); // one reply, not three
    CHECK(service.handle(post("4", "bob", "e5")) == HandleStatus::Handled);
    CHECK(real->actions(1).back().text == "e5");

    // A conflict that never ends is the caller's after conflict_attempts tries; nothing kept.
    store.conflicts = 1000;
    store.transactions = 0;
    try {
        service.handle(post("5", "alice", "Nf3"));
        FAIL("no conflict came out");
    } catch (const storage::StorageError& e) {
        CHECK(e.kind() == storage::StorageError::Kind::Conflict);
    }
    CHECK(store.transactions == 20); // ServiceSettings::conflict_attempts
    CHECK(real->actions(1).size() == 2);
    CHECK_FALSE(real->post_handled("console", "lobby", "5"));
}

TEST_CASE("A digest the time-driven job sends while another daemon's work conflicts goes out "
          "once",
          "[bot][service][storage][digest]") {
    TempPath path;
    auto real = storage::open_sqlite_store(path.str());
    FailingStore store(*real);
    auto now = std::make_shared<std::int64_t>(fixed_clock()); // 2023-11-14 22:13:20 UTC
    Service service(store, {}, [now] { return *now; });
    start_game(service, store);
    service.handle(post("3", "alice", "e4")); // bob must move
    service.handle(post("4", "bob", "!settings digest=9"));
    drain_texts(store);
    *now = fixed_clock() + 11 * 3600; // 2023-11-15 09:13 UTC
    store.digest_conflicts = 2;
    service.tick();
    CHECK(store.digest_conflicts == 0); // the digest's transaction ran three times
    CHECK(drain_texts(store) ==
          std::vector<std::string>{"Your daily digest, 2023-11-15 09:13 UTC: 1 decision waits "
                                   "for you. !settings digest=off stops it."});
    const auto bob = real->player_by_account("console", "bob");
    REQUIRE(bob);
    CHECK(real->digest(bob->id)->next_at == 1700125200); // 2023-11-16 09:00 UTC
    service.tick();
    CHECK(drain_texts(store).empty());
}

TEST_CASE("A round that the time-driven job starts while another daemon's work conflicts starts "
          "once",
          "[bot][service][storage][tournament]") {
    TempPath path;
    auto real = storage::open_sqlite_store(path.str());
    FailingStore store(*real);
    auto now = std::make_shared<std::int64_t>(fixed_clock());
    Service service(store, {}, [now] { return *now; });
    int id = 0;
    const auto say = [&](const std::string& user, const std::string& text) {
        service.handle(post(std::to_string(++id), user, text));
    };
    say("ann", "!tourney create ko chess knockout tc=1d");
    for (const char* who : {"ann", "ben", "cat", "dan"})
        say(who, "!tourney join ko");
    say("ann", "!tourney start ko");
    say("dan", "!resign 1"); // game #1 is over; game #2 ends on time
    say("cat", "e4");
    drain_texts(store);
    *now = fixed_clock() + 2 * 86400;
    store.round_conflicts = 1;
    CHECK(service.tick() == 1);
    CHECK(store.round_conflicts == 0);
    const auto t = real->tournament_by_name("console", "ko");
    REQUIRE(t);
    CHECK(t->current_round == 2);
    CHECK(real->game(2)->reason == "timeout");
    REQUIRE(real->game(3));
    CHECK(real->game(3)->status == storage::GameStatus::Ongoing);
    CHECK_FALSE(real->game(4));
    int announced = 0;
    for (const auto& text : drain_texts(store))
        announced += text.starts_with("ko, round 2 of 2 (") ? 1 : 0;
    CHECK(announced == 1);
}

TEST_CASE("The same post delivered twice is applied once", "[bot][service]") {
    TempPath path;
    auto store = storage::open_sqlite_store(path.str());
    Service service(*store, {}, fixed_clock);
    start_game(service, *store);
    CHECK(service.handle(post("3", "alice", "e4")) == HandleStatus::Handled);
    CHECK(drain_texts(*store).size() == 1);
    CHECK(service.handle(post("3", "alice", "e4")) == HandleStatus::Duplicate);
    CHECK(drain_texts(*store).empty());
    CHECK(store->action_count(1) == 1);
}

TEST_CASE("A replayed game is cached and rebuilt only when the log changed elsewhere",
          "[bot][service]") {
    TempPath path;
    auto store = storage::open_sqlite_store(path.str());
    Service service(*store, {}, fixed_clock);
    start_game(service, *store);
    int after_start = service.replays();
    service.handle(post("3", "alice", "e4"));
    service.handle(post("4", "bob", "e5"));
    service.handle(post("5", "alice", "Nf3"));
    CHECK(service.replays() == after_start);

    // Another process plays on the same database: the ply count no longer matches the cache.
    auto other_store = storage::open_sqlite_store(path.str());
    Service other(*other_store, {}, fixed_clock);
    other.handle(post("6", "bob", "Nc6"));
    service.handle(post("7", "alice", "Bb5"));
    CHECK(service.replays() == after_start + 1);
    auto log = store->actions(1);
    REQUIRE(log.size() == 5);
    CHECK(log[3].text == "Nc6");
    CHECK(log[4].text == "Bb5");
}

TEST_CASE("Chatter gets no reply; a huge or broken command gets one refusal", "[bot][service]") {
    TempPath path;
    auto store = storage::open_sqlite_store(path.str());
    Service service(*store, {}, fixed_clock);
    start_game(service, *store);
    service.handle(post("3", "carol", "nice opening, e4 is my favourite"));
    service.handle(post("4", "bob", "e5")); // not bob's turn, but chatter-shaped? it is a move
    auto replies = drain_texts(*store);
    REQUIRE(replies.size() == 1);
    CHECK(replies[0] == "Not played: it is not your turn in game #1. @alice (White) must move.");

    service.handle(post("5", "carol", std::string(1 << 20, 'x')));
    service.handle(post("6", "carol", "!board " + std::string(1 << 20, 'x')));
    service.handle(post("7", "carol", "hello \xFF\xFE"));
    service.handle(post("8", "carol", "!board \xC0\xAF"));
    replies = drain_texts(*store);
    REQUIRE(replies.size() == 2);
    CHECK(replies[0] == "That post is too long (1048583 bytes): commands and moves fit in 4000 "
                        "bytes. Nothing was done.");
    CHECK(replies[1] ==
          "That post is not valid UTF-8 text, so I cannot read it. Nothing was done.");
    CHECK(store->post_handled("console", "lobby", "8"));
    CHECK(store->action_count(1) == 0);
}

TEST_CASE("Commands addressed to another bot are ignored", "[bot][service]") {
    TempPath path;
    auto store = storage::open_sqlite_store(path.str());
    Service service(*store, {}, fixed_clock);
    service.handle(post("1", "alice", "/help@otherbot"));
    CHECK(drain_texts(*store).empty());
    service.handle(post("2", "alice", "/settings@ghostpost"));
    CHECK(drain_texts(*store) ==
          std::vector<std::string>{"Settings of @alice for what I send you privately: "
                                   "orientation=auto notation=ascii images=off reminders=off "
                                   "digest=off language=auto."});
}

namespace {

// Hands out the scripted posts after the cursor, one poll at a time, and asks the daemon to
// stop once every post was handled and `replies` replies were sent.
class ScriptPlatform final : public bot::Platform {
public:
    ScriptPlatform(std::vector<Post> posts, std::size_t replies, bot::StopToken& stop)
        : posts_(std::move(posts)), replies_(replies), stop_(stop) {}
    std::string name() const override { return "console"; }
    std::vector<Post> poll(const std::string& cursor, std::chrono::seconds) override {
        ++polls;
        std::vector<Post> out;
        for (const Post& p : posts_)
            if (cursor.empty() || std::stoll(p.message_id) > std::stoll(cursor))
                out.push_back(p);
        if ((out.empty() && sent.size() >= replies_) || polls > 50)
            stop_.request_stop();
        return out;
    }
    bot::Delivery send(const bot::Reply& reply) override {
        sent.push_back(reply.text);
        return {};
    }
    bot::Pacing pacing() const override {
        bot::Pacing unpaced;
        unpaced.per_chat = std::chrono::milliseconds(0);
        return unpaced;
    }
    std::vector<std::string> sent;
    int polls = 0;

private:
    std::vector<Post> posts_;
    std::size_t replies_;
    bot::StopToken& stop_;
};

} // namespace

TEST_CASE("A post that fails is answered once, set aside, and the posts behind it go on",
          "[bot][service][daemon]") {
    TempPath path;
    auto real = storage::open_sqlite_store(path.str());
    FailingStore store(*real);
    Service service(store, {}, fixed_clock);
    start_game(service, store);
    std::ostringstream log_lines;
    bot::log::set_sink(log_lines);

    store.fail_on_append = true; // alice's move can never be stored
    bot::StopToken stop;
    ScriptPlatform platform({post("3", "alice", "e4"), post("4", "bob", "!games")}, 2, stop);
    bot::DaemonOptions options;
    options.poll_timeout = std::chrono::seconds(1);
    const bot::DaemonReport report =
        bot::run_daemon(store, service, platform, options, stop, fixed_clock);
    CHECK(report.posts_failed == 1);
    bot::log::set_sink(std::cerr);

    CHECK(real->action_count(1) == 0);
    CHECK(real->post_handled("console", "lobby", "3"));
    CHECK(real->cursor("console") == std::optional<std::string>("4"));
    REQUIRE(platform.sent.size() == 2);
    CHECK(platform.sent[0] == "Sorry, I could not handle this post because of a fault on my "
                              "side; nothing of it was applied. The operators can find it in the "
                              "log as message 3.");
    CHECK(platform.sent[1].starts_with("Games of @bob"));
    const std::string logged = log_lines.str();
    // Tried once, not again and again: a bug of ours would only repeat.
    const auto failed_at = logged.find("\"event\":\"post_failed\"");
    CHECK(failed_at != std::string::npos);
    CHECK(logged.find("\"event\":\"post_failed\"", failed_at + 1) == std::string::npos);
    CHECK(logged.find("\"event\":\"post_set_aside\"") != std::string::npos);
}

TEST_CASE("With a web address set, the start of a game and !board link its page",
          "[bot][service][web]") {
    TempPath path;
    auto store = storage::open_sqlite_store(path.str());
    bot::ServiceSettings settings;
    settings.web_base_url = "https://games.example.org";
    Service service(*store, settings, fixed_clock);
    service.handle(post("1", "alice", "!new chess @bob white"));
    drain_texts(*store);
    service.handle(post("2", "bob", "!accept"));
    const auto started = drain_texts(*store);
    REQUIRE(started.size() == 1);
    CHECK(started[0] ==
          "@bob accepts. Game #1, FIDE chess: @alice (White) vs @bob (Black). @alice (White) must "
          "move. Clock (3d per move; rated): @alice (White) 3d 0h left, until 2023-11-17 22:13 "
          "UTC; @bob (Black) 3d 0h left. Web: https://games.example.org/game/1");
    service.handle(post("3", "alice", "!board"));
    const auto replies = drain_texts(*store);
    REQUIRE(replies.size() == 1);
    CHECK(replies[0] ==
          "Game #1, FIDE chess: @alice (White) vs @bob (Black). @alice (White) must move. Clock "
          "(3d per move; rated): @alice (White) 3d 0h left, until 2023-11-17 22:13 UTC; @bob "
          "(Black) 3d 0h left. Web: https://games.example.org/game/1");
}

TEST_CASE("Between polls the engine reads only its own games, however many people play",
          "[bot][service][scale]") {
    TempPath path;
    auto real = storage::open_sqlite_store(path.str());
    FailingStore store(*real);
    Service service(store, {}, fixed_clock);
    service.handle(post("1", "alice", "!new chess @bob"));
    service.handle(post("2", "bob", "!accept"));
    service.handle(post("3", "carol", "!new chess bot level=1 tc=none"));
    service.handle(post("4", "carol", "e4"));
    store.status_reads = 0;
    const auto turns = service.engine_turns("console", {});
    REQUIRE(turns.size() == 1);
    CHECK(turns[0].game_id == 2);
    CHECK(turns[0].level == 1);
    CHECK(store.status_reads == 0);
}
