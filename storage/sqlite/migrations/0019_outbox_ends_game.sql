-- Whether a reply tells a game's end (its result), so that a platform that keeps a game's
-- replies in a thread can show that one in the channel too.
ALTER TABLE outbox ADD COLUMN ends_game INTEGER NOT NULL DEFAULT 0;
