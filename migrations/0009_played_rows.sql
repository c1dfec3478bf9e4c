-- A game's played phases in rows of their own (issue 38, point 2): each item of the lists
-- a game only appends to (its history of phases played, its archive of results and
-- broadcasts) is a row of `played`, written once, so that a save rewrites only the live
-- state in `games`. `lists` names the keys of the state kept in `played` (space
-- separated); NULL for a state stored whole, as before this migration: herald moves those
-- over when it opens the database (see `store::played`).
CREATE TABLE played (
    game   TEXT NOT NULL,
    list   TEXT NOT NULL,       -- the key of the state's list (history, archive)
    seq    INTEGER NOT NULL,    -- the item's place in it, from 0
    digest TEXT NOT NULL,       -- of `body`: a save tells an unchanged item without reading it
    body   TEXT NOT NULL,       -- the item, as JSON
    PRIMARY KEY (game, list, seq)
);
ALTER TABLE games ADD COLUMN lists TEXT;
-- The games still stored whole, found at every open without reading the table.
CREATE INDEX games_whole ON games (name) WHERE lists IS NULL;
