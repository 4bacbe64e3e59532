-- Version 16: the organiser's review of flagged pairs, each file's own
-- code, and how many files hold each fingerprint.
--
-- plag_flags: one row per flagged pair, numbered for the organiser
-- (`judge plagiarism confirm ID`).  later_doc is the side suspected of
-- copying: the later upload, but never an archived file of an earlier
-- year against this year's.  review is NULL while the pair is open, else
-- 'confirmed' or 'dismissed'; review_share is the pair's similarity when it
-- was reviewed (a dismissed pair of authors is flagged again only when a
-- later version shares more than that plus plagiarism.dismissed_margin).
-- seen_at NULL: news the organiser has not seen yet.
CREATE TABLE plag_flags (
	id            @ID@,
	game          TEXT NOT NULL,
	doc_a         @INT@ NOT NULL REFERENCES plag_docs (id),
	doc_b         @INT@ NOT NULL REFERENCES plag_docs (id),
	later_doc     @INT@ NOT NULL REFERENCES plag_docs (id),
	similarity    @REAL@ NOT NULL,
	review        TEXT,
	review_share  @REAL@,
	reviewed_by   TEXT,
	reviewed_at   @INT@,
	note          TEXT,
	seen_at       @INT@,
	created_at    @INT@ NOT NULL,
	UNIQUE (doc_a, doc_b)
);
CREATE INDEX plag_flags_by_game ON plag_flags (game, id);

-- Every decision on a flag, kept: confirm, dismiss or clear (back to open).
CREATE TABLE plag_reviews (
	id         @ID@,
	flag_id    @INT@ NOT NULL REFERENCES plag_flags (id),
	action     TEXT NOT NULL,
	share      @REAL@ NOT NULL,
	decided_by TEXT NOT NULL,
	note       TEXT,
	created_at @INT@ NOT NULL
);
CREATE INDEX plag_reviews_by_flag ON plag_reviews (flag_id, id);

-- Tokens of a file not found in the game's base code (its header, Null,
-- Demo): its own code.  A file without a row was fingerprinted before.
CREATE TABLE plag_own (
	doc_id @INT@ PRIMARY KEY REFERENCES plag_docs (id),
	tokens @INT@ NOT NULL
);

-- How many files hold each fingerprint (plag_index's key): a look-up of a
-- fingerprint common to the field reads this one row, not its files.
CREATE TABLE plag_counts (
	key  @INT@ PRIMARY KEY,
	docs @INT@ NOT NULL
);
INSERT INTO plag_counts (key, docs) SELECT key, count(*) FROM plag_index GROUP BY key;

INSERT INTO plag_flags (game, doc_a, doc_b, later_doc, similarity, created_at)
	SELECT p.game, p.doc_a, p.doc_b,
	       CASE WHEN a.label IS NOT NULL AND b.label IS NULL THEN b.id ELSE a.id END,
	       p.similarity, p.created_at
	FROM plag_pairs p JOIN plag_docs a ON a.id = p.doc_a JOIN plag_docs b ON b.id = p.doc_b
	WHERE p.flagged = 1 ORDER BY p.created_at, p.doc_a, p.doc_b;
UPDATE plag_docs SET suspected = CASE WHEN EXISTS
	(SELECT 1 FROM plag_flags f WHERE f.later_doc = plag_docs.id) THEN 1 ELSE 0 END;
