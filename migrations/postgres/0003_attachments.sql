-- Mirrors ../0003_attachments.sql.
CREATE TABLE blobs (
    hash  TEXT COLLATE "C" PRIMARY KEY,
    bytes BYTEA NOT NULL
);

CREATE TABLE outbox_attachments (
    outbox_id    BIGINT NOT NULL REFERENCES outbox (id),
    position     BIGINT NOT NULL,
    name         TEXT NOT NULL,
    content_type TEXT NOT NULL,
    hash         TEXT COLLATE "C" NOT NULL REFERENCES blobs (hash),
    PRIMARY KEY (outbox_id, position)
);
