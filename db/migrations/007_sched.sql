-- Version 7: one scheduling policy for every kind of work
-- (judge/store/sched.h).  A job's class is its priority; a class with a
-- max pause is served before higher ones once one of its jobs is overdue
-- (due_at passed; NULL: the class makes no promise) and nothing of it was
-- claimed for as long (served_at).  Workers write the classes at start.
ALTER TABLE jobs ADD COLUMN due_at INTEGER;
-- The overdue pick reads only queued jobs of classes with a pause.
CREATE INDEX jobs_overdue ON jobs (priority, due_at)
	WHERE state = 'queued' AND due_at IS NOT NULL;
CREATE TABLE job_classes (
	priority     INTEGER PRIMARY KEY,
	name         TEXT NOT NULL,
	max_pause_ms INTEGER NOT NULL,
	served_at    INTEGER NOT NULL DEFAULT 0
);
-- Jobs queued before: the classes of their old priorities (compile 10,
-- qualifying match 5, notify 1, ranked match 0), ranked with its pause.
UPDATE jobs SET priority = CASE WHEN kind = 'notify' THEN 90
				WHEN kind = 'compile' THEN 70
				WHEN priority >= 5 THEN 80 ELSE 40 END,
		due_at = CASE WHEN kind = 'match' AND priority < 5 THEN created_at + 5000 END
 WHERE state <> 'done';
