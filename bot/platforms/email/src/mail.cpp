// Reading one mail with GMime: the headers that say who wrote it and where it belongs, the
// body part a person wrote (text/plain preferred, HTML reduced to text otherwise) turned to
// UTF-8, and only its new words. Never throws: GMime is a C library, and what it cannot read
// is a Malformed mail, not an exception.
#include "ghostpost/email/mail.h"

#include <algorithm>
#include <cstdint>
#include <gmime/gmime.h>
#include <memory>
#include <mutex>
#include <optional>

namespace ghostpost::bot {

namespace {

constexpr std::size_t max_text = 8000;
constexpr std::size_t max_subject = 200;
constexpr std::size_t max_name = 128;
constexpr std::size_t max_references = 32;
constexpr std::size_t max_message_id = 250;

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && lower(a) == lower(b);
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\r' ||
                             text.front() == '\n'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' ||
                             text.back() == '\n'))
        text.remove_suffix(1);
    return text;
}

std::string cap(std::string_view text, std::size_t limit) {
    if (text.size() <= limit)
        return std::string(text);
    std::size_t cut = limit;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    return std::string(text.substr(0, cut));
}

void append_utf8(std::string& out, std::uint32_t code) {
    if (code < 0x80) {
        out += static_cast<char>(code);
    } else if (code < 0x800) {
        out += static_cast<char>(0xC0 | (code >> 6));
        out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
        out += static_cast<char>(0xE0 | (code >> 12));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (code >> 18));
        out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
    }
}

// Text that claims a charset it does not have: read as ISO-8859-1, which every byte string is.
std::string latin1_to_utf8(std::string_view text) {
    std::string out;
    for (char c : text)
        append_utf8(out, static_cast<unsigned char>(c));
    return out;
}

// Valid UTF-8 with line breaks as "\n" and no control character but the tab.
std::string clean_text(std::string_view text) {
    std::string utf8 = mail_utf8(text) ? std::string(text) : latin1_to_utf8(text);
    std::string out;
    out.reserve(utf8.size());
    for (std::size_t i = 0; i < utf8.size(); ++i) {
        const char c = utf8[i];
        if (c == '\r') {
            if (i + 1 >= utf8.size() || utf8[i + 1] != '\n')
                out += '\n';
        } else if (c == '\n' || c == '\t' || static_cast<unsigned char>(c) >= 0x20) {
            if (c != 0x7F)
                out += c;
        }
    }
    return out;
}

// A header's text as it may be shown on one line: valid, controls as spaces, capped.
std::string plain_line(const char* value, std::size_t limit) {
    if (value == nullptr)
        return {};
    std::string text = clean_text(value);
    for (char& c : text)
        if (c == '\n' || c == '\t')
            c = ' ';
    return cap(trim(text), limit);
}

// A Message-ID as we keep it: printable ASCII without spaces or brackets, or nothing.
std::string message_id_of(std::string_view id) {
    id = trim(id);
    if (id.starts_with('<') && id.ends_with('>') && id.size() >= 2)
        id = id.substr(1, id.size() - 2);
    if (id.empty() || id.size() > max_message_id)
        return {};
    for (char c : id)
        if (c <= ' ' || c > '~' || c == '<' || c == '>')
            return {};
    return std::string(id);
}

template <typename T> struct Unref {
    void operator()(T* object) const {
        if (object != nullptr)
            g_object_unref(object);
    }
};
template <typename T> using Owned = std::unique_ptr<T, Unref<T>>;

struct FreeOptions {
    void operator()(GMimeParserOptions* options) const { g_mime_parser_options_free(options); }
};
struct FreeReferences {
    void operator()(GMimeReferences* references) const { g_mime_references_free(references); }
};
struct FreeString {
    void operator()(char* text) const { g_free(text); }
};

std::unique_ptr<GMimeParserOptions, FreeOptions> parser_options() {
    static std::once_flag once;
    std::call_once(once, [] { g_mime_init(); });
    std::unique_ptr<GMimeParserOptions, FreeOptions> options(g_mime_parser_options_new());
    // Raw 8-bit headers of old mailers: UTF-8 when they are, else Latin-1.
    const char* fallback[] = {"utf-8", "iso-8859-1", nullptr};
    g_mime_parser_options_set_fallback_charsets(options.get(), fallback);
    return options;
}

GMimeObject* as_object(GMimeMessage* message) {
    return reinterpret_cast<GMimeObject*>(message);
}

const char* header(GMimeMessage* message, const char* name) {
    return g_mime_object_get_header(as_object(message), name);
}

// The mailbox addresses of a list, groups opened, lowercase.
void addresses_of(InternetAddressList* list, std::vector<std::string>& out, int depth = 0) {
    if (list == nullptr || depth > 2)
        return;
    const int count = internet_address_list_length(list);
    for (int i = 0; i < count && out.size() < 64; ++i) {
        InternetAddress* address = internet_address_list_get_address(list, i);
        if (INTERNET_ADDRESS_IS_MAILBOX(address)) {
            const char* addr = internet_address_mailbox_get_addr(
                reinterpret_cast<InternetAddressMailbox*>(address));
            if (addr != nullptr && *addr != '\0')
                out.push_back(lower(plain_line(addr, 254)));
        } else if (INTERNET_ADDRESS_IS_GROUP(address)) {
            addresses_of(internet_address_group_get_members(
                             reinterpret_cast<InternetAddressGroup*>(address)),
                         out, depth + 1);
        }
    }
}

std::vector<std::string> parse_addresses(GMimeParserOptions* options, const char* value) {
    std::vector<std::string> out;
    if (value == nullptr)
        return out;
    Owned<InternetAddressList> list(internet_address_list_parse(options, value));
    addresses_of(list.get(), out);
    return out;
}

std::string_view domain_of(std::string_view address) {
    const auto at = address.rfind('@');
    return at == std::string_view::npos ? std::string_view{} : address.substr(at + 1);
}

bool key_character(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

// "<local>+<key>@<domain>" of the bot's address: the key; empty for any other address.
std::string key_of(std::string_view address, std::string_view local, std::string_view domain) {
    if (!iequals(domain_of(address), domain))
        return {};
    const std::string_view mailbox = address.substr(0, address.rfind('@'));
    if (mailbox.size() <= local.size() + 1 || !iequals(mailbox.substr(0, local.size()), local) ||
        mailbox[local.size()] != '+')
        return {};
    const std::string_view key = mailbox.substr(local.size() + 1);
    if (key.size() > 64 || !std::all_of(key.begin(), key.end(), key_character))
        return {};
    return std::string(key);
}

// Authentication-Results (RFC 8601) of the trusted server: whether it passed DKIM for the From
// domain, SPF for an envelope sender of that domain, or DMARC for it. Only the first header
// carrying the trusted authserv-id counts: the server puts its own on top (and must strip
// forged ones with its id from what comes in).
bool vouched_for(GMimeMessage* message, std::string_view authserv_id, std::string_view from) {
    if (authserv_id.empty() || from.empty())
        return false;
    const std::string from_domain = lower(domain_of(from));
    GMimeHeaderList* headers = g_mime_object_get_header_list(as_object(message));
    const int count = g_mime_header_list_get_count(headers);
    for (int i = 0; i < count; ++i) {
        GMimeHeader* entry = g_mime_header_list_get_header_at(headers, i);
        const char* name = g_mime_header_get_name(entry);
        const char* raw_value = g_mime_header_get_value(entry);
        if (name == nullptr || raw_value == nullptr || !iequals(name, "Authentication-Results"))
            continue;
        // Comments in parentheses say nothing that counts.
        std::string value;
        int depth = 0;
        for (const char* p = raw_value; *p != '\0'; ++p) {
            if (*p == '(')
                ++depth;
            else if (*p == ')' && depth > 0)
                --depth;
            else if (depth == 0)
                value += (*p == '\t' || *p == '\r' || *p == '\n') ? ' ' : *p;
        }
        std::string_view rest(value);
        const auto semicolon = rest.find(';');
        std::string_view id = trim(rest.substr(0, semicolon));
        id = id.substr(0, id.find(' ')); // a version may follow the id
        if (!iequals(id, authserv_id))
            continue;
        if (semicolon == std::string_view::npos)
            return false;
        rest.remove_prefix(semicolon + 1);
        while (!rest.empty()) {
            const auto end = rest.find(';');
            const std::string statement = lower(trim(rest.substr(0, end)));
            rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
            std::vector<std::string_view> words;
            std::string_view s(statement);
            while (!s.empty()) {
                const auto space = s.find(' ');
                if (space != 0)
                    words.push_back(s.substr(0, space));
                s = space == std::string_view::npos ? std::string_view{} : s.substr(space + 1);
            }
            if (words.empty())
                continue;
            const auto property = [&](std::string_view key) -> std::string_view {
                for (std::string_view w : words)
                    if (w.starts_with(key) && w.size() > key.size() && w[key.size()] == '=')
                        return w.substr(key.size() + 1);
                return {};
            };
            const auto domain_matches = [&](std::string_view d) {
                if (d.starts_with('@'))
                    d.remove_prefix(1);
                if (d.find('@') != std::string_view::npos)
                    d = domain_of(d);
                return !d.empty() && d == from_domain;
            };
            if (words[0] == "dkim=pass" && domain_matches(property("header.d")))
                return true;
            if (words[0] == "dkim=pass" && domain_matches(property("header.i")))
                return true;
            if (words[0] == "spf=pass" && domain_matches(property("smtp.mailfrom")))
                return true;
            if (words[0] == "dmarc=pass" && domain_matches(property("header.from")))
                return true;
        }
        return false;
    }
    return false;
}

bool attachment(GMimeObject* part) {
    GMimeContentDisposition* disposition = g_mime_object_get_content_disposition(part);
    return disposition != nullptr && g_mime_content_disposition_is_attachment(disposition);
}

bool is_type(GMimeObject* part, const char* type, const char* subtype) {
    GMimeContentType* content_type = g_mime_object_get_content_type(part);
    return content_type != nullptr && g_mime_content_type_is_type(content_type, type, subtype);
}

// The decoded bytes of a leaf part (transfer encoding undone, charset untouched).
std::string content_of(GMimeObject* object) {
    if (!GMIME_IS_PART(object))
        return {};
    GMimeDataWrapper* wrapper = g_mime_part_get_content(reinterpret_cast<GMimePart*>(object));
    if (wrapper == nullptr)
        return {};
    Owned<GMimeStream> stream(g_mime_stream_mem_new());
    if (g_mime_data_wrapper_write_to_stream(wrapper, stream.get()) < 0)
        return {};
    GByteArray* bytes =
        g_mime_stream_mem_get_byte_array(reinterpret_cast<GMimeStreamMem*>(stream.get()));
    if (bytes == nullptr || bytes->data == nullptr)
        return {};
    return std::string(reinterpret_cast<const char*>(bytes->data),
                       std::min<std::size_t>(bytes->len, 1 << 20));
}

// A text part as UTF-8: GMime converts from the declared charset; a part that declares none,
// or a wrong one, is read as UTF-8 when it is and as Latin-1 otherwise.
std::string text_of(GMimeObject* object) {
    if (GMIME_IS_TEXT_PART(object)) {
        std::unique_ptr<char, FreeString> text(
            g_mime_text_part_get_text(reinterpret_cast<GMimeTextPart*>(object)));
        if (text != nullptr)
            return clean_text(text.get());
    }
    return clean_text(content_of(object));
}

struct Bodies {
    GMimeObject* plain = nullptr;
    GMimeObject* html = nullptr;
    GMimeObject* delivery_status = nullptr;
};

// The first inline text/plain and text/html parts, and a delivery report. A forwarded mail
// (message/rfc822) is someone else's words: not looked into.
void find_bodies(GMimeObject* object, Bodies& found, int depth) {
    if (object == nullptr || depth > 16)
        return;
    if (GMIME_IS_MULTIPART(object)) {
        auto* multipart = reinterpret_cast<GMimeMultipart*>(object);
        const int count = g_mime_multipart_get_count(multipart);
        for (int i = 0; i < count && i < 64; ++i)
            find_bodies(g_mime_multipart_get_part(multipart, i), found, depth + 1);
        return;
    }
    if (is_type(object, "message", "delivery-status")) {
        if (found.delivery_status == nullptr)
            found.delivery_status = object;
        return;
    }
    if (attachment(object))
        return;
    if (found.plain == nullptr && is_type(object, "text", "plain"))
        found.plain = object;
    else if (found.html == nullptr && is_type(object, "text", "html"))
        found.html = object;
}

// The failed recipient of a delivery status report (RFC 3464): its Final-Recipient (or
// Original-Recipient) of type rfc822 whose Action is failed.
std::string failed_recipient(std::string_view report) {
    std::string recipient;
    std::string fallback;
    bool failed = false;
    std::size_t at = 0;
    while (at < report.size()) {
        auto end = report.find('\n', at);
        if (end == std::string_view::npos)
            end = report.size();
        std::string_view line = trim(report.substr(at, end - at));
        at = end + 1;
        const auto colon = line.find(':');
        if (colon == std::string_view::npos)
            continue;
        const std::string field = lower(trim(line.substr(0, colon)));
        std::string_view value = trim(line.substr(colon + 1));
        if (field == "final-recipient" || field == "original-recipient") {
            const auto semicolon = value.find(';');
            if (semicolon == std::string_view::npos ||
                !iequals(trim(value.substr(0, semicolon)), "rfc822"))
                continue;
            std::string address = lower(trim(value.substr(semicolon + 1)));
            if (address.starts_with('<') && address.ends_with('>') && address.size() > 2)
                address = address.substr(1, address.size() - 2);
            if (address.find('@') == std::string::npos || address.size() > 254)
                continue;
            if (field == "final-recipient" && recipient.empty())
                recipient = address;
            else if (fallback.empty())
                fallback = address;
        } else if (field == "action" && lower(value) == "failed") {
            failed = true;
        }
    }
    if (!failed)
        return {};
    return plain_line(recipient.empty() ? fallback.c_str() : recipient.c_str(), 254);
}

bool automatic(GMimeMessage* message) {
    if (const char* auto_submitted = header(message, "Auto-Submitted")) {
        const std::string value = lower(trim(auto_submitted));
        if (!value.empty() && !value.starts_with("no"))
            return true;
    }
    if (const char* precedence = header(message, "Precedence")) {
        const std::string value = lower(trim(precedence));
        if (value == "bulk" || value == "junk" || value == "list" || value == "auto_reply")
            return true;
    }
    for (const char* name : {"List-Id", "List-Unsubscribe", "X-Autoreply", "X-Autorespond"})
        if (header(message, name) != nullptr)
            return true;
    return false;
}

} // namespace

std::string DecodedMail::thread_root() const {
    if (!references.empty())
        return references.front();
    return in_reply_to;
}

bool mail_utf8(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t length = 0;
        std::uint32_t code = 0;
        if (c < 0x80) {
            ++i;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            length = 2;
            code = c & 0x1Fu;
        } else if ((c & 0xF0) == 0xE0) {
            length = 3;
            code = c & 0x0Fu;
        } else if ((c & 0xF8) == 0xF0) {
            length = 4;
            code = c & 0x07u;
        } else {
            return false;
        }
        if (i + length > text.size())
            return false;
        for (std::size_t k = 1; k < length; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            if ((next & 0xC0) != 0x80)
                return false;
            code = (code << 6) | (next & 0x3Fu);
        }
        const std::uint32_t least = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000;
        if (code < least || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
            return false;
        i += length;
    }
    return true;
}

std::string bare_subject(std::string_view subject) {
    subject = trim(subject);
    for (;;) {
        std::size_t word = 0;
        while (word < subject.size() && ((subject[word] >= 'a' && subject[word] <= 'z') ||
                                         (subject[word] >= 'A' && subject[word] <= 'Z')))
            ++word;
        const std::string prefix = lower(subject.substr(0, word));
        if (prefix != "re" && prefix != "fw" && prefix != "fwd" && prefix != "aw" &&
            prefix != "sv" && prefix != "wg" && prefix != "antw")
            break;
        std::size_t at = word;
        if (at < subject.size() && (subject[at] == '[' || subject[at] == '(')) {
            const char close = subject[at] == '[' ? ']' : ')';
            ++at;
            while (at < subject.size() && subject[at] >= '0' && subject[at] <= '9')
                ++at;
            if (at >= subject.size() || subject[at] != close)
                break;
            ++at;
        }
        while (at < subject.size() && subject[at] == ' ')
            ++at;
        if (at >= subject.size() || subject[at] != ':')
            break;
        subject = trim(subject.substr(at + 1));
    }
    return std::string(subject);
}

namespace {

// "On <date>, <name> wrote:" and its German, French and Spanish forms, where the name may
// follow the verb ("Am ... schrieb Ghostpost:").
bool attribution(std::string_view line) {
    if (!line.ends_with(':'))
        return false;
    for (std::string_view verb : {"wrote", "schrieb", "a écrit", "escribió"})
        if (line.find(verb) != std::string_view::npos)
            return true;
    return false;
}

bool attribution_start(std::string_view line) {
    return line.starts_with("On ") || line.starts_with("Am ") || line.starts_with("Le ") ||
           line.starts_with("El ");
}

bool quoted_block_start(std::string_view line) {
    const std::string text = lower(line);
    return (text.starts_with("-----") && (text.find("original message") != std::string::npos ||
                                          text.find("forwarded message") != std::string::npos)) ||
           (text.starts_with("----------") && text.find("forwarded") != std::string::npos) ||
           (text.size() >= 30 &&
            std::all_of(text.begin(), text.end(), [](char c) { return c == '_'; }));
}

} // namespace

std::string new_text(std::string_view body) {
    std::vector<std::string_view> lines;
    std::size_t at = 0;
    while (at <= body.size()) {
        auto end = body.find('\n', at);
        if (end == std::string_view::npos)
            end = body.size();
        std::string_view line = body.substr(at, end - at);
        if (line.ends_with('\r'))
            line.remove_suffix(1);
        lines.push_back(line);
        at = end + 1;
    }
    std::vector<std::string_view> kept;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = lines[i];
        const std::string_view text = trim(line);
        if (line == "-- " || line == "--")
            break; // the signature and all below it
        if (quoted_block_start(text))
            break;
        // An Outlook reply header ("From: ...", then "Sent:" or "Date:"): the rest is quoted.
        if (text.starts_with("From: ") && i + 1 < lines.size() &&
            (trim(lines[i + 1]).starts_with("Sent: ") || trim(lines[i + 1]).starts_with("Date: ")))
            break;
        if (text.starts_with('>'))
            continue;
        if (attribution(text)) {
            if (attribution_start(text))
                continue;
            // An attribution wrapped over two lines: its first line was kept; take it back.
            if (!kept.empty() && attribution_start(trim(kept.back()))) {
                kept.pop_back();
                continue;
            }
        }
        kept.push_back(line);
    }
    while (!kept.empty() && trim(kept.back()).empty())
        kept.pop_back();
    std::size_t first = 0;
    while (first < kept.size() && trim(kept[first]).empty())
        ++first;
    std::string out;
    for (std::size_t i = first; i < kept.size(); ++i) {
        std::string_view line = kept[i];
        while (!line.empty() && (line.back() == ' ' || line.back() == '\t'))
            line.remove_suffix(1);
        if (!out.empty())
            out += '\n';
        out += line;
    }
    return out;
}

namespace {

std::optional<std::uint32_t> entity(std::string_view name) {
    static const std::pair<std::string_view, std::uint32_t> named[] = {
        {"amp", '&'},      {"lt", '<'},       {"gt", '>'},       {"quot", '"'},
        {"apos", '\''},    {"nbsp", ' '},     {"copy", 0xA9},    {"eacute", 0xE9},
        {"egrave", 0xE8},  {"agrave", 0xE0},  {"uuml", 0xFC},    {"ouml", 0xF6},
        {"auml", 0xE4},    {"szlig", 0xDF},   {"ccedil", 0xE7},  {"hellip", 0x2026},
        {"mdash", 0x2014}, {"ndash", 0x2013}, {"rsquo", 0x2019}, {"lsquo", 0x2018},
        {"rdquo", 0x201D}, {"ldquo", 0x201C}};
    if (name.starts_with('#')) {
        name.remove_prefix(1);
        const bool hex = !name.empty() && (name[0] == 'x' || name[0] == 'X');
        if (hex)
            name.remove_prefix(1);
        if (name.empty() || name.size() > 8)
            return std::nullopt;
        std::uint32_t code = 0;
        for (char c : name) {
            std::uint32_t digit = 0;
            if (c >= '0' && c <= '9')
                digit = static_cast<std::uint32_t>(c - '0');
            else if (hex && c >= 'a' && c <= 'f')
                digit = static_cast<std::uint32_t>(c - 'a' + 10);
            else if (hex && c >= 'A' && c <= 'F')
                digit = static_cast<std::uint32_t>(c - 'A' + 10);
            else
                return std::nullopt;
            code = code * (hex ? 16u : 10u) + digit;
        }
        if (code == 0 || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
            return std::nullopt;
        return code == 0xA0 ? ' ' : code;
    }
    for (const auto& [word, code] : named)
        if (word == name)
            return code;
    return std::nullopt;
}

} // namespace

std::string html_to_text(std::string_view html) {
    std::string out;
    int skipping = 0; // depth inside elements whose content is not the writer's new words
    std::string skipped_tag;
    bool pre = false;
    bool space = false;
    std::size_t i = 0;
    const auto line_break = [&] {
        while (!out.empty() && out.back() == ' ')
            out.pop_back();
        out += '\n';
        space = false;
    };
    while (i < html.size()) {
        const char c = html[i];
        if (c == '<') {
            if (html.substr(i).starts_with("<!--")) {
                const auto end = html.find("-->", i + 4);
                i = end == std::string_view::npos ? html.size() : end + 3;
                continue;
            }
            std::size_t end = i + 1;
            char quote = 0;
            while (end < html.size() && (quote != 0 || html[end] != '>')) {
                if (quote != 0 && html[end] == quote)
                    quote = 0;
                else if (quote == 0 && (html[end] == '"' || html[end] == '\''))
                    quote = html[end];
                ++end;
            }
            std::string_view tag = html.substr(i + 1, end - i - 1);
            i = end < html.size() ? end + 1 : html.size();
            const bool closing = tag.starts_with('/');
            if (closing)
                tag.remove_prefix(1);
            std::size_t name_end = 0;
            while (name_end < tag.size() && tag[name_end] != ' ' && tag[name_end] != '/' &&
                   tag[name_end] != '\t' && tag[name_end] != '\n' && tag[name_end] != '\r')
                ++name_end;
            const std::string name = lower(tag.substr(0, name_end));
            const bool hidden = name == "blockquote" || name == "style" || name == "script" ||
                                name == "head" || name == "title";
            if (hidden) {
                if (skipping == 0 && !closing) {
                    skipped_tag = name;
                    skipping = 1;
                } else if (skipping > 0 && name == skipped_tag) {
                    skipping += closing ? -1 : 1;
                }
                if (skipping == 0 && name == "blockquote")
                    line_break();
                continue;
            }
            if (skipping > 0)
                continue;
            if (name == "pre")
                pre = !closing;
            if (name == "br" || name == "p" || name == "div" || name == "tr" || name == "li" ||
                name == "pre" || name == "table" || name == "ul" || name == "ol" ||
                (name.size() == 2 && name[0] == 'h' && name[1] >= '1' && name[1] <= '6'))
                line_break();
            continue;
        }
        ++i;
        if (skipping > 0)
            continue;
        if (c == '&') {
            const auto semicolon = html.find(';', i);
            if (semicolon != std::string_view::npos && semicolon - i <= 10) {
                if (const auto code = entity(html.substr(i, semicolon - i))) {
                    append_utf8(out, *code);
                    space = *code == ' ';
                    i = semicolon + 1;
                    continue;
                }
            }
            out += '&';
            space = false;
            continue;
        }
        if (!pre && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
            if (!space && !out.empty() && out.back() != '\n')
                out += ' ';
            space = true;
            continue;
        }
        out += c;
        space = false;
    }
    // Blank lines at most one in a row, lines trimmed.
    std::string text;
    std::size_t at = 0;
    int blank = 0;
    while (at <= out.size()) {
        auto end = out.find('\n', at);
        if (end == std::string::npos)
            end = out.size();
        const std::string_view line = pre ? std::string_view(out).substr(at, end - at)
                                          : trim(std::string_view(out).substr(at, end - at));
        at = end + 1;
        if (line.empty()) {
            ++blank;
            continue;
        }
        if (!text.empty())
            text += blank > 0 ? "\n\n" : "\n";
        text += line;
        blank = 0;
    }
    return text;
}

DecodedMail decode_mail(std::string_view raw, const MailIdentity& identity) {
    DecodedMail mail;
    const auto malformed = [&](std::string why) {
        DecodedMail bad;
        bad.problem = std::move(why);
        return bad;
    };
    if (raw.empty())
        return malformed("the mail is empty");
    if (raw.size() > (std::size_t{32} << 20))
        return malformed("the mail is larger than 32 MiB");
    auto options = parser_options();
    Owned<GMimeStream> stream(g_mime_stream_mem_new_with_buffer(raw.data(), raw.size()));
    Owned<GMimeParser> parser(g_mime_parser_new_with_stream(stream.get()));
    Owned<GMimeMessage> message(g_mime_parser_construct_message(parser.get(), options.get()));
    if (message == nullptr)
        return malformed("GMime could not read the mail");

    std::vector<std::string> from;
    addresses_of(g_mime_message_get_from(message.get()), from);
    if (from.empty() || from.front().find('@') == std::string::npos)
        return malformed("the mail has no From address");
    mail.from = from.front();
    if (InternetAddressList* list = g_mime_message_get_from(message.get()))
        if (internet_address_list_length(list) > 0)
            mail.from_name = plain_line(
                internet_address_get_name(internet_address_list_get_address(list, 0)), max_name);

    mail.message_id = message_id_of(g_mime_message_get_message_id(message.get())
                                        ? g_mime_message_get_message_id(message.get())
                                        : "");
    if (const char* in_reply_to = header(message.get(), "In-Reply-To")) {
        std::unique_ptr<GMimeReferences, FreeReferences> parsed(
            g_mime_references_parse(options.get(), in_reply_to));
        if (parsed != nullptr && g_mime_references_length(parsed.get()) > 0)
            mail.in_reply_to = message_id_of(g_mime_references_get_message_id(parsed.get(), 0));
    }
    if (const char* references = header(message.get(), "References")) {
        std::unique_ptr<GMimeReferences, FreeReferences> parsed(
            g_mime_references_parse(options.get(), references));
        const int count = parsed == nullptr ? 0 : g_mime_references_length(parsed.get());
        for (int i = 0; i < count && mail.references.size() < max_references; ++i) {
            std::string id = message_id_of(g_mime_references_get_message_id(parsed.get(), i));
            if (!id.empty())
                mail.references.push_back(std::move(id));
        }
    }

    const std::string bot = lower(identity.address);
    const std::string bot_domain(domain_of(bot));
    const std::string bot_local = bot.substr(0, bot.rfind('@'));
    std::vector<std::string> recipients;
    addresses_of(g_mime_message_get_addresses(message.get(), GMIME_ADDRESS_TYPE_TO), recipients);
    addresses_of(g_mime_message_get_addresses(message.get(), GMIME_ADDRESS_TYPE_CC), recipients);
    // The envelope's recipient, as the delivering server recorded it: a Bcc or a key that the
    // visible headers do not show.
    for (const char* name : {"Delivered-To", "X-Original-To"})
        for (std::string& address : parse_addresses(options.get(), header(message.get(), name)))
            recipients.push_back(std::move(address));
    for (const std::string& address : recipients) {
        if (!bot.empty() && address == bot)
            mail.to_bot = true;
        if (std::string key = key_of(address, bot_local, bot_domain); !key.empty()) {
            mail.to_bot = true;
            if (mail.reply_key.empty())
                mail.reply_key = std::move(key);
        }
    }

    mail.subject =
        cap(bare_subject(plain_line(g_mime_message_get_subject(message.get()), 1000)), max_subject);
    mail.vouched = vouched_for(message.get(), identity.authserv_id, mail.from);

    Bodies bodies;
    find_bodies(g_mime_message_get_mime_part(message.get()), bodies, 0);

    // Our own mail come back: its Message-ID is one the bot makes, or it is from the bot.
    if ((!bot.empty() && mail.from == bot) || is_own_message_id(mail.message_id, identity)) {
        mail.kind = DecodedMail::Kind::Own;
        return mail;
    }
    const std::string from_local = mail.from.substr(0, mail.from.rfind('@'));
    GMimeObject* top = g_mime_message_get_mime_part(message.get());
    const bool report = top != nullptr && is_type(top, "multipart", "report");
    if (bodies.delivery_status != nullptr || report || from_local == "mailer-daemon" ||
        from_local == "postmaster") {
        mail.kind = DecodedMail::Kind::Bounce;
        if (bodies.delivery_status != nullptr)
            mail.bounced = failed_recipient(text_of(bodies.delivery_status));
        if (mail.bounced.empty())
            if (const char* failed = header(message.get(), "X-Failed-Recipients")) {
                auto addresses = parse_addresses(options.get(), failed);
                if (!addresses.empty())
                    mail.bounced = addresses.front();
            }
        return mail;
    }
    if (automatic(message.get())) {
        mail.kind = DecodedMail::Kind::Automatic;
        return mail;
    }
    mail.kind = DecodedMail::Kind::Person;
    std::string body;
    if (bodies.plain != nullptr)
        body = text_of(bodies.plain);
    else if (bodies.html != nullptr)
        body = clean_text(html_to_text(text_of(bodies.html))); // "&#6;" is a control too
    mail.text = cap(new_text(body), max_text);
    return mail;
}

bool is_own_message_id(std::string_view message_id, const MailIdentity& identity) {
    const std::string bot = lower(identity.address);
    const auto at = bot.rfind('@');
    if (at == std::string::npos)
        return false;
    const std::string prefix = bot.substr(0, at) + ".";
    const std::string id = lower(message_id);
    return id.starts_with(prefix) && domain_of(id) == std::string_view(bot).substr(at + 1);
}

std::string own_message_id(std::string_view token, const MailIdentity& identity) {
    const std::string bot = lower(identity.address);
    const auto at = bot.rfind('@');
    return bot.substr(0, at) + "." + std::string(token) + bot.substr(at);
}

namespace {

// A parsed message, or nothing.
Owned<GMimeMessage> parse_message(std::string_view raw) {
    if (raw.empty() || raw.size() > (std::size_t{32} << 20))
        return nullptr;
    auto options = parser_options();
    Owned<GMimeStream> stream(g_mime_stream_mem_new_with_buffer(raw.data(), raw.size()));
    Owned<GMimeParser> parser(g_mime_parser_new_with_stream(stream.get()));
    return Owned<GMimeMessage>(g_mime_parser_construct_message(parser.get(), options.get()));
}

void leaf_types(GMimeObject* object, std::vector<std::string>& out, int depth) {
    if (object == nullptr || depth > 16)
        return;
    if (GMIME_IS_MULTIPART(object)) {
        auto* multipart = reinterpret_cast<GMimeMultipart*>(object);
        const int count = g_mime_multipart_get_count(multipart);
        for (int i = 0; i < count && i < 64; ++i)
            leaf_types(g_mime_multipart_get_part(multipart, i), out, depth + 1);
        return;
    }
    GMimeContentType* type = g_mime_object_get_content_type(object);
    if (type == nullptr)
        return;
    const char* media = g_mime_content_type_get_media_type(type);
    const char* sub = g_mime_content_type_get_media_subtype(type);
    out.push_back(lower(std::string(media ? media : "") + "/" + (sub ? sub : "")));
}

} // namespace

std::string mail_header(std::string_view raw, const char* name) {
    const auto message = parse_message(raw);
    if (message == nullptr)
        return {};
    const char* value = header(message.get(), name);
    return value == nullptr ? std::string() : plain_line(value, 4000);
}

std::string mail_plain_body(std::string_view raw) {
    const auto message = parse_message(raw);
    if (message == nullptr)
        return {};
    Bodies bodies;
    find_bodies(g_mime_message_get_mime_part(message.get()), bodies, 0);
    return bodies.plain == nullptr ? std::string() : text_of(bodies.plain);
}

std::vector<std::string> mail_part_types(std::string_view raw) {
    std::vector<std::string> types;
    const auto message = parse_message(raw);
    if (message != nullptr)
        leaf_types(g_mime_message_get_mime_part(message.get()), types, 0);
    return types;
}

} // namespace ghostpost::bot
