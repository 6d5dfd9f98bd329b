// The web view: read-only pages over the games, players and tournaments a database holds.
// Site answers a path with a page and knows nothing of sockets (server.h serves it over HTTP),
// so tests can ask it for pages directly.
//
// Every board on a page is made from rules::PublicView (or, once a game is over, the final view
// the channel is shown), and every move text from the public record (game_record.h), so a page
// can show no more than the channel was told. Secrets (a piece only its owner sees, a hidden seed
// and secret choices) appear only after the game has ended, when the channel was told them too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace ghostpost::web {

struct SiteSettings {
    std::string db_path;              // the SQLite file (WAL); the site opens its own connections
    std::size_t connections = 8;      // read connections kept open: one per server thread
    std::size_t cached_pages = 1024;  // game pages kept rendered, by game, ply and revision
    std::string command_prefix = "!"; // how commands are written where a page names one
    // A PostgreSQL database instead of db_path ("postgresql://user@host/db"), and its password
    // (empty: libpq's own means). Connections are opened as the daemons open theirs.
    std::string db_url;
    std::string db_password;
};

struct Page {
    int status = 200;         // 200, or 404 for a path or id that names nothing
    std::string content_type; // "text/html; charset=utf-8", "image/svg+xml", ...
    std::string body;
    std::string etag;     // a strong validator of the body, quoted; empty: none
    std::string filename; // when set, the page is a download of that name
};

using Query = std::map<std::string, std::string>;

class Site {
public:
    // Errors: storage::StorageError when the database cannot be opened.
    explicit Site(SiteSettings settings);
    ~Site();
    Site(const Site&) = delete;
    Site& operator=(const Site&) = delete;

    // The page at `path` (without the query string) with the query's parameters. Thread-safe.
    // Never throws for any path or query: a bad one gets a 404 page. Errors: storage exceptions
    // (a database gone away), which the server turns into a 500 page.
    // `language`: the reader's (a catalog's name, "de"); the page's words are in it, notation
    // and names as they are. One that has no catalog is English.
    Page get(const std::string& path, const Query& query = {}, const std::string& language = "en");

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace ghostpost::web
