-- Correspondence clocks, vacations, reminders, the heartbeat and moderation. Games from
-- before have no clock (time_control 'none').
ALTER TABLE games ADD COLUMN time_control TEXT NOT NULL DEFAULT 'none';
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN reminders INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN vacation_until INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN vacation_year INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN vacation_used INTEGER NOT NULL DEFAULT 0;
CREATE TABLE clocks (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat TEXT NOT NULL,
    remaining INTEGER NOT NULL,
    running_since INTEGER NOT NULL,
    deciding_since INTEGER NOT NULL,
    budget INTEGER NOT NULL,
    warned INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE heartbeat (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at INTEGER NOT NULL
);
CREATE TABLE mod_log (
    id INTEGER PRIMARY KEY,
    platform TEXT NOT NULL,
    moderator TEXT NOT NULL,
    action TEXT NOT NULL,
    at INTEGER NOT NULL
);
CREATE TABLE bans (
    platform TEXT NOT NULL,
    user_id TEXT NOT NULL,
    banned_by TEXT NOT NULL,
    reason TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (platform, user_id)
);
