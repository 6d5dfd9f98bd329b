-- A platform's request limit shared by every daemon on the database (issue #34: a chat service's
-- 50 requests a second for the whole bot): the time, in milliseconds of the server's clock, at
-- which the next call under `key` is due if calls keep their spacing (a generic cell rate
-- algorithm's "theoretical arrival time").
CREATE TABLE shared_limits (
    key TEXT PRIMARY KEY,
    next_at_ms BIGINT NOT NULL
);
