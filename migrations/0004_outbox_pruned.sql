-- The outbox does not keep every mail's text forever (issue 24: one mail added 400 MB): once
-- a mail was sent, or failed, `[limits] keep_outbox_days` ago, its text and files are
-- dropped and `pruned` says when; the row, which says that it went, stays. The partial index
-- keeps the search for what to drop to the rows not dropped yet; the index on the files'
-- digests lets a file no mail names any more be found and removed.
ALTER TABLE outbox ADD COLUMN pruned INTEGER;
CREATE INDEX outbox_kept ON outbox (id) WHERE pruned IS NULL;
CREATE INDEX outbox_attachments_hash ON outbox_attachments (hash);
