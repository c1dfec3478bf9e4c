-- Delivery over SMTP: attempts are recorded before each try (a crash between the send and
-- the row update resends with the same Message-ID); a permanent refusal is kept with its
-- reason. Bounces that come back mark the address.
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN next_attempt INTEGER;
ALTER TABLE outbox ADD COLUMN failed TEXT;

CREATE TABLE bounces (
    address TEXT NOT NULL,
    at      INTEGER NOT NULL,
    reason  TEXT NOT NULL
);
CREATE INDEX bounces_address ON bounces (address);
