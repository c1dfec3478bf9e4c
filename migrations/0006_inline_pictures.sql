-- A picture of the board shown in the body of its mail (issue 27, point 5: "an HTML
-- alternative with the image inline"): its alt text, naming game and phase. NULL for a
-- file that is only attached (a calendar entry, an SVG), and for every file queued before.
ALTER TABLE outbox_attachments ADD COLUMN inline TEXT;
