-- Mirrors ../0006_inline_pictures.sql.
ALTER TABLE outbox_attachments ADD COLUMN inline TEXT;
