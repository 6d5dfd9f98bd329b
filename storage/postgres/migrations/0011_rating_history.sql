-- Every rating a player had, for the web view's rating-history chart: one row per
-- save_rating, in the same transaction as the rating itself.
CREATE TABLE rating_history (
    player_id BIGINT NOT NULL REFERENCES players (id),
    variant TEXT NOT NULL,
    games BIGINT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (player_id, variant, games)
);
