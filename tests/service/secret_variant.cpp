#include "secret_variant.h"

#include "ghostpost/rules/registry_for_tests.h"

#include <array>
#include <optional>
#include <string>

namespace ghostpost::test {

using rules::Action;
using rules::ActionKind;
using rules::Event;
using rules::EventKind;
using rules::Seat;

namespace {

constexpr std::uint8_t seal_code = 1;
constexpr std::uint8_t guess_code = 2;

const rules::VariantInfo& info() {
    static const rules::VariantInfo i = [] {
        rules::VariantInfo v;
        v.name = "sealednumber";
        v.title = "Sealed Number (a test)";
        v.files = 3;
        v.ranks = 1;
        v.summary = "Each side seals 1, 2 or 3 in secret; the other guesses it.";
        v.notation = "seal 2, guess 3";
        v.examples = "seal 2 or guess 3";
        return v;
    }();
    return i;
}

std::string seat_word(Seat s) {
    return s == Seat::White ? "White" : "Black";
}

class SealedNumber final : public rules::Game {
public:
    explicit SealedNumber(rules::Options options) : options_(std::move(options)) {}
    std::string load(std::string_view) { return "this variant has no FEN"; }

    std::unique_ptr<Game> clone() const override { return std::make_unique<SealedNumber>(*this); }
    const rules::VariantInfo& info() const override { return ::ghostpost::test::info(); }
    const rules::Options& options() const override { return options_; }

    std::vector<rules::Decision> pending() const override {
        if (round_ == 2)
            return {};
        return {{deciding(), sealed_ ? "guess the sealed number" : "seal a number"}};
    }
    std::vector<rules::NotatedAction> notated_actions(Seat seat) const override {
        std::vector<rules::NotatedAction> out;
        if (round_ == 2 || seat != deciding())
            return out;
        for (std::int16_t n = 1; n <= 3; ++n) {
            Action a;
            a.kind = ActionKind::Choice;
            a.special = sealed_ ? guess_code : seal_code;
            a.number = n;
            out.push_back({a, std::string(sealed_ ? "guess " : "seal ") + std::to_string(n)});
        }
        return out;
    }
    rules::Result<std::vector<Event>> apply(Seat seat, const Action& action,
                                            rules::RandomSource&) override {
        if (round_ == 2)
            return rules::make_error(rules::ErrorKind::GameOver, "the game is over");
        if (seat != deciding())
            return rules::make_error(rules::ErrorKind::NotYourTurn, "it is not your turn");
        bool listed = false;
        for (const auto& n : notated_actions(seat))
            listed = listed || n.action == action;
        if (!listed)
            return rules::make_error(rules::ErrorKind::Illegal, "seal or guess 1, 2 or 3");
        ++ply_;
        const std::string n = std::to_string(action.number);
        if (!sealed_) {
            sealed_ = action.number;
            // Told to the sealer alone: the other side learns only that a number is sealed.
            return std::vector<Event>{
                rules::private_event(seat, EventKind::Note,
                                     "you sealed " + n + "; it is revealed when " +
                                         seat_word(opponent(seat)) + " has guessed")};
        }
        const bool right = action.number == *sealed_;
        right_[index(seat)] = right;
        std::vector<Event> events{
            rules::public_event(EventKind::Reveal, seat_word(opponent(seat)) +
                                                       "'s sealed number was " +
                                                       std::to_string(*sealed_)),
            rules::public_event(EventKind::Note, seat_word(seat) + " guessed " + n + ": " +
                                                     (right ? "right" : "wrong"))};
        sealed_.reset();
        ++round_;
        if (round_ == 2)
            events.push_back(rules::public_event(EventKind::GameOver, outcome().reason));
        return events;
    }
    rules::Outcome outcome() const override {
        if (round_ < 2)
            return {};
        if (right_[0] == right_[1])
            return {rules::Status::Draw, "equal guesses"};
        return {right_[0] ? rules::Status::WhiteWins : rules::Status::BlackWins, "a better guess"};
    }
    rules::PublicView public_view() const override { return make_public(board()); }
    rules::SeatView seat_view(Seat seat) const override {
        rules::BoardView b = board();
        if (sealed_ && seat == sealer())
            b.notes.push_back("You sealed " + std::to_string(*sealed_));
        return make_private(seat, std::move(b));
    }
    int ply() const override { return ply_; }

private:
    // Round 0: White seals and Black guesses; round 1 the other way round.
    Seat sealer() const { return round_ == 0 ? Seat::White : Seat::Black; }
    Seat deciding() const { return sealed_ ? opponent(sealer()) : sealer(); }

    rules::BoardView board() const {
        rules::BoardView b(info().name, info().files, info().ranks);
        if (round_ < 2)
            b.deciding = {deciding()};
        b.ply = ply_;
        b.move_number = round_ + 1;
        b.notes.push_back(sealed_ ? seat_word(sealer()) + " has sealed a number"
                                  : std::string("No number is sealed"));
        return b;
    }

    rules::Options options_;
    int round_ = 0;
    int ply_ = 0;
    std::optional<std::int16_t> sealed_;
    std::array<bool, 2> right_{};
};

} // namespace

const rules::Variant& sealed_number_variant() {
    static const rules::VariantOf<SealedNumber, info> variant;
    return variant;
}

SealedNumberRegistered::SealedNumberRegistered() {
    rules::set_test_variant(&sealed_number_variant());
}

SealedNumberRegistered::~SealedNumberRegistered() {
    rules::set_test_variant(nullptr);
}

} // namespace ghostpost::test
