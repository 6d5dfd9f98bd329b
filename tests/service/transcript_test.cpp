// Console transcripts: tests/data/transcripts/<name>.in is fed to `ghostpost console` and the
// output must equal <name>.out. See tests/data/transcripts/README.md for the format.
#include "../storage/temp_path.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Each "=== new process" line starts another `ghostpost console` process on the same database.
// `more`: options added to every process (the pseudo-language), whose output is not the
// transcript's own.
std::string run_transcript(const std::string& name, const std::string& more = "") {
    const std::string dir = std::string(GHOSTPOST_TEST_DATA) + "/transcripts/";
    std::string input = read_file(dir + name + ".in");
    REQUIRE_FALSE(input.empty());
    std::vector<std::string> segments(1);
    std::istringstream lines(input);
    std::string line;
    while (std::getline(lines, line)) {
        if (line == "=== new process")
            segments.emplace_back();
        else
            segments.back() += line + "\n";
    }
    // <name>.args, when present, holds more options for every process (--moderator carol).
    std::string extra = read_file(dir + name + ".args");
    while (!extra.empty() && (extra.back() == '\n' || extra.back() == ' '))
        extra.pop_back();
    extra += " " + more;
    ghostpost::testing::TempPath db("transcript-" + name);
    ghostpost::testing::TempPath in_file("transcript-in");
    ghostpost::testing::TempPath out_file("transcript-out");
    std::string output;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        if (i > 0)
            output += "=== new process\n";
        std::ofstream(in_file.str(), std::ios::binary) << segments[i];
        std::string command = std::string("'") + GHOSTPOST_BIN + "' console --db '" + db.str() +
                              "' --fixed-time 1700000000 " + extra + " < '" + in_file.str() +
                              "' > '" + out_file.str() + "' 2>&1";
        int rc = std::system(command.c_str());
        CHECK(rc == 0);
        output += read_file(out_file.str());
    }
    if (std::getenv("GHOSTPOST_UPDATE_TRANSCRIPTS") != nullptr && more.empty())
        std::ofstream(dir + name + ".out", std::ios::binary) << output;
    return output;
}

void check_transcript(const std::string& name) {
    std::string got = run_transcript(name);
    std::string want =
        read_file(std::string(GHOSTPOST_TEST_DATA) + "/transcripts/" + name + ".out");
    CHECK(got == want);
}

} // namespace

TEST_CASE("A full game of chess ends in checkmate", "[bot][transcript]") {
    check_transcript("checkmate");
}

TEST_CASE("A draw offer is accepted", "[bot][transcript]") {
    check_transcript("draw");
}

TEST_CASE("A player resigns", "[bot][transcript]") {
    check_transcript("resign");
}

TEST_CASE("Illegal, ambiguous and garbled posts are answered and change nothing",
          "[bot][transcript]") {
    check_transcript("mistakes");
}

TEST_CASE("Moves out of turn and by non-players are refused", "[bot][transcript]") {
    check_transcript("turns");
}

TEST_CASE("A post delivered twice to the console is applied once", "[bot][transcript]") {
    check_transcript("duplicate");
}

TEST_CASE("A second process on the same database continues the game", "[bot][transcript]") {
    check_transcript("second_process");
}

TEST_CASE("Challenges are declined, cancelled and games aborted or taken back",
          "[bot][transcript]") {
    check_transcript("lifecycle");
}

TEST_CASE("Finished games are found: !games finished and all, !fen, !history, !pgn",
          "[bot][transcript]") {
    check_transcript("archive");
}

TEST_CASE("Help, rules, settings, games, history and PGN answer", "[bot][transcript]") {
    check_transcript("information");
}

TEST_CASE("Phantom Chess games keep the Phantoms out of the channel and publish the full record at "
          "the end",
          "[bot][transcript][variant:phantom]") {
    check_transcript("phantom");
}

TEST_CASE("Boards come as images on request and by the channel's setting", "[bot][transcript]") {
    check_transcript("images");
}

TEST_CASE("Boards in a channel follow the channel's settings, set by moderators; a player's own "
          "settings shape their private boards",
          "[bot][transcript]") {
    check_transcript("channel_settings");
}

TEST_CASE("The console keeps the time moved on by ~ wait when it is started again",
          "[bot][transcript][clock]") {
    check_transcript("console_time");
}

TEST_CASE(
    "Haunted Chess games play the inventor's worked game, spirit moves and a spirit pawn's rebirth",
    "[bot][transcript][variant:haunted]") {
    check_transcript("haunted");
}

TEST_CASE("Ghost Chess games ask each triggered special of the player it belongs to",
          "[bot][transcript][variant:ghost]") {
    check_transcript("ghost");
}

TEST_CASE("A whole game of Ghostarelay ends when White has no pieces left",
          "[bot][transcript][variant:ghostarelay]") {
    check_transcript("ghostarelay");
}

TEST_CASE("A player whose clock runs out loses on time", "[bot][transcript][clock]") {
    check_transcript("clock_timeout");
}

TEST_CASE("A vacation stops a player's clocks until it ends", "[bot][transcript][clock]") {
    check_transcript("clock_vacation");
}

TEST_CASE("A player who opted in is reminded of a decision and at 80 percent of the time",
          "[bot][transcript][clock]") {
    check_transcript("clock_reminder");
}

TEST_CASE("Time while the service was down is charged to nobody", "[bot][transcript][clock]") {
    check_transcript("clock_downtime");
}

TEST_CASE("Moderator commands refuse non-moderators, act, and fill the audit log",
          "[bot][transcript][mod]") {
    check_transcript("mod");
}

TEST_CASE("A whole game of Gnostic Chess commits to its seed, takes dice choices by direct "
          "message and verifies every roll at the end",
          "[bot][transcript][variant:gnostic]") {
    check_transcript("gnostic");
}

TEST_CASE("Both players late in a Gnostic Chess combat on a 12-hour clock: their policies "
          "answer and nobody loses on time",
          "[bot][transcript][variant:gnostic]") {
    check_transcript("gnostic_clock");
}

TEST_CASE("A four-player round robin runs from creation to final standings",
          "[bot][transcript][tournament]") {
    check_transcript("tourney_roundrobin");
}

TEST_CASE("A Swiss of six players over three rounds is paired by the Dutch system, its rounds "
          "starting by themselves",
          "[bot][transcript][tournament]") {
    check_transcript("tourney_swiss");
}

TEST_CASE("A Swiss's organiser controls: kept apart, a late entry, a half-point bye, withdrawals, "
          "the report file",
          "[bot][transcript][tournament]") {
    check_transcript("tourney_organiser");
}

TEST_CASE("A round robin all at once starts every game together and ends with its last game",
          "[bot][transcript][tournament]") {
    check_transcript("tourney_allatonce");
}

TEST_CASE("A round's last game lost on time starts the next round from the time-driven job",
          "[bot][transcript][tournament]") {
    check_transcript("tourney_timeout");
}

TEST_CASE("A knockout of five players seeded by rating gives byes and breaks a draw by seed",
          "[bot][transcript][tournament]") {
    check_transcript("tourney_knockout");
}

TEST_CASE("A rated game moves both Glicko-2 ratings and an unrated one does not",
          "[bot][transcript][rating]") {
    check_transcript("tourney_ratings");
}

TEST_CASE("Capitalised moves, a move for the one game that can take it, and every direct "
          "message answered",
          "[bot][transcript]") {
    check_transcript("correspondence");
}

TEST_CASE("Posts of !new ... bot start three games against the bot, and the fourth is refused",
          "[bot][transcript][limits]") {
    check_transcript("bot_limits");
}

TEST_CASE("Challenges lapse after a week and one player may have ten open",
          "[bot][transcript][clock]") {
    check_transcript("challenge_limits");
}

TEST_CASE("A forecast game: replies played at once from stored lines, and a line not foreseen "
          "dropped",
          "[bot][transcript][forecast]") {
    check_transcript("forecast");
}

TEST_CASE("The daily digest comes at its hour while a decision waits, and not otherwise",
          "[bot][transcript][digest]") {
    check_transcript("digest");
}

TEST_CASE("Issue 32: moves are read and refused on what the mover sees, captures must capture, "
          "and the spellings players type are understood",
          "[bot][transcript][issue32]") {
    check_transcript("reading_moves");
}

// Issue #38: one game in each shipped language, and a Phantom game's channel replies and direct
// messages in German.
TEST_CASE("A game in German", "[bot][transcript][language]") {
    check_transcript("language_de");
}

TEST_CASE("A game in French", "[bot][transcript][language]") {
    check_transcript("language_fr");
}

TEST_CASE("A game in Spanish", "[bot][transcript][language]") {
    check_transcript("language_es");
}

TEST_CASE("A game in Russian", "[bot][transcript][language]") {
    check_transcript("language_ru");
}

TEST_CASE("A game in Brazilian Portuguese", "[bot][transcript][language]") {
    check_transcript("language_pt_BR");
}

TEST_CASE("A game in Simplified Chinese", "[bot][transcript][language]") {
    check_transcript("language_zh_CN");
}

TEST_CASE("A Phantom Chess game in German, direct messages included",
          "[bot][transcript][language]") {
    check_transcript("phantom_de");
}

// Issue #38: every reply of every transcript, in the pseudo-language that wraps each catalog
// message in ⟦ ⟧, has no English left outside the brackets: two words in a row there were
// built without the catalog. What may stand outside: names, moves, numbers, commands, boards'
// squares, and the PGN, FEN and FIDE report a player asked for, which programs read.
namespace {

// The words of `line` outside every ⟦...⟧, nested ones included.
std::vector<std::string> words_outside(const std::string& line) {
    std::vector<std::string> words;
    std::string word;
    int depth = 0;
    const auto end_word = [&] {
        if (!word.empty())
            words.push_back(word);
        word.clear();
    };
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line.compare(i, 3, "\u27e6") == 0) {
            end_word();
            ++depth;
            i += 2;
        } else if (line.compare(i, 3, "\u27e7") == 0) {
            --depth;
            i += 2;
        } else if (depth == 0 && line[i] != ' ' && line[i] != ',' && line[i] != '.' &&
                   line[i] != ':' && line[i] != ';' && line[i] != '(' && line[i] != ')') {
            word += line[i];
        } else {
            end_word();
        }
    }
    end_word();
    return words;
}

// A word of a language: letters, not all capitals (BH, SB: a tie-break's code).
bool is_word(const std::string& w) {
    return w.size() >= 2 &&
           std::all_of(w.begin(), w.end(),
                       [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }) &&
           !std::all_of(w.begin(), w.end(),
                        [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; });
}

// Lines in a standard's own words, which programs read: a FEN, a line of the FIDE report
// (TRF: three digits first). The console's own lines (~~ the time, ?? a line it cannot read)
// are the console's, not the bot's.
bool standard_text(const std::string& line) {
    const bool trf = line.size() > 4 && std::isdigit(static_cast<unsigned char>(line[0])) &&
                     std::isdigit(static_cast<unsigned char>(line[1])) &&
                     std::isdigit(static_cast<unsigned char>(line[2])) && line[3] == ' ';
    return trf || std::count(line.begin(), line.end(), '/') >= 7 || line.starts_with("~~ ") ||
           line.starts_with("?? ");
}

} // namespace

TEST_CASE("Every transcript's replies in the pseudo-language come from the catalogs",
          "[bot][transcript][language][pseudo]") {
    const std::string dir = std::string(GHOSTPOST_TEST_DATA) + "/transcripts/";
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".in")
            names.push_back(entry.path().stem().string());
    std::sort(names.begin(), names.end());
    REQUIRE(names.size() >= 40);
    for (const std::string& name : names) {
        if (read_file(dir + name + ".args").find("--language") != std::string::npos)
            continue; // a transcript in a language of its own
        const std::string output = run_transcript(name, "--language qps");
        std::istringstream lines(output);
        std::string line;
        // A PGN from its tags, or a game's movetext (!history, whose comments are the PGN's),
        // to the end of the reply: a standard's own words. So is the moderators' log, the
        // actions as they were written down.
        bool pgn = false;
        while (std::getline(lines, line)) {
            if (line.starts_with(">> ") || line == "=== new process")
                pgn = false;
            pgn = pgn || line.starts_with("[Event ") || line.starts_with("1. ") ||
                  (line.size() > 20 && line.compare(16, 5, " UTC ") == 0 && line[0] == '2');
            if (pgn || line.starts_with(">> ") || line == "=== new process" || standard_text(line))
                continue;
            const std::vector<std::string> words = words_outside(line);
            for (std::size_t i = 0; i + 1 < words.size(); ++i) {
                INFO(name << ": " << line);
                CHECK_FALSE((is_word(words[i]) && is_word(words[i + 1])));
            }
        }
    }
}
