-- Mirrors ../0007_outbox_kind.sql (a new database has no queued mail to mark).
ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT 'ordinary'
    CHECK (kind IN ('ordinary', 'undeliverable'));
