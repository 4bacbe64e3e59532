-- Version 15 (as db/migrations/015): the record of a unit that died by its
-- own fault in a seat that played on: its id, round, step and reason.
ALTER TABLE match_faults ADD COLUMN unit INTEGER;
ALTER TABLE match_faults ADD COLUMN unit_round INTEGER;
ALTER TABLE match_faults ADD COLUMN unit_step INTEGER;
ALTER TABLE match_faults ADD COLUMN unit_reason TEXT;
