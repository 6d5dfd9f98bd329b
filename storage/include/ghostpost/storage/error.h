// The storage errors the rest of the project sees, whichever backend raised them. A backend
// keeps its own codes (SqliteError::code, PostgresError::sqlstate) for its own tests; callers
// decide what to do from kind() alone.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ghostpost::storage {

class StorageError : public std::runtime_error {
public:
    enum class Kind : std::uint8_t {
        Busy,       // another connection held what this one needed past the wait allowed
        Conflict,   // a concurrent transaction changed what this one read: run it again
        Constraint, // a uniqueness or reference rule refused the change (a duplicate, a bug)
        Io,         // the database could not be reached, read or written (network, disk)
        Other,      // anything else: SQL the backend refuses, a schema it does not know
    };

    StorageError(Kind kind, const std::string& message)
        : std::runtime_error(message), kind_(kind) {}
    Kind kind() const { return kind_; }
    // Whether the same work may succeed if it is simply done again later.
    bool transient() const {
        return kind_ == Kind::Busy || kind_ == Kind::Conflict || kind_ == Kind::Io;
    }

private:
    Kind kind_;
};

} // namespace ghostpost::storage
