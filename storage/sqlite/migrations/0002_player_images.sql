-- A player may ask for boards as images by default.
ALTER TABLE players ADD COLUMN images INTEGER NOT NULL DEFAULT 0;
