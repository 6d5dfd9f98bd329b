#include "ghostpost/http/http.h"

#include <atomic>
#include <cctype>
#include <curl/curl.h>
#include <memory>
#include <mutex>

namespace ghostpost::bot {

namespace {

void global_init() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

CURLM* as_multi(void* handle) {
    return static_cast<CURLM*>(handle);
}

std::size_t collect(char* data, std::size_t size, std::size_t count, void* user) {
    static_cast<std::string*>(user)->append(data, size * count);
    return size * count;
}

// Keeps each "Name: value" header line of the answer, the name in lower case.
std::size_t collect_header(char* data, std::size_t size, std::size_t count, void* user) {
    const std::string_view line(data, size * count);
    const auto colon = line.find(':');
    if (colon != std::string_view::npos) {
        std::string name(line.substr(0, colon));
        for (char& c : name)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        std::string_view value = line.substr(colon + 1);
        while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
            value.remove_prefix(1);
        while (!value.empty() &&
               (value.back() == '\r' || value.back() == '\n' || value.back() == ' '))
            value.remove_suffix(1);
        static_cast<HttpResponse*>(user)->headers[name] = std::string(value);
    }
    return size * count;
}

struct EasyDeleter {
    void operator()(CURL* easy) const { curl_easy_cleanup(easy); }
};
struct ListDeleter {
    void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
struct MimeDeleter {
    void operator()(curl_mime* mime) const { curl_mime_free(mime); }
};

// Setting an option only fails for a bad option or out of memory: both programmer errors here.
template <typename T> void set(CURL* easy, CURLoption option, T value) {
    if (curl_easy_setopt(easy, option, value) != CURLE_OK) {
        throw HttpError(HttpError::Kind::Network, "libcurl refused an option");
    }
}

// What a request's handle points to, kept until the request is done.
struct Attached {
    std::unique_ptr<curl_slist, ListDeleter> headers;
    std::unique_ptr<curl_mime, MimeDeleter> mime;
};

// The request's headers, and its method with its body: form fields and files as multipart, or
// one body of its content type.
void set_method(CURL* easy, const HttpRequest& request, Attached& attached) {
    const auto add_header = [&attached](const std::string& line) {
        curl_slist* longer = curl_slist_append(attached.headers.get(), line.c_str());
        if (longer == nullptr)
            throw HttpError(HttpError::Kind::Network, "out of memory for a header");
        static_cast<void>(attached.headers.release());
        attached.headers.reset(longer);
    };
    for (const std::string& line : request.headers)
        add_header(line);
    if (request.method == "GET") {
        set(easy, CURLOPT_HTTPGET, 1L);
    } else if (!request.parts.empty()) {
        attached.mime.reset(curl_mime_init(easy));
        for (const HttpPart& part : request.parts) {
            curl_mimepart* field = curl_mime_addpart(attached.mime.get());
            curl_mime_name(field, part.name.c_str());
            curl_mime_data(field, part.content.data(), part.content.size());
            if (!part.filename.empty()) {
                curl_mime_filename(field, part.filename.c_str());
            }
            if (!part.content_type.empty()) {
                curl_mime_type(field, part.content_type.c_str());
            }
        }
        set(easy, CURLOPT_MIMEPOST, attached.mime.get());
        if (request.method != "POST")
            set(easy, CURLOPT_CUSTOMREQUEST, request.method.c_str()); // PATCH with files
    } else {
        add_header("Content-Type: " + request.content_type);
        set(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
        set(easy, CURLOPT_POSTFIELDS, request.body.c_str());
        if (request.method != "POST")
            set(easy, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    }
    if (attached.headers)
        set(easy, CURLOPT_HTTPHEADER, attached.headers.get());
}

// Runs `easy` on `multi` until it is done; Cancelled as soon as `cancelled` is set (cancel()
// wakes the wait, mid long poll).
CURLcode perform(CURLM* multi, CURL* easy, const std::atomic<bool>& cancelled) {
    curl_multi_add_handle(multi, easy);
    for (;;) {
        int running = 0;
        if (curl_multi_perform(multi, &running) != CURLM_OK) {
            curl_multi_remove_handle(multi, easy);
            return CURLE_FAILED_INIT;
        }
        int queued = 0;
        while (CURLMsg* message = curl_multi_info_read(multi, &queued)) {
            if (message->msg == CURLMSG_DONE) {
                const CURLcode result = message->data.result;
                curl_multi_remove_handle(multi, easy);
                return result;
            }
        }
        curl_multi_poll(multi, nullptr, 0, 1000, nullptr);
        if (cancelled.load()) {
            curl_multi_remove_handle(multi, easy);
            throw HttpError(HttpError::Kind::Cancelled, "cancelled: shutting down");
        }
    }
}

} // namespace

CurlHttpClient::CurlHttpClient() {
    global_init();
    multi_ = curl_multi_init();
    if (multi_ == nullptr) {
        throw std::runtime_error("curl_multi_init failed");
    }
}

CurlHttpClient::~CurlHttpClient() {
    curl_multi_cleanup(as_multi(multi_));
}

void CurlHttpClient::cancel() noexcept {
    cancelled_.store(true);
    curl_multi_wakeup(as_multi(multi_));
}

HttpResponse CurlHttpClient::post(const HttpRequest& request) {
    if (cancelled_.load()) {
        throw HttpError(HttpError::Kind::Cancelled, "cancelled: shutting down");
    }
    const std::unique_ptr<CURL, EasyDeleter> easy(curl_easy_init());
    if (!easy) {
        throw HttpError(HttpError::Kind::Network, "curl_easy_init failed");
    }
    HttpResponse response;
    char error_buffer[CURL_ERROR_SIZE] = {};
    Attached attached;

    set(easy.get(), CURLOPT_URL, request.url.c_str());
    set(easy.get(), CURLOPT_NOSIGNAL, 1L);
    set(easy.get(), CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout.count()));
    set(easy.get(), CURLOPT_CONNECTTIMEOUT_MS, 10000L);
    set(easy.get(), CURLOPT_WRITEFUNCTION, &collect);
    set(easy.get(), CURLOPT_WRITEDATA, &response.body);
    set(easy.get(), CURLOPT_HEADERFUNCTION, &collect_header);
    set(easy.get(), CURLOPT_HEADERDATA, &response);
    set(easy.get(), CURLOPT_ERRORBUFFER, error_buffer);
    set(easy.get(), CURLOPT_USERAGENT, "ghostpost/0.1");
    // Only the web protocols: a configured URL must not reach file:// or others.
    set(easy.get(), CURLOPT_PROTOCOLS_STR, "http,https");
    set_method(easy.get(), request, attached);

    const CURLcode result = perform(as_multi(multi_), easy.get(), cancelled_);
    if (result == CURLE_OPERATION_TIMEDOUT) {
        throw HttpError(HttpError::Kind::Timeout, "timed out");
    }
    if (result != CURLE_OK) {
        // The error buffer names hosts and system errors, never the URL's path.
        std::string message = curl_easy_strerror(result);
        if (error_buffer[0] != '\0') {
            message += ": ";
            message += error_buffer;
        }
        throw HttpError(HttpError::Kind::Network, message);
    }
    long status = 0;
    curl_easy_getinfo(easy.get(), CURLINFO_RESPONSE_CODE, &status);
    response.status = status;
    return response;
}

} // namespace ghostpost::bot
