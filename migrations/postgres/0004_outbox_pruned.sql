-- Mirrors ../0004_outbox_pruned.sql.
ALTER TABLE outbox ADD COLUMN pruned BIGINT;
CREATE INDEX outbox_kept ON outbox (id) WHERE pruned IS NULL;
CREATE INDEX outbox_attachments_hash ON outbox_attachments (hash);
