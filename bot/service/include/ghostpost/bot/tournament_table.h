// A tournament's table as the chat and the web view both show it: the same points, the same
// tie-breaks in the same order, named.
#pragma once

#include "ghostpost/storage/store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ghostpost::bot {

struct TableRow {
    std::int64_t player_id = 0;
    double points = 0;
    double first = 0;                  // the format's first tie-break
    double second = 0;                 // and its second
    int games = 0;                     // rounds scored: games with a result and byes
    std::optional<int> withdrew_after; // the last round a withdrawn player was paired in
};

struct TournamentTable {
    // A round robin breaks ties by Sonneborn-Berger, then Buchholz; a Swiss the other way.
    std::string first_name, first_short; // "Buchholz", "BH"
    std::string second_name, second_short;
    std::vector<TableRow> rows; // best first
};

// The table of a round robin or a Swiss as its games stand (a knockout has a bracket instead).
TournamentTable tournament_table(storage::Store& store, const storage::TournamentRecord& t);

// The tournament as a FIDE Tournament Report File (TRF16, with the XXR and XXC lines pairing
// programs read): one 001 line per entrant by starting rank, a round's cell its opponent, colour
// and result. What pairing engines such as bbpPairings or JaVaFo check ghostpost's Swiss with.
std::string tournament_trf(storage::Store& store, const storage::TournamentRecord& t);

} // namespace ghostpost::bot
