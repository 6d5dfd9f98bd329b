-- A lease and a claim on an outbox entry name the database session that took them: a session
-- advisory lock each connection holds from its start (its key is the number stored here), which
-- the server drops the moment the connection dies. Another daemon takes over at once then, not
-- when the time runs out; the time still frees what a hung but living daemon holds. 0: taken by
-- a daemon from before this column, whose time alone frees it.
ALTER TABLE leases ADD COLUMN session BIGINT NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN claimed_session BIGINT NOT NULL DEFAULT 0;
