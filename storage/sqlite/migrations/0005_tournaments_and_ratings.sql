-- Tournaments (entrants, rounds, pairings with their games) and Glicko-2 ratings per
-- variant.
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    platform TEXT NOT NULL,
    channel TEXT NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    variant TEXT NOT NULL,
    format TEXT NOT NULL,
    rounds INTEGER NOT NULL DEFAULT 0,
    tc TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,
    creator INTEGER NOT NULL REFERENCES players (id),
    current_round INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    UNIQUE (platform, name_key)
);
CREATE INDEX tournaments_by_channel ON tournaments (platform, channel);

CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    player_id INTEGER NOT NULL REFERENCES players (id),
    seed INTEGER NOT NULL,
    joined_at INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, player_id)
);

CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    completed_at INTEGER,
    PRIMARY KEY (tournament_id, round)
);

CREATE TABLE tournament_pairings (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round INTEGER NOT NULL,
    board INTEGER NOT NULL,
    white INTEGER NOT NULL REFERENCES players (id),
    black INTEGER REFERENCES players (id),
    game_id INTEGER REFERENCES games (id),
    PRIMARY KEY (tournament_id, round, board)
);
CREATE INDEX tournament_pairings_by_game ON tournament_pairings (game_id);

CREATE TABLE ratings (
    player_id INTEGER NOT NULL REFERENCES players (id),
    variant TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (player_id, variant)
);
CREATE INDEX ratings_by_variant ON ratings (variant, rating);
