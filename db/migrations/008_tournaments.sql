--@ sqlite
-- Version 8: tournaments (judge/event/).  A tournament is its spec (phases
-- and settings, as judge/event/tournament.h reads them) and a seed every
-- draw follows from; entrants are authors, each with a representative;
-- tournament_matches holds each planned match's place in its phase (round,
-- stage, group, game), which makes a planned match queued and recorded
-- once; tournament_log says what happened, in order.

-- Matches of the new kinds: a tournament's, a challenge's, a version
-- comparison's; and how long each took to play (wall_ms, NULL for the
-- matches recorded before), for forecasts.  SQLite cannot change a CHECK in place, so the table is
-- rebuilt, every row kept with its id; the foreign keys that point at it
-- are checked when the migration commits.
PRAGMA defer_foreign_keys = ON;
CREATE TABLE matches_new (
	id         INTEGER PRIMARY KEY,
	job_id     INTEGER NOT NULL UNIQUE REFERENCES jobs (id),
	game       TEXT NOT NULL,
	kind       TEXT NOT NULL CHECK (kind IN ('qualifying', 'ranked', 'tournament',
	                                         'challenge', 'comparison')),
	seed       INTEGER NOT NULL,
	params     TEXT,
	rated      INTEGER NOT NULL DEFAULT 0,
	replay     TEXT,
	created_at INTEGER NOT NULL,
	wall_ms    INTEGER
);
INSERT INTO matches_new (id, job_id, game, kind, seed, params, rated, replay, created_at)
	SELECT id, job_id, game, kind, seed, params, rated, replay, created_at FROM matches;
DROP TABLE matches;
ALTER TABLE matches_new RENAME TO matches;
CREATE INDEX matches_by_game ON matches (game, id);
--@ postgres
-- Version 8 (as db/migrations/008): tournaments, matches of the new kinds
-- (a tournament's, a challenge's, a version comparison's) and each
-- match's wall time.
ALTER TABLE matches DROP CONSTRAINT matches_kind_check;
ALTER TABLE matches ADD CONSTRAINT matches_kind_check
	CHECK (kind IN ('qualifying', 'ranked', 'tournament', 'challenge', 'comparison'));
ALTER TABLE matches ADD COLUMN wall_ms BIGINT;
--@ both

CREATE TABLE tournaments (
	id         @ID@,
	game       TEXT NOT NULL,
	name       TEXT NOT NULL UNIQUE,
	spec       TEXT NOT NULL,
	phases     INTEGER NOT NULL,          -- how many the spec has
	seed       @INT@ NOT NULL,
	phase      INTEGER NOT NULL DEFAULT 0, -- the phase under way, from 0; the count when over
	round      INTEGER NOT NULL DEFAULT 0, -- its round under way (elimination), from 0
	started_at @INT@,                    -- when the phase under way started; NULL: not yet
	created_at @INT@ NOT NULL
);

CREATE TABLE entrants (
	id             @ID@,
	tournament_id  @INT@ NOT NULL REFERENCES tournaments (id),
	author         TEXT NOT NULL,
	grp            TEXT NOT NULL DEFAULT '',
	pseudonym      TEXT,
	representative @INT@ REFERENCES submissions (id),
	out_phase      INTEGER, -- where the entrant went out; NULL: still in
	out_round      INTEGER,
	place          INTEGER, -- in the last group or bracket phase played
	UNIQUE (tournament_id, author)
);

CREATE TABLE tournament_matches (
	tournament_id @INT@ NOT NULL REFERENCES tournaments (id),
	phase    INTEGER NOT NULL,
	round    INTEGER NOT NULL,
	stage    INTEGER NOT NULL,
	grp      INTEGER NOT NULL,
	game_no  INTEGER NOT NULL,
	seats    TEXT NOT NULL,  -- JSON: the entrant in each seat, 0 for the opponent
	seed     @INT@ NOT NULL,
	job_id   @INT@ NOT NULL UNIQUE REFERENCES jobs (id),
	match_id @INT@ UNIQUE REFERENCES matches (id),
	PRIMARY KEY (tournament_id, phase, round, stage, grp, game_no)
)@ROWID@;

CREATE TABLE tournament_log (
	id            @ID@,
	tournament_id @INT@ NOT NULL REFERENCES tournaments (id),
	what          TEXT NOT NULL,
	data          TEXT NOT NULL,
	created_at    @INT@ NOT NULL
);
CREATE INDEX tournament_log_by_tournament ON tournament_log (tournament_id, id);
