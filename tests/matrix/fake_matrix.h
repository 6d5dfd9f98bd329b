// The fake homeserver (fake_matrix.py) on a free loopback port, driven through its /control/
// endpoints.
#pragma once

#include "../support/fake_server.h"

namespace ghostpost::test {

class FakeMatrix : public FakeServer {
public:
    static constexpr const char* token = "syt_Z2hvc3Rwb3N0_FAKEsecretMatrixToken_0xyz";
    static constexpr const char* bot = "@ghostpost:fake.test";

    explicit FakeMatrix(const TempDir& dir)
        : FakeServer(dir, "fake_matrix",
                     {GHOSTPOST_PYTHON, GHOSTPOST_FAKE_MATRIX, "--spec", GHOSTPOST_MATRIX_SPEC,
                      "--token", token, "--lifetime", "600"}) {}

    // A room made by `creator` with `members` joined; the bot is invited unless told not to.
    std::string create_room(const std::string& creator, const std::vector<std::string>& members,
                            bool encrypted = false, bool invite_bot = true) {
        return control("create_room", {{"creator", creator},
                                       {"members", members},
                                       {"encrypted", encrypted},
                                       {"invite_bot", invite_bot}})["room_id"];
    }

    // A text message from a user; `extra` adds content fields (m.mentions, m.relates_to...).
    std::string say(const std::string& room, const std::string& sender, const std::string& body,
                    nlohmann::json extra = nlohmann::json::object()) {
        extra["room_id"] = room;
        extra["sender"] = sender;
        extra["body"] = body;
        return control("message", extra)["event_id"];
    }

    std::string membership(const std::string& room, const std::string& user) {
        const auto members = control("room", {{"room_id", room}})["members"];
        return members.contains(user) ? members[user].get<std::string>() : std::string();
    }
};

template <typename Predicate> bool eventually(Predicate done, std::chrono::milliseconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
        if (done())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return done();
}

} // namespace ghostpost::test
