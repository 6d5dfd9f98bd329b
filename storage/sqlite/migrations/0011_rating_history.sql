-- Every rating a player had, for the web view's rating-history chart: one row per
-- save_rating, in the same transaction as the rating itself.
CREATE TABLE rating_history (
    player_id INTEGER NOT NULL REFERENCES players (id),
    variant TEXT NOT NULL,
    games INTEGER NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (player_id, variant, games)
);
