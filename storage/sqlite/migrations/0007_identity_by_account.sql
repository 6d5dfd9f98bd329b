-- Identity by account, never by display name. A player's handle is the platform's unique
-- username (empty when the account has none); names were display names or handles, so no
-- old row is trusted with a handle until its account posts again. A challenge names the
-- account it is made to once known (challenged_id); `challenged` keeps the handle.
ALTER TABLE players ADD COLUMN handle TEXT NOT NULL DEFAULT '';
CREATE INDEX players_by_handle ON players (platform, handle);
ALTER TABLE games ADD COLUMN challenged_id INTEGER REFERENCES players (id);
-- Bumped by every change of a game (an action, a takeback, seats, status), so that a cache in
-- any process can tell whether what it holds is still the game.
ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
