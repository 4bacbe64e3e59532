-- Version 9: challenges (judge/event/challenge.h).  One row per unrated
-- match a contestant asked for: who asked (the limit per hour counts
-- these rows), with which of their submissions, the seats as asked
-- (JSON: a submission id, or a shipped player's name, per seat) and the
-- match job; the match the worker recorded is found by that job.
CREATE TABLE challenges (
	id            @ID@,
	author        TEXT NOT NULL,
	game          TEXT NOT NULL,
	submission_id @INT@ NOT NULL REFERENCES submissions (id),
	seats         TEXT NOT NULL,
	seed          @INT@ NOT NULL,
	job_id        @INT@ NOT NULL UNIQUE REFERENCES jobs (id),
	created_at    @INT@ NOT NULL
);
CREATE INDEX challenges_by_author ON challenges (author, created_at);
