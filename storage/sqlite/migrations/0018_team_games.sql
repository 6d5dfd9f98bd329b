-- Team games: a channel plays as one. Its members (who said !team join there) vote on each of
-- its decisions; the team itself is a player row (user id "team:<channel>") that sits in the
-- game's seat and carries the team's ratings.
CREATE TABLE team_members (
    platform TEXT NOT NULL,
    channel TEXT NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players (id),
    joined_at INTEGER NOT NULL,
    PRIMARY KEY (platform, channel, player_id)
);

-- One vote per member and decision (`turn`: the game's revision when the decision began); a
-- member who votes again changes their vote, and it counts from then.
CREATE TABLE team_votes (
    game_id INTEGER NOT NULL REFERENCES games (id),
    turn INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players (id),
    action TEXT NOT NULL,
    voted_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, turn, player_id)
);
