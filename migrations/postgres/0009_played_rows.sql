-- Mirrors ../0009_played_rows.sql: a game's played phases in rows of their own, INTEGER as
-- BIGINT.
CREATE TABLE played (
    game   TEXT NOT NULL,
    list   TEXT NOT NULL,       -- the key of the state's list (history, archive)
    seq    BIGINT NOT NULL,     -- the item's place in it, from 0
    digest TEXT NOT NULL,       -- of `body`: a save tells an unchanged item without reading it
    body   TEXT NOT NULL,       -- the item, as JSON
    PRIMARY KEY (game, list, seq)
);
ALTER TABLE games ADD COLUMN lists TEXT;
-- The games still stored whole, found at every open without reading the table.
CREATE INDEX games_whole ON games (name) WHERE lists IS NULL;
