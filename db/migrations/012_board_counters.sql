-- Version 12: a recorded match costs the same whatever the field's size.
--
-- A player's leaderboard place is an order statistic: 1 + the ranked
-- players (qualified, with a rating) whose score, mu - 3 sigma, is higher.
-- board_nodes counts them in a tree over the score cut into 2^20 slots of
-- 1/1024 (board_key: the slot, scores below -512 or from 512 on share the
-- end slots): node level * 2^20 + (key >> level) holds how many ranked
-- players' keys start with that prefix.  The players above a key are the
-- nodes of at most 20 prefixes (judge/store/store_matches.c), exactly
-- resolved within the slot by score; the triggers keep the tree in step
-- with every change of a rating or of a submission's state, whoever makes
-- it.
--@ sqlite
ALTER TABLE ratings ADD COLUMN score REAL GENERATED ALWAYS AS (mu - 3 * sigma) VIRTUAL;
--@ postgres
ALTER TABLE ratings ADD COLUMN score DOUBLE PRECISION
	GENERATED ALWAYS AS (mu - 3 * sigma) STORED;
--@ both
ALTER TABLE ratings ADD COLUMN board_key INTEGER
--@ sqlite
	GENERATED ALWAYS AS (max(0, min(1048575, CAST((score + 512) * 1024 AS INTEGER)))) VIRTUAL;
--@ postgres
	GENERATED ALWAYS AS (least(1048575, greatest(0, floor((mu - 3 * sigma + 512) * 1024)))::integer)
	STORED;
--@ both
CREATE INDEX ratings_by_board_key ON ratings (game, board_key, score);

CREATE TABLE board_levels (level INTEGER PRIMARY KEY);
--@ sqlite
INSERT INTO board_levels (level) VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9),
	(10), (11), (12), (13), (14), (15), (16), (17), (18), (19);
--@ postgres
INSERT INTO board_levels (level) SELECT generate_series(0, 19);
--@ both
CREATE TABLE board_nodes (
	game    TEXT NOT NULL,
	node    INTEGER NOT NULL,
	players INTEGER NOT NULL,
	PRIMARY KEY (game, node)
)@ROWID@;

--@ sqlite
CREATE TRIGGER ratings_board_insert AFTER INSERT ON ratings
WHEN (SELECT state FROM submissions WHERE id = NEW.submission_id) = 'qualified'
--@ postgres
-- Adds delta to the nodes of key, at the levels where its prefix is not
-- other's (NULL: every level).
CREATE FUNCTION board_add(g TEXT, key INTEGER, other INTEGER, delta INTEGER) RETURNS void
	LANGUAGE sql AS $$
	INSERT INTO board_nodes (game, node, players)
	SELECT g, level * 1048576 + (key >> level), delta FROM board_levels
	 WHERE other IS NULL OR (key >> level) <> (other >> level)
	ON CONFLICT (game, node) DO UPDATE SET players = board_nodes.players + excluded.players
$$;

CREATE FUNCTION board_qualified(submission BIGINT) RETURNS BOOLEAN LANGUAGE sql STABLE AS $$
	SELECT coalesce((SELECT state = 'qualified' FROM submissions WHERE id = submission), false)
$$;

CREATE FUNCTION ratings_board() RETURNS trigger LANGUAGE plpgsql AS $$
--@ both
BEGIN
--@ sqlite
	INSERT INTO board_nodes (game, node, players)
	SELECT NEW.game, level * 1048576 + (NEW.board_key >> level), 1 FROM board_levels WHERE 1
	ON CONFLICT (game, node) DO UPDATE SET players = board_nodes.players + excluded.players;
END;

CREATE TRIGGER ratings_board_delete AFTER DELETE ON ratings
WHEN (SELECT state FROM submissions WHERE id = OLD.submission_id) = 'qualified'
BEGIN
	INSERT INTO board_nodes (game, node, players)
	SELECT OLD.game, level * 1048576 + (OLD.board_key >> level), -1 FROM board_levels WHERE 1
	ON CONFLICT (game, node) DO UPDATE SET players = board_nodes.players + excluded.players;
END;

-- A new rating moves the player's key: only the prefixes that change.
CREATE TRIGGER ratings_board_update AFTER UPDATE OF mu, sigma ON ratings
WHEN OLD.board_key <> NEW.board_key
 AND (SELECT state FROM submissions WHERE id = NEW.submission_id) = 'qualified'
BEGIN
	INSERT INTO board_nodes (game, node, players)
	SELECT NEW.game, level * 1048576 + (k.key >> level), k.delta FROM board_levels,
		(SELECT OLD.board_key AS key, -1 AS delta UNION ALL SELECT NEW.board_key, 1) k
	WHERE (OLD.board_key >> level) <> (NEW.board_key >> level)
	ON CONFLICT (game, node) DO UPDATE SET players = board_nodes.players + excluded.players;
END;
--@ postgres
	IF TG_OP = 'INSERT' THEN
		IF board_qualified(NEW.submission_id) THEN
			PERFORM board_add(NEW.game, NEW.board_key, NULL, 1);
		END IF;
	ELSIF TG_OP = 'DELETE' THEN
		IF board_qualified(OLD.submission_id) THEN
			PERFORM board_add(OLD.game, OLD.board_key, NULL, -1);
		END IF;
	ELSIF OLD.board_key <> NEW.board_key AND board_qualified(NEW.submission_id) THEN
		PERFORM board_add(NEW.game, OLD.board_key, NEW.board_key, -1);
		PERFORM board_add(NEW.game, NEW.board_key, OLD.board_key, 1);
	END IF;
	RETURN NULL;
END $$;
CREATE TRIGGER ratings_board AFTER INSERT OR DELETE OR UPDATE OF mu, sigma ON ratings
	FOR EACH ROW EXECUTE FUNCTION ratings_board();
--@ both

-- A submission entering or leaving the ranked pool (qualified, superseded,
-- rejudged) takes its rating with it.
--@ sqlite
CREATE TRIGGER submissions_board_state AFTER UPDATE OF state ON submissions
WHEN (OLD.state = 'qualified') <> (NEW.state = 'qualified')
--@ postgres
CREATE FUNCTION submissions_board() RETURNS trigger LANGUAGE plpgsql AS $$
--@ both
BEGIN
--@ sqlite
	INSERT INTO board_nodes (game, node, players)
	SELECT r.game, level * 1048576 + (r.board_key >> level),
		CASE WHEN NEW.state = 'qualified' THEN 1 ELSE -1 END
	FROM ratings r, board_levels WHERE r.submission_id = NEW.id
	ON CONFLICT (game, node) DO UPDATE SET players = board_nodes.players + excluded.players;
END;
--@ postgres
	PERFORM board_add(r.game, r.board_key, NULL,
			  CASE WHEN NEW.state = 'qualified' THEN 1 ELSE -1 END)
	   FROM ratings r WHERE r.submission_id = NEW.id;
	RETURN NULL;
END $$;
CREATE TRIGGER submissions_board AFTER UPDATE OF state ON submissions
	FOR EACH ROW WHEN ((OLD.state = 'qualified') <> (NEW.state = 'qualified'))
	EXECUTE FUNCTION submissions_board();
--@ both

INSERT INTO board_nodes (game, node, players)
SELECT r.game, level * 1048576 + (r.board_key >> level), count(*)
FROM ratings r JOIN submissions s ON s.id = r.submission_id, board_levels
WHERE s.state = 'qualified' GROUP BY 1, 2;

-- Counters the leaderboard reads instead of the match history, kept in
-- the transaction that records each result: every rated ranked match a
-- rated player played, by its number of players (a rejudge of the game
-- starts them over with the ratings), and every ranked match of a game by
-- its number of players.
CREATE TABLE rating_sizes (
	submission_id @INT@ NOT NULL REFERENCES submissions (id),
	game          TEXT NOT NULL,
	players       INTEGER NOT NULL,
	games         INTEGER NOT NULL,
	PRIMARY KEY (submission_id, players)
);
CREATE INDEX rating_sizes_by_game ON rating_sizes (game);
CREATE TABLE ranked_sizes (
	game    TEXT NOT NULL,
	players INTEGER NOT NULL,
	matches INTEGER NOT NULL,
	PRIMARY KEY (game, players)
);

INSERT INTO rating_sizes (submission_id, game, players, games)
SELECT mp.submission_id, m.game, t.n, count(*)
FROM matches m JOIN match_players mp ON mp.match_id = m.id
JOIN (SELECT match_id, count(*) AS n FROM match_players GROUP BY match_id) t
	ON t.match_id = m.id
JOIN ratings r ON r.submission_id = mp.submission_id
WHERE m.kind = 'ranked' AND m.rated = 1
  AND m.created_at > coalesce((SELECT max(created_at) FROM rejudges
	WHERE game = m.game AND submission_id IS NULL), -1)
GROUP BY mp.submission_id, m.game, t.n;

INSERT INTO ranked_sizes (game, players, matches)
SELECT game, n, count(*) FROM (SELECT m.game AS game, count(*) AS n FROM matches m
	JOIN match_players mp ON mp.match_id = m.id WHERE m.kind = 'ranked'
	GROUP BY m.id, m.game) t
GROUP BY game, n;
--@ postgres

-- The ranked players above a score, as store_board_place counts them on
-- SQLite: the tree's nodes, then the slots lo..hi by score.  In a function
-- whose plan is made once: as a statement of its own, the planner kept
-- planning it anew on every call for a large field (a third of a
-- millisecond each time, 8 times a match).
CREATE FUNCTION board_above(g TEXT, nodes INTEGER[], lo INTEGER, hi INTEGER,
                            above DOUBLE PRECISION)
	RETURNS BIGINT LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
	RETURN (SELECT coalesce(sum(players), 0) FROM board_nodes
	         WHERE game = g AND node = ANY (nodes))
	     + (SELECT count(*) FROM ratings r JOIN submissions s ON s.id = r.submission_id
	         WHERE r.game = g AND r.board_key BETWEEN lo AND hi AND r.score > above
	           AND s.state = 'qualified');
END $$;
--@ both
