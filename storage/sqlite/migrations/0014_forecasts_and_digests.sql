-- Conditional moves and the daily digest. A forecast is one seat's lines in one game, anchored
-- after the live ply they start from (lines: one per row of text, actions separated by tabs).
-- A digest is due at next_at, by an index, so the time-driven job reads only the players whose
-- hour has come.
CREATE TABLE forecasts (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat TEXT NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players (id),
    ply INTEGER NOT NULL,
    lines TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE digests (
    player_id INTEGER PRIMARY KEY REFERENCES players (id),
    platform TEXT NOT NULL,
    hour INTEGER NOT NULL,
    next_at INTEGER NOT NULL
);
CREATE INDEX digests_by_time ON digests (next_at);
