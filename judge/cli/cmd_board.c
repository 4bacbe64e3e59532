/* judge leaderboard: the ranked players of a game, best first, as a table,
 * JSON, or a self-contained HTML page. */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "judge/base/safe_text.h"
#include "judge/cli/board_html.h"
#include "judge/cli/commands.h"
#include "judge/rating/rating.h"
#include "judge/store/store.h"
#include "judge/replay/viewer.h"

static void usage(FILE *out)
{
	fprintf(out,
"usage: judge leaderboard --game GAME [--json] [--html FILE] [--queue FILE]\n"
"\n"
"Prints the ranked players of GAME: the latest qualified submission of each\n"
"player, best first by score = mu - 3 sigma (a skill the player very likely\n"
"has), then by games played, then by submission.  Equal scores share a rank.\n"
"\n"
"  --game GAME    the game\n"
"  --json         print a JSON array: rank, submission, player, author,\n"
"                 score, mu, sigma, games, wins (and for a game of a range\n"
"                 of players, sizes: rated matches by number of players)\n"
"  --html FILE    write the board to FILE as one self-contained HTML page\n"
"                 (instead of the table; with --json, as well as the JSON),\n"
"                 and beside it replay-ID.html, a page to watch each of the\n"
"                 latest %d matches of every player, linked from the board\n"
"  --queue FILE   the judge's database (default db/jobs.sqlite)\n"
"\n"
"exit status: 0 done (an empty board too), 2 bad usage, an unknown game or\n"
"an unusable database or file.\n", BOARD_RECENT);
}

struct board_args {
	const char *game, *queue, *html;
	bool json;
};

static int parse_args(int argc, char **argv, struct board_args *a)
{
	static const struct option longopts[] = {
		{ "game", 1, 0, 'g' }, { "json", 0, 0, 'j' }, { "html", 1, 0, 'H' },
		{ "queue", 1, 0, 'q' }, { "help", 0, 0, 'h' }, { 0 },
	};
	*a = (struct board_args){ .queue = STORE_DEFAULT_PATH };
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'g': a->game = optarg; break;
		case 'j': a->json = true; break;
		case 'H': a->html = optarg; break;
		case 'q': a->queue = optarg; break;
		case 'h': usage(stdout); exit(0);
		default: return -1;
		}
	}
	if (optind < argc || !a->game) {
		fprintf(stderr, "judge leaderboard: give --game and nothing else (see --help)\n");
		return -1;
	}
	if (!game_find(a->game)) {
		fprintf(stderr, "judge leaderboard: unknown game '%s'; the judge knows:", a->game);
		for (const struct game *const *g = game_list(); *g; g++)
			fprintf(stderr, " %s", (*g)->name);
		fputc('\n', stderr);
		return -1;
	}
	return 0;
}

/* ---- reading and ranking ------------------------------------------------- */

static void rows_free(struct board *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->row[i].player);
		free(b->row[i].author);
	}
	free(b->row);
}

/* The ranked pool: qualified submissions with a rating (a superseded one
 * keeps its ratings row but has left the pool). */
static int load_rows(struct store *s, struct board *b, char err[STORE_ERRLEN])
{
	struct store_rated *pool;
	size_t n;
	if (store_ranked_pool(s, b->game, &pool, &n, err) < 0)
		return -1;
	b->row = n ? calloc(n, sizeof *b->row) : NULL;
	int rc = n && !b->row ? -1 : 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		struct board_row *r = &b->row[b->n++];
		*r = (struct board_row){
			.submission = pool[i].id, .player = strdup(pool[i].name),
			.author = strdup(pool[i].author), .mu = pool[i].mu, .sigma = pool[i].sigma,
			.games = pool[i].games, .wins = pool[i].wins,
		};
		r->score = rating_score((struct rating){ r->mu, r->sigma });
		rc = r->player && r->author ? 0 : -1;
	}
	free(pool);
	if (rc < 0)
		snprintf(err, STORE_ERRLEN, "out of memory");
	return rc;
}

static int by_submission(const void *key, const void *elem)
{
	int64_t a = *(const int64_t *)key, b = ((const struct board_row *)elem)->submission;
	return (a > b) - (a < b);
}

/* One (submission, seats, matches) count onto its row (rows are still in
 * submission order); a submission no longer in the pool is skipped. */
static int add_size(void *ctx, int64_t submission, int seats, int matches)
{
	struct board *b = ctx;
	struct board_row *r = bsearch(&submission, b->row, b->n, sizeof *b->row, by_submission);
	if (r && seats >= 1 && seats <= BOARD_MAX_SEATS)
		r->sizes[seats] = matches;
	return 0;
}

/* Scores are compared to a millionth: two computations of the same skill
 * that differ in the last bit must not split a tie.  Rounding (not a
 * tolerance) keeps the order transitive. */
static long long score_key(double score)
{
	return llround(score * 1e6);
}

static int by_rank(const void *pa, const void *pb)
{
	const struct board_row *a = pa, *b = pb;
	long long ka = score_key(a->score), kb = score_key(b->score);
	if (ka != kb)
		return ka > kb ? -1 : 1;
	if (a->games != b->games)
		return a->games > b->games ? -1 : 1;
	return (a->submission > b->submission) - (a->submission < b->submission);
}

/* Standard competition ranking: 1, 2, 2, 4. */
static void rank_rows(struct board *b)
{
	if (b->n)
		qsort(b->row, b->n, sizeof *b->row, by_rank);
	for (size_t i = 0; i < b->n; i++) {
		bool tie = i > 0 && score_key(b->row[i].score) == score_key(b->row[i - 1].score);
		b->row[i].rank = tie ? b->row[i - 1].rank : (int)i + 1;
	}
}

/* ---- the matches linked from the page ------------------------------------- */

static int load_recent(struct store *s, struct board_row *r, char err[STORE_ERRLEN])
{
	return store_recent_matches(s, r->submission, BOARD_RECENT, r->recent, &r->nrecent, err);
}

/* replay-ID.html beside the board (a match two listed players shared is
 * written twice, the same bytes). */
static int write_replays(struct store *s, const char *board_path, const struct board *b)
{
	const char *slash = strrchr(board_path, '/');
	int dir_len = slash ? (int)(slash - board_path + 1) : 0;
	for (size_t i = 0; i < b->n; i++)
		for (int k = 0; k < b->row[i].nrecent; k++) {
			char path[PATH_MAX], err[VIEWER_ERRLEN];
			snprintf(path, sizeof path, "%.*sreplay-%lld.html", dir_len, board_path,
				 (long long)b->row[i].recent[k]);
			if (viewer_write_match(s, b->row[i].recent[k], path, err) != 0) {
				fprintf(stderr, "judge leaderboard: %s\n", err);
				return -1;
			}
		}
	return 0;
}

/* ---- output -------------------------------------------------------------- */

static void print_table(const struct board *b)
{
	char when[32], score[32], mu[32], sigma[32];
	board_time(b->generated_ms, when);
	printf("%s leaderboard, %s\n", b->title, when);
	if (b->n == 0) {
		printf("no ranked players yet\n");
		return;
	}
	int aw = 6;
	for (size_t i = 0; i < b->n; i++)
		if (board_cols(b->row[i].author) > aw)
			aw = board_cols(b->row[i].author);
	printf("%4s  %-12s  %-*s  %8s  %7s  %6s  %5s  %5s%s\n", "rank", "player", aw, "author",
	       "score", "mu", "sigma", "games", "wins", b->sized ? "  sizes" : "");
	for (size_t i = 0; i < b->n; i++) {
		const struct board_row *r = &b->row[i];
		printf("%4d  ", r->rank);
		board_cell(stdout, r->player, 12);
		fputs("  ", stdout);
		board_cell(stdout, r->author, aw);
		char sizes[64];
		printf("  %8s  %7s  %6s  %5d  %5d%s%s\n", board_num(r->score, score),
		       board_num(r->mu, mu), board_num(r->sigma, sigma), r->games, r->wins,
		       b->sized ? "  " : "", b->sized ? board_sizes(r, sizes) : "");
	}
}

/* {"2": 3, "4": 5}: rated matches by number of seats. */
static json_t *sizes_json(const struct board_row *r)
{
	json_t *o = json_object();
	for (int seats = 1; o && seats <= BOARD_MAX_SEATS; seats++)
		if (r->sizes[seats]) {
			char key[8];
			snprintf(key, sizeof key, "%d", seats);
			json_object_set_new(o, key, json_integer(r->sizes[seats]));
		}
	return o;
}

static int print_json(const struct board *b)
{
	json_t *arr = json_array();
	for (size_t i = 0; arr && i < b->n; i++) {
		const struct board_row *r = &b->row[i];
		json_t *o = json_pack("{s:i, s:I, s:o, s:o, s:f, s:f, s:f, s:i, s:i}", "rank",
				      r->rank, "submission", (json_int_t)r->submission, "player",
				      safe_json_text(r->player), "author", safe_json_text(r->author),
				      "score", r->score, "mu", r->mu, "sigma", r->sigma, "games",
				      r->games, "wins", r->wins);
		if (o && b->sized)
			json_object_set_new(o, "sizes", sizes_json(r));
		if (json_array_append_new(arr, o) < 0) {
			json_decref(arr);
			arr = NULL;
		}
	}
	int rc = arr && json_dumpf(arr, stdout, JSON_INDENT(2)) == 0 ? 0 : -1;
	if (rc == 0)
		putchar('\n');
	json_decref(arr);
	return rc;
}

static int output(const struct board_args *a, const struct board *b)
{
	char err[BOARD_ERRLEN];
	if (a->json && print_json(b) < 0) {
		fprintf(stderr, "judge leaderboard: cannot print the JSON (out of memory)\n");
		return 2;
	}
	if (a->html && board_html_write(a->html, b, err) < 0) {
		fprintf(stderr, "judge leaderboard: %s\n", err);
		return 2;
	}
	if (!a->json && !a->html)
		print_table(b);
	return 0;
}

int cmd_leaderboard(int argc, char **argv)
{
	struct board_args a;
	if (parse_args(argc, argv, &a) < 0)
		return 2;
	char err[STORE_ERRLEN];
	struct store *s = store_open(a.queue, false, err);
	if (!s) {
		fprintf(stderr, "judge leaderboard: %s\n", err);
		return 2;
	}
	const struct game *g = game_find(a.game);
	struct board b = { .game = g->name, .title = g->title, .generated_ms = store_now_ms(),
			   .sized = game_min_players(g) != game_max_players(g) };
	int rc = 0;
	if (load_rows(s, &b, err) < 0 ||
	    (b.sized && store_match_sizes(s, b.game, add_size, &b, err) < 0)) {
		fprintf(stderr, "judge leaderboard: reading %s: %s\n", a.queue, err);
		rc = 2;
	}
	for (size_t i = 0; rc == 0 && a.html && i < b.n; i++)
		if (load_recent(s, &b.row[i], err) < 0) {
			fprintf(stderr, "judge leaderboard: reading %s: %s\n", a.queue, err);
			rc = 2;
		}
	if (rc == 0 && a.html && write_replays(s, a.html, &b) < 0)
		rc = 2;
	store_close(s);
	if (rc == 0) {
		rank_rows(&b);
		rc = output(&a, &b);
	}
	rows_free(&b);
	return rc;
}
