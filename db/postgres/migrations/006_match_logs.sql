-- Version 6 (as db/migrations/006): each seat's stderr of a match,
-- gzip-compressed; only non-empty logs.
CREATE TABLE match_logs (
	match_id BIGINT NOT NULL REFERENCES matches (id),
	seat     INTEGER NOT NULL,
	log      BYTEA NOT NULL,
	PRIMARY KEY (match_id, seat)
);
