-- The judge's store, version 1: submissions, the job queue, matches and
-- ratings.  Times are milliseconds since the Unix epoch.  On SQLite one
-- file is the single source of truth; on PostgreSQL the same tables,
-- columns and meaning serve workers on many machines sharing one queue.
-- Applied by judge/store/store.c to a fresh database; later versions add
-- db/migrations/NNN.sql.  The schema version is SQLite's user_version, or
-- PostgreSQL's meta row 'schema_version'.  One source for both: the
-- blocks and words db/dialect.awk expands (db/README.md).

CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
)@ROWID@;
INSERT INTO meta (key, value) VALUES ('application', 'judge');
--@ postgres

-- SQLite's json_extract(doc, '$.a.b') for the store's one text per
-- statement: the field as text, NULL when missing ('$.a.b' paths only).
CREATE FUNCTION json_extract(doc TEXT, path TEXT) RETURNS TEXT
	LANGUAGE sql IMMUTABLE PARALLEL SAFE
	AS $$ SELECT doc::jsonb #>> string_to_array(substr(path, 3), '.') $$;
--@ both

-- A player name belongs, per game, to the first author who used it.
CREATE TABLE names (
	game   TEXT NOT NULL,
	name   TEXT NOT NULL,
	author TEXT NOT NULL,
	PRIMARY KEY (game, name)
)@ROWID@;

CREATE TABLE submissions (
	id            @ID@,
	game          TEXT NOT NULL,
	author        TEXT NOT NULL,
	name          TEXT NOT NULL,
	source        @BLOB@ NOT NULL,
	source_sha256 TEXT NOT NULL,
	binary_path   TEXT,
	binary_sha256 TEXT,
	state         TEXT NOT NULL CHECK (state IN ('queued', 'compiling',
	                'compile_failed', 'qualifying', 'qualified',
	                'not_qualified', 'superseded')),
	compile_log   TEXT,
	created_at    @INT@ NOT NULL,
	updated_at    @INT@ NOT NULL,
	FOREIGN KEY (game, name) REFERENCES names (game, name)
);
CREATE INDEX submissions_by_player ON submissions (game, name, id);
CREATE INDEX submissions_ranked ON submissions (game, state);

-- The queue.  A job is claimed inside one transaction (on PostgreSQL its
-- row locked FOR UPDATE, rows other workers hold skipped) and held by a
-- lease its worker renews; an expired lease makes it claimable again.  A
-- job that failed too often is parked with its last error.
CREATE TABLE jobs (
	id          @ID@,
	kind        TEXT NOT NULL CHECK (kind IN ('compile', 'match', 'notify')),
	payload     TEXT NOT NULL,
	state       TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'parked')),
	priority    INTEGER NOT NULL DEFAULT 0,
	attempts    INTEGER NOT NULL DEFAULT 0,
	not_before  @INT@ NOT NULL DEFAULT 0,
	lease_until @INT@,
	worker      TEXT,
	last_error  TEXT,
	created_at  @INT@ NOT NULL,
	updated_at  @INT@ NOT NULL
);
-- Claiming reads only jobs that may be claimed: queued, or running with a
-- lease that may have expired.
CREATE INDEX jobs_claimable ON jobs (priority DESC, id)
	WHERE state IN ('queued', 'running');

--@ postgres
-- Claims the most urgent claimable job for worker `who` until `lease`,
-- parking on the way each job that used up its attempts, in one round
-- trip.  The pick locks its row FOR UPDATE and skips rows other workers
-- hold.  It is a statement of its own, ended before the row is updated:
-- that lets the index scan mark the entries of jobs already done as dead,
-- so a long queue is not walked again at every claim.  The pick reads
-- jobs_claimable in its order and stops at the first claimable row: a
-- queue filled in a burst, not analyzed yet, would otherwise be read whole
-- and sorted at every claim (enable_sort off, for this function only).
CREATE FUNCTION judge_claim(now_ms BIGINT, who TEXT, lease BIGINT, max_attempts INTEGER,
                            why TEXT)
	RETURNS TABLE (job_id BIGINT, job_kind TEXT, job_payload TEXT, job_attempts INTEGER)
	LANGUAGE plpgsql SET enable_sort = off AS $$
DECLARE
	picked jobs%ROWTYPE;
BEGIN
	LOOP
		SELECT * INTO picked FROM jobs j
		 WHERE j.state IN ('queued', 'running')
		   AND ((j.state = 'queued' AND j.not_before <= now_ms)
		     OR (j.state = 'running' AND j.lease_until < now_ms))
		 ORDER BY j.priority DESC, j.id LIMIT 1
		 FOR UPDATE SKIP LOCKED;
		IF NOT FOUND THEN
			RETURN;
		END IF;
		IF picked.attempts < max_attempts THEN
			UPDATE jobs SET state = 'running', worker = who, lease_until = lease,
			       attempts = picked.attempts + 1, updated_at = now_ms
			 WHERE id = picked.id;
			job_id := picked.id;
			job_kind := picked.kind;
			job_payload := picked.payload;
			job_attempts := picked.attempts + 1;
			RETURN NEXT;
			RETURN;
		END IF;
		UPDATE jobs SET state = 'parked', worker = NULL, lease_until = NULL,
		       last_error = why, updated_at = now_ms
		 WHERE id = picked.id;
	END LOOP;
END $$;
--@ both
-- One row per played match; job_id UNIQUE is what makes a result count
-- exactly once, even when two workers raced on an expired lease.  replay
-- holds the replay's JSON gzip-compressed, a BLOB (judge/replay_io.h reads
-- it); rows written by judges before that hold the plain JSON text, and
-- are read as well, so no migration rewrites them.
CREATE TABLE matches (
	id         @ID@,
	job_id     @INT@ NOT NULL UNIQUE REFERENCES jobs (id),
	game       TEXT NOT NULL,
	kind       TEXT NOT NULL CHECK (kind IN ('qualifying', 'ranked')),
	seed       @INT@ NOT NULL,
	params     TEXT,
	rated      INTEGER NOT NULL DEFAULT 0,
--@ sqlite
	replay     TEXT,
--@ postgres
	replay     BYTEA, -- gzip-compressed JSON
--@ both
	created_at @INT@ NOT NULL
);
CREATE INDEX matches_by_game ON matches (game, id);

CREATE TABLE match_players (
	match_id      @INT@ NOT NULL REFERENCES matches (id),
	seat          INTEGER NOT NULL,
	submission_id @INT@ REFERENCES submissions (id), -- NULL: a shipped player
	name          TEXT NOT NULL,
	score         @INT@ NOT NULL,
	rank          INTEGER NOT NULL,
	frozen_round  INTEGER,
	verdict       TEXT,
	reason        TEXT,
	cpu_ns        @INT@ NOT NULL,
	peak_memory   @INT@ NOT NULL,
	PRIMARY KEY (match_id, seat)
)@ROWID@;
CREATE INDEX match_players_by_submission ON match_players (submission_id);

CREATE TABLE ratings (
	submission_id @INT@ PRIMARY KEY REFERENCES submissions (id),
	game          TEXT NOT NULL,
	mu            @REAL@ NOT NULL,
	sigma         @REAL@ NOT NULL,
	games         INTEGER NOT NULL DEFAULT 0,
	wins          INTEGER NOT NULL DEFAULT 0,
	updated_at    @INT@ NOT NULL
);
CREATE INDEX ratings_by_game ON ratings (game);

CREATE TABLE events (
	id            @ID@,
	kind          TEXT NOT NULL,
	submission_id @INT@ REFERENCES submissions (id),
	payload       TEXT NOT NULL,
	created_at    @INT@ NOT NULL
);
