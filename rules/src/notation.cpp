// The forgiving parser. It never decides legality itself: it reduces what was typed to a key
// and compares it with the keys of the canonical texts of the legal actions, in rounds from
// strict to lenient, so a stricter reading always wins (a b-file pawn move over a bishop).
#include "ghostpost/rules/notation.h"

#include <algorithm>
#include <cctype>
#include <regex>

namespace ghostpost::rules {
namespace {

constexpr std::size_t max_action_length = 40; // longer text is never an action: no regex on it

bool is_space_or_punct(char c) {
    return std::isspace(static_cast<unsigned char>(c)) || c == '"' || c == '\'' || c == '`' ||
           c == '*' || c == '(' || c == ')' || c == '[' || c == ']' || c == '.' || c == ',' ||
           c == ';' || c == '_' || c == '~';
}

// What never changes meaning inside a move: capture marks, promotion "=", dashes, spaces, and
// castling written with zeros.
std::string loose_key(std::string_view text) {
    std::string out;
    for (char c : text)
        if (!(c == 'x' && !out.empty()) && c != ':' && c != '=' && c != '-' && c != ' ')
            out += c; // a leading x is the Relay's letter typed in lower case, not a capture
    if ((out.size() == 2 || out.size() == 3) && std::all_of(out.begin(), out.end(), [](char c) {
            return c == '0' || c == 'O' || c == 'o';
        }))
        return std::string(out.size(), 'O');
    return out;
}

bool syntax_matches(const ActionSyntax& s, const Action& a) {
    if (s.castle != 0 || !s.to.valid() || a.to != s.to)
        return false;
    if (s.drop != (a.kind == ActionKind::Drop))
        return false;
    if (a.kind != ActionKind::Move && a.kind != ActionKind::Drop)
        return false;
    if (s.piece != PieceKind::None && s.piece != a.piece)
        return false;
    if (s.from_file >= 0 && a.from.file != s.from_file)
        return false;
    if (s.from_rank >= 0 && a.from.rank != s.from_rank)
        return false;
    return s.promotion == a.promotion;
}

// A pawn push written bare ("c3") never means a capture ("bxc3"), in any variant: reading it so
// would complete the move for the mover, and capture a piece only its owner sees.
bool parts_match(const ActionSyntax& s, const NotatedAction& a) {
    if (s.piece == PieceKind::Pawn && !s.capture && s.from_file < 0 &&
        a.action.piece == PieceKind::Pawn && a.text.find('x', 1) != std::string::npos)
        return false;
    return syntax_matches(s, a.action);
}

// The public half of a refusal whose reason only the mover may read: the same words whatever
// the reason, so that they tell nobody anything.
RuleError refused_in_private(const RuleError& reason) {
    RuleError e = make_error(
        ErrorKind::Illegal,
        phrase(N_("that move was refused; the reason was sent to you by direct message")));
    e.private_detail = reason.message;
    e.private_phrase = reason.phrase;
    return e;
}

// An action with the key of its canonical text (loose_key of it without annotations), built
// once per list: the rounds of the parser compare the typed key with every action's several
// times, and a variant may list hundreds of actions.
struct Keyed {
    const NotatedAction* action;
    std::string key;
};

std::vector<Keyed> keyed(const std::vector<NotatedAction>& list) {
    std::vector<Keyed> out;
    out.reserve(list.size());
    for (const auto& a : list)
        out.push_back({&a, loose_key(strip_annotations(a.text))});
    return out;
}

bool equal_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

Result<NotatedAction> decide(const std::vector<const NotatedAction*>& found,
                             std::string_view text) {
    if (found.size() == 1)
        return *found.front();
    std::vector<std::string> names;
    for (const auto* f : found)
        names.push_back(f->text);
    // "Nbd2 or Nfd2", "Nbd2, Nfd2 or Nf3": the last joined by a word of the reader's language.
    std::vector<std::string> first(names.begin(), names.end() - 1);
    std::string some;
    for (const auto& f : first)
        some += (some.empty() ? "" : ", ") + f;
    RuleError e =
        make_error(ErrorKind::Ambiguous,
                   phrase(N_("{move} is ambiguous: {candidates}"),
                          {{"move", std::string(text)},
                           {"candidates", phrase(N_("{some} or {last}"),
                                                 {{"some", some}, {"last", names.back()}})}}));
    e.candidates = std::move(names);
    return e;
}

// Whether a move's text marks a capture: an x after its first letter (a leading x is the
// Relay's letter) or a colon.
bool marks_capture(std::string_view text) {
    return text.find(':') != std::string_view::npos ||
           (text.size() > 1 && text.find('x', 1) != std::string_view::npos);
}

// A move written as a capture must capture (rules-decisions, "the capture marker"): a quiet move
// read from "Qxd5" is refused, never played as Qd5, in every variant. In a game with hidden
// pieces `read` is the move on the board the mover sees, so the refusal never tells whether a
// hidden piece stands there.
std::optional<RuleError> capture_unmet(std::string_view typed, const NotatedAction& read) {
    const ActionKind kind = read.action.kind;
    if ((kind != ActionKind::Move && kind != ActionKind::Drop) || !marks_capture(typed) ||
        marks_capture(read.text))
        return std::nullopt;
    return make_error(ErrorKind::Illegal,
                      phrase(N_("{move} is not possible: there is nothing to capture on {square}; "
                                "{quiet} would be a quiet move"),
                             {{"move", std::string(typed)},
                              {"square", read.action.to.name()},
                              {"quiet", read.text}}));
}

} // namespace

std::string strip_annotations(std::string_view text) {
    std::size_t b = 0, e = text.size();
    while (b < e && is_space_or_punct(text[b]))
        ++b;
    // A leading move number: "12. e4", "12... Nf6", "12.e4".
    std::size_t d = b;
    while (d < e && std::isdigit(static_cast<unsigned char>(text[d])))
        ++d;
    if (d > b && d < e && text[d] == '.') {
        while (d < e && (text[d] == '.' || std::isspace(static_cast<unsigned char>(text[d]))))
            ++d;
        if (d < e)
            b = d;
    }
    for (;;) {
        while (e > b && (is_space_or_punct(text[e - 1]) || text[e - 1] == '!' ||
                         text[e - 1] == '?' || text[e - 1] == '+' || text[e - 1] == '#'))
            --e;
        const std::string_view rest = text.substr(b, e - b);
        // "e.p." loses its dots above, so the suffix is "ep" or "e.p" here.
        bool cut = false;
        for (std::string_view suffix : {"e.p", "ep"}) {
            if (rest.size() > suffix.size() + 1 &&
                equal_ignoring_case(rest.substr(rest.size() - suffix.size()), suffix) &&
                !std::isalpha(static_cast<unsigned char>(rest[rest.size() - suffix.size() - 1]))) {
                e -= suffix.size();
                cut = true;
                break;
            }
        }
        if (!cut)
            break;
    }
    return std::string(text.substr(b, e - b));
}

std::string word_key(std::string_view text) {
    std::string out;
    for (char c : strip_annotations(text))
        if (c != ' ' && c != '-' && c != ':' && c != '=')
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::optional<ActionSyntax> parse_syntax(std::string_view raw, int files, int ranks) {
    std::string text = strip_annotations(raw);
    if (text.empty() || text.size() > max_action_length)
        return std::nullopt;
    ActionSyntax out;
    std::string key;
    for (char c : text) {
        if ((c == 'x' && !key.empty()) || c == ':') {
            out.capture = true;
            continue;
        }
        if (c == '=' || c == '-' || c == ' ')
            continue;
        key += c;
    }
    for (char& c : key)
        if (c == '0' || c == 'o')
            c = 'O';
    if (key == "OO" || key == "OOO") {
        out.castle = key == "OO" ? 1 : 2;
        out.piece = PieceKind::King;
        return out;
    }
    // Undo the zero rewrite for squares such as a10.
    key.clear();
    for (char c : text)
        if (!(c == 'x' && !key.empty()) && c != ':' && c != '=' && c != '-' && c != ' ')
            key += c;

    static const std::regex drop(R"(^([A-Z])@([a-j])(10|[1-9])$)");
    static const std::regex move(R"(^([A-Z])?([a-j])?(10|[1-9])?([a-j])(10|[1-9])([A-Za-z])?$)");
    std::smatch m;
    auto square_of = [&](const std::string& f, const std::string& r) -> std::optional<Square> {
        return parse_square(f + r, files, ranks);
    };
    if (std::regex_match(key, m, drop)) {
        out.drop = true;
        out.piece = piece_from_letter(m[1].str()[0]);
        auto sq = square_of(m[2].str(), m[3].str());
        if (out.piece == PieceKind::None || !sq)
            return std::nullopt;
        out.to = *sq;
        return out;
    }
    if (!std::regex_match(key, m, move))
        return std::nullopt;
    auto sq = square_of(m[4].str(), m[5].str());
    if (!sq)
        return std::nullopt;
    out.to = *sq;
    if (m[2].matched)
        out.from_file = m[2].str()[0] - 'a';
    if (m[3].matched) {
        out.from_rank = std::stoi(m[3].str()) - 1;
        if (out.from_rank >= ranks)
            return std::nullopt;
    }
    if (out.from_file >= files)
        return std::nullopt;
    if (m[1].matched) {
        out.piece = piece_from_letter(m[1].str()[0]);
        if (out.piece == PieceKind::None)
            return std::nullopt;
    } else {
        // Both from-coordinates without a letter is LAN: any piece may be meant.
        out.piece = out.from_file >= 0 && out.from_rank >= 0 ? PieceKind::None : PieceKind::Pawn;
        if (out.from_rank >= 0 && out.from_file < 0)
            return std::nullopt;
    }
    if (m[6].matched) {
        char p = static_cast<char>(std::toupper(static_cast<unsigned char>(m[6].str()[0])));
        out.promotion = piece_from_letter(p);
        if (out.promotion == PieceKind::None || out.promotion == PieceKind::Pawn)
            return std::nullopt;
    }
    return out;
}

namespace {

// parse_action with the seat's legal actions already listed.
Result<NotatedAction> parse_listed(const Game& game, Seat seat, std::string_view raw,
                                   const std::vector<NotatedAction>& actions) {
    const VariantInfo& info = game.info();
    // An anytime action ("peek") is taken by its word, in any case, turn or no turn: the whole
    // post is the word, nothing after it.
    if (raw.size() <= max_action_length)
        if (auto a = game.anytime_action(seat, word_key(raw)))
            return *a;
    if (actions.empty()) {
        std::optional<Phrase> who;
        for (const auto& d : game.pending()) {
            Phrase seat_name{"seat", info.seat_names[static_cast<std::size_t>(index(d.seat))], {}};
            who = who ? phrase(N_("{first} and {second}"),
                               {{"first", *who}, {"second", std::move(seat_name)}})
                      : std::move(seat_name);
        }
        return make_error(
            ErrorKind::NotYourTurn,
            who ? phrase(N_("it is not your decision now: {seats} to decide"), {{"seats", *who}})
                : phrase(N_("it is not your decision now")));
    }
    std::string text = strip_annotations(raw);
    const std::string shown = text.size() > max_action_length ? text.substr(0, 20) + "..." : text;
    auto not_a_move = [&] {
        return make_error(
            ErrorKind::NotAMove,
            phrase(N_("\"{text}\" is not a move. Write moves like {examples} (!rules "
                      "{variant} shows the notation)."),
                   {{"text", shown}, {"examples", info.examples}, {"variant", info.name}}));
    };
    if (text.empty() || text.size() > max_action_length)
        return not_a_move();

    // Rounds 1 to 4 over one list of actions: the reading, or nullopt when nothing matched.
    std::optional<ActionSyntax> syntax;
    using Reading = std::optional<Result<NotatedAction>>;
    // `lower_piece`: whether round 3 may read a lower-case letter as a piece.
    const std::string key = loose_key(text);
    auto match = [&](const std::vector<Keyed>& list, bool lower_piece) -> Reading {
        // Round 1: the canonical text, up to capture marks, "=", dashes and zeros for O.
        std::vector<const NotatedAction*> found;
        for (const auto& k : list)
            if (k.key == key)
                found.push_back(k.action);
        if (!found.empty())
            return decide(found, text);

        // Round 2: the parts of a move (over-specified SAN, LAN, a missing "=").
        auto try_syntax = [&](const std::string& t) -> std::optional<ActionSyntax> {
            auto parts = parse_syntax(t, info.files, info.ranks);
            if (!parts)
                return std::nullopt;
            found.clear();
            for (const auto& k : list) {
                if (parts_match(*parts, *k.action))
                    found.push_back(k.action);
                else if (parts->castle != 0 && k.key == (parts->castle == 1 ? "OO" : "OOO"))
                    found.push_back(k.action);
            }
            return parts;
        };
        syntax = try_syntax(text);
        if (!found.empty())
            return decide(found, text);
        if (syntax && syntax->promotion == PieceKind::None) {
            // A promotion with one possible piece may go unnamed.
            ActionSyntax any = *syntax;
            std::vector<const NotatedAction*> promotions;
            for (const auto& k : list) {
                any.promotion = k.action->action.promotion;
                if (any.promotion != PieceKind::None && parts_match(any, *k.action))
                    promotions.push_back(k.action);
            }
            if (promotions.size() == 1)
                return *promotions.front();
        }

        // Round 3: a lower-case piece letter ("nf3", "bb5"), tried only after the pawn reading.
        const char first = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
        if (lower_piece && std::islower(static_cast<unsigned char>(text[0])) &&
            piece_from_letter(first) != PieceKind::None) {
            std::string upper = text;
            upper[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(upper[0])));
            auto upper_syntax = try_syntax(upper);
            if (!found.empty())
                return decide(found, text);
            if (!syntax && upper_syntax)
                syntax = upper_syntax;
        }
        // Round 3b: a capital file letter, as phones write the first letter of a post ("E4",
        // "Exd5"), when it names no piece that could move now. Never B, which is a bishop
        // before it is the b-file.
        const auto capital = static_cast<unsigned char>(text[0]);
        if (lower_piece && std::isupper(capital) && first != 'B' && first - 'A' < info.files &&
            std::none_of(list.begin(), list.end(), [&](const Keyed& k) {
                return k.action->action.piece == piece_from_letter(first) &&
                       k.action->action.kind == ActionKind::Move;
            })) {
            std::string lower = text;
            lower[0] = static_cast<char>(std::tolower(capital));
            auto lower_syntax = try_syntax(lower);
            if (!found.empty())
                return decide(found, text);
            if (!syntax && lower_syntax)
                syntax = lower_syntax;
        }

        // Round 4: words of special actions and choices in any case ("hide", "TRANSCEND"); never
        // for moves, where case tells a bishop from the b-file.
        found.clear();
        for (const auto& k : list)
            if (k.action->action.kind != ActionKind::Move &&
                k.action->action.kind != ActionKind::Drop && equal_ignoring_case(k.key, key))
                found.push_back(k.action);
        if (!found.empty())
            return decide(found, text);
        return std::nullopt;
    };

    // Read against what the mover sees; then the true position decides. An action the mover
    // sees but the truth forbids is refused for a reason that is the mover's alone. A
    // lower-case letter is a file before it is a piece on either board: "fxe5" is the f-pawn
    // taking on e5 wherever the true position has that capture, never a hidden piece moving
    // there because the mover's board shows nothing on e5 to take.
    const std::vector<NotatedAction> seen_list = game.seen_actions(seat);
    const std::vector<Keyed> seen = keyed(seen_list);
    std::optional<std::vector<Keyed>> named_keys; // the true actions, keyed when first needed
    auto named_list = [&]() -> const std::vector<Keyed>& {
        if (!named_keys)
            named_keys = keyed(actions);
        return *named_keys;
    };
    Reading strict = match(seen, false);
    if (!strict) {
        if (auto named = match(named_list(), false); named && named->ok()) {
            if (auto unmet = capture_unmet(text, **named))
                return *unmet;
            return **named;
        }
    }
    if (auto reading = strict ? std::move(strict) : match(seen, true)) {
        if (!*reading)
            return *reading;
        if (auto unmet = capture_unmet(text, **reading))
            return *unmet;
        for (const auto& a : actions)
            if (a.action == (*reading)->action)
                return a;
        auto parts = parse_syntax((*reading)->text, info.files, info.ranks);
        RuleError e =
            parts ? game.explain_illegal(seat, *parts, text) : make_error(ErrorKind::Illegal, "");
        if (e.private_detail.empty()) {
            // The move is legal on the board the mover sees: any reason names what is hidden.
            return refused_in_private(
                e.message.empty()
                    ? make_error(ErrorKind::Illegal,
                                 phrase(N_("{move} is not possible here"), {{"move", text}}))
                    : e);
        }
        return e;
    }
    // A text that names an action the mover cannot see (bxc3 on the square where the announced
    // moves left a hidden piece) is played as named; candidates would tell what is hidden.
    if (auto reading = match(named_list(), true)) {
        if (*reading) {
            if (auto unmet = capture_unmet(text, **reading))
                return *unmet;
            return *reading;
        }
        return refused_in_private(reading->error());
    }

    // "pass" names the decision's pass (a Hide, a Skip) when there is one; when there
    // is none, the answer says what the decision is, with its choices where the game lists them.
    if (word_key(text) == "pass") {
        std::vector<const NotatedAction*> passes;
        for (const auto& a : actions)
            if (a.action.kind == ActionKind::Pass)
                passes.push_back(&a);
        if (!passes.empty())
            return decide(passes, text);
        Phrase what{"decision", "move", {}};
        for (const auto& d : game.pending())
            if (d.seat == seat)
                what = d.said();
        return make_error(
            ErrorKind::Illegal,
            phrase(N_("{move} is not possible: there is no passing now; you must {what}"),
                   {{"move", text}, {"what", what}}));
    }
    // A variant's own spelling of an action that SAN syntax reads otherwise (a Respawn written
    // P@d1, a spirit move c6d7) is that action before the move it looks like is explained.
    if (auto own = game.read_own_form(seat, text); own && own->ok()) {
        if (auto unmet = capture_unmet(text, **own))
            return *unmet;
        return **own;
    }
    if (auto special = game.explain_special(seat, text))
        return *special;
    if (syntax)
        return game.explain_illegal(seat, *syntax, text);
    if (auto own = game.read_own_form(seat, text))
        return *own;
    return not_a_move();
}

} // namespace

Result<NotatedAction> parse_action(const Game& game, Seat seat, std::string_view raw) {
    if (game.outcome().over())
        return make_error(ErrorKind::GameOver,
                          phrase(N_("the game is over ({reason})"),
                                 {{"reason", Phrase{"reason", game.outcome().reason, {}}}}));
    return parse_listed(game, seat, raw, game.notated_actions(seat));
}

Result<NotatedAction> read_recorded_action(const Game& game, Seat seat, std::string_view text) {
    if (!game.outcome().over())
        for (auto& a : game.notated_actions(seat))
            if (a.text == text)
                return std::move(a);
    return parse_action(game, seat, text);
}

bool looks_like_action(const Game& game, Seat seat, std::string_view text) {
    std::string stripped = strip_annotations(text);
    if (stripped.empty() || stripped.size() > max_action_length)
        return false;
    const VariantInfo& info = game.info();
    if (parse_syntax(stripped, info.files, info.ranks) || game.read_own_form(seat, stripped) ||
        game.explain_special(seat, stripped))
        return true;
    const std::string key = loose_key(stripped);
    auto names_an_action = [&](const std::vector<NotatedAction>& list) {
        return std::any_of(list.begin(), list.end(), [&](const NotatedAction& a) {
            return equal_ignoring_case(loose_key(strip_annotations(a.text)), key);
        });
    };
    if (game.anytime_action(seat, word_key(text)))
        return true;
    const std::vector<NotatedAction> mine = game.notated_actions(seat);
    if (names_an_action(mine) || names_an_action(game.notated_actions(opponent(seat))))
        return true;
    // Whatever the parser would play is a move, however it was written ("ng1f3").
    return !mine.empty() && !game.outcome().over() && parse_listed(game, seat, stripped, mine).ok();
}

} // namespace ghostpost::rules
