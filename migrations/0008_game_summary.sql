-- A game's summary in columns of its own (issue 38, point 1), written with its state by
-- every save: what LIST, `herald game list` and the web's list print, read without
-- decoding any state. `version` is the judge-wide count of saves when the game was last
-- written (each save takes the largest plus one), so it grows with every save of the game
-- and its largest value changes whenever any game is written. A game stored before this
-- migration has no `variant` yet: herald fills its summary from its state when it opens
-- the database (see `Service::summarise_stored`).
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN variant TEXT;
ALTER TABLE games ADD COLUMN phase TEXT;            -- the phase's code (S1901M), once started
ALTER TABLE games ADD COLUMN phase_shown TEXT;      -- the phase in words (Spring 1901, movement)
ALTER TABLE games ADD COLUMN deadline INTEGER;
ALTER TABLE games ADD COLUMN deadline_shown TEXT;   -- the deadline in the game's time zone
ALTER TABLE games ADD COLUMN listed INTEGER NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN master TEXT NOT NULL DEFAULT '';   -- the Master's address, lower case
ALTER TABLE games ADD COLUMN members TEXT NOT NULL DEFAULT '';  -- its people, one a line (see `store::Summary`)
ALTER TABLE games ADD COLUMN seats INTEGER NOT NULL DEFAULT 0;  -- seats taken
ALTER TABLE games ADD COLUMN powers INTEGER NOT NULL DEFAULT 0; -- seats in all
ALTER TABLE games ADD COLUMN comment TEXT;
CREATE INDEX games_version ON games (version);
