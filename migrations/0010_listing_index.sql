-- What LIST and the web's list filter games by, in one index beside the name (issue 38): a
-- page of games is found by going through this index in name order, and a game no reader
-- may see is passed over without reading its row, whose summary columns (added after the
-- state by 0008) lie behind the state's overflow pages in SQLite's record.
CREATE INDEX games_listing ON games (name, status, listed, master, members);
