-- Version 15: a seat that did not freeze but one of whose units died by
-- its own fault (AIC2018: a unit's code crashed, or broke its energy
-- count) has a record too, of the step that unit died in: the unit's id,
-- the round, the seat's step in that round and the reason.  NULL unit: the
-- record of a frozen seat (match_players has its round and reason).
ALTER TABLE match_faults ADD COLUMN unit INTEGER;
ALTER TABLE match_faults ADD COLUMN unit_round INTEGER;
ALTER TABLE match_faults ADD COLUMN unit_step INTEGER;
ALTER TABLE match_faults ADD COLUMN unit_reason TEXT;
