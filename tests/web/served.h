// A game of chess after 1. e4 served over HTTP on loopback, and a client for it: the web tests
// that ask the server rather than the site.
#pragma once

#include "ghostpost/web/server.h"
#include "ghostpost/web/site.h"
#include "web_support.h"

#include <httplib.h>

namespace ghostpost::test {

struct Served {
    WebDb db;
    std::int64_t id = db.new_game("chess", 1);
    web::Site site{web::SiteSettings{db.path()}};
    web::WebServer server{site, web::ServerSettings{"127.0.0.1", 0, 2, 8, 2}};
    Served() {
        db.log(id, 1, rules::Seat::White, "e4");
        server.start();
    }
    httplib::Client client() { return httplib::Client("127.0.0.1", server.port()); }
};

} // namespace ghostpost::test
