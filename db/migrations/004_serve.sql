-- Version 4: the service (judge serve).  Tokens: an author's key to the
-- HTTP API; only the SHA-256 of a token is kept, so a stolen database
-- gives nobody a working token.
CREATE TABLE tokens (
	id         @ID@,
	sha256     TEXT NOT NULL UNIQUE,
	author     TEXT NOT NULL,
	organiser  INTEGER NOT NULL DEFAULT 0,
	created_at @INT@ NOT NULL,
	revoked_at @INT@              -- NULL: the token works
);

-- A player (a name in a game) the organisers took out of the ranking, and
-- why.  Rows are never deleted: the history stays.
CREATE TABLE disqualifications (
	id         @ID@,
	game       TEXT NOT NULL,
	name       TEXT NOT NULL,
	reason     TEXT NOT NULL,
	decided_by TEXT NOT NULL,
	created_at @INT@ NOT NULL
);
CREATE INDEX disqualifications_by_player ON disqualifications (game, name);

-- A player's rating after each rated game, for the plot on its page.
CREATE TABLE rating_history (
	submission_id @INT@ NOT NULL REFERENCES submissions (id),
	mu            @REAL@ NOT NULL,
	sigma         @REAL@ NOT NULL,
	created_at    @INT@ NOT NULL
);
CREATE INDEX rating_history_by_submission ON rating_history (submission_id, created_at);

-- A rejudge: of one submission (its qualifying matches before it no longer
-- count), or, submission_id NULL, of every match of a game after a rule
-- fix (the game's ranked matches before it no longer count for ratings).
CREATE TABLE rejudges (
	id         @ID@,
	game       TEXT NOT NULL,
	submission_id @INT@ REFERENCES submissions (id),
	decided_by TEXT NOT NULL,
	created_at @INT@ NOT NULL
);
CREATE INDEX rejudges_by_game ON rejudges (game, created_at);
