-- No mail to anyone who did not ask (issue 24, part 2). An address gets game mail (results,
-- notices, press) only once it has confirmed that it wants it, by replying to herald's mail
-- from that address with the code herald sent there; judge-wide and kept.
CREATE TABLE confirmed (
    address TEXT PRIMARY KEY,   -- lower case
    at      INTEGER NOT NULL,   -- when it confirmed
    how     TEXT NOT NULL       -- what confirmed it (a reply carrying the code, ...)
);

-- Game mail not sent because its address had not confirmed: counted per address, never
-- kept whole (a game with thousands of forged observers must not fill the disk).
CREATE TABLE held (
    address TEXT PRIMARY KEY,
    mails   INTEGER NOT NULL,   -- how many were held
    first   INTEGER NOT NULL,
    last    INTEGER NOT NULL,
    subject TEXT NOT NULL       -- the last one's subject
);

-- Counters for the volume limits of [limits] (press per hour, results to observers per
-- hour, notices to a Master or to a new address): n events under key at a time.
CREATE TABLE volume (
    key TEXT NOT NULL,
    at  INTEGER NOT NULL,
    n   INTEGER NOT NULL
);
CREATE INDEX volume_key ON volume (key, at);
CREATE INDEX volume_at ON volume (at);
