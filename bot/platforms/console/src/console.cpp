#include "ghostpost/console/console.h"

#include "ghostpost/league/clock.h"
#include "ghostpost/platform/text.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

namespace ghostpost::bot {

namespace {

// Names become player handles and channel ids; like every platform's, they are capped and
// checked at the adapter, before the service sees them.
constexpr std::size_t max_name_bytes = 64;

} // namespace

std::optional<ConsoleLine> parse_console_line(const std::string& raw, std::string& error) {
    std::string line = raw;
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n'))
        line.pop_back();
    if (line.empty() || line.starts_with("//"))
        return std::nullopt;
    ConsoleLine c;
    if (line.starts_with("~ ")) {
        c.directive = line.substr(2);
        return c;
    }
    std::string_view rest = line;
    if (rest.starts_with("[")) {
        auto close = rest.find("] ");
        if (close == std::string_view::npos || close == 1) {
            error = "an explicit id is written \"[<id>] \" before the post";
            return std::nullopt;
        }
        c.explicit_id = std::string(rest.substr(1, close - 1));
        rest.remove_prefix(close + 2);
    }
    auto colon = rest.find(": ");
    if (colon == std::string_view::npos && rest.ends_with(":"))
        colon = rest.size() - 1;
    auto space = rest.find(' ');
    bool shaped = colon != std::string_view::npos && space != std::string_view::npos &&
                  space < colon && rest.size() > 1 && (rest[0] == '#' || rest[0] == '@');
    if (shaped) {
        std::string_view head = rest.substr(1, space - 1);
        std::string_view user = rest.substr(space + 1, colon - space - 1);
        shaped = !head.empty() && !user.empty() && user.find(' ') == std::string_view::npos &&
                 (rest[0] == '#' || head == "dm");
        if (shaped && (head.size() > max_name_bytes || user.size() > max_name_bytes ||
                       !valid_utf8(head) || !valid_utf8(user))) {
            error = "a channel or user name is UTF-8 text of at most " +
                    std::to_string(max_name_bytes) + " bytes";
            return std::nullopt;
        }
        if (shaped) {
            c.direct = rest[0] == '@';
            c.channel = c.direct ? std::string() : std::string(head);
            c.user = std::string(user);
            c.text = colon + 2 <= rest.size() ? std::string(rest.substr(colon + 2)) : std::string();
            return c;
        }
    }
    error = "a post is \"#<channel> <user>: <text>\" or \"@dm <user>: <text>\"";
    return std::nullopt;
}

ConsolePlatform::ConsolePlatform(std::istream& in, std::ostream& out, ManualClock& clock,
                                 std::string image_dir)
    : in_(in), out_(out), clock_(clock), image_dir_(std::move(image_dir)) {}

Pacing ConsolePlatform::pacing() const {
    Pacing unpaced;
    unpaced.per_chat = std::chrono::milliseconds(0);
    unpaced.group_per_minute = 1'000'000;
    return unpaced;
}

namespace {

// The "@name"s of a console post, by handle: like a platform's @username mention, it names
// whoever posted under that name, and nobody before they have.
std::vector<Mention> console_mentions(const std::string& text) {
    std::vector<Mention> out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '@' || (i > 0 && text[i - 1] != ' '))
            continue;
        std::size_t end = i + 1;
        while (end < text.size() && text[end] != ' ')
            ++end;
        std::string name = text.substr(i + 1, end - i - 1);
        while (!name.empty() &&
               std::string_view(".,:;!?)").find(name.back()) != std::string_view::npos)
            name.pop_back();
        if (!name.empty())
            out.push_back(Mention{name, {}, {}});
        i = end;
    }
    return out;
}

} // namespace

std::vector<Post> ConsolePlatform::poll(const std::string& cursor, std::chrono::seconds) {
    std::string line;
    while (std::getline(in_, line)) {
        std::string error;
        auto parsed = parse_console_line(line, error);
        if (!parsed) {
            if (!error.empty())
                out_ << "?? cannot read this line: " << error << "\n";
            continue;
        }
        if (!parsed->directive.empty()) {
            const std::string& d = parsed->directive;
            const bool down = d.starts_with("down ");
            std::optional<std::int64_t> span;
            if (down || d.starts_with("wait "))
                span = parse_span(d.substr(5));
            if (!span || *span <= 0) {
                out_ << "?? cannot read this line: a time line is \"~ wait <time>\" or \"~ down "
                        "<time>\", the time as 30m, 12h or 2d\n";
                continue;
            }
            if (down) {
                downtime_ = *span; // the caller stops the daemon, moves the clock, restarts
                return {};
            }
            clock_.advance(*span);
            out_ << "~~ now " << format_utc(clock_.now()) << "\n";
            return {};
        }
        long long sequence = 0;
        try {
            sequence = cursor.empty() ? 0 : std::stoll(cursor);
        } catch (const std::exception&) {
            sequence = 0;
        }
        ++sequence;
        Post p;
        p.platform = "console";
        p.direct = parsed->direct;
        p.channel = parsed->direct ? "@" + parsed->user : parsed->channel;
        p.message_id = parsed->explicit_id.empty() ? std::to_string(sequence) : parsed->explicit_id;
        p.author_id = parsed->user;
        p.author_name = parsed->user;
        p.author_handle = parsed->user;
        p.text = parsed->text;
        p.mentions = console_mentions(p.text);
        p.cursor = std::to_string(sequence);
        return {p};
    }
    at_end_ = true;
    return {};
}

Delivery ConsolePlatform::send(const Reply& reply) {
    out_ << ">> " << (reply.to == Reply::To::User ? "@" : "#") << reply.destination << "\n";
    if (!reply.text.empty())
        out_ << reply.text << (reply.text.back() == '\n' ? "" : "\n");
    if (!reply.code.empty())
        out_ << reply.code << (reply.code.back() == '\n' ? "" : "\n");
    if (!reply.png.empty()) {
        // The bytes vary with the fonts: transcripts see only that an image went out.
        out_ << "[image: board.png";
        if (!image_dir_.empty()) {
            const std::string to = (reply.to == Reply::To::User ? "@" : "#") + reply.destination;
            char number[16];
            std::snprintf(number, sizeof number, "%06d", ++images_saved_[to]);
            const std::string file = to + "-" + number + ".png";
            std::ofstream(image_dir_ + "/" + file, std::ios::binary)
                .write(reinterpret_cast<const char*>(reply.png.data()),
                       static_cast<std::streamsize>(reply.png.size()));
            out_ << ", saved as " << file;
        }
        out_ << "]\n";
    }
    out_.flush();
    return Delivery{};
}

} // namespace ghostpost::bot
