-- The judge's store, version 1.  One SQLite file is the single source of
-- truth: submissions, the job queue, matches and ratings.  Times are
-- milliseconds since the Unix epoch.  Applied by judge/store.c on a fresh
-- file; later versions add db/migrations/NNN.sql.

CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
) WITHOUT ROWID;
INSERT INTO meta (key, value) VALUES ('application', 'judge');

-- A player name belongs, per game, to the first author who used it.
CREATE TABLE names (
	game   TEXT NOT NULL,
	name   TEXT NOT NULL,
	author TEXT NOT NULL,
	PRIMARY KEY (game, name)
) WITHOUT ROWID;

CREATE TABLE submissions (
	id            INTEGER PRIMARY KEY,
	game          TEXT NOT NULL,
	author        TEXT NOT NULL,
	name          TEXT NOT NULL,
	source        BLOB NOT NULL,
	source_sha256 TEXT NOT NULL,
	binary_path   TEXT,
	binary_sha256 TEXT,
	state         TEXT NOT NULL CHECK (state IN ('queued', 'compiling',
	                'compile_failed', 'qualifying', 'qualified',
	                'not_qualified', 'superseded')),
	compile_log   TEXT,
	created_at    INTEGER NOT NULL,
	updated_at    INTEGER NOT NULL,
	FOREIGN KEY (game, name) REFERENCES names (game, name)
);
CREATE INDEX submissions_by_player ON submissions (game, name, id);
CREATE INDEX submissions_ranked ON submissions (game, state);

-- The queue.  A job is claimed inside one write transaction and held by a
-- lease its worker renews; an expired lease makes it claimable again.  A
-- job that failed too often is parked with its last error.
CREATE TABLE jobs (
	id          INTEGER PRIMARY KEY,
	kind        TEXT NOT NULL CHECK (kind IN ('compile', 'match', 'notify')),
	payload     TEXT NOT NULL,
	state       TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'parked')),
	priority    INTEGER NOT NULL DEFAULT 0,
	attempts    INTEGER NOT NULL DEFAULT 0,
	not_before  INTEGER NOT NULL DEFAULT 0,
	lease_until INTEGER,
	worker      TEXT,
	last_error  TEXT,
	created_at  INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL
);
-- Claiming reads only jobs that may be claimed: queued, or running with a
-- lease that may have expired.
CREATE INDEX jobs_claimable ON jobs (priority DESC, id)
	WHERE state IN ('queued', 'running');

-- One row per played match; job_id UNIQUE is what makes a result count
-- exactly once, even when two workers raced on an expired lease.  replay
-- holds the replay's JSON gzip-compressed, a BLOB (judge/replay_io.h reads
-- it); rows written by judges before that hold the plain JSON text, and
-- are read as well, so no migration rewrites them.
CREATE TABLE matches (
	id         INTEGER PRIMARY KEY,
	job_id     INTEGER NOT NULL UNIQUE REFERENCES jobs (id),
	game       TEXT NOT NULL,
	kind       TEXT NOT NULL CHECK (kind IN ('qualifying', 'ranked')),
	seed       INTEGER NOT NULL,
	params     TEXT,
	rated      INTEGER NOT NULL DEFAULT 0,
	replay     TEXT,
	created_at INTEGER NOT NULL
);
CREATE INDEX matches_by_game ON matches (game, id);

CREATE TABLE match_players (
	match_id      INTEGER NOT NULL REFERENCES matches (id),
	seat          INTEGER NOT NULL,
	submission_id INTEGER REFERENCES submissions (id), -- NULL: a shipped player
	name          TEXT NOT NULL,
	score         INTEGER NOT NULL,
	rank          INTEGER NOT NULL,
	frozen_round  INTEGER,
	verdict       TEXT,
	reason        TEXT,
	cpu_ns        INTEGER NOT NULL,
	peak_memory   INTEGER NOT NULL,
	PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
CREATE INDEX match_players_by_submission ON match_players (submission_id);

CREATE TABLE ratings (
	submission_id INTEGER PRIMARY KEY REFERENCES submissions (id),
	game          TEXT NOT NULL,
	mu            REAL NOT NULL,
	sigma         REAL NOT NULL,
	games         INTEGER NOT NULL DEFAULT 0,
	wins          INTEGER NOT NULL DEFAULT 0,
	updated_at    INTEGER NOT NULL
);
CREATE INDEX ratings_by_game ON ratings (game);

CREATE TABLE events (
	id            INTEGER PRIMARY KEY,
	kind          TEXT NOT NULL,
	submission_id INTEGER REFERENCES submissions (id),
	payload       TEXT NOT NULL,
	created_at    INTEGER NOT NULL
);
