-- Mirrors ../0008_game_summary.sql: a game's summary in columns, INTEGER as BIGINT.
ALTER TABLE games ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN variant TEXT;
ALTER TABLE games ADD COLUMN phase TEXT;            -- the phase's code (S1901M), once started
ALTER TABLE games ADD COLUMN phase_shown TEXT;      -- the phase in words (Spring 1901, movement)
ALTER TABLE games ADD COLUMN deadline BIGINT;
ALTER TABLE games ADD COLUMN deadline_shown TEXT;   -- the deadline in the game's time zone
ALTER TABLE games ADD COLUMN listed BIGINT NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN master TEXT NOT NULL DEFAULT '';   -- the Master's address, lower case
ALTER TABLE games ADD COLUMN members TEXT NOT NULL DEFAULT '';  -- its people, one a line (see `store::Summary`)
ALTER TABLE games ADD COLUMN seats BIGINT NOT NULL DEFAULT 0;  -- seats taken
ALTER TABLE games ADD COLUMN powers BIGINT NOT NULL DEFAULT 0; -- seats in all
ALTER TABLE games ADD COLUMN comment TEXT;
CREATE INDEX games_version ON games (version);
