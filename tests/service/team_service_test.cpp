// Team games across two platforms: a Telegram group plays a Discord channel, each side's
// members voting in their own channel. Posts of both platforms go through one service and one
// store, as the daemon's lanes do. The whole exchange is kept as a transcript
// (tests/data/team/*.txt, refreshed with GHOSTPOST_UPDATE_TRANSCRIPTS=1 and reviewed); the
// checks below say what it must show.
#include "../storage/temp_path.h"
#include "ghostpost/service/service.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace ghostpost;
using bot::Post;
using ghostpost::testing::TempPath;

namespace {

struct Account {
    std::string platform;
    std::string id;
    std::string handle;
};

const Account amy{"telegram", "100", "amy"};
const Account bob{"telegram", "101", "bob"};
const Account ann{"telegram", "102", "ann"}; // in the group, not in its team
const Account cat{"discord", "900", "cat"};
const Account dan{"discord", "901", "dan"};
const Account eve{"discord", "902", "eve"};

const std::string group = "-1001"; // the Telegram group
const std::string room = "555";    // the Discord channel

class Teams {
public:
    Teams()
        : store_(storage::open_sqlite_store(path_.str())),
          service_(*store_, settings(), [this] { return now_; }) {}

    static bot::ServiceSettings settings() {
        bot::ServiceSettings s;
        s.fixed_seed = "teams";
        return s;
    }

    // A post of `who` in `channel` (empty: a direct message); what went out is logged and
    // returned, each as "<platform> <destination>: <text>" ("dm <user>" for a direct message).
    std::vector<std::string> say(const Account& who, const std::string& text,
                                 const std::string& channel) {
        Post p;
        p.platform = who.platform;
        p.direct = channel.empty();
        p.channel = channel.empty() ? who.id : channel;
        p.message_id = std::to_string(++next_id_);
        p.author_id = who.id;
        p.author_name = who.handle;
        p.author_handle = who.handle;
        p.text = text;
        log_ += "<< " + who.platform + " " + (channel.empty() ? "dm" : channel) + " " + who.handle +
                ": " + masked(text) + "\n";
        service_.handle(p);
        return sent();
    }
    std::vector<std::string> wait(std::int64_t seconds) {
        now_ += seconds;
        log_ += "~~ " + std::to_string(seconds) + " s later\n";
        service_.tick();
        return sent();
    }
    std::vector<std::string> sent() {
        std::vector<std::string> out;
        for (const std::string platform : {"telegram", "discord"})
            for (const auto& e : store_->due(platform, 2000000000, 100)) {
                out.push_back(platform + " " + (e.message.to_user ? "dm " : "") +
                              e.message.destination + ": " + e.message.text +
                              (e.message.code.empty() ? "" : "\n" + e.message.code));
                store_->mark_sent(e.id, 0);
                log_ += ">> " + masked(out.back()) + "\n";
            }
        return out;
    }
    storage::Store& store() { return *store_; }
    const std::string& log() const { return log_; }

    // Codes are random: the log shows them as XXXX-XXXX.
    static std::string masked(const std::string& text) {
        return std::regex_replace(text, std::regex("[A-Z2-9]{4}-[A-Z2-9]{4}"), "XXXX-XXXX");
    }

private:
    TempPath path_;
    std::int64_t now_ = 1700000000;
    std::unique_ptr<storage::Store> store_;
    bot::Service service_;
    int next_id_ = 0;
    std::string log_;
};

std::string code_in(const std::vector<std::string>& replies) {
    std::smatch m;
    for (const auto& r : replies)
        if (std::regex_search(r, m, std::regex("[A-Z2-9]{4}-[A-Z2-9]{4}")))
            return m.str();
    FAIL("no code in the replies");
    return {};
}

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines)
        out += l + "\n";
    return out;
}

// The transcript must equal tests/data/team/<name>.txt.
void matches_transcript(const std::string& log, const std::string& name) {
    const std::string path = std::string(GHOSTPOST_TEST_DATA) + "/team/" + name + ".txt";
    if (std::getenv("GHOSTPOST_UPDATE_TRANSCRIPTS")) {
        std::ofstream(path) << log;
        return;
    }
    std::ifstream in(path);
    REQUIRE(in.good());
    std::stringstream expected;
    expected << in.rdbuf();
    CHECK(log == expected.str());
}

// Starts a team game of `variant`: the group challenges the Discord channel, which takes it.
std::string start(Teams& t, const std::string& variant, const std::string& window) {
    t.say(amy, "!team join", group);
    t.say(bob, "!team join", group);
    t.say(cat, "!team join", room);
    t.say(dan, "!team join", room);
    const auto made = t.say(amy, "!new " + variant + " team window=" + window, group);
    return code_in(made);
}

} // namespace

TEST_CASE("Two channels on two platforms play a team game by vote", "[bot][team]") {
    Teams t;
    const std::string code = start(t, "chess", "4h");
    auto out = t.say(cat, "!join " + code, room);
    // Both channels hear the start: the game's channel and the one that took it.
    REQUIRE(out.size() == 2);
    CHECK(out[0].starts_with("telegram -1001: team #555 (cat) takes the team challenge. Game #1, "
                             "FIDE chess: team #-1001 (White) vs team #555 (Black)."));
    CHECK(out[1].starts_with("discord 555: team #555 (@cat) takes the team challenge."));
    auto game = t.store().game(1).value();
    CHECK(game.status == storage::GameStatus::Ongoing);
    CHECK(game.time_control == "4h");

    // A vote: said in the team's channel only.
    out = t.say(amy, "e4", group);
    CHECK(out == std::vector<std::string>{"telegram -1001: @amy votes e4 in game #1. Votes: e4 1 "
                                          "(1 of 2 members); the vote closes at 2023-11-15 02:13 "
                                          "UTC."});
    // Not a member: chatter, no reply, no vote; the other side cannot vote here.
    CHECK(t.say(ann, "d4", group).empty());
    CHECK(t.say(cat, "e5", room).empty()); // not the Discord team's decision: no reply
    // Every member has voted: a tie of one each, the first proposal wins.
    out = t.say(bob, "d4", group);
    const std::string all = joined(out);
    CHECK(all.find("telegram -1001: The vote in game #1 is closed (every member has voted): e4, 1 "
                   "vote, level with another and proposed first. Votes: e4 1, d4 1.") !=
          std::string::npos);
    CHECK(all.find("telegram -1001: team #-1001 (White) played e4 in game #1.") !=
          std::string::npos);
    CHECK(all.find("discord 555: team #-1001 (White) played e4 in game #1.") != std::string::npos);
    // The vote itself never reaches the other side.
    CHECK(all.find("discord 555: The vote") == std::string::npos);

    // The Discord side: one votes, the window closes, that vote is played.
    out = t.say(dan, "!vote e5", room);
    CHECK(out.size() == 1);
    CHECK(out[0].starts_with("discord 555: @dan votes e5 in game #1."));
    CHECK(t.wait(3 * 3600).empty()); // the window is open for 4 hours
    out = t.wait(3600);
    const std::string closed = joined(out);
    CHECK(closed.find(
              "discord 555: The vote in game #1 is closed (the window closed): e5, 1 vote.") !=
          std::string::npos);
    CHECK(closed.find("telegram -1001: team #555 (Black) played e5 in game #1.") !=
          std::string::npos);
    CHECK(t.store().actions(1).size() == 2);

    // A member's illegal vote gets one reply, counts for nothing.
    out = t.say(bob, "Ke3", group);
    CHECK(out == std::vector<std::string>{"telegram -1001: Not a vote in game #1: Ke3 is not "
                                          "possible: no king can reach e3."});
    // Resigning goes by vote too; the teams' ratings change, not the members'.
    t.say(amy, "resign", group);
    out = t.say(bob, "!vote resign", group);
    CHECK(joined(out).find("team #-1001 (White) resigns game #1 by vote.") != std::string::npos);
    game = t.store().game(1).value();
    CHECK(game.result == "0-1");
    CHECK(t.store().rating(*game.white, "chess").has_value());
    CHECK_FALSE(t.store().rating(t.store().player_by_account("telegram", "100")->id, "chess"));

    // Without a single vote, a window that closes loses on time, as a player's clock would.
    matches_transcript(t.log(), "chess_two_platforms");
}

TEST_CASE("A team's roster, names and mistakes", "[bot][team]") {
    Teams t;
    CHECK(t.say(amy, "!team", group) ==
          std::vector<std::string>{"telegram -1001: This channel has no team yet: !team join "
                                   "makes you a member, and !new chess team window=4h challenges "
                                   "another channel."});
    t.say(amy, "!team join", group);
    CHECK(t.say(amy, "!team join", group) ==
          std::vector<std::string>{"telegram -1001: @amy is a member of team #-1001 already."});
    CHECK(t.say(amy, "!team name Night Owls", group) ==
          std::vector<std::string>{"telegram -1001: This channel's team is now called team Night "
                                   "Owls."});
    CHECK(t.say(ann, "!team name Larks", group) ==
          std::vector<std::string>{"telegram -1001: Only the team's members name it: !team join "
                                   "first."});
    CHECK(t.say(amy, "!team", group) ==
          std::vector<std::string>{"telegram -1001: team Night Owls: 1 member (amy)."});
    CHECK(t.say(amy, "!new chess team window=1m", group) ==
          std::vector<std::string>{"telegram -1001: window= is the time to vote each move, 5m or "
                                   "more: window=4h, window=1d."});
    CHECK(t.say(amy, "!new chess @bob team", group) ==
          std::vector<std::string>{"telegram -1001: A team game is between two channels, not "
                                   "against a player: leave out the opponent. Nothing was "
                                   "created."});
    CHECK(t.say(amy, "!new chess window=4h", group) ==
          std::vector<std::string>{"telegram -1001: window= is for team games: !new chess team "
                                   "window=4h."});
    const std::string code = code_in(t.say(amy, "!new chess team", group));
    CHECK(t.say(bob, "!join " + code, group) ==
          std::vector<std::string>{"telegram -1001: A team game is between two channels: post the "
                                   "code in the other one."});
    CHECK(t.say(amy, "!vote e4", group) ==
          std::vector<std::string>{"telegram -1001: team Night Owls has no decision to vote on "
                                   "now."});
    CHECK(t.say(amy, "!team leave", group) ==
          std::vector<std::string>{"telegram -1001: @amy leaves team Night Owls."});
    CHECK(t.say(ann, "!vote e4", group) ==
          std::vector<std::string>{"telegram -1001: Only team Night Owls's members vote: !team "
                                   "join first."});
}

TEST_CASE("A team that lets its window close without a vote loses on time", "[bot][team]") {
    Teams t;
    const std::string code = start(t, "chess", "1h");
    t.say(cat, "!join " + code, room);
    const std::string out = joined(t.wait(3601));
    CHECK(out.find("ran out of time in game #1") != std::string::npos);
    CHECK(t.store().game(1)->status != storage::GameStatus::Ongoing);
}

TEST_CASE("A Phantom team game keeps each side's secrets in its own channel", "[bot][team]") {
    Teams t;
    const std::string code = start(t, "phantom", "4h");
    t.say(cat, "!join " + code, room);
    // White enters its Phantom by vote. The entry is announced to both sides, as the rules
    // announce it to a player's opponent; the board that shows where it stands goes to the
    // group alone, and no team has direct messages.
    t.say(amy, "F@e4", group);
    const auto out = t.say(bob, "F@e4", group);
    const std::string all = joined(out);
    CHECK(all.find(" dm ") == std::string::npos);
    CHECK(all.find("telegram -1001: Game #1: your Phantom now stands on e4") != std::string::npos);
    CHECK(all.find("discord 555: team #-1001 (White) played F@e4 in game #1.") !=
          std::string::npos);
    for (const auto& line : out)
        if (line.starts_with("discord"))
            CHECK(line.find("your Phantom") == std::string::npos);
    // The Discord team peeks at nothing: its members' votes and boards stay in its channel.
    const auto black = joined(t.say(cat, "e5", room));
    CHECK(black.find("telegram -1001: @cat votes") == std::string::npos);
    CHECK(black.find("discord 555: @cat votes e5 in game #1.") != std::string::npos);
    CHECK(t.store().actions(1).size() == 1);
    matches_transcript(t.log(), "phantom_two_platforms");
}
