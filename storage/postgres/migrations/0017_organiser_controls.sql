-- What organisers of a Swiss ask for: a player who withdraws is not paired from a round on
-- (their games stay), a late entrant is paired from the round after the one under way, a player
-- may ask in advance to sit out a round for half a point, and two players may be kept apart.
ALTER TABLE tournament_entrants ADD COLUMN first_round BIGINT NOT NULL DEFAULT 1;
ALTER TABLE tournament_entrants ADD COLUMN withdrawn_round BIGINT;

CREATE TABLE tournament_byes (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id),
    player_id BIGINT NOT NULL REFERENCES players (id),
    round BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, player_id, round)
);

-- Kept apart as if they had met (C.04.1 allows the arbiter this); player_a < player_b.
CREATE TABLE tournament_forbidden (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id),
    player_a BIGINT NOT NULL REFERENCES players (id),
    player_b BIGINT NOT NULL REFERENCES players (id),
    PRIMARY KEY (tournament_id, player_a, player_b)
);

-- The game a rating point came from, so a game's page can show what it changed; empty for the
-- points saved before.
ALTER TABLE rating_history ADD COLUMN game_id BIGINT;

-- A channel may choose compact replies: the move on one line with an image or a link, not the
-- twelve-line board.
ALTER TABLE channel_settings ADD COLUMN style TEXT NOT NULL DEFAULT 'board';
