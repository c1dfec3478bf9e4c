-- When a Master was last told that mail to an address bounced: a bounce brings its notices at
-- most once a day per address, however many come back (issue 24: forged bounces must not make
-- herald mail the Master more than once a day per address).
CREATE TABLE bounce_notices (
    address TEXT PRIMARY KEY,   -- lower case
    at      INTEGER NOT NULL    -- Unix seconds
) WITHOUT ROWID;
