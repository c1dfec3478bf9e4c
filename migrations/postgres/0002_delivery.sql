-- Mirrors ../0002_delivery.sql.
ALTER TABLE outbox ADD COLUMN attempts BIGINT NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN next_attempt BIGINT;
ALTER TABLE outbox ADD COLUMN failed TEXT;

CREATE TABLE bounces (
    address TEXT COLLATE "C" NOT NULL,
    at      BIGINT NOT NULL,
    reason  TEXT NOT NULL
);
CREATE INDEX bounces_address ON bounces (address);
