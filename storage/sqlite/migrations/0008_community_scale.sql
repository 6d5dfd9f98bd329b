-- Community scale. Each game keeps when the time-driven job must next look at it
-- (next_deadline, NULL: never), so the job touches only the games due; games under way
-- before this are due at once, and the job's first look sets their deadline. Indexes for
-- every query a post or a command runs, and for pruning delivered replies and old post ids.
ALTER TABLE games ADD COLUMN next_deadline INTEGER;
UPDATE games SET next_deadline = 0 WHERE status = 'ongoing' AND paused = 0;
CREATE INDEX games_by_deadline ON games (next_deadline) WHERE next_deadline IS NOT NULL;
CREATE INDEX games_by_status ON games (status);
CREATE INDEX games_by_white ON games (white);
CREATE INDEX games_by_black ON games (black);
CREATE INDEX games_by_challenger ON games (challenger);
CREATE INDEX games_by_challenged_id ON games (challenged_id);
CREATE INDEX games_by_challenged ON games (platform, challenged);
CREATE INDEX outbox_by_destination ON outbox (platform, destination, state);
CREATE INDEX outbox_sent ON outbox (sent_at) WHERE state = 'sent';
CREATE INDEX handled_posts_by_age ON handled_posts (handled_at);
CREATE INDEX mod_log_by_platform ON mod_log (platform);
-- The live-ply index is partial: the foreign key checks of games need one on every action.
CREATE INDEX actions_by_game ON actions (game_id);
