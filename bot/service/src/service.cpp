// One post, one transaction. PostRun holds everything one post needs while it runs; the
// replies it builds go to the outbox in the same transaction, and the games it replayed or
// changed reach the service's cache only after the commit, so a rollback never leaves a cached
// state the database does not have.
#include "ghostpost/bot/service.h"
#include "post_run.h"

#include "ghostpost/bot/command.h"
#include "ghostpost/bot/game_loader.h"
#include "ghostpost/render/png.h"
#include "ghostpost/render/text.h"
#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/rules/replay.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>
#include <stdexcept>

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

std::string at(const PlayerRecord& p) { return p.handle.empty() ? p.name : "@" + p.handle; }

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
    case rules::Status::WhiteWins: return "1-0";
    case rules::Status::BlackWins: return "0-1";
    case rules::Status::Draw: return "1/2-1/2";
    case rules::Status::Ongoing: break;
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

} // namespace detail

using namespace detail;

void PostRun::publish_cache() {
    for (auto& [id, entry] : pending_cache_)
        s_.cache_.insert_or_assign(id, std::move(entry));
}

PostRun::Loaded PostRun::load(const GameRecord& rec) {
    Loaded l;
    l.rec = rec;
    // The stored revision, not the record's copy: another process may have changed the game
    // (a takeback and a new move leave as many plies as before, but never the same revision).
    l.revision = store_.game_revision(rec.id);
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
    if (auto it = s_.cache_.find(rec.id); it != s_.cache_.end() && it->second.revision == l.revision) {
        from(it->second);
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
    case GameStatus::Challenge: return id + " is a challenge waiting for an answer.";
    case GameStatus::Declined: return id + " was declined.";
    case GameStatus::Cancelled: return id + " was cancelled.";
    case GameStatus::Aborted: return id + " was aborted.";
    case GameStatus::Ongoing: return id + " is under way.";
    case GameStatus::Finished: break;
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

PostRun::BoardOut PostRun::board(const Loaded& l, std::optional<std::int64_t> viewer, bool flip,
                                 std::optional<render::Glyphs> glyphs, std::optional<bool> image) {
    render::TextStyle style;
    style.seat_names = l.info().seat_names;
    Seat bottom = Seat::White;
    render::Glyphs chosen = render::Glyphs::Ascii;
    bool as_image = false;
    if (viewer) {
        PlayerRecord p = player(*viewer);
        if (p.orientation == "black")
            bottom = Seat::Black;
        else if (p.orientation == "auto")
            bottom = seat_of(l.rec, p.id).value_or(Seat::White);
        if (p.notation == "unicode")
            chosen = render::Glyphs::Unicode;
        as_image = p.images;
    }
    style.bottom = flip ? rules::opponent(bottom) : bottom;
    // Once the game is over, however it ended, the channel sees what the rules hid.
    const rules::PublicView view = l.rec.status == GameStatus::Ongoing ? l.game->public_view()
                                                                       : l.game->final_view();
    if (!image.value_or(as_image) || glyphs) {
        style.glyphs = glyphs.value_or(chosen);
        return {render::render_text(view, style), {}};
    }
    // Only public boards are cached: the key names no audience but the public one.
    const auto render = [&] {
        render::PngOptions options;
        options.flip = style.bottom == Seat::Black;
        options.game_label = "Game #" + std::to_string(l.rec.id);
        return render::render_png(view, options);
    };
    if (l.revision < 0)
        return {{}, render()};
    const render::PngKey key{l.rec.id, l.revision, render::Audience::Public,
                             style.bottom == Seat::Black, 0};
    return {{}, *s_.png_cache_.get_or_render(key, render)};
}

std::optional<GameRecord> PostRun::pick_game(const std::vector<std::string>& args,
                                             std::size_t& used, const std::string& command,
                                             bool for_viewing) {
    used = 0;
    if (!args.empty()) {
        if (auto id = game_id_arg(args[0])) {
            used = 1;
            auto g = store_.game(*id);
            if (!g || g->platform != post_.platform) {
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
        auto here = store_.games_in_channel(post_.platform, post_.channel,
                                            {GameStatus::Ongoing});
        if (here.size() == 1)
            return here.front();
        if (here.empty()) {
            auto done = store_.games_in_channel(post_.platform, post_.channel,
                                                {GameStatus::Finished, GameStatus::Aborted});
            if (!done.empty())
                return done.back();
        }
        if (here.size() > 1) {
            say("Several games are under way here: say which, for example " +
                s_.settings_.prefix + command + " " + std::to_string(here.front().id) + ".");
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
            return Named{known, lower(m.handle)};
        const std::string handle = m.handle.empty() ? std::string() : lower(m.handle);
        return Named{store_.upsert_player(post_.platform, m.user_id,
                                          m.name.empty() ? m.handle : m.name, handle),
                     handle};
    }
    if (!at_sign)
        return std::nullopt;
    return Named{store_.player_by_handle(post_.platform, key), key};
}

std::optional<PlayerRecord> PostRun::known_player(const std::string& arg,
                                                  const std::string& then) {
    auto n = named(arg);
    if (n && n->player)
        return n->player;
    say("I do not know " + shorten(arg, 30) + " yet." + then);
    return std::nullopt;
}

void PostRun::run() {
    author_ = store_.upsert_player(post_.platform, post_.author_id, post_.author_name,
                                   post_.author_handle);
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
    if (auto c = parse_command(post_.text, prefixes)) {
        if (!c->addressee.empty() && lower(c->addressee) != lower(s_.settings_.bot_name))
            return; // another bot's command
        if (refuse_banned())
            return;
        run_command(*c);
        return;
    }
    try_bare_move();
}

void PostRun::cmd_new(const std::vector<std::string>& args) {
    if (post_.direct) {
        say("Start games in a channel, where your opponent can see them.");
        return;
    }
    if (args.empty()) {
        std::vector<std::string> names;
        for (const auto* v : rules::variants())
            names.push_back(v->info().name);
        usage_error("new", "Name a variant (" + join(names, ", ") + ").");
        return;
    }
    const rules::Variant* variant = rules::find_variant(args[0]);
    if (variant == nullptr) {
        std::vector<std::string> names;
        for (const auto* v : rules::variants())
            names.push_back(v->info().name);
        say("There is no variant \"" + shorten(args[0], 20) + "\". Variants: " +
            join(names, ", ") + ".");
        return;
    }
    const rules::VariantInfo& info = variant->info();
    std::string opponent, color = "white";
    std::optional<PlayerRecord> opponent_player;
    std::string opponent_handle;
    bool color_given = false;
    rules::Options given;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& w = args[i];
        std::string lw = lower(w);
        std::optional<Named> whom = opponent.empty() && !opponent_player ? named(w) : std::nullopt;
        if (whom && (whom->player || !whom->handle.empty())) {
            opponent_player = whom->player;
            opponent = whom->player ? at(*whom->player) : "@" + whom->handle;
            if (whom->player)
                opponent_handle = whom->player->handle;
            else
                opponent_handle = whom->handle;
        } else if (!color_given && (lw == "white" || lw == "black" || lw == "random")) {
            color = lw;
            color_given = true;
        } else if (auto eq = w.find('='); eq != std::string::npos && eq > 0) {
            given[lower(w.substr(0, eq))] = w.substr(eq + 1);
        } else {
            usage_error("new", "I did not understand \"" + shorten(w) + "\".");
            return;
        }
    }
    if ((opponent_player && opponent_player->id == author_.id) ||
        (!opponent_player && !opponent_handle.empty() && opponent_handle == author_.handle)) {
        say("You cannot challenge yourself.");
        return;
    }
    auto service_options = take_service_options(given);
    if (!service_options)
        return;
    auto options = rules::resolve_options(info, given);
    if (!options) {
        say(capitalized(options.error().message) + ". Say " + s_.settings_.prefix + "rules " +
            info.name + " for its options.");
        return;
    }
    auto trial = variant->start(*options);
    if (!trial) {
        say(capitalized(trial.error().message) + ".");
        return;
    }
    GameRecord g;
    g.variant = info.name;
    g.options = *options;
    g.platform = post_.platform;
    g.channel = post_.channel;
    g.challenger = author_.id;
    g.challenged = opponent_handle;
    if (opponent_player)
        g.challenged_id = opponent_player->id;
    g.seed = new_seed();
    g.created_at = now_;
    g.time_control = service_options->time_control;
    g.rated = service_options->rated;
    std::string color_note;
    if (color == "random") {
        // The seed is secret and fresh, so its first byte is as good a coin as any.
        color = (g.seed[0] & 1) ? "black" : "white";
        color_note = " (drawn at random)";
    }
    g.challenger_color = color;
    g.status = GameStatus::Challenge;
    g.id = store_.create_game(g);
    std::string id = std::to_string(g.id);
    std::string seat = info.seat_names[color == "white" ? 0 : 1];
    std::string target = opponent.empty() ? std::string("anyone here") : opponent;
    say(at(author_) + " challenges " + target + " to " + info.title + ", game #" + id +
        ". " + at(author_) + " would play " + seat + color_note +
        ". Options: " + options_text(*options) + ". " + service_options_text(g) + " " +
        (opponent.empty() ? std::string("Anyone here") : opponent) + ": answer " +
        s_.settings_.prefix + "accept " + id +
        (opponent.empty() ? std::string() : " or " + s_.settings_.prefix + "decline " + id) + ".");
}

void PostRun::cmd_answer(const std::vector<std::string>& args, const std::string& command) {
    const bool cancel = command == "cancel";
    std::vector<GameRecord> open;
    std::optional<std::int64_t> wanted;
    if (!args.empty()) {
        wanted = game_id_arg(args[0]);
        if (!wanted || args.size() > 1) {
            usage_error(command, "I did not understand \"" + shorten(args[wanted ? 1 : 0]) + "\".");
            return;
        }
    }
    auto mine_to_answer = [&](const GameRecord& g) {
        if (cancel)
            return g.challenger == author_.id || (wanted && moderator());
        if (g.challenger == author_.id)
            return false;
        if (g.challenged_id)
            return *g.challenged_id == author_.id;
        if (g.challenged.empty()) // open: to anyone in the channel where it was made
            return command == "accept" && !post_.direct && g.channel == post_.channel;
        return !author_.handle.empty() && g.challenged == author_.handle;
    };
    if (wanted) {
        auto g = store_.game(*wanted);
        if (!g || g->platform != post_.platform) {
            say("There is no game #" + std::to_string(*wanted) + ".");
            return;
        }
        if (g->status != GameStatus::Challenge) {
            say("Game #" + std::to_string(g->id) + " is not an open challenge.");
            return;
        }
        if (!mine_to_answer(*g)) {
            if (cancel)
                say("Only the challenger can cancel challenge #" + std::to_string(g->id) + ".");
            else if (g->challenged.empty() && !g->challenged_id && g->challenger != author_.id &&
                     command == "accept")
                say("Challenge #" + std::to_string(g->id) +
                    " is open to anyone in the channel where it was made: accept it there.");
            else
                say("Challenge #" + std::to_string(g->id) + " is not addressed to you.");
            return;
        }
        open.push_back(*g);
    } else {
        auto all = post_.direct
                       ? store_.games_of_player(author_, {GameStatus::Challenge})
                       : store_.games_in_channel(post_.platform, post_.channel,
                                                 {GameStatus::Challenge});
        for (auto& g : all)
            if (mine_to_answer(g) && (cancel || !g.challenged.empty() || !post_.direct))
                open.push_back(std::move(g));
        if (open.empty()) {
            say(cancel ? "You have no open challenge here." : "There is no challenge for you here.");
            return;
        }
        if (open.size() > 1) {
            std::vector<std::string> ids;
            for (const auto& g : open)
                ids.push_back("#" + std::to_string(g.id));
            say("Several challenges match (" + join(ids, ", ") + "): say which, for example " +
                s_.settings_.prefix + command + " " + std::to_string(open.front().id) + ".");
            return;
        }
    }
    GameRecord g = open.front();
    const rules::Variant* variant = rules::find_variant(g.variant);
    if (variant == nullptr)
        throw std::runtime_error("game #" + std::to_string(g.id) + ": unknown variant");
    std::string id = std::to_string(g.id);
    if (command == "decline") {
        g.status = GameStatus::Declined;
        store_.update_game(g);
        say_in(g, at(author_) + " declines challenge #" + id + " from " +
                      mention(g.challenger) + ".");
        return;
    }
    if (cancel) {
        g.status = GameStatus::Cancelled;
        store_.update_game(g);
        say_in(g, "Challenge #" + id + " is withdrawn.");
        return;
    }
    g.challenged_id = author_.id;
    if (g.challenger_color == "black") {
        g.white = author_.id;
        g.black = g.challenger;
    } else {
        g.white = g.challenger;
        g.black = author_.id;
    }
    g.status = GameStatus::Ongoing;
    store_.update_game(g);
    Loaded l = load(g);
    sync_clocks(l);
    auto first = deciders(l);
    std::optional<std::int64_t> viewer = first.empty() ? g.white : seated(g, first.front());
    say_in(g, at(author_) + " accepts. " + vs_line(l) + seed_commitment(g, l.info()) + " " +
                  next_line(l) + clock_line(l),
           board(l, viewer));
}

// Whether `text` names an action `seat` may take turn or no turn (a Phantom Chess peek).
static bool names_anytime_action(const rules::Game& game, Seat seat, const std::string& text) {
    auto parsed = rules::parse_action(game, seat, text);
    if (!parsed)
        return false;
    const auto anytime = game.anytime_actions(seat);
    return std::any_of(anytime.begin(), anytime.end(),
                       [&](const auto& a) { return a.action == parsed->action; });
}

// The first action from `log[first]` on that was no decision of the game's but was told to the
// channel (a Phantom Chess peek): a takeback never undoes it, since what it showed cannot be
// unseen and a life given back would be a free peek. nullopt when there is none.
static std::optional<std::string> undone_public_aside(const GameRecord& g,
                                                      const std::vector<storage::ActionRecord>& log,
                                                      std::size_t first) {
    auto started = rules::find_variant(g.variant)->start(g.options);
    if (!started)
        throw std::runtime_error("game #" + std::to_string(g.id) + ": cannot restart");
    rules::Game& game = *started.value();
    SeededRandom rng(g.seed);
    for (std::size_t i = 0; i < log.size(); ++i) {
        const auto& a = log[i];
        auto parsed = rules::parse_action(game, a.seat, a.text);
        const bool aside = parsed && i >= first && names_anytime_action(game, a.seat, a.text);
        auto events = parsed ? game.apply(a.seat, parsed->action, rng)
                             : rules::Result<std::vector<rules::Event>>(parsed.error());
        if (!events)
            throw std::runtime_error("game #" + std::to_string(g.id) + ": the log does not replay");
        if (aside && std::any_of(events->begin(), events->end(),
                                 [](const auto& e) { return !e.only_for && !e.board; }))
            return a.text;
    }
    return std::nullopt;
}

bool PostRun::try_bare_move() {
    auto mine = my_games_here({GameStatus::Ongoing});
    if (mine.empty())
        return false;
    const std::string& text = post_.text;
    std::vector<std::pair<Loaded, Seat>> deciding, waiting;
    for (const auto& g : mine) {
        Loaded l = load(g);
        Seat seat = *seat_of(g, author_.id);
        auto ds = deciders(l);
        bool decides = std::find(ds.begin(), ds.end(), seat) != ds.end();
        (decides ? deciding : waiting).emplace_back(std::move(l), seat);
    }
    if (deciding.size() == 1) {
        auto& [l, seat] = deciding.front();
        if (!rules::looks_like_action(*l.game, seat, text))
            return false;
        play(l, seat, text);
        return true;
    }
    if (deciding.size() > 1) {
        std::vector<std::string> ids;
        bool looks = false;
        for (auto& [l, seat] : deciding) {
            ids.push_back("#" + std::to_string(l.rec.id));
            looks = looks || rules::looks_like_action(*l.game, seat, text);
        }
        if (looks)
            say("You must decide in several games here (" + join(ids, ", ") +
                "): say which with " + form("move") + ".");
        return looks;
    }
    if (waiting.size() == 1) {
        auto& [l, seat] = waiting.front();
        if (!rules::looks_like_action(*l.game, seat, text))
            return false;
        if (names_anytime_action(*l.game, seat, text)) {
            play(l, seat, text);
            return true;
        }
        say("Not played: it is not your turn in game #" + std::to_string(l.rec.id) + ". " +
            next_line(l));
        return true;
    }
    return false;
}

void PostRun::cmd_move(const std::vector<std::string>& args) {
    if (args.empty()) {
        usage_error("move", "Say which move.");
        return;
    }
    std::optional<GameRecord> g;
    std::string text;
    if (args.size() >= 2 && game_id_arg(args[0])) {
        std::int64_t id = *game_id_arg(args[0]);
        g = store_.game(id);
        if (!g || g->platform != post_.platform) {
            say("There is no game #" + std::to_string(id) + ".");
            return;
        }
        for (std::size_t i = 1; i < args.size(); ++i)
            text += (i > 1 ? " " : "") + args[i];
    } else {
        for (std::size_t i = 0; i < args.size(); ++i)
            text += (i ? " " : "") + args[i];
        auto mine = my_games_here({GameStatus::Ongoing});
        std::vector<GameRecord> deciding;
        for (const auto& m : mine) {
            Loaded l = load(m);
            auto ds = deciders(l);
            if (std::find(ds.begin(), ds.end(), *seat_of(m, author_.id)) != ds.end())
                deciding.push_back(m);
        }
        if (deciding.size() == 1) {
            g = deciding.front();
        } else if (mine.size() == 1) {
            g = mine.front();
        } else if (mine.empty()) {
            say("You have no game under way here. Use: " + form("move"));
            return;
        } else {
            usage_error("move", "You play several games here: say which.");
            return;
        }
    }
    std::string id = std::to_string(g->id);
    if (g->status != GameStatus::Ongoing) {
        const rules::Variant* v = rules::find_variant(g->variant);
        say("Not played. " + (v ? over_line(*g, v->info()) : "game #" + id + " is not under way."));
        return;
    }
    auto seat = seat_of(*g, author_.id);
    if (!seat) {
        Loaded l = load(*g);
        say("Not played: you are not playing in game #" + id + ". " + next_line(l));
        return;
    }
    Loaded l = load(*g);
    auto ds = deciders(l);
    if (std::find(ds.begin(), ds.end(), *seat) == ds.end() &&
        !names_anytime_action(*l.game, *seat, text)) {
        say("Not played: it is not your turn in game #" + id + ". " + next_line(l));
        return;
    }
    play(l, *seat, text);
}

void PostRun::play(Loaded& l, Seat seat, const std::string& text) {
    std::string id = std::to_string(l.rec.id);
    if (!may_act(l, seat))
        return;
    auto parsed = rules::parse_action(*l.game, seat, text);
    if (!parsed) {
        const rules::RuleError& e = parsed.error();
        say("Not played in game #" + id + ": " + sentence_end(e.message));
        if (!e.private_detail.empty())
            tell(author_, "Game #" + id + ": " + e.private_detail, {}, &l.rec);
        return;
    }
    const std::string canonical = parsed->text;
    if (!post_.direct && refuse_secret_in_public(l, seat, parsed->action, canonical))
        return;
    const auto legal = l.game->notated_actions(seat);
    const bool decision = std::any_of(legal.begin(), legal.end(),
                                      [&](const auto& a) { return a.action == parsed->action; });
    // Judged before the action: the one that ends the game may show everything at once.
    const bool hid_pieces = hides_pieces(*l.game);
    auto events = l.game->apply(seat, parsed->action, *l.rng);
    if (!events) {
        say("Not played in game #" + id + ": " + sentence_end(events.error().message));
        return;
    }
    ++l.plies;
    storage::ActionRecord logged{l.rec.id, l.plies, seat, author_.id, canonical, post_.message_id};
    if (l.info().uses_chance)
        logged.rolls = chance_record(*events);
    store_.append_action(logged);
    clocks_after_action(l, seat, decision);
    // Playing on declines what the other side offered, and ends any takeback request.
    if (auto offer = store_.offer(l.rec.id, OfferKind::Draw); offer && offer->seat != seat)
        store_.clear_offer(l.rec.id, OfferKind::Draw);
    store_.clear_offer(l.rec.id, OfferKind::Takeback);
    remember(l);

    std::vector<std::string> public_notes;
    for (const auto& ev : *events) {
        if (ev.only_for || ev.board) {
            // Private: only the seat it is for hears of it, with its own board when it has one.
            Seat to = ev.board ? ev.board->seat() : *ev.only_for;
            std::string code;
            if (ev.board) {
                render::TextStyle style;
                style.seat_names = l.info().seat_names;
                style.bottom = to;
                code = render::render_text(*ev.board, style);
            }
            if (auto pid = seated(l.rec, to))
                tell(player(*pid), "Game #" + id + ": " + ev.text, code, &l.rec);
            continue;
        }
        if (ev.kind == rules::EventKind::Roll || ev.kind == rules::EventKind::Reveal ||
            ev.kind == rules::EventKind::Special || ev.kind == rules::EventKind::Note)
            public_notes.push_back(capitalized(ev.text) + ".");
    }
    rules::Outcome outcome = l.game->outcome();
    if (outcome.over()) {
        finish(l.rec, outcome.status, outcome.reason);
        if (hid_pieces)
            records_due_.push_back(l.rec);
    }
    // The clock answering for a seat is said as such; a `default` the player typed is not late.
    std::string line = who(l.rec, l.info(), seat) +
                       (defaulting_ ? " did not answer in time" : " played " + canonical) +
                       " in game #" + id + ".";
    // A decision whose every event is private (a first dice choice in a combat) is secret: the
    // channel hears that it was made, not what it was, and sees no new board.
    const bool secret = !events->empty() && std::all_of(events->begin(), events->end(), [](const auto& e) {
        return e.only_for.has_value() || e.board.has_value();
    });
    if (secret) {
        // A secret anytime action (a standing dice policy) is nobody else's business at all.
        if (decision || defaulting_)
            say_in(l.rec, who(l.rec, l.info(), seat) +
                              (defaulting_ ? " did not answer in time in game #" + id +
                                                 ", so their standing policy decided"
                                           : " has decided in game #" + id) +
                              "; the choice stays secret until it is revealed. " + next_line(l));
        return;
    }
    for (const auto& n : public_notes)
        line += " " + n;
    auto next = deciders(l);
    std::optional<std::int64_t> viewer = next.empty() ? seated(l.rec, seat)
                                                      : seated(l.rec, next.front());
    say_in(l.rec, line + " " + next_line(l), board(l, viewer));
}

void PostRun::cmd_board(const std::vector<std::string>& args) {
    std::vector<std::string> rest;
    std::optional<render::Glyphs> glyphs;
    std::optional<bool> image;
    bool flip = false;
    for (const auto& a : args) {
        std::string la = lower(a);
        if (la == "ascii")
            glyphs = render::Glyphs::Ascii;
        else if (la == "unicode")
            glyphs = render::Glyphs::Unicode;
        else if (la == "flip")
            flip = true;
        else if (la == "png" || la == "image")
            image = true;
        else if (la == "text")
            image = false;
        else
            rest.push_back(a);
    }
    std::size_t used = 0;
    auto g = pick_game(rest, used, "board", true);
    if (!g)
        return;
    // Kept as the 64-bit number it was written as: any ply past the game's end, however large,
    // is answered as such and never narrowed into a wrong one.
    std::optional<std::int64_t> at_ply;
    if (used < rest.size()) {
        auto n = game_id_arg(rest[used]);
        if (!n || rest[used][0] == '#' || used + 1 < rest.size()) {
            usage_error("board", "I did not understand \"" + shorten(rest[used]) + "\".");
            return;
        }
        at_ply = *n;
    }
    if (g->status == GameStatus::Challenge || g->status == GameStatus::Declined ||
        g->status == GameStatus::Cancelled) {
        say("Game #" + std::to_string(g->id) + " never started.");
        return;
    }
    Loaded l = load(*g);
    std::string header = vs_line(l) + " ";
    if (at_ply && *at_ply != l.plies) {
        if (*at_ply > l.plies) {
            say("Game #" + std::to_string(g->id) + " has only " + std::to_string(l.plies) +
                " plies.");
            return;
        }
        // An earlier position is a replay of the first plies; it never enters the cache.
        LoadedGame replayed =
            load_game(*g, store_.actions(g->id), static_cast<std::size_t>(*at_ply));
        Loaded earlier;
        earlier.rec = *g;
        earlier.game = std::move(replayed.game);
        earlier.rng = std::move(replayed.rng);
        earlier.plies = replayed.plies;
        earlier.revision = -1; // no revision names an earlier position: never cached
        say(header + "Position after ply " + std::to_string(*at_ply) + ".",
            board(earlier, author_.id, flip, glyphs, image));
        return;
    }
    say(header + next_line(l) + clock_line(l), board(l, author_.id, flip, glyphs, image));
}

void PostRun::cmd_games(const std::vector<std::string>& args) {
    PlayerRecord whom = author_;
    if (!args.empty()) {
        if (args.size() > 1 || args[0].size() < 2 || args[0][0] != '@') {
            usage_error("games", "I did not understand \"" + shorten(args[0]) + "\".");
            return;
        }
        auto p = known_player(args[0]);
        if (!p)
            return;
        whom = *p;
    }
    auto games = store_.games_of_player(whom, {GameStatus::Challenge, GameStatus::Ongoing});
    std::vector<std::string> first, later;
    for (const auto& g : games) {
        std::string id = "#" + std::to_string(g.id) + " " + g.variant;
        if (g.status == GameStatus::Challenge) {
            if (g.challenger == whom.id)
                later.push_back(id + ": challenge to " +
                                (g.challenged_id      ? mention(*g.challenged_id)
                                 : g.challenged.empty() ? std::string("anyone")
                                                        : "@" + g.challenged) +
                                ", waiting for an answer");
            else
                first.push_back(id + ": challenge from " + mention(g.challenger) +
                                ", to accept or decline");
            continue;
        }
        Loaded l = load(g);
        Seat seat = *seat_of(g, whom.id);
        std::string line = id + " vs " + mention(*seated(g, rules::opponent(seat))) + ": " +
                           next_line(l);
        auto ds = deciders(l);
        (std::find(ds.begin(), ds.end(), seat) != ds.end() ? first : later).push_back(line);
    }
    if (first.empty() && later.empty()) {
        say(at(whom) + " has no game under way and no open challenge.");
        return;
    }
    first.insert(first.end(), later.begin(), later.end());
    say("Games of " + at(whom) + ", those waiting for them first:", join(first, "\n") + "\n");
}

void PostRun::cmd_history(const std::vector<std::string>& args, bool pgn) {
    std::string command = pgn ? "pgn" : "history";
    std::size_t used = 0;
    auto g = pick_game(args, used, command, true);
    if (!g)
        return;
    if (used < args.size()) {
        usage_error(command, "I did not understand \"" + shorten(args[used]) + "\".");
        return;
    }
    auto log = store_.actions(g->id);
    const rules::Variant* variant = rules::find_variant(g->variant);
    if (variant == nullptr)
        throw std::runtime_error("game #" + std::to_string(g->id) + ": unknown variant");
    const auto& info = variant->info();
    std::string moves = record_movetext(*g, log);
    if (!pgn) {
        // Counted as shown: a standing policy set by direct message is no public ply.
        const auto shown = public_action_texts(*g, log);
        const auto plies = std::count_if(shown.begin(), shown.end(),
                                         [](const std::string& t) { return !t.empty(); });
        say("Game #" + std::to_string(g->id) + ", " + info.title + ", " +
                std::to_string(plies) + (plies == 1 ? " ply." : " plies."),
            log.empty() ? std::string("(no moves yet)\n") : wrap(moves, 60));
        return;
    }
    std::time_t t = static_cast<std::time_t>(g->created_at);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char date[16];
    std::strftime(date, sizeof date, "%Y.%m.%d", &tm);
    std::string result = g->status == GameStatus::Finished ? g->result : "*";
    auto name = [&](std::optional<std::int64_t> id) { return id ? player(*id).name : "?"; };
    std::string text = "[Event \"ghostpost game " + std::to_string(g->id) + "\"]\n" +
                       "[Site \"" + g->platform + " " + g->channel + "\"]\n" + "[Date \"" +
                       date + "\"]\n" + "[White \"" + name(g->white) + "\"]\n" + "[Black \"" +
                       name(g->black) + "\"]\n" + "[Result \"" + result + "\"]\n";
    if (info.name != "chess")
        text += "[Variant \"" + info.title + "\"]\n";
    if (g->status == GameStatus::Finished)
        text += "[Termination \"" + g->reason + "\"]\n";
    text += "\n" + wrap(moves.empty() ? result : moves + " " + result, 78);
    say("PGN of game #" + std::to_string(g->id) + ":", text);
}

void PostRun::cmd_resign(const std::vector<std::string>& args) {
    auto mg = my_ongoing_game(args, "resign");
    if (!mg)
        return;
    Loaded& l = mg->loaded;
    Seat winner = rules::opponent(mg->seat);
    std::string resigner = who(l.rec, l.info(), mg->seat);
    finish(l.rec, winner == Seat::White ? rules::Status::WhiteWins : rules::Status::BlackWins,
           "resignation");
    if (hides_pieces(*l.game))
        records_due_.push_back(l.rec);
    say_in(l.rec, resigner + " resigns. " + next_line(l));
}

void PostRun::publish_hidden_records() {
    auto due = std::move(records_due_);
    records_due_.clear();
    // However a game ended (resignation, time, a draw, adjudication, a void), what its rules
    // hid is told now (Phantom Chess turns the Phantom Card over), and the record follows.
    auto ended = std::move(reveals_due_);
    reveals_due_.clear();
    for (const auto& g : ended) {
        Loaded l = load(g);
        const auto shown = l.game->ending_reveal();
        for (const auto& e : shown)
            say_in(g, "Game #" + std::to_string(g.id) + ": " + capitalized(e.text) + ".");
        if (!shown.empty() &&
            std::none_of(due.begin(), due.end(), [&](const auto& d) { return d.id == g.id; }))
            due.push_back(g);
    }
    for (const auto& g : due) {
        auto log = store_.actions(g.id);
        say_in(g, "Game #" + std::to_string(g.id) + " is over. Its full record, with the "
                  "squares of the moves that the boards in the channel did not show:",
               wrap(record_movetext(g, log), 60));
    }
}

void PostRun::cmd_draw(const std::vector<std::string>& args) {
    auto mg = my_ongoing_game(args, "draw");
    if (!mg)
        return;
    Loaded& l = mg->loaded;
    std::string id = std::to_string(l.rec.id);
    auto ds = deciders(l);
    if (std::find(ds.begin(), ds.end(), mg->seat) != ds.end()) {
        if (auto claim = l.game->claimable_draw()) {
            finish(l.rec, rules::Status::Draw, *claim);
            if (hides_pieces(*l.game))
                records_due_.push_back(l.rec);
            say_in(l.rec, who(l.rec, l.info(), mg->seat) + " claims a draw. " + next_line(l));
            return;
        }
    }
    auto offer = store_.offer(l.rec.id, OfferKind::Draw);
    if (offer && offer->seat != mg->seat) {
        finish(l.rec, rules::Status::Draw, "agreement");
        if (hides_pieces(*l.game))
            records_due_.push_back(l.rec);
        say_in(l.rec, who(l.rec, l.info(), mg->seat) + " accepts the draw. " + next_line(l));
        return;
    }
    std::string other = who(l.rec, l.info(), rules::opponent(mg->seat));
    if (offer) {
        say("You already offered a draw in game #" + id + "; " + other + " can accept with " +
            s_.settings_.prefix + "draw " + id + ".");
        return;
    }
    store_.put_offer(l.rec.id, {OfferKind::Draw, mg->seat, l.plies});
    say_in(l.rec, who(l.rec, l.info(), mg->seat) + " offers a draw in game #" + id + ". " +
                      other + ": " + s_.settings_.prefix + "draw " + id +
                      " accepts; playing on declines. " + next_line(l));
}

void PostRun::cmd_takeback(const std::vector<std::string>& args) {
    auto mg = my_ongoing_game(args, "takeback");
    if (!mg)
        return;
    Loaded& l = mg->loaded;
    std::string id = std::to_string(l.rec.id);
    auto offer = store_.offer(l.rec.id, OfferKind::Takeback);
    std::string other = who(l.rec, l.info(), rules::opponent(mg->seat));
    if (offer && offer->seat != mg->seat) {
        auto log = store_.actions(l.rec.id);
        const auto shown = public_action_texts(l.rec, log); // a secret choice stays secret
        // The last move the channel knows of: a standing policy set by direct message is none.
        auto last = std::find_if(log.rbegin(), log.rend(), [&](const auto& a) {
            return a.seat == offer->seat && !shown[static_cast<std::size_t>(&a - log.data())].empty();
        });
        store_.clear_offer(l.rec.id, OfferKind::Takeback);
        if (last == log.rend()) {
            say("There is nothing to take back in game #" + id + ".");
            return;
        }
        const auto first = static_cast<std::size_t>(log.rend() - last - 1);
        if (auto aside = undone_public_aside(l.rec, log, first)) {
            say("Nothing was taken back in game #" + id + ": that would undo " + *aside +
                ", and what it showed cannot be unseen.");
            return;
        }
        if (refuse_takeback_of_dice(l.rec, log, static_cast<std::size_t>(log.rend() - last - 1)))
            return;
        std::vector<std::string> undone;
        for (auto it = log.begin() + (log.rend() - last - 1); it != log.end(); ++it)
            if (const auto& text = shown[static_cast<std::size_t>(it - log.begin())]; !text.empty())
                undone.push_back(text);
        store_.take_back(l.rec.id, last->ply);
        s_.png_cache_.forget_game(l.rec.id); // its images show positions no longer played
        store_.clear_offer(l.rec.id, OfferKind::Draw);
        Loaded now = load(l.rec);
        sync_clocks(now);
        auto next = deciders(now);
        std::optional<std::int64_t> viewer =
            next.empty() ? l.rec.white : seated(now.rec, next.front());
        say_in(l.rec, who(l.rec, l.info(), mg->seat) + " accepts the takeback in game #" + id +
                          ": " + join(undone, " ") + " taken back. " + next_line(now),
               board(now, viewer));
        return;
    }
    if (offer) {
        say("You already asked for a takeback in game #" + id + "; " + other +
            " can accept with " + s_.settings_.prefix + "takeback " + id + ".");
        return;
    }
    auto log = store_.actions(l.rec.id);
    if (std::none_of(log.begin(), log.end(), [&](const auto& a) { return a.seat == mg->seat; })) {
        say("You have not moved yet in game #" + id + ": there is nothing to take back.");
        return;
    }
    {
        const auto shown = public_action_texts(l.rec, log);
        auto last = std::find_if(log.rbegin(), log.rend(), [&](const auto& a) {
            return a.seat == mg->seat && !shown[static_cast<std::size_t>(&a - log.data())].empty();
        });
        if (last != log.rend() &&
            refuse_takeback_of_dice(l.rec, log, static_cast<std::size_t>(log.rend() - last - 1)))
            return;
    }
    const auto mine = std::find_if(log.rbegin(), log.rend(),
                                   [&](const auto& a) { return a.seat == mg->seat; });
    const auto from = static_cast<std::size_t>(log.rend() - mine - 1);
    if (auto aside = undone_public_aside(l.rec, log, from)) {
        say("You cannot take back your last move in game #" + id + ": that would undo " +
            *aside + ", and what it showed cannot be unseen.");
        return;
    }
    store_.put_offer(l.rec.id, {OfferKind::Takeback, mg->seat, l.plies});
    say_in(l.rec, who(l.rec, l.info(), mg->seat) + " asks to take back their last move in game #" +
                      id + ". " + other + ": " + s_.settings_.prefix + "takeback " + id +
                      " accepts; playing on declines.");
}

bool PostRun::refuse_takeback_of_dice(const GameRecord& g,
                                      const std::vector<storage::ActionRecord>& log,
                                      std::size_t from) {
    if (!draws_dice(g, log, from))
        return false;
    // The stream never runs backwards: replayed from the seed, the same choices would roll the
    // same faces, which everyone has now seen (docs/variants/gnostic.md, Takebacks).
    say("No takeback in game #" + std::to_string(g.id) + ": dice were rolled since that move, and "
        "taking it back would let the same choices roll the same faces again.");
    return true;
}

void PostRun::cmd_abort(const std::vector<std::string>& args) {
    std::size_t used = 0;
    auto g = pick_game(args, used, "abort", false);
    if (!g)
        return;
    std::string id = std::to_string(g->id);
    if (used < args.size()) {
        usage_error("abort", "I did not understand \"" + shorten(args[used]) + "\".");
        return;
    }
    if (g->status != GameStatus::Ongoing) {
        say("Game #" + id + " is not under way.");
        return;
    }
    if (!seat_of(*g, author_.id) && !moderator()) {
        say("You are not playing in game #" + id + ".");
        return;
    }
    if (store_.pairing_of_game(g->id) && !moderator()) {
        say("Game #" + id + " is a tournament game: it cannot be aborted. Use " + form("resign") +
            " or " + form("draw") + ".");
        return;
    }
    auto log = store_.actions(g->id);
    bool white_moved = std::any_of(log.begin(), log.end(),
                                   [](const auto& a) { return a.seat == Seat::White; });
    bool black_moved = std::any_of(log.begin(), log.end(),
                                   [](const auto& a) { return a.seat == Seat::Black; });
    if (white_moved && black_moved && !moderator()) {
        say("Too late to abort game #" + id + ": both sides have moved. Use " + form("resign") +
            " or " + form("draw") + ".");
        return;
    }
    g->status = GameStatus::Aborted;
    store_.update_game(*g);
    store_.clear_offer(g->id, OfferKind::Draw);
    store_.clear_offer(g->id, OfferKind::Takeback);
    game_over(*g);
    say_in(*g, "Game #" + id + " is aborted by " + at(author_) + ". It counts for nobody.");
}

void PostRun::cmd_rules(const std::vector<std::string>& args) {
    if (args.empty()) {
        std::string text;
        for (const auto* v : rules::variants())
            text += v->info().name + ": " + v->info().title + "\n";
        say("Variants (" + s_.settings_.prefix + "rules <variant> for one):", text);
        return;
    }
    const rules::Variant* v = rules::find_variant(args[0]);
    if (v == nullptr) {
        say("There is no variant \"" + shorten(args[0], 20) + "\". Say " + s_.settings_.prefix +
            "rules for the list.");
        return;
    }
    const auto& info = v->info();
    std::string text = info.summary + "\n\nNotation: " + info.notation + "\n\nOptions:";
    if (info.options.empty())
        text += " none";
    for (const auto& o : info.options) {
        text += "\n  " + o.name + "=" +
                (o.allowed.empty() ? std::string("<number>") : join(o.allowed, "|")) +
                " (default " + o.default_value + "): " + o.help;
    }
    say(info.title + " (" + info.name + ")", text + "\n");
}

void PostRun::cmd_help(const std::vector<std::string>& args) {
    const std::string& p = s_.settings_.prefix;
    if (!args.empty()) {
        std::string name = canonical_command(lower(strip_at(args[0])));
        if (!name.empty() && name.substr(0, p.size()) == p)
            name = name.substr(p.size());
        name = canonical_command(name);
        if (const Usage* u = find_usage(name)) {
            say(p + std::string(u->form) + ": " + std::string(u->help) + ".");
            return;
        }
        say("There is no command " + shorten(args[0], 20) + ". Say " + p + "help for the list.");
        return;
    }
    std::string text;
    for (const auto& row : command_table())
        text += p + std::string(row.usage.form) + "\n";
    say("Commands (" + p + "help <command> for one; a move alone works when it is your turn):",
        text);
}

void PostRun::cmd_settings(const std::vector<std::string>& args) {
    PlayerRecord p = author_;
    for (const auto& a : args) {
        auto eq = a.find('=');
        std::string key = lower(a.substr(0, eq));
        std::string value = eq == std::string::npos ? std::string() : lower(a.substr(eq + 1));
        if (key == "orientation" && (value == "white" || value == "black" || value == "auto")) {
            p.orientation = value;
        } else if (key == "notation" && (value == "ascii" || value == "unicode")) {
            p.notation = value;
        } else if (key == "images" && (value == "on" || value == "off")) {
            p.images = value == "on";
        } else if (key == "reminders" && (value == "on" || value == "off")) {
            p.reminders = value == "on";
        } else {
            usage_error("settings", "I did not understand \"" + shorten(a) + "\".");
            return;
        }
    }
    if (!args.empty())
        store_.save_player_settings(p);
    say("Settings of " + at(p) + ": orientation=" + p.orientation + " notation=" + p.notation +
        " images=" + (p.images ? "on" : "off") + " reminders=" + (p.reminders ? "on" : "off") +
        ".");
}

Service::Service(storage::Store& store, ServiceSettings settings, Clock clock)
    : store_(store), settings_(std::move(settings)), clock_(std::move(clock)) {}

HandleStatus Service::handle(const Post& post) {
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
            store_.set_cursor(post.platform, post.cursor);
    });
    run.publish_cache();
    return status;
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
            store_.set_cursor(post.platform, post.cursor);
    });
}

Reply Service::to_reply(const storage::OutboxEntry& entry) {
    Reply r;
    r.to = entry.message.to_user ? Reply::To::User : Reply::To::Channel;
    r.platform = entry.message.platform;
    r.destination = entry.message.destination;
    r.text = entry.message.text;
    r.code = entry.message.code;
    r.png = entry.message.png;
    r.reply_to = entry.message.reply_to;
    return r;
}

void Service::clear_cache() { cache_.clear(); }

} // namespace ghostpost::bot
