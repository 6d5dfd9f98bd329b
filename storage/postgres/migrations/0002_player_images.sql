-- A player may ask for boards as images by default.
ALTER TABLE players ADD COLUMN images BIGINT NOT NULL DEFAULT 0;
