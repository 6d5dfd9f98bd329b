// Test helpers: the fake homeserver (fake_matrix.py) on a free loopback port, driven through
// its /control/ endpoints. Child and TempDir are the Telegram tests' own.
#pragma once

#include "../telegram/fake_telegram.h"

namespace ghostpost::test {

class FakeMatrix {
public:
    static constexpr const char* token = "syt_Z2hvc3Rwb3N0_FAKEsecretMatrixToken_0xyz";
    static constexpr const char* bot = "@ghostpost:fake.test";

    explicit FakeMatrix(const TempDir& dir)
        : out_(dir.path() / "fake_matrix.out"),
          child_({GHOSTPOST_PYTHON, GHOSTPOST_FAKE_MATRIX, "--spec", GHOSTPOST_MATRIX_SPEC,
                  "--token", token, "--port", "0", "--lifetime", "600"},
                 out_, dir.path() / "fake_matrix.err") {
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (port_ == 0 && std::chrono::steady_clock::now() < end) {
            const std::string text = read_file(out_);
            if (text.starts_with("PORT ") && text.find('\n') != std::string::npos) {
                port_ = std::stoi(text.substr(5));
            } else {
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
        }
        REQUIRE(port_ != 0);
    }

    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

    nlohmann::json control(const std::string& command,
                           const nlohmann::json& args = nlohmann::json::object()) {
        bot::HttpRequest request;
        request.url = url() + "/control/" + command;
        request.body = args.dump();
        request.timeout = std::chrono::seconds(10);
        const auto response = http_.post(request);
        REQUIRE(response.status == 200);
        return nlohmann::json::parse(response.body);
    }

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

    nlohmann::json sent() { return control("sent")["sent"]; }
    nlohmann::json violations() { return control("violations")["violations"]; }

private:
    std::filesystem::path out_;
    Child child_;
    int port_ = 0;
    bot::CurlHttpClient http_;
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
