// A database with games written straight into the store, for the web tests: each action is
// chosen and applied on a true game kept beside the store, so a test knows what is hidden.
// SQLite by default; on PostgreSQL, a schema of its own in the test cluster
// (tests/support/test_stores.h).
#pragma once

#include "../support/test_stores.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/service/random.h"
#include "ghostpost/storage/store.h"
#include "ghostpost/web/site.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <unistd.h>

namespace ghostpost::test {

class WebDb {
public:
    explicit WebDb(testing::Backend backend = testing::Backend::Sqlite)
        : fresh_(backend, "ghostpost-web", false) {
        storage::DatabaseOptions options;
        options.synchronous_full = false;
        store_ = fresh_.open(options);
        alice = store_->upsert_player("console", "alice", "Alice", "alice").id;
        bob = store_->upsert_player("console", "bob", "Bob <b>", "bob").id;
    }
    ~WebDb() { store_.reset(); }
    const std::string& path() const { return fresh_.path(); }
    const char* backend() const { return fresh_.name(); }
    // How a Site finds this database, on either backend.
    web::SiteSettings site() const {
        web::SiteSettings settings;
        settings.db_path = fresh_.path();
        settings.db_url = fresh_.url();
        return settings;
    }
    storage::Store& store() { return *store_; }

    std::int64_t new_game(const std::string& variant, std::uint8_t seed_byte) {
        storage::GameRecord g;
        g.variant = variant;
        g.platform = "console";
        g.channel = "lobby";
        g.challenger = alice;
        g.white = alice;
        g.black = bob;
        g.status = storage::GameStatus::Ongoing;
        g.seed = std::vector<std::uint8_t>(32, seed_byte);
        g.created_at = 1'790'000'000;
        g.time_control = "none";
        return store_->create_game(g);
    }

    // Logs `text` as the next action of `seat`.
    void log(std::int64_t game, int ply, rules::Seat seat, const std::string& text) {
        storage::ActionRecord a;
        a.game_id = game;
        a.ply = ply;
        a.seat = seat;
        a.player_id = seat == rules::Seat::White ? alice : bob;
        a.text = text;
        a.message_id = "m" + std::to_string(game) + "-" + std::to_string(ply);
        store_->append_action(a);
    }

    void finish(std::int64_t game, const std::string& result, const std::string& reason) {
        auto g = store_->game(game);
        REQUIRE(g);
        g->status = storage::GameStatus::Finished;
        g->result = result;
        g->reason = reason;
        store_->update_game(*g);
    }

    std::int64_t alice = 0, bob = 0;

private:
    testing::FreshStore fresh_;
    std::unique_ptr<storage::Store> store_;
};

} // namespace ghostpost::test
