/* judge ratings --recompute: rebuild every rating of a game from its match
 * history, in the order the matches were recorded, with the same update
 * the worker makes; --check compares instead of writing. */
#include <getopt.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "judge/cli/commands.h"
#include "judge/rating/rating.h"
#include "judge/store/store.h"

struct player {
	int64_t id;
	struct rating r;
	int games, wins;
};

/* The game's rated players, sorted by id, at their initial rating. */
struct table {
	struct player *p;
	size_t n;
};

static int by_id(const void *a, const void *b)
{
	int64_t x = ((const struct player *)a)->id, y = ((const struct player *)b)->id;
	return (x > y) - (x < y);
}

static struct player *find(struct table *t, int64_t id)
{
	struct player key = { .id = id };
	return bsearch(&key, t->p, t->n, sizeof *t->p, by_id);
}

static int load_players(sqlite3 *db, const char *game, struct table *t)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT submission_id FROM ratings WHERE game = ?"
			       " ORDER BY submission_id", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, game, -1, SQLITE_STATIC);
	struct rating_params params = rating_params_default();
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct player *grown = realloc(t->p, (t->n + 1) * sizeof *t->p);
		if (!grown)
			break;
		t->p = grown;
		t->p[t->n++] = (struct player){ sqlite3_column_int64(st, 0), rating_initial(&params),
						0, 0 };
	}
	sqlite3_finalize(st);
	return 0;
}

/* Replays every rated match in id order. */
static int replay_matches(sqlite3 *db, const char *game, struct table *t, char *err, size_t cap)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT m.id, mp.submission_id, mp.rank FROM matches m"
			       " JOIN match_players mp ON mp.match_id = m.id"
			       " WHERE m.game = ? AND m.kind = 'ranked' AND m.rated = 1"
			       " ORDER BY m.id, mp.seat", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, game, -1, SQLITE_STATIC);
	struct rating_params params = rating_params_default();
	struct player *seat[GAME_MAX_PLAYERS];
	struct rating before[GAME_MAX_PLAYERS], after[GAME_MAX_PLAYERS];
	int rank[GAME_MAX_PLAYERS], n = 0, rc = 0;
	int64_t current = -1;
	for (bool more = true; more && rc == 0;) {
		more = sqlite3_step(st) == SQLITE_ROW;
		int64_t match = more ? sqlite3_column_int64(st, 0) : -1;
		if (match != current && n > 0) {
			for (int i = 0; i < n; i++)
				before[i] = seat[i]->r;
			if (rating_update(&params, (size_t)n, before, rank, after) != RATING_OK) {
				snprintf(err, cap, "match %lld cannot be rated", (long long)current);
				rc = -1;
			}
			for (int i = 0; i < n && rc == 0; i++) {
				seat[i]->r = after[i];
				seat[i]->games++;
				seat[i]->wins += rank[i] == 1;
			}
			n = 0;
		}
		current = match;
		if (!more || rc)
			break;
		struct player *p = find(t, sqlite3_column_int64(st, 1));
		if (!p || n == GAME_MAX_PLAYERS) {
			snprintf(err, cap, "match %lld has a player without a rating", (long long)match);
			rc = -1;
			break;
		}
		seat[n] = p;
		rank[n++] = sqlite3_column_int(st, 2);
	}
	sqlite3_finalize(st);
	return rc;
}

/* Compares with the stored ratings (exactly: the same updates in the same
 * order give the same bits) or writes them; returns the mismatches. */
static int compare_or_write(sqlite3 *db, const struct table *t, bool write)
{
	int mismatches = 0;
	sqlite3_stmt *get, *put;
	sqlite3_prepare_v2(db, "SELECT mu, sigma, games, wins FROM ratings WHERE submission_id = ?",
			   -1, &get, NULL);
	sqlite3_prepare_v2(db, "UPDATE ratings SET mu = ?, sigma = ?, games = ?, wins = ?"
			   " WHERE submission_id = ?", -1, &put, NULL);
	for (size_t i = 0; i < t->n; i++) {
		const struct player *p = &t->p[i];
		sqlite3_reset(get);
		sqlite3_bind_int64(get, 1, p->id);
		if (sqlite3_step(get) == SQLITE_ROW &&
		    (sqlite3_column_double(get, 0) != p->r.mu ||
		     sqlite3_column_double(get, 1) != p->r.sigma ||
		     sqlite3_column_int(get, 2) != p->games || sqlite3_column_int(get, 3) != p->wins)) {
			mismatches++;
			printf("submission %lld: stored (%.17g, %.17g, %d games), recomputed "
			       "(%.17g, %.17g, %d games)\n", (long long)p->id,
			       sqlite3_column_double(get, 0), sqlite3_column_double(get, 1),
			       sqlite3_column_int(get, 2), p->r.mu, p->r.sigma, p->games);
		}
		if (write) {
			sqlite3_reset(put);
			sqlite3_bind_double(put, 1, p->r.mu);
			sqlite3_bind_double(put, 2, p->r.sigma);
			sqlite3_bind_int(put, 3, p->games);
			sqlite3_bind_int(put, 4, p->wins);
			sqlite3_bind_int64(put, 5, p->id);
			sqlite3_step(put);
		}
	}
	sqlite3_finalize(get);
	sqlite3_finalize(put);
	return mismatches;
}

static void usage(FILE *out)
{
	fprintf(out,
"usage: judge ratings --recompute --game GAME [--check] [--queue FILE]\n"
"\n"
"Rebuilds every rating of GAME from its rated ranked matches, in the order\n"
"they were recorded, and writes them (or, with --check, only compares and\n"
"lists the differences).  Exit status 0 when every stored rating equals the\n"
"recomputed one (after writing, always), 1 when --check found a difference,\n"
"2 for bad usage or an unusable database.\n");
}

int cmd_ratings(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "recompute", 0, 0, 'r' }, { "game", 1, 0, 'g' }, { "check", 0, 0, 'c' },
		{ "queue", 1, 0, 'q' }, { "help", 0, 0, 'h' }, { 0 },
	};
	const char *game = NULL, *queue = STORE_DEFAULT_PATH;
	bool recompute = false, check = false;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': recompute = true; break;
		case 'g': game = optarg; break;
		case 'c': check = true; break;
		case 'q': queue = optarg; break;
		case 'h': usage(stdout); return 0;
		default: return 2;
		}
	}
	if (!recompute || !game || optind != argc) {
		usage(stderr);
		return 2;
	}
	char err[STORE_ERRLEN];
	struct store *s = store_open(queue, false, err);
	if (!s) {
		fprintf(stderr, "judge ratings: %s\n", err);
		return 2;
	}
	struct table t = { 0 };
	int rc = 2;
	if (store_begin(s, err) == 0 && load_players(store_db(s), game, &t) == 0 &&
	    replay_matches(store_db(s), game, &t, err, sizeof err) == 0) {
		int diff = compare_or_write(store_db(s), &t, !check);
		rc = store_commit(s, err) < 0 ? 2 : check && diff ? 1 : 0;
		printf("%zu ratings of %s recomputed: %d differed%s\n", t.n, game, diff,
		       check ? "" : " (now rewritten)");
	}
	if (rc == 2)
		fprintf(stderr, "judge ratings: %s\n", err);
	free(t.p);
	store_close(s);
	return rc;
}
