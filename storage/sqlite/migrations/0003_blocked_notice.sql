-- What to say in the game's channel when a private message cannot be delivered.
ALTER TABLE outbox ADD COLUMN notice_channel TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox ADD COLUMN blocked_notice TEXT NOT NULL DEFAULT '';
