#include "ghostpost/bot/console.h"

#include "ghostpost/bot/clock.h"

#include <iostream>
#include <memory>
#include <sstream>

namespace ghostpost::bot {

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

ConsolePlatform::ConsolePlatform(std::istream& in, std::ostream& out) : in_(in), out_(out) {}

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
            directive_ = parsed->directive;
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
        p.text = parsed->text;
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
    if (!reply.png.empty())
        out_ << "[image: board.png]\n"; // the size varies with the fonts: not for transcripts
    out_.flush();
    return Delivery{};
}

int deliver_outbox(storage::Store& store, Platform& platform, std::int64_t now,
                   std::int64_t retry_seconds) {
    int sent = 0;
    for (;;) {
        auto due = store.due(platform.name(), now, 100);
        if (due.empty())
            return sent;
        bool progress = false;
        for (const auto& entry : due) {
            Delivery d = platform.send(Service::to_reply(entry));
            switch (d.status) {
            case Delivery::Status::Sent:
                store.mark_sent(entry.id, now);
                ++sent;
                progress = true;
                break;
            case Delivery::Status::RetryAfter:
            case Delivery::Status::Transient:
                store.reschedule(entry.id, now + std::max<std::int64_t>(retry_seconds,
                                                                         d.retry_after.count()),
                                 d.detail);
                break;
            case Delivery::Status::Blocked:
            case Delivery::Status::Failed:
                store.give_up(entry.id, d.detail);
                progress = true;
                break;
            }
        }
        if (!progress)
            return sent;
    }
}

int run_console(storage::Store& store, const ServiceSettings& settings, std::istream& in,
                std::ostream& out, std::ostream& err, Clock clock) {
    ConsolePlatform console(in, out);
    // Time lines move the service's clock; the offset is shared with the clock it was given.
    auto offset = std::make_shared<std::int64_t>(0);
    Clock moved = [clock, offset] { return clock() + *offset; };
    Service service(store, settings, moved);
    int status = 0;
    const auto job = [&](bool starting) {
        try {
            if (starting)
                service.start_up();
            service.tick();
        } catch (const std::exception& e) {
            err << "ghostpost: the time-driven job failed: " << e.what() << "\n";
            status = 1;
        }
    };
    job(true);
    deliver_outbox(store, console, moved());
    for (;;) {
        std::string cursor = store.cursor(console.name()).value_or("");
        auto posts = console.poll(cursor, std::chrono::seconds(0));
        if (posts.empty() && console.at_end())
            break;
        if (std::string d = console.take_directive(); !d.empty()) {
            const bool down = d.starts_with("down ");
            std::optional<std::int64_t> span;
            if (down || d.starts_with("wait "))
                span = parse_span(d.substr(5));
            if (!span) {
                out << "?? cannot read this line: a time line is \"~ wait <time>\" or \"~ down "
                       "<time>\", the time as 30m, 12h or 2d\n";
                continue;
            }
            *offset += *span;
            out << "~~ now " << format_utc(moved()) << (down ? " (after downtime)" : "") << "\n";
            job(down);
            deliver_outbox(store, console, moved());
            continue;
        }
        for (const auto& post : posts) {
            try {
                service.handle(post);
            } catch (const std::exception& e) {
                err << "ghostpost: post " << post.message_id << " failed: " << e.what() << "\n";
                // Move past it so one broken post does not stop local play.
                store.transaction([&] { store.set_cursor(console.name(), post.cursor); });
                status = 1;
            }
        }
        job(false);
        deliver_outbox(store, console, moved());
    }
    deliver_outbox(store, console, moved());
    return status;
}

} // namespace ghostpost::bot
