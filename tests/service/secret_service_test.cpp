// Secrecy is data (issue 35): a variant the service has never heard of, with a secret action,
// keeps it from the channel, !history, !pgn, the web page and the engine's seat until its rules
// reveal it. The service knows the action is secret only from the events the rules return.
#include "../storage/temp_path.h"
#include "ghostpost/service/engine_player.h"
#include "ghostpost/service/service.h"
#include "ghostpost/web/site.h"
#include "secret_variant.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace ghostpost;
using ghostpost::testing::TempPath;
using rules::Seat;

namespace {

std::int64_t fixed_clock() {
    return 1700000000;
}

class Table {
public:
    explicit Table(const std::string& db)
        : path_(db), store_(storage::open_sqlite_store(db)),
          service_(*store_, settings(), fixed_clock) {}
    static bot::ServiceSettings settings() {
        bot::ServiceSettings s;
        s.fixed_seed = "secret-test";
        return s;
    }
    // Posts `text` as `user`; the replies it queued, each as "#channel: text" or "@user: text"
    // with its code block on the next lines, oldest first.
    std::vector<std::string> say(const std::string& user, const std::string& text,
                                 bool direct = false) {
        bot::Post p;
        p.platform = "console";
        p.direct = direct;
        p.channel = direct ? "@" + user : "g";
        p.message_id = std::to_string(++sequence_);
        p.author_id = user;
        p.author_name = user;
        p.author_handle = user;
        p.text = text;
        service_.handle(p);
        return replies();
    }
    std::vector<std::string> replies() {
        std::vector<std::string> out;
        for (const auto& e : store_->due("console", 2000000000, 1000)) {
            const auto& m = e.message;
            out.push_back((m.to_user ? "@" : "#") + m.destination + ": " + m.text +
                          (m.code.empty() ? "" : "\n" + m.code));
            store_->mark_sent(e.id, 0);
        }
        return out;
    }
    // What the engine's seat is given now.
    bot::EngineTurn engine_turn() {
        auto turns = service_.engine_turns("console", {});
        REQUIRE(turns.size() == 1);
        return turns[0];
    }
    // The engine's seat enters `command` as the engine would.
    std::vector<std::string> engine_says(const std::string& command) {
        service_.handle(bot::engine_post(engine_turn(), command));
        return replies();
    }
    web::Page page(const std::string& path) {
        web::Site site({path_});
        return site.get(path);
    }

private:
    std::string path_;
    std::unique_ptr<storage::Store> store_;
    bot::Service service_;
    int sequence_ = 0;
};

// Every line of `lines` joined, to look for a text anywhere in them.
std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines)
        out += l + "\n";
    return out;
}

} // namespace

TEST_CASE("A secret action of a variant the service does not know stays secret everywhere until "
          "its rules reveal it",
          "[bot][engine][issue35]") {
    test::SealedNumberRegistered registered;
    TempPath path;
    Table t(path.str());
    const auto started = t.say("alice", "!new sealednumber bot tc=none");
    REQUIRE(started.size() == 1);
    CHECK(started[0].starts_with("#g: @alice plays ghostpost (level"));

    // alice seals 2 by direct message: she alone is told the number.
    CHECK(t.say("alice", "!move 1 seal 2", true) ==
          std::vector<std::string>{
              "@alice: Game #1: you sealed 2; it is revealed when Black has guessed",
              "@alice: @alice (White) has decided in game #1; the choice stays secret until it "
              "is revealed. ghostpost (level 5) (Black) must guess the sealed number.",
              "#g: @alice (White) has decided in game #1; the choice stays secret until it is "
              "revealed. ghostpost (level 5) (Black) must guess the sealed number."});

    // The engine's seat is given the position and no action.
    const auto turn = t.engine_turn();
    REQUIRE(turn.view);
    CHECK(turn.view->seat() == Seat::Black);
    CHECK(turn.record.actions.empty());
    CHECK(turn.record.draws.empty());
    CHECK(turn.view->board().notes == std::vector<std::string>{"White has sealed a number"});

    // !history, !pgn and the web page say that a choice was made, never which.
    CHECK(t.say("bob", "!history 1") ==
          std::vector<std::string>{
              "#g: Game #1, Sealed Number (a test), 1 ply.\n{a secret choice}\n"});
    const std::string tags = "[Event \"ghostpost game 1\"]\n[Site \"console g\"]\n"
                             "[Date \"2023.11.14\"]\n[Round \"-\"]\n[White \"alice\"]\n"
                             "[Black \"ghostpost (level 5)\"]\n";
    const std::string more = "[UTCDate \"2023.11.14\"]\n[UTCTime \"22:13:20\"]\n"
                             "[Variant \"Sealed Number (a test)\"]\n[TimeControl \"-\"]\n";
    CHECK(t.say("bob", "!pgn 1") ==
          std::vector<std::string>{"#g: PGN of game #1:\n" + tags + "[Result \"*\"]\n" + more +
                                   "[Termination \"Unterminated\"]\n\n{a secret choice} *\n"});
    const web::Page page = t.page("/game/1");
    CHECK(page.status == 200);
    CHECK(page.body.find("seal 2") == std::string::npos);
    CHECK(page.body.find("{a secret choice}") != std::string::npos);
    const web::Page pgn = t.page("/game/1/pgn");
    CHECK(pgn.body.find("seal 2") == std::string::npos);
    CHECK(pgn.body.find("\n\n{a secret choice} *\n") != std::string::npos);

    // Black's guess reveals the number to everybody, and the engine's seat is told of it when
    // it must seal in turn.
    const auto guessed = t.engine_says("move 1 guess 3");
    INFO(joined(guessed));
    CHECK(joined(guessed).find("White's sealed number was 2") != std::string::npos);
    const auto next = t.engine_turn();
    REQUIRE(next.view);
    REQUIRE(next.record.actions.size() == 2);
    CHECK(next.record.actions[0].seat == Seat::White);
    CHECK(next.record.actions[0].text == "seal 2");
    CHECK(next.record.actions[1].text == "guess 3");
    CHECK(next.secret); // the engine's own seal goes by direct message

    // Black seals in secret and alice guesses, which ends the game: then the record is public.
    // As in Gnostic Chess, the record keeps a secret decision's text for the end of the game;
    // the reveal itself was public.
    t.engine_says("move 1 seal 1");
    CHECK(t.say("bob", "!history 1") ==
          std::vector<std::string>{"#g: Game #1, Sealed Number (a test), 3 plies.\n"
                                   "{a secret choice} guess 3 {a secret choice}\n"});
    const web::Page running = t.page("/game/1");
    CHECK(running.body.find("seal ") == std::string::npos);
    t.say("alice", "!move 1 guess 1");
    CHECK(t.say("bob", "!history 1") ==
          std::vector<std::string>{
              "#g: Game #1, Sealed Number (a test), 4 plies.\nseal 2 guess 3 seal 1 guess 1\n"});
    CHECK(t.say("bob", "!pgn 1") ==
          std::vector<std::string>{"#g: PGN of game #1:\n" + tags + "[Result \"1-0\"]\n" + more +
                                   "[Termination \"Normal\"]\n\n"
                                   "seal 2 guess 3 seal 1 guess 1 {a better guess} 1-0\n"});
    const web::Page end = t.page("/game/1");
    CHECK(end.body.find("seal 2") != std::string::npos);
    CHECK(end.body.find("seal 1") != std::string::npos);
}
