// The HTTP a platform adapter needs, behind an interface so that tests drive adapters with
// canned responses and the daemon can cancel a long poll at shutdown.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ghostpost::bot {

// One field of a multipart/form-data body; a file when `filename` is set.
struct HttpPart {
    std::string name;
    std::string content;
    std::string filename;
    std::string content_type;
};

// A request, a POST unless `method` says otherwise. With `parts` the body is multipart/form-data;
// otherwise `body` is sent with
// `content_type`. With `method` "GET" nothing is sent but the URL and the headers; "PUT" sends
// `body` like a POST.
struct HttpRequest {
    std::string method = "POST"; // "POST", "GET", "PUT", ...
    std::string url;
    std::vector<std::string> headers; // extra "Name: value" lines (an API key, Authorization)
    std::string content_type = "application/json";
    std::string body;
    std::vector<HttpPart> parts;
    std::chrono::milliseconds timeout{15000}; // the whole exchange, connection included
};

struct HttpResponse {
    long status = 0;
    std::string body;
    std::map<std::string, std::string> headers; // names in lower case; the last of repeats
};

// The exchange did not complete: no status was received. The message never holds the URL.
class HttpError : public std::runtime_error {
public:
    enum class Kind : std::uint8_t { Timeout, Network, Cancelled };
    HttpError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
    Kind kind() const noexcept { return kind_; }

private:
    Kind kind_;
};

class HttpClient {
public:
    virtual ~HttpClient() = default;
    // Sends the request (with its method, POST by default) and returns whatever status came
    // back (4xx and 5xx included).
    // Errors: HttpError for timeouts, network failures and cancellation.
    virtual HttpResponse post(const HttpRequest& request) = 0;
};

// libcurl behind HttpClient. One request at a time per client; cancel() may be called from
// any thread and makes the request in flight, and every later one, fail with Cancelled at once.
class CurlHttpClient final : public HttpClient {
public:
    CurlHttpClient();
    ~CurlHttpClient() override;
    CurlHttpClient(const CurlHttpClient&) = delete;
    CurlHttpClient& operator=(const CurlHttpClient&) = delete;

    HttpResponse post(const HttpRequest& request) override;
    void cancel() noexcept;
    bool cancelled() const noexcept { return cancelled_.load(); }

private:
    void* multi_ = nullptr; // CURLM*, kept opaque so curl.h stays private to bot/
    std::atomic<bool> cancelled_{false};
};

} // namespace ghostpost::bot
