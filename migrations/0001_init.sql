-- herald's schema. Games are kept whole as JSON (one row each); every mail handled, every
-- mail to send, every Master action is a row. Times are Unix seconds, UTC.
CREATE TABLE games (
    name    TEXT PRIMARY KEY,
    state   TEXT NOT NULL,
    status  TEXT NOT NULL,
    due     INTEGER,          -- the next time the game needs attention (deadline, reminder, ...)
    updated INTEGER NOT NULL
);
CREATE INDEX games_due ON games (due);

CREATE TABLE mails (
    message_id TEXT PRIMARY KEY,
    body_hash  TEXT NOT NULL,
    sender     TEXT NOT NULL,
    received   INTEGER NOT NULL,
    outcome    TEXT NOT NULL    -- handled, ignored (and why), quarantined
);

CREATE TABLE quarantine (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    received INTEGER NOT NULL,
    reason   TEXT NOT NULL,
    raw      BLOB NOT NULL
);

CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    created     INTEGER NOT NULL,
    recipient   TEXT NOT NULL,
    subject     TEXT NOT NULL,
    body        TEXT NOT NULL,
    in_reply_to TEXT,
    sent        INTEGER
);
CREATE INDEX outbox_unsent ON outbox (id) WHERE sent IS NULL;

CREATE TABLE actions (
    id     INTEGER PRIMARY KEY AUTOINCREMENT,
    at     INTEGER NOT NULL,
    game   TEXT,
    actor  TEXT NOT NULL,
    action TEXT NOT NULL
);

CREATE TABLE replies (
    address TEXT NOT NULL,
    at      INTEGER NOT NULL
);
CREATE INDEX replies_address ON replies (address, at);

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
