-- What a queued mail is (issue 26: "mail kinds as types"): herald's report that a mail
-- could not be delivered is not itself reported when it fails, and that was told by the
-- words "Undeliverable Mail" in its subject, which a reply to a stranger's subject may
-- carry too. Reports still waiting are marked by the subjects herald gave them.
ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT 'ordinary'
    CHECK (kind IN ('ordinary', 'undeliverable'));
UPDATE outbox SET kind = 'undeliverable'
    WHERE sent IS NULL AND failed IS NULL
      AND (subject LIKE 'herald: Undeliverable Mail to %'
           OR subject LIKE 'JUDGE:% Undeliverable Mail');
