-- Version 2: a submission's events (what `judge status` and webhooks
-- report) are found without reading every event of the tournament.
CREATE INDEX events_by_submission ON events (submission_id, id);
