#include "ghostpost/storage/store.h"

namespace ghostpost::storage {

std::unique_ptr<Store> open_store(const StoreLocation& location) {
    if (!location.url.empty())
        return open_postgres_store(location.url, {.password = location.password});
    return open_sqlite_store(location.path);
}

} // namespace ghostpost::storage
