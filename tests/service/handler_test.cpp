// A command's handler is a free function over the parts of one post (PostParts): it runs, and
// is checked, without a PostRun or a Service around it.
#include "../storage/temp_path.h"
#include "post_parts.h"
#include "service_memory.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace ghostpost;
using ghostpost::testing::TempPath;

namespace {

// What a handler queued, "<destination>: <text>".
std::vector<std::string> queued(storage::Store& store) {
    std::vector<std::string> out;
    for (const auto& e : store.due("console", 2000000000, 100)) {
        out.push_back(e.message.destination + ": " + e.message.text);
        store.mark_sent(e.id, 0);
    }
    return out;
}

} // namespace

TEST_CASE("a handler runs on the parts of one post alone", "[service][handler]") {
    TempPath path;
    auto store = storage::open_sqlite_store(path.str());
    bot::ServiceSettings settings;
    settings.moderators = {"mod"};
    const bot::Clock clock = [] { return std::int64_t{1700000000}; };
    bot::ServiceMemory memory(4);
    const bot::ServiceParts service{*store, settings, clock, memory};

    const auto post_of = [](const std::string& user) {
        bot::Post p;
        p.platform = "console";
        p.channel = "g";
        p.message_id = user + "-1";
        p.author_id = user;
        p.author_name = user;
        p.author_handle = user;
        return p;
    };
    const auto run_mod = [&](const bot::Post& post, const bot::Args& args) {
        bot::PostParts run(service, post);
        run.ctx.account =
            run.people.upsert_account(post.author_id, post.author_name, post.author_handle);
        run.ctx.author = run.people.as_player(run.ctx.account, post.platform);
        bot::cmd_mod(run, args);
        return queued(*store);
    };

    const bot::Post alice = post_of("alice");
    CHECK(run_mod(alice, {"log"}) ==
          std::vector<std::string>{
              "g: Only moderators may use !mod, and @alice is not one here. Nothing was done."});
    const bot::Post mod = post_of("mod");
    CHECK(run_mod(mod, {"log"}) == std::vector<std::string>{"g: The moderator log is empty."});
    CHECK(run_mod(mod, {"pause", "7"}) == std::vector<std::string>{"g: There is no game #7."});
    CHECK(run_mod(mod, {"pause"}) ==
          std::vector<std::string>{"g: I did not understand that. Use: !mod pause <game>"});
}
