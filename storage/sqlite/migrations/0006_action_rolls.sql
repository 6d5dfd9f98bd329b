-- What each action was seen to cause by chance (a variant's reveals, rolls and combat
-- results), as the channel was told, so that !verify compares a replay with the record.
ALTER TABLE actions ADD COLUMN rolls TEXT NOT NULL DEFAULT '';
