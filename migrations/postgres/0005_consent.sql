-- Mirrors ../0005_consent.sql.
CREATE TABLE confirmed (
    address TEXT COLLATE "C" PRIMARY KEY,
    at      BIGINT NOT NULL,
    how     TEXT NOT NULL
);

CREATE TABLE held (
    address TEXT COLLATE "C" PRIMARY KEY,
    mails   BIGINT NOT NULL,
    first   BIGINT NOT NULL,
    last    BIGINT NOT NULL,
    subject TEXT NOT NULL
);

CREATE TABLE volume (
    key TEXT COLLATE "C" NOT NULL,
    at  BIGINT NOT NULL,
    n   BIGINT NOT NULL
);
CREATE INDEX volume_key ON volume (key, at);
CREATE INDEX volume_at ON volume (at);
