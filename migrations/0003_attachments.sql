-- Files sent with a mail (a picture of the board, a calendar entry). A file's bytes are kept
-- once, under their SHA-256, however many mails carry them: a phase's picture goes in every
-- player's copy of the results.
CREATE TABLE blobs (
    hash  TEXT PRIMARY KEY,           -- SHA-256 of bytes, lower-case hex
    bytes BLOB NOT NULL
);

CREATE TABLE outbox_attachments (
    outbox_id    INTEGER NOT NULL REFERENCES outbox (id),
    position     INTEGER NOT NULL,    -- its place among the mail's attachments, from 0
    name         TEXT NOT NULL,       -- the file name the reader sees
    content_type TEXT NOT NULL,
    hash         TEXT NOT NULL REFERENCES blobs (hash),
    PRIMARY KEY (outbox_id, position)
) WITHOUT ROWID;
