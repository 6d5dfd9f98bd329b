-- Tournaments played all at once or round after round, rounds that start by themselves or wait
-- for !tourney next (those created before waited), the colour a Swiss drew by lot, and the float
-- each Swiss board gave its players.
ALTER TABLE tournaments ADD COLUMN schedule TEXT NOT NULL DEFAULT 'rounds';
ALTER TABLE tournaments ADD COLUMN next_round TEXT NOT NULL DEFAULT 'manual';
ALTER TABLE tournaments ADD COLUMN initial_colour TEXT NOT NULL DEFAULT '';
ALTER TABLE tournament_pairings ADD COLUMN white_float TEXT NOT NULL DEFAULT '';
ALTER TABLE tournament_pairings ADD COLUMN black_float TEXT NOT NULL DEFAULT '';
