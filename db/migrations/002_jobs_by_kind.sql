-- Version 2: finding the match jobs still to do (the scheduler asks before
-- it plans ranked matches) reads only those, not the whole queue's history.
CREATE INDEX jobs_by_kind ON jobs (kind, state);
