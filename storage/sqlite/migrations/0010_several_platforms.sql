-- One player, several platforms. An account linked to a player (!link) is that player;
-- one-time codes for linking accounts and for channels that follow a game (!invite).
ALTER TABLE players ADD COLUMN linked_to INTEGER REFERENCES players (id);
CREATE INDEX players_by_link ON players (linked_to) WHERE linked_to IS NOT NULL;
CREATE TABLE link_codes (
    code TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    player_id INTEGER REFERENCES players (id),
    game_id INTEGER REFERENCES games (id),
    platform TEXT NOT NULL DEFAULT '',
    expires_at INTEGER NOT NULL
);
CREATE TABLE game_channels (
    game_id INTEGER NOT NULL REFERENCES games (id),
    platform TEXT NOT NULL,
    channel TEXT NOT NULL,
    PRIMARY KEY (game_id, platform, channel)
);
CREATE INDEX game_channels_by_channel ON game_channels (platform, channel);
