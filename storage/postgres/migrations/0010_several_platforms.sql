-- One player, several platforms. An account linked to a player (!link) is that player;
-- one-time codes for linking accounts and for channels that follow a game (!invite).
ALTER TABLE players ADD COLUMN linked_to BIGINT REFERENCES players (id);
CREATE INDEX players_by_link ON players (linked_to) WHERE linked_to IS NOT NULL;
CREATE TABLE link_codes (
    code TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    player_id BIGINT REFERENCES players (id),
    game_id BIGINT REFERENCES games (id),
    platform TEXT NOT NULL DEFAULT '',
    expires_at BIGINT NOT NULL
);
CREATE TABLE game_channels (
    -- SQLite orders these rows by its rowid; PostgreSQL has none.
    seq BIGINT GENERATED ALWAYS AS IDENTITY,
    game_id BIGINT NOT NULL REFERENCES games (id),
    platform TEXT NOT NULL,
    channel TEXT NOT NULL,
    PRIMARY KEY (game_id, platform, channel)
);
CREATE INDEX game_channels_by_channel ON game_channels (platform, channel);
