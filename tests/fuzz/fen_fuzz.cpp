// libFuzzer target: every variant's FEN reader (Variant::start with a FEN). The first byte picks
// the variant, the rest is the FEN. A position the reader accepts must survive what the service
// does next (legal actions, views, the outcome, one ply of perft), and its re-export must read
// back to the same position: the same FEN again, the same actions for both seats. Every reason
// against a FEN is listed by fen_reasons, the first of them the one start() gives, and a position
// read is consistent (Game::is_consistent; the debug build checks it after every action too).
#include "ghostpost/rules/registry.h"
#include "invariant.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace ghostpost::rules;

using ghostpost::fuzz::check;

std::vector<std::string> texts(const std::vector<NotatedAction>& list) {
    std::vector<std::string> out;
    out.reserve(list.size());
    for (const auto& a : list)
        out.push_back(a.text);
    return out;
}

void check_view(const BoardView& b, const VariantInfo& info, std::string_view fen) {
    check(b.files == info.files && b.ranks == info.ranks, "a view has the variant's size", fen);
    check(b.cells.size() == static_cast<std::size_t>(b.files * b.ranks), "a view has every cell",
          fen);
}

// What the service asks of a game it has just loaded; nothing here may crash or throw.
void exercise(const Game& game, std::string_view fen) {
    const VariantInfo& info = game.info();
    (void)game.outcome();
    (void)game.claimable_draw();
    check_view(game.public_view().board(), info, fen);
    check_view(game.final_view().board(), info, fen);
    for (Seat s : {Seat::White, Seat::Black}) {
        check_view(game.seat_view(s).board(), info, fen);
        (void)game.seen_actions(s);
        (void)game.anytime_actions(s);
        (void)game.could_win(s);
    }
    // perft(1) need not equal the listed count: Gnostic Chess lists an Exchange in both orders.
    for (const auto& d : game.pending())
        (void)game.notated_actions(d.seat);
    (void)game.perft(1);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1)
        return 0;
    const auto all = variants();
    const Variant& variant = *all[data[0] % all.size()];
    const std::string_view fen(reinterpret_cast<const char*>(data + 1), size - 1);
    if (fen.empty())
        return 0; // an empty FEN means the start position, not a FEN to read

    auto game = variant.start({}, fen);
    const auto reasons = variant.fen_reasons({}, fen);
    if (!game) {
        check(game.error().kind == ErrorKind::BadSetup, "an unreadable FEN is BadSetup", fen);
        check(!game.error().message.empty(), "an unreadable FEN gets a reason", fen);
        check(!reasons.empty() && game.error().message.find(reasons.front()) != std::string::npos,
              "the refusal shows the first of the FEN's reasons", fen);
        return 0;
    }
    check(reasons.empty(), "a FEN that starts a game has no reason against it", fen);
    check((*game)->is_consistent(), "a position read from a FEN is consistent", fen);
    exercise(**game, fen);

    const std::string exported = (*game)->fen();
    if (exported.empty())
        return 0;
    auto again = variant.start({}, exported);
    check(again.ok(), "an exported FEN reads back", exported);
    check((*again)->fen() == exported, "an exported FEN reads back to itself", exported);
    for (Seat s : {Seat::White, Seat::Black})
        check(texts((*again)->notated_actions(s)) == texts((*game)->notated_actions(s)),
              "an exported FEN keeps the legal actions", exported);
    check((*again)->outcome().status == (*game)->outcome().status,
          "an exported FEN keeps the outcome", exported);
    return 0;
}
