-- The language a person reads (issue #38): a player's own choice (!settings language=de), what
-- their platform last said of them (a language tag the chat service gives), and a
-- channel's language set by its moderators for the replies everyone reads. '' when unset.
ALTER TABLE players ADD COLUMN language TEXT NOT NULL DEFAULT '';
ALTER TABLE players ADD COLUMN platform_language TEXT NOT NULL DEFAULT '';
ALTER TABLE channel_settings ADD COLUMN language TEXT NOT NULL DEFAULT '';
