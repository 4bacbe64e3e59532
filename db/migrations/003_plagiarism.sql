-- Version 3: plagiarism.  Every fingerprinted file is a document: a
-- submission (fingerprinted by its compile job) or a file of an earlier
-- year (judge archive import), which is compared against but never plays.
CREATE TABLE plag_docs (
	id            @ID@,
	game          TEXT NOT NULL,
	submission_id @INT@ UNIQUE REFERENCES submissions (id), -- NULL: archived
	author        TEXT NOT NULL,
	name          TEXT NOT NULL,
	label         TEXT,          -- an archive's label ('2025'); NULL: this tournament
	k             INTEGER NOT NULL,
	w             INTEGER NOT NULL,
	hash_version  INTEGER NOT NULL,
	ntokens       INTEGER NOT NULL,
	nfps          INTEGER NOT NULL,
	error         TEXT,          -- why the file has no fingerprints (not C, too big...)
	suspected     INTEGER NOT NULL DEFAULT 0,
	created_at    @INT@ NOT NULL,
	-- The large columns last: SQLite reads a row's columns in order, and
	-- one past a blob means walking the blob's overflow pages.
	fps           @BLOB@ NOT NULL, -- 20 bytes each, little-endian: hash, token, first and last line
	source        @BLOB@           -- archived files only: a submission keeps its own
);
CREATE INDEX plag_docs_by_game ON plag_docs (game, id);
-- An archive imported twice must not count twice.
CREATE UNIQUE INDEX plag_docs_archived ON plag_docs (game, label, author, name)
	WHERE label IS NOT NULL;

-- Which documents hold a fingerprint.  The key is the fingerprint's hash
-- mixed with its game, so a game's idioms never count in another's.  No
-- foreign key: each insert would pay a lookup in plag_docs, and rows are
-- only ever written with their document.
CREATE TABLE plag_index (
	key    @INT@ NOT NULL,
	doc_id @INT@ NOT NULL,
	PRIMARY KEY (key, doc_id)
)@ROWID@;

-- Compared pairs over the floor; doc_a is the later document.
CREATE TABLE plag_pairs (
	doc_a          @INT@ NOT NULL REFERENCES plag_docs (id),
	doc_b          @INT@ NOT NULL REFERENCES plag_docs (id),
	game           TEXT NOT NULL,
	similarity     @REAL@ NOT NULL, -- the larger of a_in_b and b_in_a
	a_in_b         @REAL@ NOT NULL,
	b_in_a         @REAL@ NOT NULL,
	longest        INTEGER NOT NULL, -- tokens in the longest matched fragment
	a_first_line   INTEGER NOT NULL,
	a_last_line    INTEGER NOT NULL,
	b_first_line   INTEGER NOT NULL,
	b_last_line    INTEGER NOT NULL,
	flagged        INTEGER NOT NULL,
	created_at     @INT@ NOT NULL,
	PRIMARY KEY (doc_a, doc_b)
)@ROWID@;
CREATE INDEX plag_pairs_by_game ON plag_pairs (game, similarity DESC);
