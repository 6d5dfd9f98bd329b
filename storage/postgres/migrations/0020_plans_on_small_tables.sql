-- Plans that hold on small tables never analysed (issue #34). Without statistics, PostgreSQL
-- estimates every equality lookup at one row, so an index that matches only `platform` ties with
-- the one that matches the whole key: it took games_by_challenged for "games in this channel"
-- and players_by_name or players_by_handle for "the player of this account", reading every row
-- of the platform. Partial, the handle indexes serve only the lookups that name a handle and
-- compete with nothing else (and are smaller: most accounts have no handle, most games no
-- challenged handle pending). Players are never looked up by display name any more (0007).
DROP INDEX games_by_challenged;
CREATE INDEX games_by_challenged ON games (platform, challenged) WHERE challenged <> '';
DROP INDEX players_by_handle;
CREATE INDEX players_by_handle ON players (platform, handle) WHERE handle <> '';
DROP INDEX players_by_name;
