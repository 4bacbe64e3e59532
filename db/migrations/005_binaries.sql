-- Version 5: compiled binaries, stored once by the SHA-256 of their bytes
-- (submissions.binary_sha256 names one), so every machine plays exactly
-- the bytes the compile job built and none compiles them again.
CREATE TABLE binaries (
	sha256     TEXT PRIMARY KEY,
	bytes      BLOB NOT NULL,
	created_at INTEGER NOT NULL
) WITHOUT ROWID;
