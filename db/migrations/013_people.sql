-- Version 13: people.  A token carries the roster's label and group; a
-- disqualification can be lifted (reinstated), the row kept as history.
ALTER TABLE tokens ADD COLUMN label TEXT;
ALTER TABLE tokens ADD COLUMN grp TEXT;
ALTER TABLE disqualifications ADD COLUMN reinstated_at @INT@;
ALTER TABLE disqualifications ADD COLUMN reinstated_by TEXT;
