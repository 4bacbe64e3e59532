-- Version 10: version comparisons (judge/event/compare.h).  A comparison
-- is two submissions of one author in one game (a the newer, b the one
-- it is compared with); each of its pairs is two matches on one seed with
-- the same opponents in the same seats, a in one and b in the other, at
-- the same seat (side 0: a, side 1: b).  The results are read through the
-- match jobs.
CREATE TABLE comparisons (
	id         @ID@,
	author     TEXT NOT NULL,
	game       TEXT NOT NULL,
	a          @INT@ NOT NULL REFERENCES submissions (id),
	b          @INT@ NOT NULL REFERENCES submissions (id),
	created_at @INT@ NOT NULL
);
CREATE TABLE comparison_matches (
	comparison_id @INT@ NOT NULL REFERENCES comparisons (id),
	pair          INTEGER NOT NULL,
	side          INTEGER NOT NULL CHECK (side IN (0, 1)),
	seat          INTEGER NOT NULL,
	job_id        @INT@ NOT NULL UNIQUE REFERENCES jobs (id),
	PRIMARY KEY (comparison_id, pair, side)
)@ROWID@;
