// Discourse as a Platform: a forum read by polling its REST API, answered with posts. A topic is
// a channel; a private message topic between the bot and one player is that player's DM.
// Thin by design: JSON and HTTP mapping only, every game decision stays in the service.
#pragma once

#include "ghostpost/http/http.h"
#include "ghostpost/platform/platform.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ghostpost::bot {

struct DiscourseOptions {
    std::string base_url;              // "https://forum.example.org", no trailing slash
    std::string username;              // the bot's account, sent as Api-Username
    std::string api_key;               // secret: sent as Api-Key, never in a message
    std::set<std::int64_t> categories; // watched: every post there is read; elsewhere only
                                       // posts that mention the bot, and private messages
    std::chrono::seconds request_timeout{15};
    Pacing pacing{std::chrono::milliseconds(1000), 20, std::chrono::seconds(300),
                  std::chrono::seconds(30)};
    int max_pages = 10; // /posts.json pages of 50 read in one poll to catch up after downtime
    // Waits between two polls that found nothing; false when the daemon is stopping. The
    // daemon passes its stop token's sleep so that SIGTERM ends the wait at once.
    std::function<bool(std::chrono::milliseconds)> sleep;
    // When a 429's wait ends; a test's fake clock in place of the steady clock.
    std::function<std::chrono::steady_clock::time_point()> clock = std::chrono::steady_clock::now;
};

// One post as Discourse serialises it (an element of /posts.json's latest_posts, or
// /posts/{id}.json), read. `post` is filled when `id` is set and `problem` empty.
struct DecodedPost {
    std::optional<std::int64_t> id;
    std::int64_t topic_id = 0;
    bool own = false;       // the bot wrote it
    bool readable = false;  // a regular post by a person, neither deleted nor hidden
    bool addressed = false; // a private message, in a watched category, or mentioning the bot
    Post post;
    std::string problem; // why the post was skipped as malformed; empty when it was read
};

// Reads one post object. `direct`: it was found as a private message. Pure; never throws,
// whatever the bytes. A post that begins with "@bot" has that mention taken off its text, so
// "@ghostpost !new chess @bob" reaches the service as "!new chess @bob".
DecodedPost decode_post(std::string_view post_json, const DiscourseOptions& options, bool direct);

class DiscoursePlatform final : public Platform {
public:
    // `http` must outlive the platform.
    DiscoursePlatform(HttpClient& http, DiscourseOptions options);

    std::string name() const override { return "discourse"; }

    // New posts after `cursor` (the highest post id handled; empty: only posts from now on).
    // Public posts come from /posts.json (one request when nothing is new), private messages
    // from the bot's notifications and /posts/{id}.json. Posts come in id order, each with its
    // id as cursor; posts the service need not see are folded into one empty Post that only
    // moves the cursor. Waits `timeout` when nothing is new.
    // Errors: PlatformError: Unauthorized (401/403), RateLimited (429), Cancelled,
    // Transient (the rest).
    std::vector<Post> poll(const std::string& cursor, std::chrono::seconds timeout) override;

    // POST /posts.json: a reply in the topic (reply_to_post_number), or for Reply::To::User a
    // post in the player's private message topic, created on first use. A PNG is uploaded
    // first and embedded. Every post carries the reply's idempotency key in an HTML comment,
    // so it is never identical to another reply; a refusal as identical to a recent post is
    // then our own earlier attempt, and counts as Sent. Never throws for Discourse's answer.
    // Errors: PlatformError of kind Cancelled only.
    Delivery send(const Reply& reply) override;

    Pacing pacing() const override { return options_.pacing; }
    // Every topic but a private message is read by many.
    bool is_group(const std::string& channel) const override;

    // The Markdown of a reply (text, board block, image), without the key marker.
    static std::string markdown(const Reply& reply, const std::string& image_markdown);

private:
    using Instant = std::chrono::steady_clock::time_point;
    struct Answer;
    // One request; the answer whatever its status. Errors: PlatformError Cancelled or
    // Transient (no answer at all).
    Answer call(HttpRequest request, const std::string& what);
    // GET `path` and the JSON object of a 200. Errors: as poll().
    Answer get(const std::string& path, const std::string& what);
    std::string scrub(std::string_view text) const;
    // The private message topic and username of a player, asking Discourse when the adapter
    // has not seen them yet. Errors: PlatformError.
    std::optional<std::int64_t> pm_topic_of(const std::string& user_id);
    std::string username_of(const std::string& user_id);
    // The post fetched and read; nullopt when Discourse no longer has it. Errors: as poll().
    std::optional<DecodedPost> fetch_private(std::int64_t post_id);
    // POSTs one /posts.json or /uploads.json request and reads the answer as a Delivery;
    // `answer` holds the JSON of a success.
    Delivery deliver(HttpRequest request, const std::string& what, bool new_private,
                     Answer* answer);
    void remember(const DecodedPost& post);
    // The public posts after `after` into `found` (their newest id in `newest_public`), paging
    // back after downtime; false while a catch-up is not done. Errors: as poll().
    bool read_public(std::optional<std::int64_t> after, std::map<std::int64_t, DecodedPost>& found,
                     std::int64_t& newest_public, bool& after_catch_up);
    // The private messages after `after` into `found`; the newest id notified. Errors: as poll().
    std::int64_t read_private(std::optional<std::int64_t> after,
                              std::map<std::int64_t, DecodedPost>& found);
    bool wait(std::chrono::milliseconds duration);

    HttpClient& http_;
    DiscourseOptions options_;
    Instant not_before_{};                          // a 429's end, for every call
    std::int64_t pm_horizon_ = 0;                   // the newest PM post id of the last poll
    std::map<std::string, std::int64_t> pm_topics_; // user id -> private message topic
    std::map<std::string, std::string> usernames_;  // user id -> username
    std::set<std::int64_t> pm_topic_ids_;           // private message topics, for is_group
    std::set<std::int64_t> bound_topics_;           // outside the categories, where we spoke
    // A catch-up after downtime that needs more than max_pages of /posts.json: the posts read
    // so far, newer than the cursor `after`, and where paging goes on.
    struct CatchUp {
        std::int64_t after = 0;
        std::int64_t before = 0;
        std::int64_t newest = 0;
        std::map<std::int64_t, DecodedPost> posts;
    };
    std::optional<CatchUp> catch_up_;
};

} // namespace ghostpost::bot
