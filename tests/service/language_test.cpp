// Speak the player's language (issue #38): the language of each reply is chosen for its reader
// (their own choice, their channel's, their platform's word, the service's default), and the
// words of ours come from the catalogs. The pseudo-language "qps" wraps every catalog message
// in ⟦ ⟧, so a reply with words outside the brackets was built without the catalog.
#include "../storage/temp_path.h"
#include "ghostpost/service/service.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace ghostpost;
using bot::Post;
using ghostpost::testing::TempPath;

namespace {

class Room {
public:
    explicit Room(bot::ServiceSettings settings = {})
        : store_(storage::open_sqlite_store(path_.str())),
          service_(*store_, std::move(settings), [] { return std::int64_t{1700000000}; }) {}

    // Posts `text` as `user` in channel "g", or by direct message; returns the replies' texts,
    // each "<destination>: <text>" ("dm <user>: " for a direct message), boards left out.
    std::vector<std::string> say(const std::string& user, const std::string& text,
                                 bool direct = false, const std::string& language = "") {
        Post p;
        p.language = language;
        p.platform = "console";
        p.direct = direct;
        p.channel = direct ? user : "g";
        p.message_id = std::to_string(++sequence_);
        p.author_id = p.author_name = p.author_handle = user;
        p.text = text;
        service_.handle(p);
        std::vector<std::string> out;
        for (const auto& e : store_->due("console", 2000000000, 1000)) {
            out.push_back((e.message.to_user ? "dm " : "") + e.message.destination + ": " +
                          e.message.text);
            store_->mark_sent(e.id, 0);
        }
        return out;
    }

private:
    TempPath path_;
    std::unique_ptr<storage::Store> store_;
    bot::Service service_;
    int sequence_ = 0;
};

bot::ServiceSettings with_moderator(std::string language = "en") {
    bot::ServiceSettings s;
    s.moderators = {"carol"};
    s.language = std::move(language);
    return s;
}

using Lines = std::vector<std::string>;

// What stays of a reply once the destination, every ⟦...⟧ (nested ones too), spaces and
// punctuation are taken out: words built without the catalog.
std::string unwrapped(const std::string& reply) {
    std::string text = reply.substr(reply.find(": ") + 2);
    std::string out;
    int depth = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text.compare(i, 3, "\u27e6") == 0) {
            ++depth;
            i += 2;
        } else if (text.compare(i, 3, "\u27e7") == 0) {
            --depth;
            i += 2;
        } else if (depth == 0 && text[i] != ' ' && text[i] != '.' && text[i] != '\n') {
            out += text[i];
        }
    }
    return out;
}

} // namespace

TEST_CASE("A channel whose moderators chose German hears a game in German", "[language]") {
    Room room(with_moderator());
    CHECK(room.say("carol", "!channel settings language=de") ==
          Lines{"g: Bretter in diesem Kanal: orientation=white notation=ascii images=off "
                "style=board language=de."});
    CHECK(room.say("alice", "!new chess @bob tc=none") ==
          Lines{"g: @alice fordert @bob zu FIDE-Schach heraus, Partie #1. @alice würde Weiß "
                "spielen. Optionen: keine. Uhr: keine; gewertet. @bob: antworte mit !accept 1 "
                "oder !decline 1."});
    CHECK(room.say("bob", "!accept") ==
          Lines{"g: @bob nimmt an. Partie #1, FIDE-Schach: @alice (Weiß) gegen @bob (Schwarz). "
                "@alice (Weiß) muss ziehen. Keine Uhr; gewertet."});
    CHECK(room.say("alice", "e4") ==
          Lines{"g: @alice (Weiß) spielte e4 in Partie #1. @bob (Schwarz) muss ziehen."});
    CHECK(room.say("alice", "d4") ==
          Lines{"g: Nicht gespielt: Du bist in Partie #1 nicht am Zug. @bob (Schwarz) muss "
                "ziehen."});
    CHECK(room.say("bob", "e4") ==
          Lines{"g: Nicht gespielt in Partie #1: e4 ist nicht möglich: keine Figur (Bauer) kann e4 "
                "erreichen."});
    CHECK(room.say("bob", "!draw") ==
          Lines{"g: @bob (Schwarz) bietet in Partie #1 Remis an. @alice (Weiß): !draw 1 nimmt "
                "an; Weiterspielen lehnt ab. @bob (Schwarz) muss ziehen."});
    CHECK(room.say("alice", "!draw") ==
          Lines{"g: @alice (Weiß) nimmt das Remis an. Partie #1 ist beendet: remis durch "
                "Einigung (1/2-1/2).",
                "g: Wertungszahlen (FIDE-Schach) nach Partie #1: @alice 1500.0 -> 1500.0, @bob "
                "1500.0 -> 1500.0."});
}

TEST_CASE("A player's own language wins over their channel's, for what is said to them alone",
          "[language]") {
    Room room(with_moderator());
    room.say("carol", "!channel settings language=fr");
    room.say("alice", "!new chess @bob tc=none");
    room.say("bob", "!accept");
    CHECK(room.say("bob", "!settings language=es") ==
          Lines{"g: Ajustes de @bob para lo que te envío en privado: orientation=auto "
                "notation=ascii images=off reminders=off digest=off language=es."});
    // Said to bob alone: Spanish. Said to the channel: French.
    CHECK(room.say("bob", "e5") ==
          Lines{"g: No jugado: no es tu turno en la partida #1. @alice (Blancas) debe mover."});
    CHECK(room.say("alice", "e4") ==
          Lines{"g: @alice (Blancs) a joué e4 dans la partie #1. @bob (Noirs) doit jouer."});
    CHECK(room.say("bob", "!settings language=auto") ==
          Lines{"g: Réglages de @bob pour ce que je vous envoie en privé : orientation=auto "
                "notation=ascii images=off reminders=off digest=off language=auto."});
    CHECK(room.say("bob", "!draw 2") == Lines{"g: Il n’y a pas de partie #2."});
}

TEST_CASE("Russian counts one, two and five plies each in its own form", "[language]") {
    Room room(with_moderator());
    room.say("alice", "!new chess @bob tc=none");
    room.say("bob", "!accept");
    REQUIRE(room.say("alice", "!settings language=ru").size() == 1);
    room.say("alice", "e4");
    CHECK(room.say("alice", "!board 1 9") == Lines{"g: В партии #1 всего 1 полуход."});
    room.say("bob", "e5");
    CHECK(room.say("alice", "!board 1 9") == Lines{"g: В партии #1 всего 2 полухода."});
    room.say("alice", "Nf3");
    room.say("bob", "Nc6");
    room.say("alice", "Bb5");
    CHECK(room.say("alice", "!board 1 9") == Lines{"g: В партии #1 всего 5 полуходов."});
    // English counts them as English does.
    room.say("alice", "!settings language=en");
    CHECK(room.say("alice", "!board 1 9") == Lines{"g: Game #1 has only 5 plies."});
}

TEST_CASE("In the pseudo-language every word of a game's main replies is the catalog's",
          "[language]") {
    Room room(with_moderator("qps"));
    const std::vector<std::pair<std::string, std::string>> posts{
        {"alice", "!new chess @bob tc=none"},
        {"bob", "!accept"},
        {"alice", "e4"},
        {"alice", "d4"},
        {"bob", "e4"},
        {"bob", "Nb4"},
        {"bob", "Ke2"},
        {"bob", "Qxd7"},
        {"bob", "!draw"},
        {"bob", "!draw"},
        {"alice", "!draw decline"},
        {"bob", "e5"},
        {"alice", "!resign ?"},
        {"alice", "!resign 1"}};
    for (const auto& [user, text] : posts)
        for (const auto& reply : room.say(user, text)) {
            INFO(user + ": " + text + " -> " + reply);
            CHECK(unwrapped(reply) == "");
        }
}

TEST_CASE("In the pseudo-language help and the rules are the catalog's, commands and notation "
          "as they are",
          "[language]") {
    Room room(with_moderator("qps"));
    const Lines help = room.say("alice", "!help move");
    REQUIRE(help.size() == 1);
    CHECK(help[0] == "g: !move [game] <move>: \u27e6play a move (also !m); a bare move works when "
                     "you must decide in just one game here\u27e7.");
    const Lines list = room.say("alice", "!help");
    REQUIRE(list.size() == 1);
    CHECK(unwrapped(list[0]) == "");
    const Lines rules = room.say("alice", "!rules phantom");
    REQUIRE(rules.size() == 1);
    INFO(rules[0]);
    // The title, the summary, the notation and each option's words are the catalog's; the
    // variant's name and the options' syntax stay as they are typed.
    CHECK(unwrapped(rules[0]) == "(phantom)phantom_entry_capture=no|yesphantom_entry_check=no|yes"
                                 "phantom_lives=<number>");
    CHECK(rules[0].starts_with("g: \u27e6Phantom Chess\u27e7 (phantom)\n\u27e6FIDE chess, plus one "
                               "Phantom (F) per player"));
    for (const char* text : {"!rules", "!rules nosuch", "!help nosuch", "!frobnicate"}) {
        const Lines replies = room.say("alice", text);
        REQUIRE(replies.size() == 1);
        INFO(replies[0]);
        CHECK(unwrapped(replies[0]) == "");
    }
}

TEST_CASE("A player types a move with their language's piece letters and the reply shows the "
          "standard move",
          "[language]") {
    Room room(with_moderator());
    room.say("alice", "!new chess @bob tc=none");
    room.say("bob", "!accept");
    REQUIRE(room.say("alice", "!settings language=de").size() == 1);
    // Chatter that is no move gets no reply, even in the letters' language.
    CHECK(room.say("alice", "Super") == Lines{});
    CHECK(room.say("alice", "Sf3") ==
          Lines{"g: @alice (White) played Nf3 in game #1. @bob (Black) must move."});
    // Bob speaks English: his S is no piece, so "Sc6" is chatter and gets no reply.
    CHECK(room.say("bob", "Sc6") == Lines{});
    REQUIRE(room.say("bob", "!settings language=ru").size() == 1);
    CHECK(room.say("bob", "\u041ac6") ==
          Lines{"g: @bob (Black) played Nc6 in game #1. @alice (White) must move."});
}

TEST_CASE("What the platform says of a player's language answers them until they choose",
          "[language]") {
    Room room(with_moderator());
    room.say("alice", "!new chess @bob tc=none");
    room.say("bob", "!accept");
    // Telegram's language_code "pt-br": the answer to bob is in Portuguese.
    CHECK(room.say("bob", "e5", false, "pt-br") ==
          Lines{"g: Não jogado: não é a sua vez na partida #1. @alice (Brancas) deve jogar."});
    // Remembered: a later post that says nothing is answered the same way.
    CHECK(room.say("bob", "!board 1 9") == Lines{"g: A partida #1 tem só 0 meio lance."});
    // A language without a catalog is as none: English.
    CHECK(room.say("bob", "!board 1 9", false, "nl") == Lines{"g: Game #1 has only 0 plies."});
    // The player's own choice wins over the platform's word.
    room.say("bob", "!board 1 9", false, "ru");
    room.say("bob", "!settings language=de");
    CHECK(room.say("bob", "!board 1 9", false, "ru") == Lines{"g: Partie #1 hat nur 0 Halbzüge."});
}
