-- Conditional moves and the daily digest. A forecast is one seat's lines in one game, anchored
-- after the live ply they start from (lines: one per row of text, actions separated by tabs).
-- A digest is due at next_at, by an index, so the time-driven job reads only the players whose
-- hour has come.
CREATE TABLE forecasts (
    game_id BIGINT NOT NULL REFERENCES games (id),
    seat TEXT NOT NULL,
    player_id BIGINT NOT NULL REFERENCES players (id),
    ply BIGINT NOT NULL,
    lines TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE digests (
    player_id BIGINT PRIMARY KEY REFERENCES players (id),
    platform TEXT NOT NULL,
    hour BIGINT NOT NULL,
    next_at BIGINT NOT NULL
);
CREATE INDEX digests_by_time ON digests (next_at);
