-- Version 9: challenges (judge/event/challenge.h).  One row per unrated
-- match a contestant asked for: who asked (the limit per hour counts
-- these rows), with which of their submissions, the seats as asked
-- (JSON: a submission id, or a shipped player's name, per seat) and the
-- match job; the match the worker recorded is found by that job.
CREATE TABLE challenges (
	id            INTEGER PRIMARY KEY,
	author        TEXT NOT NULL,
	game          TEXT NOT NULL,
	submission_id INTEGER NOT NULL REFERENCES submissions (id),
	seats         TEXT NOT NULL,
	seed          INTEGER NOT NULL,
	job_id        INTEGER NOT NULL UNIQUE REFERENCES jobs (id),
	created_at    INTEGER NOT NULL
);
CREATE INDEX challenges_by_author ON challenges (author, created_at);
