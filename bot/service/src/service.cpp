// One post, one transaction. PostRun holds everything one post needs while it runs; the
// replies it builds go to the outbox in the same transaction, and the games it replayed or
// changed reach the service's cache only after the commit, so a rollback never leaves a cached
// state the database does not have.
#include "ghostpost/service/service.h"

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
    // A number starts each turn of White's; a seat deciding several times in a row (Ghost
    // Chess's specials, Gnostic Chess's combat choices) adds to the same turn.
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
    for (auto& [id, entry] : pending_cache_)
        s_.keep(id, std::move(entry));
    for (auto& [key, png] : pending_png_)
        s_.png_cache_.insert(key, std::move(png));
}

std::function<void()> PostRun::take_publication() {
    // Shared, since std::function must be copyable and a replayed game is not.
    auto games = std::make_shared<std::map<std::int64_t, Service::CachedGame>>(
        std::exchange(pending_cache_, {}));
    auto images = std::make_shared<std::vector<std::pair<render::PngKey, render::SharedPng>>>(
        std::exchange(pending_png_, {}));
    return [service = &s_, games, images] {
        for (auto& [id, entry] : *games)
            service->keep(id, std::move(entry));
        for (auto& [key, png] : *images)
            service->png_cache_.insert(key, std::move(png));
    };
}

PostRun::Loaded PostRun::load(const GameRecord& rec) {
    Loaded l;
    l.rec = rec;
    // The stored revision, not the record's copy: another process may have changed the game
    // (a takeback and a new move leave as many plies as before, but never the same revision).
    // The game's row is held from here to the commit: a post of another daemon on the same
    // game waits, then runs again on what this one did.
    l.revision = store_.lock_game(rec.id);
    auto from = [&](const Service::CachedGame& c) {
        l.game = c.game->clone();
        l.rng = c.rng;
        l.plies = c.ply;
    };
    if (auto it = pending_cache_.find(rec.id);
        it != pending_cache_.end() && it->second.revision == l.revision) {
        from(it->second);
        return l;
    }
    if (const Service::CachedGame* c = s_.cached(rec.id); c && c->revision == l.revision) {
        from(*c);
        return l;
    }
    LoadedGame loaded = load_game(rec, store_.actions(rec.id));
    l.game = std::move(loaded.game);
    l.rng = std::move(loaded.rng);
    l.plies = loaded.plies;
    ++s_.replays_;
    remember(l);
    return l;
}

std::string PostRun::over_line(const GameRecord& g, const rules::VariantInfo& info) {
    std::string id = "Game #" + std::to_string(g.id);
    switch (g.status) {
    case GameStatus::Challenge:
        return id + " is a challenge waiting for an answer.";
    case GameStatus::Declined:
        return id + " was declined.";
    case GameStatus::Cancelled:
        return id + " was cancelled.";
    case GameStatus::Aborted:
        return id + " was aborted.";
    case GameStatus::Ongoing:
        return id + " is under way.";
    case GameStatus::Finished:
        break;
    }
    std::string outcome;
    if (g.result == "1-0")
        outcome = who(g, info, Seat::White) + " wins";
    else if (g.result == "0-1")
        outcome = who(g, info, Seat::Black) + " wins";
    else
        outcome = "drawn";
    return id + " is over: " + outcome + " by " + g.reason + " (" + g.result + ").";
}

namespace {

// How a game that is over ended, for its board: "White wins, 1-0 (resignation)", in the
// variant's seat names; empty while it goes on.
std::string ended_line(const GameRecord& g, const rules::VariantInfo& info) {
    if (g.status == GameStatus::Aborted)
        return "aborted, it counts for nobody";
    if (g.status != GameStatus::Finished)
        return {};
    std::string outcome = "drawn";
    if (g.result == "1-0")
        outcome = info.seat_names[0] + " wins";
    else if (g.result == "0-1")
        outcome = info.seat_names[1] + " wins";
    return outcome + ", " + g.result + " (" + g.reason + ")";
}

} // namespace

std::string PostRun::next_line(const Loaded& l) {
    if (l.rec.status != GameStatus::Ongoing)
        return over_line(l.rec, l.info());
    std::vector<std::string> parts;
    for (const auto& d : l.game->pending())
        parts.push_back(who(l.rec, l.info(), d.seat) + " must " + d.what);
    if (parts.empty())
        return "Nobody has a decision to make.";
    return join(parts, " and ") + ".";
}

storage::ChannelSettings PostRun::channel_settings(const std::string& platform,
                                                   const std::string& channel) {
    storage::ChannelSettings c = store_.channel_settings(platform, channel);
    if (!c.saved) {
        const auto& inline_images = s_.settings_.inline_images;
        c.images =
            std::find(inline_images.begin(), inline_images.end(), platform) != inline_images.end();
    }
    return c;
}

PostRun::BoardLook PostRun::channel_look(const std::string& platform, const std::string& channel) {
    const storage::ChannelSettings c = channel_settings(platform, channel);
    BoardLook look;
    look.bottom = c.orientation == "black" ? Seat::Black : Seat::White;
    look.glyphs = c.notation == "unicode" ? render::Glyphs::Unicode : render::Glyphs::Ascii;
    look.image = c.images;
    look.compact = c.style == "compact";
    return look;
}

PostRun::BoardLook PostRun::personal_look(const PlayerRecord& p, const GameRecord& g) const {
    BoardLook look;
    if (p.orientation == "black")
        look.bottom = Seat::Black;
    else if (p.orientation == "auto")
        look.bottom = seat_of(g, p.id).value_or(Seat::White);
    look.glyphs = p.notation == "unicode" ? render::Glyphs::Unicode : render::Glyphs::Ascii;
    look.image = p.images;
    return look;
}

PostRun::BoardOut PostRun::board(const Loaded& l, const BoardLook& look, bool flip,
                                 std::optional<render::Glyphs> glyphs, std::optional<bool> image) {
    render::TextStyle style;
    style.seat_names = l.info().seat_names;
    style.ended = ended_line(l.rec, l.info());
    const Seat bottom = look.bottom;
    const render::Glyphs chosen = look.glyphs;
    const bool as_image = look.image;
    style.bottom = flip ? rules::opponent(bottom) : bottom;
    // Once the game is over, however it ended, the channel sees what the rules hid.
    const rules::PublicView view =
        l.rec.status == GameStatus::Ongoing ? l.game->public_view() : l.game->final_view();
    if (!image.value_or(as_image) || glyphs) {
        style.glyphs = glyphs.value_or(chosen);
        return {render::render_text(view, style), {}, {}};
    }
    // Only public boards are cached: the key names no audience but the public one.
    const auto render = [&] {
        render::PngOptions options;
        options.flip = style.bottom == Seat::Black;
        options.game_label = "Game #" + std::to_string(l.rec.id);
        options.ended = style.ended;
        return render::render_png(view, options);
    };
    if (l.revision < 0)
        return {{}, render(), {}};
    // A game may end without a new action (a resignation) in this very post: the end bumped the
    // stored revision, which the loaded game predates, and the image keyed by the older one
    // still says whose move it was.
    const std::int64_t revision = style.ended.empty() ? l.revision : store_.game_revision(l.rec.id);
    const render::PngKey key{l.rec.id, revision, render::Audience::Public,
                             style.bottom == Seat::Black, 0};
    if (const render::SharedPng png = s_.png_cache_.find(key))
        return {{}, *png, {}};
    // Kept only once the post commits: a revision this post made is not the game's until then
    // (another daemon's post may yet take its number).
    auto png = std::make_shared<const render::PngBytes>(render());
    pending_png_.emplace_back(key, png);
    return {{}, *png, {}};
}

std::optional<GameRecord> PostRun::pick_game(const std::vector<std::string>& args,
                                             std::size_t& used, const std::string& command,
                                             bool for_viewing) {
    used = 0;
    if (!args.empty()) {
        if (auto id = game_id_arg(args[0])) {
            used = 1;
            auto g = store_.game(*id);
            // Games of other communities stay theirs, unless this one follows the game or the
            // author plays in it (one player, several platforms).
            const auto followed_here = [&] {
                for (const auto& [platform, channel] : store_.bound_channels(g->id))
                    if (platform == post_.platform)
                        return true;
                return seat_of(*g, author_.id).has_value() || g->challenger == author_.id;
            };
            if (!g || (g->platform != post_.platform && !followed_here())) {
                say("There is no game #" + std::to_string(*id) + ".");
                return std::nullopt;
            }
            return g;
        }
    }
    auto mine = my_games_here({GameStatus::Ongoing});
    if (mine.size() == 1)
        return mine.front();
    if (mine.size() > 1) {
        std::vector<std::string> ids;
        for (const auto& g : mine)
            ids.push_back("#" + std::to_string(g.id));
        say("You play several games here (" + join(ids, ", ") + "): say which, for example " +
            s_.settings_.prefix + command + " " + std::to_string(mine.front().id) + ".");
        return std::nullopt;
    }
    if (for_viewing && !post_.direct) {
        auto here = store_.games_in_channel(post_.platform, post_.channel, {GameStatus::Ongoing});
        if (here.size() == 1)
            return here.front();
        if (here.empty()) {
            auto done = store_.games_in_channel(post_.platform, post_.channel,
                                                {GameStatus::Finished, GameStatus::Aborted});
            if (!done.empty())
                return done.back();
        }
        if (here.size() > 1) {
            say("Several games are under way here: say which, for example " + s_.settings_.prefix +
                command + " " + std::to_string(here.front().id) + ".");
            return std::nullopt;
        }
    }
    say("You have no game under way here. Use: " + form(command));
    return std::nullopt;
}

std::optional<PostRun::MyGame> PostRun::my_ongoing_game(const std::vector<std::string>& args,
                                                        const std::string& command) {
    std::size_t used = 0;
    auto g = pick_game(args, used, command, false);
    if (!g)
        return std::nullopt;
    if (used < args.size()) {
        usage_error(command, "I did not understand \"" + shorten(args[used]) + "\".");
        return std::nullopt;
    }
    auto seat = seat_of(*g, author_.id);
    if (g->status != GameStatus::Ongoing) {
        const rules::Variant* v = rules::find_variant(g->variant);
        say(v ? over_line(*g, v->info()) : "Game #" + std::to_string(g->id) + " is not under way.");
        return std::nullopt;
    }
    if (!seat) {
        say("You are not playing in game #" + std::to_string(g->id) + ".");
        return std::nullopt;
    }
    return MyGame{load(*g), *seat};
}

std::optional<PostRun::Named> PostRun::named(const std::string& arg) {
    const bool at_sign = arg.size() > 1 && arg[0] == '@';
    const std::string key = lower(strip_at(arg));
    for (const Mention& m : post_.mentions) {
        const bool same = at_sign ? !m.handle.empty() && lower(m.handle) == key
                                  : !m.user_id.empty() && !m.name.empty() && lower(m.name) == key;
        if (!same)
            continue;
        if (m.user_id.empty())
            break; // a handle only: the stored handle decides below
        if (auto known = store_.player_by_account(post_.platform, m.user_id))
            return Named{as_player(*known, post_.platform), lower(m.handle)};
        const std::string handle = m.handle.empty() ? std::string() : lower(m.handle);
        return Named{upsert_account(m.user_id, m.name.empty() ? m.handle : m.name, handle),
                     harmless_name(handle)};
    }
    if (!at_sign)
        return std::nullopt;
    auto found = store_.player_by_handle(post_.platform, key);
    if (found)
        found = as_player(*found, post_.platform);
    return Named{found, key};
}

std::string PostRun::unpinged(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const bool name_follows =
            i + 1 < text.size() &&
            (std::isalnum(static_cast<unsigned char>(text[i + 1])) != 0 || text[i + 1] == '_');
        if (text[i] == '@' && name_follows &&
            (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\n' || text[i - 1] == '('))
            continue;
        out += text[i];
    }
    return out;
}

PlayerRecord PostRun::as_player(const PlayerRecord& account, const std::string& platform) {
    PlayerRecord p = account;
    if (account.linked_to != 0)
        if (auto owner = store_.player(account.linked_to))
            p = *owner;
    if (p.platform != platform) {
        if (auto there = store_.account_on(p.id, platform)) {
            p.platform = there->platform;
            p.user_id = there->user_id;
            p.name = there->name;
            p.handle = there->handle;
        } else {
            p.handle.clear(); // a handle of another platform names somebody else here
        }
    }
    return p;
}

std::optional<PlayerRecord> PostRun::known_player(const std::string& arg, const std::string& then) {
    auto n = named(arg);
    if (n && n->player)
        return n->player;
    say("I do not know " + shorten(arg, 30) + " yet." + then);
    return std::nullopt;
}

bool PostRun::over_command_limit() {
    const int limit = s_.settings_.commands_per_minute;
    if (limit <= 0 || engine_level(post_.author_id))
        return false;
    auto& windows = s_.command_windows_;
    if (windows.size() > 10'000) // the accounts quiet for a minute need no window
        std::erase_if(windows, [&](const auto& w) { return now_ - w.second.start >= 60; });
    const std::string key = post_.platform + '\n' + post_.author_id;
    if (s_.grouping_ && !s_.windows_before_group_.contains(key)) {
        const auto before = windows.find(key);
        s_.windows_before_group_[key] =
            before == windows.end() ? std::nullopt : std::optional(before->second);
    }
    auto& w = windows[key];
    if (now_ - w.start >= 60)
        w = {now_, 0, false, {}};
    // A post run again (another daemon's write conflicted with it) is counted once.
    if (w.last_message != post_.message_id) {
        w.last_message = post_.message_id;
        ++w.count;
    }
    if (w.count <= limit)
        return false;
    if (!w.told) {
        w.told = true;
        say(at(author_) + ": that is more than " + std::to_string(limit) +
            " commands in a minute. I answer your commands again from " + format_utc(w.start + 60) +
            "; until then they are not read.");
    }
    return true;
}

void PostRun::run() {
    if (post_.moved) {
        move_channel(*post_.moved);
        return;
    }
    // An update with no author (a service message, an update the adapter could not read) only
    // moves the cursor: there is nobody to answer or to remember.
    if (post_.author_id.empty())
        return;
    account_ = upsert_account(post_.author_id, post_.author_name, post_.author_handle);
    author_ = as_player(account_, post_.platform);
    if (refuse_banned())
        return;
    std::vector<std::string> prefixes{s_.settings_.prefix};
    if (s_.settings_.accept_slash && s_.settings_.prefix != "/")
        prefixes.push_back("/");
    auto head = std::string_view(post_.text).substr(0, 64);
    bool is_command = parse_command(head, prefixes).has_value();

    if (post_.text.size() > s_.settings_.max_post_bytes) {
        if (is_command)
            say("That post is too long (" + std::to_string(post_.text.size()) +
                " bytes): commands and moves fit in " +
                std::to_string(s_.settings_.max_post_bytes) + " bytes. Nothing was done.");
        return;
    }
    if (!valid_utf8(post_.text)) {
        if (is_command)
            say("That post is not valid UTF-8 text, so I cannot read it. Nothing was done.");
        return;
    }
    auto command = parse_command(post_.text, prefixes);
    if (refuse_foreign_button(command))
        return;
    if (auto& c = command) {
        if (!c->addressee.empty() && lower(c->addressee) != lower(s_.settings_.bot_name))
            return; // another bot's command
        if (over_command_limit())
            return;
        run_command(*c);
        return;
    }
    // In a channel people talk: what is neither a command nor a move gets no answer. A direct
    // message is always for the bot, so it is never left without one.
    if (!try_bare_move() && !try_team_vote(post_.text, {}, false) && post_.direct)
        say((post_.text.empty() ? std::string("I read only text: commands and moves.")
                                : "I read commands and moves here, and \"" +
                                      shorten(post_.text, 30) + "\" is neither.") +
            " " + s_.settings_.prefix + "help lists the commands; " + s_.settings_.prefix +
            "new chess @name challenges someone.");
}

Service::Service(storage::Store& store, ServiceSettings settings, Clock clock)
    : store_(store), settings_(std::move(settings)), clock_(std::move(clock)) {}

std::string cursor_key(const Post& post) {
    return post.cursor_key.empty() ? post.platform : post.cursor_key;
}

HandleStatus Service::handle(const Post& post) {
    return retry_conflicts([&] { return handle_once(post); });
}

HandleStatus Service::handle_once(const Post& post) {
    HandleStatus status = HandleStatus::Handled;
    PostRun run(*this, post);
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
    if (grouping_)
        after_group_.push_back(run.take_publication());
    else
        run.publish_cache();
    return status;
}

void Service::handle_grouped(const std::function<void()>& work) {
    grouping_ = true;
    after_group_.clear();
    windows_before_group_.clear();
    try {
        store_.group(work);
    } catch (...) {
        grouping_ = false;
        after_group_.clear();
        for (auto& [key, before] : windows_before_group_)
            if (before)
                command_windows_[key] = *before;
            else
                command_windows_.erase(key);
        windows_before_group_.clear();
        throw;
    }
    grouping_ = false;
    windows_before_group_.clear();
    for (auto& publish : after_group_)
        publish();
    after_group_.clear();
}

void Service::pause_before_retry(int attempt) {
    // A few milliseconds, more each time and jittered, so that two daemons that collided do
    // not collide again in step.
    thread_local std::mt19937 random{std::random_device{}()};
    std::uniform_int_distribution<int> ms(1, 10 * attempt);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms(random)));
}

void Service::give_up(const Post& post) {
    store_.transaction([&] {
        if (!store_.post_handled(post.platform, post.channel, post.message_id)) {
            storage::OutgoingMessage m;
            m.platform = post.platform;
            m.to_user = post.direct;
            m.destination = post.direct ? post.author_id : post.channel;
            m.reply_to = post.direct ? std::string() : post.message_id;
            m.text = "Sorry, I could not handle this post because of a fault on my side; nothing "
                     "of it was applied. The operators can find it in the log as message " +
                     post.message_id + ".";
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
    cache_.clear();
    recency_.clear();
}

const Service::CachedGame* Service::cached(std::int64_t id) {
    auto it = cache_.find(id);
    if (it == cache_.end())
        return nullptr;
    recency_.splice(recency_.begin(), recency_, it->second.recency);
    return &it->second.game;
}

void Service::keep(std::int64_t id, CachedGame game) {
    if (auto it = cache_.find(id); it != cache_.end()) {
        it->second.game = std::move(game);
        recency_.splice(recency_.begin(), recency_, it->second.recency);
        return;
    }
    recency_.push_front(id);
    cache_.emplace(id, CacheSlot{std::move(game), recency_.begin()});
    while (cache_.size() > std::max<std::size_t>(1, settings_.game_cache_size)) {
        cache_.erase(recency_.back());
        recency_.pop_back();
    }
}

} // namespace ghostpost::bot
