// Dice anyone can verify (service_verify.cpp): each game with chance draws from a seeded
// stream whose seed is committed to by its hash when the game starts and revealed when it ends;
// and the secret decisions of a game, kept out of the channel and its records. Private to the
// service.
#pragma once

#include "games.h"
#include "handler.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ghostpost::bot {

class Dice {
public:
    Dice(PostContext& ctx, Replies& out) : ctx_(ctx), out_(out) {}

    // A fresh secret seed for a new game (derived from settings.fixed_seed in tests).
    std::vector<std::uint8_t> new_seed() const;
    // For a variant with chance, the sentence that commits to the seed by its SHA-256; empty
    // for the others.
    Text seed_commitment(const storage::GameRecord& g, const rules::VariantInfo& info) const;
    // Before `seat` plays `action` from a public post: true, after replying, when the action
    // is a secret decision (all its events are private) that must come by direct message.
    bool refuse_secret_in_public(const Loaded& l, rules::Seat seat, const rules::Action& action,
                                 const std::string& text);
    // The record of a game for !history and !pgn: movetext whose secret decisions stay hidden
    // while the game is under way and, for games with chance, every roll as a comment.
    std::string record_movetext(const storage::GameRecord& g,
                                const std::vector<storage::ActionRecord>& log);
    // The texts of `log` as the channel may see them: while the game is under way, a secret
    // decision reads "{a secret choice}".
    std::vector<std::string> public_action_texts(const storage::GameRecord& g,
                                                 const std::vector<storage::ActionRecord>& log);
    // Whether the actions of `log` from index `from` on drew numbers from the game's random
    // stream: taking them back would let the same choices roll the same, now known, faces.
    bool draws_dice(const storage::GameRecord& g, const std::vector<storage::ActionRecord>& log,
                    std::size_t from);
    // True, after replying, when taking back the actions of `log` from index `from` on would
    // undo dice that were rolled (with !takeback).
    bool refuse_takeback_of_dice(const storage::GameRecord& g,
                                 const std::vector<storage::ActionRecord>& log, std::size_t from);

private:
    PostContext& ctx_;
    Replies& out_;
};

void cmd_verify(PostParts& run, const Args& args);
// A subscriber of the end of games (game_end_subscribers): the seed of every finished game with
// chance, so that anyone may check its rolls.
void reveal_seeds(PostParts& run, const std::vector<Ended>& ended);

} // namespace ghostpost::bot
