-- Version 11: for each seat frozen in a match (it crashed, overran, broke
-- the protocol), what it was given last, so that its author can play that
-- turn again (`judge repro`): which message it was (0: the start, then
-- one per turn or step), the CPU it used from that message on and its
-- budget, the message's whole size and its first 256 KiB, gzip-compressed.
-- The round, verdict, reason and whole CPU are match_players'.
CREATE TABLE match_faults (
	match_id      @INT@ NOT NULL REFERENCES matches (id),
	seat          INTEGER NOT NULL,
	message       INTEGER NOT NULL,
	turn_cpu_ns   @INT@ NOT NULL,
	cpu_budget_ns @INT@ NOT NULL,
	input_size    @INT@ NOT NULL,
	input         @BLOB@ NOT NULL,
	PRIMARY KEY (match_id, seat)
)@ROWID@;
