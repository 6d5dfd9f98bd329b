// A tournament's table as the chat and the web view both show it: the same points, the same
// tie-breaks in the same order, named.
#pragma once

#include "ghostpost/i18n/text.h"
#include "ghostpost/storage/store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ghostpost::bot {

struct TableRow {
    std::int64_t player_id = 0;
    double points = 0;
    std::vector<std::optional<double>> breaks; // by `TournamentTable::breaks`; none: not applied
    int games = 0;                             // rounds scored: games with a result and byes
    std::optional<int> withdrew_after;         // the last round a withdrawn player was paired in
};

struct TieBreakColumn {
    std::string name;       // "Buchholz cut 1"
    std::string short_name; // "BH-C1"
};

struct TournamentTable {
    std::vector<TieBreakColumn> breaks; // in the order they count (pairing.h, tie_breaks)
    std::vector<TableRow> rows;         // best first
};

// "Buchholz cut 1 (BH-C1), then Buchholz (BH), then ...", in the reader's language once written.
i18n::Text tie_break_sentence(const TournamentTable& table);

// The table of a round robin or a Swiss as its games stand (a knockout has a bracket instead).
TournamentTable tournament_table(storage::Store& store, const storage::TournamentRecord& t);

// The tournament as a FIDE Tournament Report File (TRF16, with the XXR and XXC lines pairing
// programs read): one 001 line per entrant by starting rank, a round's cell its opponent, colour
// and result. What pairing engines such as bbpPairings or JaVaFo check ghostpost's Swiss with.
std::string tournament_trf(storage::Store& store, const storage::TournamentRecord& t);

} // namespace ghostpost::bot
