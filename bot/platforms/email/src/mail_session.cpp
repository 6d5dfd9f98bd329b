#include "mail_session.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <curl/curl.h>

namespace ghostpost::bot::email_detail {

namespace {

CURL* handle(void* h) {
    return static_cast<CURL*>(h);
}

std::size_t collect(char* data, std::size_t size, std::size_t count, void* into) {
    auto* out = static_cast<std::string*>(into);
    if (out->size() > (std::size_t{40} << 20))
        return 0; // larger than any mail we read: cut it off rather than grow without end
    out->append(data, size * count);
    return size * count;
}

int progress(void* stopping, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    const auto* stop = static_cast<const std::function<bool()>*>(stopping);
    return (*stop && (*stop)()) ? 1 : 0;
}

struct Upload {
    const std::string& text;
    std::size_t at = 0;
};

std::size_t upload(char* buffer, std::size_t size, std::size_t count, void* source) {
    auto* up = static_cast<Upload*>(source);
    const std::size_t n = std::min(size * count, up->text.size() - up->at);
    std::memcpy(buffer, up->text.data() + up->at, n);
    up->at += n;
    return n;
}

// The mailbox name in a URL: percent-encoded, and in IMAP's quoted form for commands.
std::string url_escaped(const std::string& text) {
    std::string out;
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '_' || c == '.') {
            out += static_cast<char>(c);
        } else {
            static const char hex[] = "0123456789ABCDEF";
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

void common(CURL* curl, const MailServerOptions& options) {
    curl_easy_setopt(curl, CURLOPT_USERNAME, options.username.c_str());
    curl_easy_setopt(curl, CURLOPT_PASSWORD, options.password.c_str());
    curl_easy_setopt(curl, CURLOPT_USE_SSL,
                     static_cast<long>(options.allow_plaintext ? CURLUSESSL_TRY : CURLUSESSL_ALL));
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(options.timeout.count() * 1000));
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(options.timeout.count() * 1000));
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
    if (!options.ca_file.empty())
        curl_easy_setopt(curl, CURLOPT_CAINFO, options.ca_file.c_str());
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &options.stopping);
}

// A failed exchange in our words: the kind, what was done, curl's short reason and the
// server's code, never the URL.
[[noreturn]] void fail(CURL* curl, CURLcode code, const std::string& what, bool smtp) {
    long response = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response);
    const std::string detail = what + ": " + curl_easy_strerror(code) +
                               (response != 0 ? " (server " + std::to_string(response) + ")" : "");
    if (code == CURLE_ABORTED_BY_CALLBACK)
        throw MailFailure(MailFailure::Kind::Cancelled, "stopping");
    if (code == CURLE_LOGIN_DENIED)
        throw MailFailure(MailFailure::Kind::Unauthorized, detail);
    if (smtp && response >= 500 && response < 600)
        throw MailFailure(MailFailure::Kind::Refused, detail);
    if (smtp && (response == 535 || response == 534))
        throw MailFailure(MailFailure::Kind::Unauthorized, detail);
    throw MailFailure(MailFailure::Kind::Transient, detail);
}

std::vector<std::uint64_t> numbers_after(const std::string& text, std::string_view word) {
    std::vector<std::uint64_t> out;
    const auto at = text.find(word);
    if (at == std::string::npos)
        return out;
    const char* p = text.data() + at + word.size();
    const char* end = text.data() + text.size();
    while (p < end && *p != '\r' && *p != '\n') {
        while (p < end && *p == ' ')
            ++p;
        std::uint64_t value = 0;
        const auto [next, ec] = std::from_chars(p, end, value);
        if (ec != std::errc() || next == p)
            break;
        out.push_back(value);
        p = next;
    }
    return out;
}

} // namespace

MailSession::MailSession(MailServerOptions options) : options_(std::move(options)) {
    static const bool initialised = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
    static_cast<void>(initialised);
    imap_ = curl_easy_init();
    smtp_ = curl_easy_init();
    if (imap_ == nullptr || smtp_ == nullptr)
        throw MailFailure(MailFailure::Kind::Transient, "libcurl could not make a handle");
}

MailSession::~MailSession() {
    curl_easy_cleanup(handle(imap_));
    curl_easy_cleanup(handle(smtp_));
}

std::string MailSession::imap(const std::string& url, const std::string& custom) {
    CURL* curl = handle(imap_);
    curl_easy_reset(curl);
    common(curl, options_);
    std::string out;
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &out);
    if (!custom.empty())
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, custom.c_str());
    const CURLcode code = curl_easy_perform(curl);
    if (code != CURLE_OK) {
        const auto space = custom.find(' ', custom.starts_with("UID ") ? 4 : 0);
        fail(curl, code,
             "IMAP " + (custom.empty() ? std::string("FETCH") : custom.substr(0, space)), false);
    }
    return out;
}

MailSession::Status MailSession::status() {
    // A new connection for each poll: a session that keeps the mailbox selected goes on seeing
    // the UIDVALIDITY it selected, and a renumbered mailbox must be seen as one.
    curl_easy_cleanup(handle(imap_));
    imap_ = curl_easy_init();
    if (imap_ == nullptr)
        throw MailFailure(MailFailure::Kind::Transient, "libcurl could not make a handle");
    std::string quoted;
    for (char c : options_.mailbox) {
        if (c == '"' || c == '\\')
            quoted += '\\';
        quoted += c;
    }
    const std::string answer =
        imap(options_.imap_url + "/", "STATUS \"" + quoted + "\" (UIDVALIDITY UIDNEXT)");
    Status status;
    const auto validity = numbers_after(answer, "UIDVALIDITY ");
    const auto next = numbers_after(answer, "UIDNEXT ");
    if (validity.empty() || next.empty())
        throw MailFailure(MailFailure::Kind::Transient,
                          "IMAP STATUS: no UIDVALIDITY in the answer");
    status.uidvalidity = validity.front();
    status.uidnext = next.front();
    return status;
}

std::vector<std::uint64_t> MailSession::search(const std::string& criteria) {
    return search_in(options_.mailbox, criteria);
}

std::vector<std::uint64_t> MailSession::search_in(const std::string& mailbox,
                                                  const std::string& criteria) {
    const std::string answer =
        imap(options_.imap_url + "/" + url_escaped(mailbox), "UID SEARCH " + criteria);
    std::vector<std::uint64_t> uids;
    for (std::size_t at = answer.find("* SEARCH"); at != std::string::npos;
         at = answer.find("* SEARCH", at + 1))
        for (std::uint64_t uid : numbers_after(answer.substr(at), "* SEARCH"))
            uids.push_back(uid);
    std::sort(uids.begin(), uids.end());
    return uids;
}

std::string MailSession::fetch(std::uint64_t uid) {
    return imap(options_.imap_url + "/" + url_escaped(options_.mailbox) +
                    ";UID=" + std::to_string(uid),
                "");
}

std::string MailSession::command(const std::string& text) {
    return imap(options_.imap_url + "/" + url_escaped(options_.mailbox), text);
}

void MailSession::send(const std::string& from, const std::vector<std::string>& recipients,
                       const std::string& message) {
    CURL* curl = handle(smtp_);
    curl_easy_reset(curl);
    common(curl, options_);
    curl_easy_setopt(curl, CURLOPT_URL, options_.smtp_url.c_str());
    const std::string envelope_from = "<" + from + ">";
    curl_easy_setopt(curl, CURLOPT_MAIL_FROM, envelope_from.c_str());
    curl_slist* to = nullptr;
    for (const std::string& r : recipients)
        to = curl_slist_append(to, ("<" + r + ">").c_str());
    curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, to);
    Upload up{message};
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, upload);
    curl_easy_setopt(curl, CURLOPT_READDATA, &up);
    curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(message.size()));
    std::string ignored;
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &ignored);
    const CURLcode code = curl_easy_perform(curl);
    curl_slist_free_all(to);
    if (code != CURLE_OK) {
        try {
            fail(curl, code, "SMTP", true);
        } catch (const MailFailure& failure) {
            // A server takes a message only after its last byte; a 5xx takes nothing.
            throw MailFailure(failure.kind(), failure.what(),
                              up.at < message.size() ||
                                  failure.kind() == MailFailure::Kind::Refused);
        }
    }
}

} // namespace ghostpost::bot::email_detail
