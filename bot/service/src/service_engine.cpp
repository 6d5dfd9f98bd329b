// Games against the bot: !new ... bot starts one at once, and engine_turns tells the
// EnginePlayer what each engine seat may know when it must decide.
#include "ghostpost/rules/registry.h"
#include "ghostpost/service/engine_player.h"
#include "ghostpost/service/game_loader.h"
#include "post_run.h"
#include "replayed.h"

#include <algorithm>
#include <stdexcept>

namespace ghostpost::bot {

using namespace detail;

void start_engine_game(PostParts& run, GameRecord g, int level) {
    const PlayerRecord bot =
        run.ctx.store.upsert_player(run.ctx.post.platform, engine_account(level),
                                    engine_name(run.ctx.settings.bot_name, level), "");
    g.challenged_id = bot.id;
    g.id = run.ctx.store.create_game(g);
    if (g.challenger_color == "black") {
        g.white = bot.id;
        g.black = run.ctx.author.id;
    } else {
        g.white = run.ctx.author.id;
        g.black = bot.id;
    }
    g.status = GameStatus::Ongoing;
    run.ctx.store.update_game(g);
    Loaded l = run.games.load(g);
    run.clocks.sync_clocks(l);
    run.out.say_in(
        g,
        tr("{player} plays {engine}, game #{game}.", {{"player", run.out.at(run.ctx.author)},
                                                      {"engine", bot.name},
                                                      {"game", std::to_string(g.id)}}) +
            verbatim(" ") + run.games.vs_line(l) + run.dice.seed_commitment(g, l.info()) +
            verbatim(" ") + run.games.next_line(l) + run.clocks.clock_line(l),
        run.boards.channel_board(l), game_buttons(run.ctx.settings.prefix, l.rec));
}

namespace {

using Engines = std::array<std::optional<PlayerRecord>, 2>; // the engine's accounts, by seat

// The games under way on `platform` where the engine holds a seat, by id. Only the engine's own
// games are read, through its accounts (one per level): the loop that asks this runs between
// polls, and must cost nothing per game of the people.
std::vector<GameRecord> engine_games(storage::Store& store, const std::string& platform) {
    std::vector<GameRecord> games;
    for (int level = engine::min_level; level <= engine::max_level; ++level)
        if (const auto bot = store.player_by_account(platform, engine_account(level)))
            for (GameRecord& g : store.games_of_player(*bot, {GameStatus::Ongoing}))
                games.push_back(std::move(g));
    std::sort(games.begin(), games.end(),
              [](const GameRecord& a, const GameRecord& b) { return a.id < b.id; });
    games.erase(std::unique(games.begin(), games.end(),
                            [](const GameRecord& a, const GameRecord& b) { return a.id == b.id; }),
                games.end());
    std::erase_if(games, [&](const GameRecord& g) { return g.platform != platform || g.paused; });
    return games;
}

Engines engines_of(storage::Store& store, const GameRecord& g) {
    Engines engines;
    for (rules::Seat s : {rules::Seat::White, rules::Seat::Black}) {
        const auto id = s == rules::Seat::White ? g.white : g.black;
        if (!id)
            continue;
        if (auto p = store.player(*id); p && engine_level(p->user_id))
            engines[rules::index(s)] = p;
    }
    return engines;
}

void seat_engine(EngineTurn& turn, const PlayerRecord& bot) {
    turn.account = bot.user_id;
    turn.name = bot.name;
    turn.level = *engine_level(bot.user_id);
}

// What the engine at `seat` may know and play in the game `replay` replayed.
void fill_decision(EngineTurn& turn, const GameRecord& g,
                   const std::vector<storage::ActionRecord>& log, const Replayed& replay,
                   rules::Seat seat) {
    const rules::Game& game = *replay.game;
    turn.view = game.seat_view(seat);
    turn.record.variant = g.variant;
    turn.record.options = g.options;
    // What the engine's seat may know of the log, as the rules' events said when each action
    // was applied: not a decision of the other side still kept from it (nor the dice drawn
    // since), not the other side's secret standing instructions, and no look at the board (it
    // moves nothing). A move whose combat a standing policy answered at once is public, and the
    // engine's record keeps it.
    std::optional<std::uint64_t> draws; // up to the first decision kept from the seat
    for (std::size_t i = 0; i < log.size(); ++i) {
        const auto& a = log[i];
        const ReplayedPly& p = replay.plies[i];
        const bool kept_from_seat = p.secret && a.seat != seat && p.told != seat;
        if (kept_from_seat && p.still_secret && !draws)
            draws = i == 0 ? 0 : replay.plies[i - 1].dice_after;
        if ((kept_from_seat && (p.still_secret || p.anytime)) || p.only_shows)
            continue;
        turn.record.actions.push_back({a.seat, a.text});
    }
    turn.record.draws.assign(replay.draws.begin(),
                             replay.draws.begin() +
                                 static_cast<std::ptrdiff_t>(draws.value_or(replay.dice())));
    if (const auto seen = game.seen_actions(seat); !seen.empty()) {
        turn.fallback = seen.front().text;
        // A decision that is secret when made (a first dice choice) goes by direct message, as
        // a player's would: tried on copies, whatever it is, it tells only the seat.
        auto trial = game.clone();
        SeededRandom rng = *replay.stream;
        if (auto events = trial->apply(seat, seen.front().action, rng))
            turn.secret = is_secret(*events);
    }
}

} // namespace

std::vector<EngineTurn> Service::engine_turns(const std::string& platform,
                                              const std::set<std::string>& examined) {
    std::vector<EngineTurn> out;
    for (const GameRecord& g : engine_games(store_, platform)) {
        const Engines engines = engines_of(store_, g);
        if (!engines[0] && !engines[1])
            continue;
        const auto log = store_.actions(g.id);
        EngineTurn turn;
        turn.key = "engine:" + std::to_string(g.id) + ":" + std::to_string(log.size()) + "." +
                   std::to_string(store_.game_revision(g.id));
        turn.game_id = g.id;
        turn.platform = g.platform;
        turn.channel = g.channel;
        turn.prefix = settings_.prefix;
        // An offer of the other player is part of the decision: it makes a key of its own.
        const rules::Seat engine_seat = engines[1] ? rules::Seat::Black : rules::Seat::White;
        const rules::Seat other = rules::opponent(engine_seat);
        if (const auto human = other == rules::Seat::White ? g.white : g.black;
            human && !engines[rules::index(other)])
            turn.opponent = *human;
        for (auto kind : {storage::OfferKind::Draw, storage::OfferKind::Takeback})
            if (auto offer = store_.offer(g.id, kind); offer && offer->seat != engine_seat) {
                (kind == storage::OfferKind::Draw ? turn.draw_offered : turn.takeback_offered) =
                    true;
                turn.key += kind == storage::OfferKind::Draw ? ":draw" : ":takeback";
            }
        if (turn.takeback_offered)
            seat_engine(turn, *engines[rules::index(engine_seat)]);
        if (examined.contains(turn.key)) {
            out.push_back(std::move(turn));
            continue;
        }
        // The replay with the game's stream, writing down the dice everybody saw and what the
        // rules made of each action.
        const Replayed replay = replay_events(g, log, g.seed);
        if (!replay.error.empty())
            throw std::runtime_error("game #" + std::to_string(g.id) +
                                     ": the log does not replay: " + replay.error);
        std::optional<rules::Seat> seat;
        for (const auto& d : replay.game->pending())
            if (engines[rules::index(d.seat)]) {
                seat = d.seat;
                break;
            }
        if (seat && !replay.game->outcome().over()) {
            seat_engine(turn, *engines[rules::index(*seat)]);
            fill_decision(turn, g, log, replay, *seat);
        }
        out.push_back(std::move(turn));
    }
    return out;
}

} // namespace ghostpost::bot
