-- Version 5: compiled binaries, stored once by the SHA-256 of their bytes
-- (submissions.binary_sha256 names one), so every machine plays exactly
-- the bytes the compile job built and none compiles them again.
CREATE TABLE binaries (
	sha256     TEXT PRIMARY KEY,
--@ sqlite
	bytes      BLOB NOT NULL,
	created_at INTEGER NOT NULL
) WITHOUT ROWID;
--@ postgres
	bytes      BYTEA NOT NULL,
	created_at BIGINT NOT NULL
);

-- A worker that ends a job outside a transaction of its own asks for the
-- next one in the same round trip and commit: job `done` is completed
-- (only while `who` still holds it), then judge_claim runs.  One row:
-- completed false (and nothing claimed) when the lease was lost; else the
-- claimed job, or NULLs when none is claimable.
CREATE FUNCTION judge_complete_claim(done BIGINT, now_ms BIGINT, who TEXT, lease BIGINT,
                                     max_attempts INTEGER, why TEXT)
	RETURNS TABLE (completed BOOLEAN, job_id BIGINT, job_kind TEXT, job_payload TEXT,
	               job_attempts INTEGER)
	LANGUAGE plpgsql AS $$
BEGIN
	UPDATE jobs SET state = 'done', lease_until = NULL, updated_at = now_ms
	 WHERE id = done AND worker = who AND state = 'running';
	completed := FOUND;
	IF completed THEN
		SELECT c.job_id, c.job_kind, c.job_payload, c.job_attempts
		  INTO job_id, job_kind, job_payload, job_attempts
		  FROM judge_claim(now_ms, who, lease, max_attempts, why) c;
	END IF;
	RETURN NEXT;
END $$;
--@ both
