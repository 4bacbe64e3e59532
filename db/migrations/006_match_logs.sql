-- Version 6: what each seat wrote to stderr in a match (capped by
-- sandbox.stderr_kb), gzip-compressed like a replay; only non-empty logs.
CREATE TABLE match_logs (
	match_id @INT@ NOT NULL REFERENCES matches (id),
	seat     INTEGER NOT NULL,
	log      @BLOB@ NOT NULL,
	PRIMARY KEY (match_id, seat)
)@ROWID@;
