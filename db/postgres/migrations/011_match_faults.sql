-- Version 11 (as db/migrations/011): each frozen seat's last input, for
-- `judge repro`; gzip-compressed, its first 256 KiB.
CREATE TABLE match_faults (
	match_id      BIGINT NOT NULL REFERENCES matches (id),
	seat          INTEGER NOT NULL,
	message       INTEGER NOT NULL,
	turn_cpu_ns   BIGINT NOT NULL,
	cpu_budget_ns BIGINT NOT NULL,
	input_size    BIGINT NOT NULL,
	input         BYTEA NOT NULL,
	PRIMARY KEY (match_id, seat)
);
