// One daemon on Telegram, Discord, Matrix and Discourse at once, each against its fake: each
// fake stopped in turn and started again, then each one's token refused in turn. The other
// three keep answering at their usual pace, /healthz names the one that is down, every post is
// answered once, and the daemon exits with status 2 only when all four refused it.
#include "../discord/fake_discord.h"
#include "../discourse/fake_discourse.h"
#include "../matrix/fake_matrix.h"
#include "../telegram/fake_telegram.h"

#include <fstream>
#include <netinet/in.h>
#include <sys/socket.h>

using namespace ghostpost;
using discord_test::FakeDiscord;
using nlohmann::json;
using test::FakeDiscourse;
using test::FakeMatrix;
using test::FakeTelegram;

namespace {

// /healthz as a monitor reads it; a probe that got no answer at all (on a loaded machine the
// server once closed one without a reply) counts as no answer yet, as a monitor's retry would.
json health(int port) {
    bot::CurlHttpClient http;
    bot::HttpRequest request;
    request.method = "GET";
    request.url = "http://127.0.0.1:" + std::to_string(port) + "/healthz";
    request.timeout = std::chrono::seconds(5);
    bot::HttpResponse response;
    try {
        response = http.post(request);
    } catch (const bot::HttpError& e) {
        return json{{"http_status", 0}, {"error", e.what()}};
    }
    json body = json::parse(response.body);
    body["http_status"] = response.status;
    return body;
}

// The four fakes, each in a folder of its own, and how a post reaches each and how many
// replies each has sent.
struct Platforms {
    test::TempDir telegram_dir, discord_dir, matrix_dir, discourse_dir;
    FakeTelegram telegram{telegram_dir};
    FakeDiscord discord{discord_dir};
    FakeMatrix matrix{matrix_dir};
    FakeDiscourse discourse{discourse_dir};
    std::string room;
    const json alice_on_discord = FakeDiscord::user("700000000000000007", "alice");

    static constexpr const char* names[] = {"telegram", "discord", "matrix", "discourse"};

    test::FakeServer& fake(const std::string& name) {
        if (name == "telegram")
            return telegram;
        if (name == "discord")
            return discord;
        if (name == "matrix")
            return matrix;
        return discourse;
    }
    // Posts "!help" where the bot answers it with one reply.
    void ask(const std::string& name) {
        if (name == "telegram")
            telegram.say(501, 501, "alice", "!help");
        else if (name == "discord")
            discord.dm(alice_on_discord, "!help");
        else if (name == "matrix")
            matrix.say(room, "@alice:fake.test", "!help");
        else
            discourse.say("alice", "@ghostpost !help please");
    }
    std::size_t replies(const std::string& name) { return fake(name).sent().size(); }
};

std::filesystem::path write_config(const test::TempDir& dir, Platforms& p, int metrics) {
    const auto path = dir.path() / "ghostpost.toml";
    std::ofstream(path) << "[storage]\npath = \"games.sqlite\"\n[log]\nlevel = \"info\"\n"
                        << "[metrics]\nlisten = \"127.0.0.1:" << metrics << "\"\n"
                        << "[platform.telegram]\napi_url = \"" << p.telegram.url() << "\"\n"
                        << "poll_timeout = 2\nrequest_timeout = 2\nper_chat_interval_ms = 0\n"
                        << "[platform.discord]\napi_url = \"" << p.discord.api_url() << "\"\n"
                        << "poll_timeout = 2\nrequest_timeout = 2\nper_chat_interval_ms = 0\n"
                        << "[platform.matrix]\nhomeserver_url = \"" << p.matrix.url() << "\"\n"
                        << "user_id = \"" << FakeMatrix::bot << "\"\n"
                        << "poll_timeout = 2\nrequest_timeout = 2\nper_chat_interval_ms = 0\n"
                        << "[platform.discourse]\nbase_url = \"" << p.discourse.url() << "\"\n"
                        << "username = \"ghostpost\"\ncategories = [5]\npoll_interval = 1\n"
                        << "request_timeout = 2\nper_topic_interval_ms = 0\n";
    return path;
}

} // namespace

TEST_CASE("four platforms in one daemon: each down or refused in turn, the others go on",
          "[daemon][lanes][platforms]") {
    test::TempDir dir;
    Platforms p;
    p.matrix.control("eager", {{"user", "@alice:fake.test"}});
    p.room = p.matrix.create_room("@alice:fake.test", {});
    const int metrics = test::free_loopback_port();
    auto daemon =
        test::Child({GHOSTPOST_BINARY, "run", "--config", write_config(dir, p, metrics).string()},
                    dir.path() / "daemon.out", dir.path() / "daemon.err",
                    {std::string("GHOSTPOST_TELEGRAM_TOKEN=") + FakeTelegram::token,
                     std::string("GHOSTPOST_DISCORD_TOKEN=") + FakeDiscord::token,
                     std::string("GHOSTPOST_MATRIX_TOKEN=") + FakeMatrix::token,
                     std::string("GHOSTPOST_DISCOURSE_API_KEY=") + FakeDiscourse::key});
    REQUIRE(test::eventually(
        [&] {
            try {
                return health(metrics)["http_status"] == 200;
            } catch (const std::exception&) {
                return false;
            }
        },
        std::chrono::seconds(30)));
    REQUIRE(test::eventually([&] { return p.matrix.membership(p.room, FakeMatrix::bot) == "join"; },
                             std::chrono::seconds(20)));

    std::map<std::string, std::size_t> asked;
    // Every platform but `except` answers a new post within 5 s: its usual pace, not a backoff.
    const auto others_answer = [&](const std::string& except) {
        for (const std::string name : Platforms::names) {
            if (name == except)
                continue;
            p.ask(name);
            ++asked[name];
            INFO(name << " while " << except << " is out");
            CHECK(test::eventually([&] { return p.replies(name) >= asked[name]; },
                                   std::chrono::seconds(5)));
        }
    };
    others_answer("");

    // Each fake goes down and comes back; meanwhile the others answer and /healthz names it.
    for (const std::string down : Platforms::names) {
        p.fake(down).go_down();
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        others_answer(down);
        INFO(down << " down");
        CHECK(test::eventually(
            [&] {
                const json h = health(metrics);
                return h["http_status"] == 503 && h["platforms"][down]["state"] == "retrying";
            },
            std::chrono::seconds(15)));
        p.fake(down).come_back();
        CHECK(test::eventually([&] { return health(metrics)["http_status"] == 200; },
                               std::chrono::seconds(70)));
        p.ask(down);
        ++asked[down];
        CHECK(test::eventually([&] { return p.replies(down) >= asked[down]; },
                               std::chrono::seconds(10)));
    }

    // Each token refused in turn: that lane stops, the others go on, until none is left.
    for (std::size_t i = 0; i < 4; ++i) {
        const std::string refused = Platforms::names[i];
        p.fake(refused).refuse_token();
        p.ask(refused); // the refusal comes on the next poll (or this post's)
        INFO(refused << " refused");
        CHECK(test::eventually(
            [&] { return health(metrics)["platforms"][refused]["state"] == "refused"; },
            std::chrono::seconds(15)));
        if (i < 3) {
            for (std::size_t j = i + 1; j < 4; ++j) {
                const std::string name = Platforms::names[j];
                p.ask(name);
                ++asked[name];
                CHECK(test::eventually([&] { return p.replies(name) >= asked[name]; },
                                       std::chrono::seconds(5)));
            }
            CHECK(daemon.wait_exit(std::chrono::milliseconds(200)) == -1);
        }
    }
    CHECK(daemon.wait_exit(std::chrono::seconds(15)) == 2);

    // Every post answered exactly once: nothing lost, nothing twice.
    for (const std::string name : Platforms::names)
        CHECK(p.replies(name) == asked[name]);
    const std::string err = test::read_file(dir.path() / "daemon.err");
    for (const char* secret :
         {FakeTelegram::token, FakeDiscord::token, FakeMatrix::token, FakeDiscourse::key})
        CHECK(err.find(secret) == std::string::npos);
    CHECK(p.telegram.violations().empty());
    CHECK(p.matrix.violations().empty());
}
