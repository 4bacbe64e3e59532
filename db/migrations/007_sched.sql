--@ sqlite
-- Version 7: one scheduling policy for every kind of work
-- (judge/store/sched.h).  A job's class is its priority; a class with a
-- max pause is served before higher ones once one of its jobs is overdue
-- (due_at passed; NULL: the class makes no promise) and nothing of it was
-- claimed for as long (served_at).  Workers write the classes at start.
ALTER TABLE jobs ADD COLUMN due_at INTEGER;
-- The overdue pick reads only queued jobs of classes with a pause.
--@ postgres
-- Version 7 (as db/migrations/007): one scheduling policy for every kind
-- of work (judge/store/sched.h): jobs.due_at, the classes with the time
-- each was last served, and a claim that follows the rule.
ALTER TABLE jobs ADD COLUMN due_at BIGINT;
--@ both
CREATE INDEX jobs_overdue ON jobs (priority, due_at)
	WHERE state = 'queued' AND due_at IS NOT NULL;
CREATE TABLE job_classes (
	priority     INTEGER PRIMARY KEY,
	name         TEXT NOT NULL,
	max_pause_ms @INT@ NOT NULL,
	served_at    @INT@ NOT NULL DEFAULT 0
);
-- Jobs queued before: the classes of their old priorities (compile 10,
-- qualifying match 5, notify 1, ranked match 0), ranked with its pause.
UPDATE jobs SET priority = CASE WHEN kind = 'notify' THEN 90
				WHEN kind = 'compile' THEN 70
				WHEN priority >= 5 THEN 80 ELSE 40 END,
		due_at = CASE WHEN kind = 'match' AND priority < 5 THEN created_at + 5000 END
 WHERE state <> 'done';
--@ postgres

-- The claim of version 1, with the rule: first the starved class (one
-- with a max pause, not served for that long, with an overdue job; the
-- one starved longest), its row locked FOR UPDATE SKIP LOCKED so that two
-- workers do not both serve it, and its oldest overdue job; else the most
-- urgent claimable job.  Either way the claimed job's class is marked
-- served.  judge_complete_claim calls this, so it follows the rule too.
-- The classes are sorted (a handful of rows): with enable_sort off that
-- sort is priced as huge, which would have every claim compiled by JIT
-- (half a second), so JIT is off here.
CREATE OR REPLACE FUNCTION judge_claim(now_ms BIGINT, who TEXT, lease BIGINT,
                                       max_attempts INTEGER, why TEXT)
	RETURNS TABLE (job_id BIGINT, job_kind TEXT, job_payload TEXT, job_attempts INTEGER)
	LANGUAGE plpgsql SET enable_sort = off SET jit = off AS $$
DECLARE
	picked jobs%ROWTYPE;
	starved INTEGER;
BEGIN
	LOOP
		SELECT c.priority INTO starved FROM job_classes c
		 WHERE c.max_pause_ms > 0 AND c.served_at <= now_ms - c.max_pause_ms
		   AND EXISTS (SELECT 1 FROM jobs o
		                WHERE o.state = 'queued' AND o.due_at IS NOT NULL
		                  AND o.priority = c.priority AND o.due_at <= now_ms
		                  AND o.not_before <= now_ms)
		 ORDER BY c.served_at + c.max_pause_ms, c.priority DESC LIMIT 1
		 FOR UPDATE SKIP LOCKED;
		picked := NULL;
		IF FOUND THEN
			SELECT * INTO picked FROM jobs j
			 WHERE j.state = 'queued' AND j.due_at IS NOT NULL
			   AND j.priority = starved AND j.due_at <= now_ms AND j.not_before <= now_ms
			 ORDER BY j.due_at, j.id LIMIT 1
			 FOR UPDATE SKIP LOCKED;
		END IF;
		IF picked.id IS NULL THEN
			SELECT * INTO picked FROM jobs j
			 WHERE j.state IN ('queued', 'running')
			   AND ((j.state = 'queued' AND j.not_before <= now_ms)
			     OR (j.state = 'running' AND j.lease_until < now_ms))
			 ORDER BY j.priority DESC, j.id LIMIT 1
			 FOR UPDATE SKIP LOCKED;
		END IF;
		IF picked.id IS NULL THEN
			RETURN;
		END IF;
		IF picked.attempts < max_attempts THEN
			UPDATE jobs SET state = 'running', worker = who, lease_until = lease,
			       attempts = picked.attempts + 1, updated_at = now_ms
			 WHERE id = picked.id;
			UPDATE job_classes SET served_at = now_ms
			 WHERE priority = picked.priority AND served_at < now_ms;
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
