// Issue #34's load simulation, on loopback: three `ghostpost run` daemons on one PostgreSQL
// database serve a fake Discord (the bot in 8 shards, 5,000 guilds) and a fake Telegram (5,000
// groups) while posts come at a steady rate and a random daemon is killed with SIGKILL every few
// seconds and started again. Printed: the posts made, the time from each post to the bot's
// first reply to it (p50, p99, the slowest), the posts no reply answered by the end of the drain
// (unanswered: lost, or still queued) and the replies sent twice.
//
//   load_sim URL [--guilds N] [--groups N] [--shards N] [--rate POSTS/S] [--seconds S]
//                [--kill-every S] [--chatter FRACTION] [--drain S]
//
// URL is an empty PostgreSQL database (bench/load_sim.sh starts a throw-away cluster). Every
// chat plays one game after another between two players of its own: a challenge, its
// acceptance and a seven-ply mate (one reply each, two for the mate, which adds the rating
// changes); the other posts (--chatter, 0.7 by default) are talk that gets no reply. A chat's
// replies come in the order of its posts, so the k-th reply of a chat answers the post its count
// says. The fake Discord counts Discord's global limit (50 requests a second), which bounds the
// replies a second the bot can send there: the default mix asks about 42.
//
// The fakes are the tests' (tests/discord/fake_discord.mjs, tests/telegram/fake_telegram.py),
// checking every request against the platforms' API descriptions.
#define CATCH_CONFIG_RUNNER
#include "../tests/discord/fake_discord.h"
#include "../tests/telegram/fake_telegram.h"
#include "ghostpost/storage/store.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

using namespace ghostpost;
using nlohmann::json;

namespace {

struct Options {
    std::string url;
    int guilds = 5000;
    int groups = 5000;
    int shards = 8;
    double rate = 250;      // posts a second, both platforms together
    double seconds = 300;   // how long the posts come
    double kill_every = 10; // seconds between two kills, on average (0: none)
    double chatter = 0.7;   // the share of posts that are talk
    double drain = 120;     // how long to wait for the last replies
};
Options options;

double unix_now() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

const std::vector<std::string> mate{"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"};
constexpr int cycle = 9; // a challenge, its acceptance, the seven plies
int replies_of_step(int step) {
    return step == cycle - 1 ? 2 : 1;
}

// What one chat was sent, and when each of its posts that asks a reply was made.
struct Chat {
    int step = 0;
    std::vector<std::pair<double, int>> asked; // (time posted, replies it brings)
};

struct Figures {
    std::size_t posts = 0, asking = 0, expected = 0, received = 0, lost = 0, twice = 0;
    std::vector<double> latencies;
    std::vector<std::string> missing; // the first lost posts: "chat post at <time>"
};

// The k-th distinct reply of a chat answers the post its count says; a text a chat got twice
// is a reply sent twice (every reply names its game and move, so no two are alike).
void measure(const std::map<std::string, Chat>& chats,
             std::map<std::string, std::vector<std::pair<double, std::string>>>& replies,
             Figures& f) {
    for (const auto& [id, chat] : chats) {
        auto& got = replies[id];
        std::stable_sort(got.begin(), got.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<double> times;
        std::set<std::string> seen;
        for (const auto& [at, text] : got)
            if (seen.insert(text).second)
                times.push_back(at);
            else
                ++f.twice;
        f.received += times.size();
        f.asking += chat.asked.size();
        std::size_t next = 0;
        for (const auto& [posted, count] : chat.asked) {
            f.expected += static_cast<std::size_t>(count);
            if (next >= times.size()) {
                if (++f.lost <= 5) {
                    std::string what = id + " post at " + std::to_string(posted) + "; asked:";
                    for (const auto& [t, n] : chat.asked)
                        what += " " + std::to_string(t) + "x" + std::to_string(n);
                    what += "; replies:";
                    for (const auto& [t, text] : got)
                        what += " " + std::to_string(t) + " [" + text.substr(0, 40) + "]";
                    f.missing.push_back(what);
                }
                continue;
            }
            f.latencies.push_back(times[next] - posted);
            next += static_cast<std::size_t>(count);
        }
    }
}

double percentile(std::vector<double> v, double p) {
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const auto i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
}

void print(const char* name, const Figures& f) {
    std::printf("%-9s %7zu posts, %6zu asking a reply; replies %zu of %zu; unanswered %zu, twice "
                "%zu; "
                "post to reply p50 %.3f s, p99 %.3f s, slowest %.3f s\n",
                name, f.posts, f.asking, f.received, f.expected, f.lost, f.twice,
                percentile(f.latencies, 0.5), percentile(f.latencies, 0.99),
                f.latencies.empty() ? 0.0
                                    : *std::max_element(f.latencies.begin(), f.latencies.end()));
}

// Posts at `rate` a second into `count` chats until `end`, through `say(chat, step)` (step -1:
// talk); returns what each chat asked.
template <class Say>
std::map<std::string, Chat> post(int count, double rate, double end, std::uint32_t seed,
                                 const std::function<std::string(int)>& name, Say say,
                                 std::size_t& posts) {
    std::map<std::string, Chat> chats;
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> pick(0, count - 1);
    std::bernoulli_distribution talk(options.chatter);
    const double start = unix_now();
    for (std::size_t k = 0;; ++k) {
        const double due = start + static_cast<double>(k) / rate;
        if (due >= end)
            break;
        if (const double now = unix_now(); now < due)
            std::this_thread::sleep_for(std::chrono::duration<double>(due - now));
        const int c = pick(random);
        Chat& chat = chats[name(c)];
        ++posts;
        if (talk(random)) {
            say(c, -1);
            continue;
        }
        const double at = unix_now();
        say(c, chat.step);
        chat.asked.emplace_back(at, replies_of_step(chat.step));
        chat.step = (chat.step + 1) % cycle;
    }
    return chats;
}

} // namespace

TEST_CASE("load simulation") {
    test::TempDir dir;
    const int lifetime = static_cast<int>(options.seconds + options.drain) + 600;
    discord_test::FakeDiscord discord(dir, lifetime);
    discord.control("settings", {{"max_concurrency", options.shards},
                                 {"recommended_shards", options.shards},
                                 {"global_per_second", 50}});
    test::TempDir telegram_dir;
    test::FakeTelegram telegram(telegram_dir, lifetime);

    const auto config = [&](int slot) {
        const auto path = dir.path() / ("daemon" + std::to_string(slot) + ".toml");
        std::ofstream(path) << "[storage]\nurl = \"" << options.url << "\"\n"
                            << "[log]\nlevel = \""
                            << (std::getenv("LOAD_SIM_LOG") ? std::getenv("LOAD_SIM_LOG")
                                                            : "warning")
                            << "\"\n"
                            << "[platform.telegram]\napi_url = \"" << telegram.url() << "\"\n"
                            << "poll_timeout = 2\nper_chat_interval_ms = 0\n"
                            << "group_messages_per_minute = 1000\n"
                            << "[platform.discord]\napi_url = \"" << discord.api_url() << "\"\n"
                            << "shards = " << options.shards << "\npoll_timeout = 2\n"
                            << "per_chat_interval_ms = 0\ngroup_messages_per_minute = 1000\n";
        return path;
    };
    const std::vector<std::string> tokens{
        std::string("GHOSTPOST_DISCORD_TOKEN=") + discord_test::FakeDiscord::token,
        std::string("GHOSTPOST_TELEGRAM_TOKEN=") + test::FakeTelegram::token};
    std::array<std::unique_ptr<test::Child>, 3> daemons;
    const auto start = [&](int slot) {
        const std::string name = "daemon" + std::to_string(slot);
        daemons[static_cast<std::size_t>(slot)] = std::make_unique<test::Child>(
            std::vector<std::string>{GHOSTPOST_BINARY, "run", "--config", config(slot).string()},
            dir.path() / (name + ".out"), dir.path() / (name + ".err"), tokens);
    };
    // The first daemon makes the schema; the others join once its shards are live.
    start(0);
    const auto live = [&] { return discord.control("shards")["live"].size(); };
    REQUIRE(discord_test::eventually([&] { return live() == std::size_t(options.shards); },
                                     std::chrono::seconds(120)));
    start(1);
    start(2);
    std::this_thread::sleep_for(std::chrono::seconds(3));

    const double begin = unix_now();
    const double end = begin + options.seconds;
    std::atomic<bool> posting{true};
    int kills = 0;
    std::vector<std::pair<double, int>> killed; // when, which daemon
    std::thread killer([&] {
        if (options.kill_every <= 0)
            return;
        std::mt19937 random(7);
        std::uniform_real_distribution<double> gap(0.5 * options.kill_every,
                                                   1.5 * options.kill_every);
        for (;;) {
            const double at = unix_now() + gap(random);
            while (posting && unix_now() < at)
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            if (!posting)
                return;
            const int slot = std::uniform_int_distribution<int>(0, 2)(random);
            auto& daemon = daemons[static_cast<std::size_t>(slot)];
            killed.emplace_back(unix_now(), slot);
            daemon->signal(SIGKILL);
            (void)daemon->wait_exit(std::chrono::seconds(5));
            ++kills;
            start(slot);
        }
    });

    // Discord: guild i of 5,000 on shard i % 8, one channel each; two players a channel.
    Figures discord_figures, telegram_figures;
    std::map<std::string, Chat> discord_chats, telegram_chats;
    const auto discord_user = [](int c, bool white) {
        return discord_test::FakeDiscord::user(std::to_string(100000000000000000 + 2 * c + !white),
                                               (white ? "w" : "b") + std::to_string(c));
    };
    const auto discord_channel = [](int c) { return std::to_string(300000000000000000 + c); };
    std::thread discord_poster([&] {
        discord_chats = post(
            options.guilds, options.rate / 2, end, 11, discord_channel,
            [&](int c, int step) {
                const auto guild = discord_test::FakeDiscord::guild_of_shard(
                    c % options.shards, options.shards, 1 + c / options.shards);
                if (step < 0) {
                    discord.say_in(guild, discord_channel(c), discord_user(c, c % 2 == 0),
                                   "nice weather for it");
                } else if (step == 0) {
                    const json black = discord_user(c, false);
                    discord.say_in(guild, discord_channel(c), discord_user(c, true),
                                   "!new chess <@" + black["id"].get<std::string>() +
                                       "> white tc=none",
                                   json::array({black}));
                } else if (step == 1) {
                    discord.say_in(guild, discord_channel(c), discord_user(c, false), "!accept");
                } else {
                    const int ply = step - 2;
                    discord.say_in(guild, discord_channel(c), discord_user(c, ply % 2 == 0),
                                   mate[static_cast<std::size_t>(ply)]);
                }
            },
            discord_figures.posts);
    });
    // Telegram: groups -100100000 - i.
    const auto group = [](int c) { return std::to_string(-100100000 - c); };
    std::thread telegram_poster([&] {
        telegram_chats = post(
            options.groups, options.rate / 2, end, 13, group,
            [&](int c, int step) {
                const std::int64_t chat = -100100000 - c;
                const std::int64_t white = 1000000 + 2 * c, black = white + 1;
                const std::string w = "w" + std::to_string(c), b = "b" + std::to_string(c);
                if (step < 0)
                    telegram.say(chat, c % 2 == 0 ? white : black, c % 2 == 0 ? w : b,
                                 "nice weather for it");
                else if (step == 0)
                    telegram.say(chat, white, w, "!new chess @" + b + " white tc=none");
                else if (step == 1)
                    telegram.say(chat, black, b, "!accept");
                else {
                    const int ply = step - 2;
                    telegram.say(chat, ply % 2 == 0 ? white : black, ply % 2 == 0 ? w : b,
                                 mate[static_cast<std::size_t>(ply)]);
                }
            },
            telegram_figures.posts);
    });
    discord_poster.join();
    telegram_poster.join();
    const double posted = unix_now();
    posting = false;
    killer.join();

    std::size_t expected = 0;
    for (const auto* chats : {&discord_chats, &telegram_chats})
        for (const auto& [id, chat] : *chats)
            for (const auto& a : chat.asked)
                expected += static_cast<std::size_t>(a.second);
    const auto sent_count = [&] {
        return discord.control("stats")["sent"].get<std::size_t>() +
               telegram.control("state")["sent"].get<std::size_t>();
    };
    discord_test::eventually([&] { return sent_count() >= expected; },
                             std::chrono::milliseconds(static_cast<int>(options.drain * 1000)));
    const double drained = unix_now();
    std::this_thread::sleep_for(std::chrono::seconds(2)); // anything sent twice arrives
    for (auto& daemon : daemons) {
        daemon->signal(SIGTERM);
        (void)daemon->wait_exit(std::chrono::seconds(15));
    }

    std::map<std::string, std::vector<std::pair<double, std::string>>> replies;
    for (const json& m : discord.sent())
        if (m["dm_user"].is_null())
            replies[m["channel_id"].get<std::string>()].emplace_back(
                m["at"].get<double>() / 1000.0, m["content"].get<std::string>());
    measure(discord_chats, replies, discord_figures);
    replies.clear();
    for (const json& m : telegram.sent())
        if (m.contains("text") && m["text"].is_string())
            replies[m["chat_id"].dump()].emplace_back(m["time"].get<double>(),
                                                      m["text"].get<std::string>());
    measure(telegram_chats, replies, telegram_figures);

    Figures all;
    for (const Figures* f : {&discord_figures, &telegram_figures}) {
        all.posts += f->posts;
        all.asking += f->asking;
        all.expected += f->expected;
        all.received += f->received;
        all.lost += f->lost;
        all.twice += f->twice;
        all.latencies.insert(all.latencies.end(), f->latencies.begin(), f->latencies.end());
    }
    const json stats = discord.control("stats");
    std::printf("load simulation: %d Discord guilds over %d shards, %d Telegram groups, 3 daemons "
                "on PostgreSQL; %.0f posts/s asked for %.0f s (%.1f made), %.0f %% talk; "
                "%d kills\n",
                options.guilds, options.shards, options.groups, options.rate, options.seconds,
                static_cast<double>(all.posts) / (posted - begin), 100 * options.chatter, kills);
    print("Discord", discord_figures);
    print("Telegram", telegram_figures);
    print("all", all);
    std::printf("the last reply %.1f s after the last post; Discord: %d REST requests (%d reads of "
                "a channel's messages, %d of a channel), %d answered 429 (%d by the global "
                "limit), %d IDENTIFYs, %d RESUMEs\n",
                drained - posted, stats["requests"].get<int>(), stats["message_reads"].get<int>(),
                stats["channel_reads"].get<int>(), stats["rate_limited"].get<int>(),
                stats["global_limited"].get<int>(), stats["identifies"].get<int>(),
                stats["resumes"].get<int>());
    const json violations = discord.violations();
    std::printf("the fake Discord's violations: %zu\n", violations.size());
    for (std::size_t i = 0; i < violations.size() && i < 5; ++i)
        std::printf("  %s\n", violations[i].dump().c_str());
    const json telegram_violations = telegram.violations();
    std::printf("the fake Telegram's violations: %zu\n", telegram_violations.size());
    for (const Figures* f : {&discord_figures, &telegram_figures})
        for (const auto& m : f->missing)
            std::printf("no reply: %s\n", m.c_str());
    for (const auto& [at, slot] : killed)
        std::printf("killed daemon %d at %.3f\n", slot, at);
    if (const char* keep = std::getenv("LOAD_SIM_KEEP"))
        std::filesystem::copy(dir.path(), keep,
                              std::filesystem::copy_options::recursive |
                                  std::filesystem::copy_options::overwrite_existing);
    CHECK(all.lost == 0);
}

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: load_sim URL [--guilds N] [--groups N] [--shards N] "
                             "[--rate R] [--seconds S] [--kill-every S] [--chatter F] "
                             "[--drain S]\n");
        return 2;
    }
    options.url = argv[1];
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string k = argv[i], v = argv[i + 1];
        if (k == "--guilds")
            options.guilds = std::stoi(v);
        else if (k == "--groups")
            options.groups = std::stoi(v);
        else if (k == "--shards")
            options.shards = std::stoi(v);
        else if (k == "--rate")
            options.rate = std::stod(v);
        else if (k == "--seconds")
            options.seconds = std::stod(v);
        else if (k == "--kill-every")
            options.kill_every = std::stod(v);
        else if (k == "--chatter")
            options.chatter = std::stod(v);
        else if (k == "--drain")
            options.drain = std::stod(v);
        else {
            std::fprintf(stderr, "unknown option %s\n", k.c_str());
            return 2;
        }
    }
    char* none[] = {argv[0], nullptr};
    return Catch::Session().run(1, none);
}
