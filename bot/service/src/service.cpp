// One post, one transaction. PostRun runs it over the parts one post is made of (PostParts,
// post_parts.h): run() reads the author and the command and hands it to run_command; the
// replies it builds go to the outbox in the same transaction, and the games it replayed or
// changed reach the service's cache only after the commit, so a rollback never leaves a cached
// state the database does not have.
#include "ghostpost/service/service.h"

#include "ghostpost/i18n/catalogs.h"
#include "ghostpost/league/clock.h"
#include "ghostpost/render/png.h"
#include "ghostpost/render/text.h"
#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/rules/replay.h"
#include "ghostpost/service/command.h"
#include "ghostpost/service/game_loader.h"
#include "post_run.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>
#include <random>
#include <stdexcept>
#include <thread>

namespace ghostpost::bot {

std::int64_t system_clock_seconds() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

namespace detail {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string strip_at(std::string_view s) {
    while (!s.empty() && s.front() == '@')
        s.remove_prefix(1);
    return std::string(s);
}

std::string at(const PlayerRecord& p) {
    return p.handle.empty() ? p.name : "@" + p.handle;
}

// "#12" or "12" as a game id; nullopt for anything else.
std::optional<std::int64_t> game_id_arg(const std::string& arg) {
    std::string_view s = arg;
    if (!s.empty() && s.front() == '#')
        s.remove_prefix(1);
    if (s.empty() || s.size() > 12 ||
        !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    return std::stoll(std::string(s));
}

std::string result_text(rules::Status s) {
    switch (s) {
    case rules::Status::WhiteWins:
        return "1-0";
    case rules::Status::BlackWins:
        return "0-1";
    case rules::Status::Draw:
        return "1/2-1/2";
    case rules::Status::Ongoing:
        break;
    }
    return "*";
}

std::string capitalized(std::string s) {
    if (!s.empty())
        s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
    return s;
}

// Rules messages are clauses; a reply ends them as a sentence once.
std::string sentence_end(std::string s) {
    if (s.empty() || (s.back() != '.' && s.back() != '!' && s.back() != '?'))
        s += '.';
    return s;
}

Text said(const rules::Phrase& phrase) {
    std::vector<i18n::Arg> args;
    for (const auto& a : phrase.args)
        if (const auto* text = std::get_if<std::string>(&a.value)) {
            // Digits are given as a number: a pattern may count with them (plural), and one
            // that does not writes them as the same digits.
            const bool digits = !text->empty() && text->size() <= 15 &&
                                std::all_of(text->begin(), text->end(),
                                            [](char c) { return c >= '0' && c <= '9'; });
            if (digits && (text->size() == 1 || text->front() != '0'))
                args.emplace_back(a.name, std::stoll(*text));
            else
                args.emplace_back(a.name, *text);
        } else
            args.emplace_back(a.name, said(std::get<rules::Phrase>(a.value)));
    return phrase.context.empty() ? tr(phrase.pattern, std::move(args))
                                  : trc(phrase.context, phrase.pattern, std::move(args));
}

namespace {

Text sentence_of(const std::string& message, const rules::Phrase& phrase) {
    const std::string ended = sentence_end(message);
    // A message rewritten after its phrase was made (a refusal that must not say what only the
    // mover may know) is shown as it now is, never as the phrase.
    if (phrase.pattern.empty() || phrase.english() != message)
        return verbatim(ended);
    Text t = said(phrase);
    if (ended != message)
        t += verbatim(".");
    return t;
}

} // namespace

Text text_of(const std::string& english, const rules::Phrase& phrase) {
    if (phrase.pattern.empty() || phrase.english() != english)
        return verbatim(english);
    return said(phrase);
}

Text reason_of(const rules::RuleError& e) {
    return sentence_of(e.message, e.phrase);
}

Text private_reason_of(const rules::RuleError& e) {
    return sentence_of(e.private_detail, e.private_phrase);
}

Text time_control_problem(const TimeControlParse& parsed, std::string_view text, bool clause) {
    if (parsed.problem == TimeControlParse::Problem::CapBelowBase) {
        const std::vector<i18n::Arg> args{{"cap", parsed.cap}, {"base", parsed.base}};
        return clause ? tr("the cap ({cap}) must be at least the base ({base}).", args)
                      : tr("The cap ({cap}) must be at least the base ({base}).", args);
    }
    return tr("\"{text}\" is not a time control: write tc=3d (days per move), tc=7d+1d/14d (base "
              "+ increment / cap; without the cap, none) or tc=none; units d, h and m.",
              {{"text", std::string(text)}});
}

std::string join(const std::vector<std::string>& items, const std::string& sep) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i ? sep : "") + items[i];
    return out;
}

std::string options_text(const rules::Options& options) {
    std::vector<std::string> items;
    for (const auto& [name, value] : options)
        items.push_back(name + "=" + value);
    return items.empty() ? "none" : join(items, ", ");
}

// Movetext "1. e4 e5 2. Nf3": a number before each turn of White's.
std::string movetext(const std::vector<storage::ActionRecord>& log) {
    // A number starts each turn of White's; a seat deciding several times in a row (a special
    // action followed by its choice, a choice the rules ask for within a turn) adds to the same
    // turn.
    std::string out;
    int number = 0;
    std::optional<Seat> previous;
    for (const auto& a : log) {
        if (previous)
            out += ' ';
        if (a.seat == Seat::White && previous != Seat::White) {
            ++number;
            out += std::to_string(number) + ". ";
        } else if (!previous) {
            out += "1... ";
            number = 1;
        }
        out += a.text;
        previous = a.seat;
    }
    return out;
}

// Breaks text into lines of at most `width` characters at spaces.
std::string wrap(const std::string& text, std::size_t width) {
    std::string out, line;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find(' ', start);
        if (end == std::string::npos)
            end = text.size();
        std::string word = text.substr(start, end - start);
        if (!line.empty() && line.size() + 1 + word.size() > width) {
            out += line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        start = end + 1;
    }
    if (!line.empty())
        out += line + "\n";
    return out;
}

std::string wrap_moves(const std::string& movetext, std::size_t width) {
    // Turns: each starts at a move number ("12." or "12...").
    std::vector<std::string> turns;
    std::size_t start = 0;
    while (start < movetext.size()) {
        std::size_t end = movetext.find(' ', start);
        if (end == std::string::npos)
            end = movetext.size();
        const std::string token = movetext.substr(start, end - start);
        const bool number = !token.empty() && std::isdigit(static_cast<unsigned char>(token[0])) &&
                            token.back() == '.' &&
                            token.find_first_not_of("0123456789.") == std::string::npos;
        if (number || turns.empty())
            turns.push_back(token);
        else
            turns.back() += " " + token;
        start = end + 1;
    }
    std::string out, line;
    const auto add = [&](const std::string& piece) {
        if (!line.empty() && line.size() + 1 + piece.size() > width) {
            out += line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + piece;
    };
    for (const std::string& turn : turns) {
        if (turn.size() <= width) {
            add(turn);
            continue;
        }
        // A turn longer than a line (dice and their comments) flows on word by word, its
        // number still with its first move.
        std::vector<std::string> words;
        for (std::size_t at = 0; at <= turn.size();) {
            std::size_t end = turn.find(' ', at);
            if (end == std::string::npos)
                end = turn.size();
            words.push_back(turn.substr(at, end - at));
            at = end + 1;
        }
        if (words.size() > 1 && words[0].back() == '.') {
            words[1] = words[0] + " " + words[1];
            words.erase(words.begin());
        }
        for (const std::string& word : words)
            add(word);
    }
    if (!line.empty())
        out += line + "\n";
    return out;
}

} // namespace detail

using namespace detail;

void PostRun::publish_cache() {
    for (auto& [id, entry] : run_.games.take_cache())
        run_.service.memory.keep(id, std::move(entry));
    for (auto& [key, png] : run_.boards.take_drawn())
        run_.service.memory.images.insert(key, std::move(png));
}

std::function<void()> PostRun::take_publication() {
    // Shared, since std::function must be copyable and a replayed game is not.
    auto games = std::make_shared<Games::Cache>(run_.games.take_cache());
    auto images = std::make_shared<std::vector<std::pair<render::PngKey, render::SharedPng>>>(
        run_.boards.take_drawn());
    return [memory = &run_.service.memory, games, images] {
        for (auto& [id, entry] : *games)
            memory->keep(id, std::move(entry));
        for (auto& [key, png] : *images)
            memory->images.insert(key, std::move(png));
    };
}

bool PostRun::over_command_limit() {
    const int limit = run_.ctx.settings.commands_per_minute;
    if (limit <= 0 || engine_level(run_.ctx.post.author_id))
        return false;
    auto& w = run_.service.memory.window(run_.ctx.post.platform + '\n' + run_.ctx.post.author_id,
                                         run_.ctx.now);
    if (run_.ctx.now - w.start >= 60)
        w = {run_.ctx.now, 0, false, {}};
    // A post run again (another daemon's write conflicted with it) is counted once.
    if (w.last_message != run_.ctx.post.message_id) {
        w.last_message = run_.ctx.post.message_id;
        ++w.count;
    }
    if (w.count <= limit)
        return false;
    if (!w.told) {
        w.told = true;
        run_.out.say(tr("{player}: that is more than "
                        "{count, plural, one {# command} other {# commands}} in a minute. I "
                        "answer your commands again from {time}; until then they are not read.",
                        {{"player", run_.out.at(run_.ctx.author)},
                         {"count", limit},
                         {"time", format_utc(w.start + 60)}}));
    }
    return true;
}

void PostRun::run() {
    if (run_.ctx.post.moved) {
        move_channel(run_, *run_.ctx.post.moved);
        return;
    }
    // An update with no author (a service message, an update the adapter could not read) only
    // moves the cursor: there is nobody to answer or to remember.
    if (run_.ctx.post.author_id.empty())
        return;
    run_.ctx.account = run_.people.upsert_account(
        run_.ctx.post.author_id, run_.ctx.post.author_name, run_.ctx.post.author_handle);
    run_.ctx.author = run_.people.as_player(run_.ctx.account, run_.ctx.post.platform);
    if (refuse_banned(run_.ctx))
        return;
    // What the platform says of the author's language is kept for the replies to them, those
    // sent later by direct message included; a language we have no catalog for is kept as none.
    if (!run_.ctx.post.language.empty()) {
        const std::string language =
            i18n::supported_language(run_.ctx.post.language).value_or(std::string());
        if (language != run_.ctx.author.platform_language) {
            run_.ctx.author.platform_language = language;
            run_.ctx.store.save_player_settings(run_.ctx.author);
        }
    }
    std::vector<std::string> prefixes{run_.ctx.settings.prefix};
    if (run_.ctx.settings.accept_slash && run_.ctx.settings.prefix != "/")
        prefixes.push_back("/");
    auto head = std::string_view(run_.ctx.post.text).substr(0, 64);
    bool is_command = parse_command(head, prefixes).has_value();

    if (run_.ctx.post.text.size() > run_.ctx.settings.max_post_bytes) {
        if (is_command)
            run_.out.say(tr("That post is too long ({size} bytes): commands and moves fit in "
                            "{limit} bytes. Nothing was done.",
                            {{"size", std::to_string(run_.ctx.post.text.size())},
                             {"limit", std::to_string(run_.ctx.settings.max_post_bytes)}}));
        return;
    }
    if (!valid_utf8(run_.ctx.post.text)) {
        if (is_command)
            run_.out.say(
                tr("That post is not valid UTF-8 text, so I cannot read it. Nothing was done."));
        return;
    }
    auto command = parse_command(run_.ctx.post.text, prefixes);
    if (refuse_foreign_button(run_, command))
        return;
    if (auto& c = command) {
        if (!c->addressee.empty() && lower(c->addressee) != lower(run_.ctx.settings.bot_name))
            return; // another bot's command
        if (over_command_limit())
            return;
        run_command(run_, *c);
        return;
    }
    // In a channel people talk: what is neither a command nor a move gets no answer. A direct
    // message is always for the bot, so it is never left without one.
    if (!try_bare_move(run_) && !run_.teams.try_team_vote(run_.ctx.post.text, {}, false) &&
        run_.ctx.post.direct)
        run_.out.say((run_.ctx.post.text.empty()
                          ? tr("I read only text: commands and moves.")
                          : tr("I read commands and moves here, and \"{text}\" is neither.",
                               {{"text", shorten(run_.ctx.post.text, 30)}})) +
                     verbatim(" ") +
                     tr("{command} lists the commands; {example} challenges someone.",
                        {{"command", run_.ctx.settings.prefix + "help"},
                         {"example", run_.ctx.settings.prefix + "new chess @name"}}));
}

Service::Service(storage::Store& store, ServiceSettings settings, Clock clock)
    : store_(store), settings_(std::move(settings)), clock_(std::move(clock)),
      memory_(std::make_unique<ServiceMemory>(settings_.game_cache_size)) {}

Service::~Service() = default;

std::string cursor_key(const Post& post) {
    return post.cursor_key.empty() ? post.platform : post.cursor_key;
}

HandleStatus Service::handle(const Post& post) {
    return retry_conflicts([&] { return handle_once(post); });
}

HandleStatus Service::handle_once(const Post& post) {
    HandleStatus status = HandleStatus::Handled;
    PostRun run(parts(), post);
    store_.transaction([&] {
        if (store_.post_handled(post.platform, post.channel, post.message_id)) {
            status = HandleStatus::Duplicate;
        } else {
            run.run();
            run.conclude();
            store_.mark_post_handled(post.platform, post.channel, post.message_id, clock_());
        }
        if (!post.cursor.empty())
            store_.set_cursor(cursor_key(post), post.cursor);
    });
    if (memory_->grouping())
        memory_->after_group(run.take_publication());
    else
        run.publish_cache();
    return status;
}

void Service::handle_grouped(const std::function<void()>& work) {
    memory_->begin_group();
    try {
        store_.group(work);
    } catch (...) {
        memory_->rollback_group();
        throw;
    }
    memory_->commit_group();
}

bool Service::grouping() const {
    return memory_->grouping();
}

void Service::pause_before_retry(int attempt) {
    // A few milliseconds, more each time and jittered, so that two daemons that collided do
    // not collide again in step.
    thread_local std::mt19937 random{std::random_device{}()};
    std::uniform_int_distribution<int> ms(1, 10 * attempt);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms(random)));
}

namespace {

// The language the run would have answered `post` in: its author's as far as the store and the
// post tell it (the run that failed stored nothing).
std::string fault_language(const ServiceParts& parts, const Post& post) {
    PostContext ctx(parts, post);
    Replies out(ctx);
    if (!post.author_id.empty())
        if (auto account = parts.store.player_by_account(post.platform, post.author_id))
            ctx.author = People(ctx, out).as_player(*account, post.platform);
    if (!post.language.empty())
        ctx.author.platform_language =
            i18n::supported_language(post.language).value_or(std::string());
    return out.author_language();
}

} // namespace

void Service::give_up(const Post& post) {
    store_.transaction([&] {
        if (!store_.post_handled(post.platform, post.channel, post.message_id)) {
            storage::OutgoingMessage m;
            m.platform = post.platform;
            m.to_user = post.direct;
            m.destination = post.direct ? post.author_id : post.channel;
            m.reply_to = post.direct ? std::string() : post.message_id;
            m.text = Replies::written(
                tr("Sorry, I could not handle this post because of a fault on my side; nothing "
                   "of it was applied. The operators can find it in the log as message "
                   "{message}.",
                   {{"message", post.message_id}}),
                fault_language(parts(), post));
            store_.enqueue(m, clock_());
            store_.mark_post_handled(post.platform, post.channel, post.message_id, clock_());
        }
        if (!post.cursor.empty())
            store_.set_cursor(cursor_key(post), post.cursor);
    });
}

namespace {

// The "@handle"s of a reply's text (a '@' at the start, after a space, a line break or '('),
// as written, each once, at most 20.
std::vector<std::string> handles_named(const std::string& text) {
    std::vector<std::string> handles;
    std::vector<std::string> seen; // lower case
    for (std::size_t i = 0; i < text.size() && handles.size() < 20; ++i) {
        if (text[i] != '@' ||
            (i > 0 && text[i - 1] != ' ' && text[i - 1] != '\n' && text[i - 1] != '('))
            continue;
        std::size_t end = i + 1;
        while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) != 0 ||
                                     text[end] == '_' || text[end] == '.'))
            ++end;
        while (end > i + 1 && text[end - 1] == '.')
            --end; // a full stop ends the sentence, not the name
        std::string handle = text.substr(i + 1, end - i - 1);
        std::string key = lower(handle);
        if (!handle.empty() && std::find(seen.begin(), seen.end(), key) == seen.end()) {
            seen.push_back(std::move(key));
            handles.push_back(std::move(handle));
        }
        i = end - 1;
    }
    return handles;
}

} // namespace

Reply Service::to_reply(const storage::OutboxEntry& entry, storage::Store* store) {
    Reply r;
    if (store != nullptr)
        for (const std::string& handle : handles_named(entry.message.text))
            if (const auto player = store->player_by_handle(entry.message.platform, handle))
                r.mentions.push_back({handle, player->user_id, player->name}); // as written
    r.to = entry.message.to_user ? Reply::To::User : Reply::To::Channel;
    r.platform = entry.message.platform;
    r.destination = entry.message.destination;
    r.text = entry.message.text;
    r.code = entry.message.code;
    r.png = entry.message.png;
    r.reply_to = entry.message.reply_to;
    for (const storage::NamedAccount& a : entry.message.named)
        r.mentions.push_back({"", a.user_id, a.name});
    for (const storage::ButtonRecord& b : entry.message.buttons)
        r.buttons.push_back({b.label, b.command});
    r.ends_game = entry.message.ends_game;
    r.idempotency_key = std::to_string(entry.id) + "." + std::to_string(entry.created_at);
    if (store != nullptr && !entry.message.to_user) {
        const auto games =
            store->games_in_channel(r.platform, r.destination,
                                    {storage::GameStatus::Challenge, storage::GameStatus::Ongoing,
                                     storage::GameStatus::Finished, storage::GameStatus::Declined,
                                     storage::GameStatus::Cancelled, storage::GameStatus::Aborted});
        const storage::GameRecord* about = games.empty() ? nullptr : &games.back();
        std::size_t first = std::string::npos;
        for (const storage::GameRecord& g : games) {
            const std::string tag = "#" + std::to_string(g.id);
            for (auto at = r.text.find(tag); at != std::string::npos;
                 at = r.text.find(tag, at + 1)) {
                const auto after = at + tag.size();
                if ((after == r.text.size() ||
                     !std::isdigit(static_cast<unsigned char>(r.text[after]))) &&
                    at < first) {
                    first = at;
                    about = &g;
                }
            }
        }
        if (about != nullptr) {
            // Seats once taken, the challenge's two sides before: nothing any player hides.
            const auto name = [&](std::optional<std::int64_t> id) {
                const auto p = id ? store->player(*id) : std::nullopt;
                return !p ? std::string("?") : !p->handle.empty() ? p->handle : p->name;
            };
            const rules::Variant* v = rules::find_variant(about->variant);
            r.game = about->id;
            r.topic = "game " + std::to_string(about->id) + ": " +
                      (v ? v->info().title : about->variant) + ", " +
                      (about->white && about->black
                           ? name(about->white) + " vs " + name(about->black)
                           : name(about->challenger) + " vs " +
                                 (about->challenged_id        ? name(about->challenged_id)
                                  : about->challenged.empty() ? std::string("anyone")
                                                              : about->challenged));
        }
    }
    return r;
}

void Service::clear_cache() {
    memory_->clear_games();
}

int Service::replays() const {
    return memory_->replays;
}

std::size_t Service::cached_games() const {
    return memory_->cached_games();
}

ServiceParts Service::parts() {
    return {store_, settings_, clock_, *memory_};
}

} // namespace ghostpost::bot
