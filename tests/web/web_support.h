// A database with games written straight into the store, for the web tests: each action is
// chosen and applied on a true game kept beside the store, so a test knows what is hidden.
#pragma once

#include "ghostpost/bot/random.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/storage/store.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <unistd.h>

namespace ghostpost::test {

class WebDb {
public:
    WebDb() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "ghostpost-web-XXXXXX").string();
        REQUIRE(mkdtemp(pattern.data()) != nullptr);
        dir_ = pattern;
        path_ = dir_ + "/games.db";
        storage::DatabaseOptions options;
        options.synchronous_full = false;
        store_ = storage::open_sqlite_store(path_, options);
        alice = store_->upsert_player("console", "alice", "Alice", "alice").id;
        bob = store_->upsert_player("console", "bob", "Bob <b>", "bob").id;
    }
    ~WebDb() {
        store_.reset();
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
    const std::string& path() const { return path_; }
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
    std::string dir_, path_;
    std::unique_ptr<storage::Store> store_;
};

} // namespace ghostpost::test
