/* judge leaderboard: the ranked players of a game, best first, as a table,
 * JSON, or a self-contained HTML page. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "judge/base/paths.h"
#include "judge/base/safe_text.h"
#include "judge/cli/board_html.h"
#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/rating/rating.h"
#include "judge/store/store.h"
#include "judge/replay/viewer.h"

struct board_args {
	const char *game, *queue, *html;
	bool json;
};

/* 0, or -1 when the command is done with exit status *status. */
static int parse_args(int argc, char **argv, struct board_args *a, int *status)
{
	const struct opt opts[] = {
		OPT_GAME(&a->game, .required = true),
		OPT_STR("html", 0, "FILE", &a->html, "write the board to FILE as the "
			"service's leaderboard page, self-contained (instead of the table; with --json, as well as "
			"the JSON), and beside it replay-ID.html, a page to watch each of the "
			"latest " OPT_TEXT(BOARD_RECENT) " matches of every player, linked from "
			"the board"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge leaderboard", .opts = opts,
		.json = &a->json,
		.json_help = "print a JSON array: rank, submission, player, author, score, "
			"mu, sigma, games, wins (and games_by_players for a game with a range of "
			"players: matches played by size)",
		.queue = &a->queue,
		.summary = "Prints the ranked players of GAME: the latest qualified submission of each\n"
			   "player, best first by score = mu - 3 sigma (a skill the player very likely\n"
			   "has), then by games played, then by submission.  Equal scores share a rank.",
		.exits = "0 done (an empty board too), 2 bad usage, an unknown game or an "
			 "unusable database or file.",
	};
	*a = (struct board_args){ 0 };
	return opt_parse(&cmd, argc, argv, status) < 0 ? -1 : 0;
}

/* ---- reading and ranking ------------------------------------------------- */

/* ---- the matches linked from the page ------------------------------------- */

static int load_recent(struct store *s, struct board_row *r, err_t err)
{
	return store_recent_matches(s, r->submission, BOARD_RECENT, r->recent, &r->nrecent, err);
}

/* The folder the --html page goes in, made when missing. */
static int make_page_dir(const char *page)
{
	const char *slash = strrchr(page, '/');
	char dir[PATH_MAX], failed[PATH_MAX];
	if (!slash || slash == page)
		return 0;
	snprintf(dir, sizeof dir, "%.*s", (int)(slash - page), page);
	if (paths_make_dirs(dir, failed) == 0)
		return 0;
	fprintf(stderr, "judge leaderboard: cannot create the folder %s for --html: %s\n", failed,
		strerror(errno));
	return -1;
}

/* replay-ID.html beside the board (a match two listed players shared is
 * written twice, the same bytes). */
static int write_replays(struct store *s, const char *board_path, const struct board *b)
{
	const char *slash = strrchr(board_path, '/');
	int dir_len = slash ? (int)(slash - board_path + 1) : 0;
	for (size_t i = 0; i < b->n; i++)
		for (int k = 0; k < b->row[i].nrecent; k++) {
			char path[PATH_MAX];
			err_t err;
			snprintf(path, sizeof path, "%.*sreplay-%lld.html", dir_len, board_path,
				 (long long)b->row[i].recent[k]);
			if (viewer_write_match(s, b->row[i].recent[k], path, err) != 0) {
				fprintf(stderr, "judge leaderboard: %s\n", err->msg);
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
	       "score", "mu", "sigma", "games", "wins", b->sizes ? "  by size (players:matches)" : "");
	for (size_t i = 0; i < b->n; i++) {
		const struct board_row *r = &b->row[i];
		printf("%4d  ", r->rank);
		board_cell(stdout, r->player, 12);
		fputs("  ", stdout);
		board_cell(stdout, r->author, aw);
		char sizes[BOARD_SIZES_LEN] = "";
		if (b->sizes)
			board_sizes_text(r, sizes);
		printf("  %8s  %7s  %6s  %5d  %5d%s%s\n", board_num(r->score, score),
		       board_num(r->mu, mu), board_num(r->sigma, sigma), r->games, r->wins,
		       b->sizes ? "  " : "", sizes);
	}
}

static int print_json(const struct board *b)
{
	json_t *arr = board_json(b);
	int rc = arr && json_dumpf(arr, stdout, JSON_INDENT(2)) == 0 ? 0 : -1;
	if (rc == 0)
		putchar('\n');
	json_decref(arr);
	return rc;
}

static int output(struct store *s, const struct board_args *a, const struct board *b)
{
	err_t err;
	if (a->json && print_json(b) < 0) {
		fprintf(stderr, "judge leaderboard: cannot print the JSON (out of memory)\n");
		return 2;
	}
	if (a->html && board_html_write(a->html, s, b, err) < 0) {
		fprintf(stderr, "judge leaderboard: %s\n", err->msg);
		return 2;
	}
	if (!a->json && !a->html)
		print_table(b);
	return 0;
}

static int show(struct store *s, void *args)
{
	const struct board_args a = *(const struct board_args *)args;
	err_t err;
	const struct game *g = game_find(a.game);
	struct board b = { .game = g->name, .title = g->title, .generated_ms = store_now_ms(),
			   .sizes = game_min_players(g) != game_max_players(g) };
	int rc = 0;
	if (board_load(s, &b, err) < 0) {
		fprintf(stderr, "judge leaderboard: reading %s: %s\n", a.queue, err->msg);
		rc = 2;
	}
	for (size_t i = 0; rc == 0 && a.html && i < b.n; i++)
		if (load_recent(s, &b.row[i], err) < 0) {
			fprintf(stderr, "judge leaderboard: reading %s: %s\n", a.queue, err->msg);
			rc = 2;
		}
	if (rc == 0 && a.html && make_page_dir(a.html) < 0)
		rc = 2;
	if (rc == 0 && a.html && write_replays(s, a.html, &b) < 0)
		rc = 2;
	if (rc == 0)
		rc = output(s, &a, &b);
	board_free(&b);
	return rc;
}

int cmd_leaderboard(int argc, char **argv)
{
	struct board_args a;
	int status;
	return parse_args(argc, argv, &a, &status) < 0 ? status
	       : opt_on_store("judge leaderboard", a.queue, false, show, &a);
}
