-- Buttons offered with a reply ("label<TAB>command" lines), and the accounts a reply names by
-- display name because they have no handle ("user id<TAB>name" lines), so that a platform can
-- show the buttons and notify those players.
ALTER TABLE outbox ADD COLUMN buttons TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox ADD COLUMN named TEXT NOT NULL DEFAULT '';
