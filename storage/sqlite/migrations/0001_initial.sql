-- The first schema: players, games and their action log, posts handled, cursors, the outbox
-- and offers.
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    platform TEXT NOT NULL,
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    orientation TEXT NOT NULL DEFAULT 'auto',
    notation TEXT NOT NULL DEFAULT 'ascii',
    UNIQUE (platform, user_id)
);
CREATE INDEX players_by_name ON players (platform, name_key);

CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    platform TEXT NOT NULL,
    channel TEXT NOT NULL,
    challenger INTEGER NOT NULL REFERENCES players (id),
    challenged TEXT NOT NULL,
    challenger_color TEXT NOT NULL,
    white INTEGER REFERENCES players (id),
    black INTEGER REFERENCES players (id),
    status TEXT NOT NULL,
    result TEXT NOT NULL DEFAULT '',
    reason TEXT NOT NULL DEFAULT '',
    seed BLOB NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX games_by_channel ON games (platform, channel, status);

CREATE TABLE actions (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id),
    ply INTEGER NOT NULL,
    seat TEXT NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players (id),
    text TEXT NOT NULL,
    message_id TEXT NOT NULL,
    taken_back INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX actions_live_ply ON actions (game_id, ply) WHERE taken_back = 0;

CREATE TABLE handled_posts (
    platform TEXT NOT NULL,
    channel TEXT NOT NULL,
    message_id TEXT NOT NULL,
    handled_at INTEGER NOT NULL,
    PRIMARY KEY (platform, channel, message_id)
);

CREATE TABLE cursors (
    platform TEXT PRIMARY KEY,
    cursor TEXT NOT NULL
);

CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    platform TEXT NOT NULL,
    to_user INTEGER NOT NULL,
    destination TEXT NOT NULL,
    text TEXT NOT NULL,
    code TEXT NOT NULL,
    png BLOB,
    reply_to TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',
    last_error TEXT NOT NULL DEFAULT '',
    sent_at INTEGER
);
CREATE INDEX outbox_pending ON outbox (platform, state, next_attempt_at);

CREATE TABLE offers (
    game_id INTEGER NOT NULL REFERENCES games (id),
    kind TEXT NOT NULL,
    seat TEXT NOT NULL,
    ply INTEGER NOT NULL,
    PRIMARY KEY (game_id, kind)
);
