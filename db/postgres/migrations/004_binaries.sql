-- Version 4 (as db/migrations/004): compiled binaries, stored once by the
-- SHA-256 of their bytes.
CREATE TABLE binaries (
	sha256     TEXT PRIMARY KEY,
	bytes      BYTEA NOT NULL,
	created_at BIGINT NOT NULL
);
