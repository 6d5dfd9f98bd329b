// The names of the records' states, as both backends store them.
#include "sql_store.h"

namespace ghostpost::storage {

std::string_view status_name(GameStatus s) {
    return sql::status_names[static_cast<std::size_t>(s)];
}

std::string_view tournament_status_name(TournamentStatus s) {
    return sql::tournament_status_names[static_cast<std::size_t>(s)];
}

} // namespace ghostpost::storage
