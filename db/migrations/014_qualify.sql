-- Version 14: the qualification's own steps and the organiser's reference
-- players.  submissions.qualify_note says which qualification step refused
-- a submission and why ("won 2 of 4, 4 needed"), or how it passed.
-- reference_players are the organiser's private opponents (a stronger
-- Dummy): their source is never shown to contestants; their program and
-- its object file (for local play) are binaries, stored once by hash.
ALTER TABLE submissions ADD COLUMN qualify_note TEXT;
CREATE TABLE reference_players (
	id            @ID@,
	game          TEXT NOT NULL,
	name          TEXT NOT NULL,
	source        @BLOB@ NOT NULL,
	source_sha256 TEXT NOT NULL,
	binary_sha256 TEXT NOT NULL REFERENCES binaries (sha256),
	object_sha256 TEXT REFERENCES binaries (sha256),
	created_at    @INT@ NOT NULL,
	updated_at    @INT@ NOT NULL,
	UNIQUE (game, name)
);
