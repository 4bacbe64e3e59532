-- Version 17: a stop-list of the fingerprints common to the field, in
-- place of a count for every fingerprint.
--
-- plag_counts kept how many files hold each fingerprint, written for every
-- key of every indexed file: it made indexing a third slower, to serve the
-- few keys that are idioms.  plag_idioms lists only the keys a look-up
-- found held by more files than the idiom cap, with a count that is never
-- above the true one: exact when the key is listed, one more for each file
-- added through a comparison afterwards, one less for each file indexed
-- again.  A look-up trusts the list only when that count is over the cap;
-- otherwise it reads the key's rows, as for any key, so a file indexed in
-- bulk (an archive) never makes a fingerprint an idiom wrongly.
CREATE TABLE plag_idioms (
	key  @INT@ PRIMARY KEY,
	docs @INT@ NOT NULL
);
-- The keys over the least cap of the default settings (common_min_files
-- 20); a look-up lists the others when it finds them.
INSERT INTO plag_idioms (key, docs) SELECT key, docs FROM plag_counts WHERE docs > 20;
DROP TABLE plag_counts;
