-- Version 2 (as db/migrations/002): a submission's events are found
-- without reading every event of the tournament.
CREATE INDEX events_by_submission ON events (submission_id, id);
