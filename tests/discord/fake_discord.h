// The fake Discord (fake_discord.mjs: REST and the Gateway) on a free loopback port, driven
// through its /control/ endpoints.
#pragma once

#include "../support/fake_server.h"
#include "ghostpost/discord/discord.h"

namespace ghostpost::discord_test {

using test::Child;
using test::read_file;
using test::TempDir;

template <typename Predicate> bool eventually(Predicate done, std::chrono::milliseconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
        if (done())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return done();
}

class FakeDiscord : public test::FakeServer {
public:
    static constexpr const char* token = "MTAxNzQ.FAKEsecret.discord-token_value";
    static constexpr const char* bot_id = "900000000000000001";

    // The fake exits after `lifetime` seconds however it is used.
    explicit FakeDiscord(const TempDir& dir, int lifetime = 600)
        : FakeServer(dir, "fake",
                     {GHOSTPOST_NODE, GHOSTPOST_FAKE_DISCORD, "--spec", GHOSTPOST_DISCORD_SPEC,
                      "--token", token, "--lifetime", std::to_string(lifetime)}) {}

    std::string api_url() const { return url() + "/api/v10"; }

    static nlohmann::json user(const std::string& id, const std::string& username) {
        return {{"id", id}, {"username", username}, {"global_name", nullptr}};
    }

    // A user posts in a guild channel; `mentions` are the users the text names as <@id>.
    nlohmann::json say(const std::string& channel, const nlohmann::json& author,
                       const std::string& content,
                       const nlohmann::json& mentions = nlohmann::json::array()) {
        return control("say", {{"channel_id", channel},
                               {"author", author},
                               {"content", content},
                               {"mentions", mentions}});
    }
    // The same in a channel of guild `guild`: its events go to that guild's shard.
    nlohmann::json say_in(const std::string& guild, const std::string& channel,
                          const nlohmann::json& author, const std::string& content,
                          const nlohmann::json& mentions = nlohmann::json::array()) {
        return control("say", {{"guild_id", guild},
                               {"channel_id", channel},
                               {"author", author},
                               {"content", content},
                               {"mentions", mentions}});
    }
    // A guild of Discord's shard `shard` of `shards`: (id >> 22) % shards == shard.
    static std::string guild_of_shard(int shard, int shards, int nth = 1) {
        const auto k = static_cast<std::uint64_t>(nth * shards + shard);
        return std::to_string((k << 22) + 77);
    }
    // A user writes to the bot in their DM channel.
    nlohmann::json dm(const nlohmann::json& author, const std::string& content) {
        return control("say", {{"dm", true}, {"author", author}, {"content", content}});
    }

    nlohmann::json stats() { return control("stats"); }
};

// The adapter's options for the fake: its address and token, a short request timeout.
inline bot::DiscordOptions options_for(const FakeDiscord& fake) {
    bot::DiscordOptions options;
    options.api_url = fake.api_url();
    options.token = FakeDiscord::token;
    options.request_timeout = std::chrono::seconds(5);
    return options;
}

// Polls until `count` posts came (or 10 s passed), carrying the cursor forward like the daemon.
inline std::vector<bot::Post> poll_for(bot::DiscordPlatform& platform, std::string& cursor,
                                       std::size_t count) {
    std::vector<bot::Post> posts;
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (posts.size() < count && std::chrono::steady_clock::now() < end) {
        for (auto& post : platform.poll(cursor, std::chrono::seconds(1))) {
            cursor = post.cursor;
            posts.push_back(std::move(post));
        }
    }
    return posts;
}

} // namespace ghostpost::discord_test
