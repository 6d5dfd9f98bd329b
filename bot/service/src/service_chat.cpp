// What a chat client offers besides text: the buttons under replies (and which commands a press
// may carry), the menu of commands, a channel that moves to a new id, and notices for the
// moderators. All of it platform-neutral: a platform shows what it can and leaves out the rest,
// so every reply's text still says what to type.
#include "ghostpost/i18n/catalogs.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/service/command.h"
#include "post_run.h"

#include <array>

namespace ghostpost::bot {

using namespace detail;

namespace {

// What a button of ours posts. A press carrying any other command did not come from a button
// we made (a client may send any data with a press), so it is refused rather than run.
constexpr std::array<std::string_view, 4> button_commands{"accept", "decline", "draw", "resign"};

// The longest line a platform's menu of commands takes (MenuCommand), in characters.
constexpr std::size_t max_menu_description = 256;

// The first clause of a command's help, as a menu line: "play a move (also !m); a bare..." is
// "Play a move". The stops are those of the catalogs' languages too (Chinese's full-width ones).
std::string first_clause(std::string_view help) {
    std::size_t end = help.size();
    for (const std::string_view stop : {" (", ";", "（", "；"})
        end = std::min(end, help.find(stop));
    while (end > 0 && help[end - 1] == ' ') // French puts a space before ";"
        --end;
    return i18n::capitalized(shorten(help.substr(0, end), max_menu_description));
}

// A menu line in English, with the languages whose catalogs translate it.
MenuCommand menu_line(std::string name, std::string_view source) {
    MenuCommand line{std::move(name), first_clause(source), {}};
    const i18n::Catalogs& catalogs = i18n::catalogs();
    for (const std::string& language : i18n::shipped_languages())
        if (catalogs.translation(language, source) != nullptr)
            line.translations[language] = first_clause(catalogs.render(tr(source), language));
    return line;
}

} // namespace

std::vector<MenuCommand> command_menu() {
    std::vector<MenuCommand> menu;
    for (const auto& row : command_table())
        if (row.handler != nullptr) // a sub-command's row only documents its command
            menu.push_back(menu_line(row.usage.name, row.usage.help));
    return menu;
}

std::vector<MenuCommand> variant_command_menu() {
    std::vector<MenuCommand> menu;
    for (const rules::Variant* variant : rules::variants())
        for (const rules::VariantCommand& c : variant->info().commands)
            menu.push_back(menu_line(c.word, c.brief));
    return menu;
}

void Service::tell_moderators(const std::string& platform,
                              const std::vector<std::string>& notices) {
    if (notices.empty() || settings_.moderators.empty())
        return;
    retry_conflicts([&] {
        store_.transaction([&] {
            for (const std::string& moderator : settings_.moderators)
                for (const std::string& notice : notices) {
                    storage::OutgoingMessage m;
                    m.platform = platform;
                    m.to_user = true;
                    m.destination = moderator;
                    m.text = notice;
                    store_.enqueue(m, clock_());
                }
        });
    });
}

std::vector<storage::ButtonRecord> detail::challenge_buttons(const std::string& p,
                                                             const GameRecord& g) {
    const std::string id = std::to_string(g.id);
    std::vector<storage::ButtonRecord> buttons{{N_("Accept"), p + "accept " + id}};
    if (!g.challenged.empty() || g.challenged_id) // an open challenge: nobody to decline it
        buttons.push_back({N_("Decline"), p + "decline " + id});
    return buttons;
}

std::vector<storage::ButtonRecord> detail::game_buttons(const std::string& p, const GameRecord& g) {
    if (g.status != GameStatus::Ongoing)
        return {};
    const std::string id = std::to_string(g.id);
    // Resign asks first: a button is too easily pressed by mistake to end a game.
    return {{N_("Offer draw"), p + "draw " + id}, {N_("Resign"), p + "resign " + id + " ?"}};
}

std::vector<storage::ButtonRecord> detail::draw_offer_buttons(const std::string& p,
                                                              const GameRecord& g) {
    const std::string id = std::to_string(g.id);
    // "accept" only accepts: pressed once the offer is gone, it offers nothing in its place.
    return {{N_("Accept draw"), p + "draw " + id + " accept"},
            {N_("Decline draw"), p + "draw " + id + " decline"}};
}

std::vector<storage::ButtonRecord> detail::resign_buttons(const std::string& p, const GameRecord& g,
                                                          Seat asker) {
    const std::string id = std::to_string(g.id);
    // The Yes names the asker's seat: the question is in the channel, where the opponent may
    // press it too, and must not resign by a press meant for someone else.
    return {{N_("Yes, resign"), p + "resign " + id + " " + std::string(rules::seat_name(asker))},
            {N_("No, play on"), p + "resign " + id + " no"}};
}

bool refuse_foreign_button(PostParts& run, const std::optional<Command>& c) {
    if (!run.ctx.post.button)
        return false;
    const std::string name = c ? canonical_command(c->name) : std::string();
    if (std::find(button_commands.begin(), button_commands.end(), name) != button_commands.end())
        return false;
    run.out.say(tr("That button is not one of mine. Nothing was done."));
    return true;
}

void move_channel(PostParts& run, const ChannelMove& move) {
    if (move.from.empty() || move.to.empty() || move.from == move.to)
        return;
    if (run.ctx.store.move_channel(run.ctx.post.platform, move.from, move.to) == 0)
        return; // told already by the other notice of the same move, or nothing was here
    std::vector<std::string> moved;
    for (const auto& g : run.ctx.store.games_in_channel(
             run.ctx.post.platform, move.to, {GameStatus::Challenge, GameStatus::Ongoing}))
        moved.push_back("#" + std::to_string(g.id));
    std::vector<std::string> tournaments;
    for (const auto& t : run.ctx.store.tournaments_in_channel(run.ctx.post.platform, move.to))
        if (t.status != storage::TournamentStatus::Finished)
            tournaments.push_back(t.name);
    if (moved.empty() && tournaments.empty())
        return;
    Text what;
    if (!moved.empty())
        what = tr("{count, plural, one {game {games}} other {games {games}}}",
                  {{"count", moved.size()}, {"games", join(moved, ", ")}});
    if (!tournaments.empty())
        what += (what.empty() ? Text() : verbatim("; ")) +
                tr("{count, plural, one {the tournament {names}} other {the tournaments {names}}}",
                   {{"count", tournaments.size()}, {"names", join(tournaments, ", ")}});
    auto m = run.out.message(
        false, move.to,
        run.out.written(tr("This chat moved to a new address, and everything under way here "
                           "follows it: {what}.",
                           {{"what", what}}),
                        run.out.channel_language(run.ctx.post.platform, move.to)),
        {});
    m.reply_to.clear();
    run.out.enqueue(std::move(m));
}

} // namespace ghostpost::bot
