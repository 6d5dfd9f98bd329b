-- A channel's own defaults for the boards posted there, set by its moderators; a player's
-- settings now shape only what the bot sends them privately.
CREATE TABLE channel_settings (
    platform TEXT NOT NULL,
    channel TEXT NOT NULL,
    orientation TEXT NOT NULL,
    notation TEXT NOT NULL,
    images BIGINT NOT NULL,
    PRIMARY KEY (platform, channel)
);
