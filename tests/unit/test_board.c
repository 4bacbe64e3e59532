/* test_board.c - the read-side commands (judge leaderboard, status,
 * matches, replay, jobs) through the real judge binary.
 *
 * Two kinds of fixture, each in its own mkdtemp directory: a "played" one
 * built by the real programs (scripts/upload, then judge-worker plays the
 * qualifying matches), and a "ranked" one where uploads go in through
 * scripts/upload and the ranked pool (states, ratings) is written with SQL,
 * so ties and orders are exactly what the test needs. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/unit/cli_testlib.h"

static char dir[64], db[128];
static char out[1 << 18];

static void setup(void)
{
	snprintf(dir, sizeof dir, "/tmp/test-board-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(db, sizeof db, "%s/judge.sqlite", dir);
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cli_run(cmd, out, sizeof out);
}

TestSuite(leaderboard, .init = setup, .fini = teardown, .timeout = 60);
TestSuite(played, .init = setup, .fini = teardown, .timeout = 120);
TestSuite(read_errors, .init = setup, .fini = teardown, .timeout = 60);

/* ---- helpers ----------------------------------------------------------------- */

/* Runs `judge ARGS --queue DB`; stderr joins stdout only when with_err. */
static int judge(bool with_err, const char *fmt, ...)
{
	char args[1024], cmd[1400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof cmd, "%s %s --queue '%s'%s", cli_judge(), args, db,
		 with_err ? " 2>&1" : " 2>/dev/null");
	return cli_run(cmd, out, sizeof out);
}

static json_t *judge_json(const char *fmt, const char *arg)
{
	char args[512];
	snprintf(args, sizeof args, fmt, arg);
	cr_assert_eq(judge(false, "%s --json", args), 0, "judge %s --json failed", args);
	json_error_t e;
	json_t *j = json_loads(out, 0, &e);
	cr_assert_not_null(j, "judge %s --json: %s in:\n%s", args, e.text, out);
	return j;
}

/* A player file named name: scripts/upload only reads its PLAYER_NAME. */
static void upload_to(const char *game, const char *name, const char *author)
{
	char path[192], cmd[1024];
	snprintf(path, sizeof path, "%s/AI%s.c", dir, name);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fprintf(f, "#include \"%s.h\"\n\nPLAYER_NAME(%s);\n\nvoid play(void)\n{\n}\n", game,
		name);
	fclose(f);
	snprintf(cmd, sizeof cmd, "scripts/upload %s --game %s --author '%s' --queue %s 2>&1",
		 path, game, author, db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "upload %s: %s", name, out);
}

static void upload(const char *name, const char *author)
{
	upload_to("dominator", name, author);
}

static void sql(const char *fmt, ...)
{
	char q[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(q, sizeof q, fmt, ap);
	va_end(ap);
	sqlite3 *h;
	cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
	sqlite3_busy_timeout(h, 10000);
	char *err = NULL;
	cr_assert_eq(sqlite3_exec(h, q, NULL, NULL, &err), SQLITE_OK, "%s: %s", q, err);
	sqlite3_close(h);
}

/* Makes submission id ranked with this rating (or gives it state only). */
static void rank_it(int id, const char *state, double mu, double sigma, int games, int wins)
{
	sql("UPDATE submissions SET state = '%s' WHERE id = %d;"
	    "INSERT INTO ratings (submission_id, game, mu, sigma, games, wins, updated_at)"
	    " VALUES (%d, 'dominator', %.17g, %.17g, %d, %d, 0)", state, id, id, mu, sigma, games,
	    wins);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "cannot open %s", path);
	static char buf[1 << 18];
	*len = fread(buf, 1, sizeof buf - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

#define PAGE_DATA "<script type=\"application/json\" id=\"page-data\">"

/* The data a page written with --html carries for its script. */
static json_t *page_data(const char *html)
{
	const char *at = strstr(html, PAGE_DATA);
	cr_assert_not_null(at, "the page carries no data:\n%.400s", html);
	at += strlen(PAGE_DATA);
	const char *end = strstr(at, "</script>");
	cr_assert_not_null(end);
	json_error_t e;
	json_t *data = json_loadb(at, (size_t)(end - at), 0, &e);
	cr_assert_not_null(data, "the page's data is not JSON: %s", e.text);
	return data;
}

static json_t *page_rows(const char *html)
{
	json_t *data = page_data(html), *rows = json_incref(json_object_get(data, "rows"));
	json_decref(data);
	cr_assert(json_is_array(rows));
	return rows;
}

/* ---- the leaderboard ----------------------------------------------------------- */

#define SCRIPT_AUTHOR "<script>alert(\"pwn\")</script>"

/* Six ranked players: three tie at 15 (one of them only to a hair), two
 * tie at 0; around them players that must not show: superseded, not
 * qualified, qualified without a rating, another game's. */
static void ranked_fixture(void)
{
	static const char *const names[][2] = {
		{ "Alpha", "alice" }, { "Bravo", "bob" }, { "Charlie", "carol" },
		{ "Delta", "dave" }, { "Echo", SCRIPT_AUTHOR }, { "Fox", "frank" },
		{ "Golf", "george" }, { "Hotel", "hugo" }, { "India", "ivy" },
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		upload(names[i][0], names[i][1]);
	rank_it(1, "qualified", 30, 5, 10, 4);
	rank_it(2, "qualified", 27, 4, 12, 5);
	rank_it(3, "qualified", 24.000000000001, 3, 12, 2);
	rank_it(4, "qualified", 20, 2, 8, 1);
	rank_it(5, "qualified", 25, 25.0 / 3, 0, 0);
	rank_it(6, "qualified", 25, 25.0 / 3, 0, 0);
	rank_it(7, "superseded", 50, 1, 40, 30);
	sql("UPDATE submissions SET state = 'not_qualified' WHERE id = 8;"
	    "UPDATE submissions SET state = 'qualified' WHERE id = 9;"
	    "INSERT INTO names VALUES ('chess', 'Juliet', 'jo');"
	    "INSERT INTO submissions (game, author, name, source, source_sha256, state,"
	    " created_at, updated_at) VALUES ('chess', 'jo', 'Juliet', 'x', 'x', 'qualified', 0, 0);"
	    "INSERT INTO ratings VALUES (10, 'chess', 99, 1, 5, 5, 0);"
	    /* A name written past scripts/upload: an escape sequence and a
	     * byte that is not UTF-8. */
	    "UPDATE submissions SET author = 'fr' || char(27) || '[31mank' || CAST(x'ff' AS TEXT)"
	    " WHERE id = 6");
}

struct want {
	int rank;
	const char *player, *author;
	double score, mu, sigma;
	int games, wins, id;
};

static const struct want board[] = {
	{ 1, "Bravo", "bob", 15, 27, 4, 12, 5, 2 },
	{ 1, "Charlie", "carol", 15, 24, 3, 12, 2, 3 },
	{ 1, "Alpha", "alice", 15, 30, 5, 10, 4, 1 },
	{ 4, "Delta", "dave", 14, 20, 2, 8, 1, 4 },
	{ 5, "Echo", SCRIPT_AUTHOR, 0, 25, 8.33, 0, 0, 5 },
	{ 5, "Fox", "fr?[31mank?", 0, 25, 8.33, 0, 0, 6 },
};
#define BOARD_N (sizeof board / sizeof *board)

Test(leaderboard, ranks_by_score_then_games_then_id_and_ties_share_a_rank)
{
	ranked_fixture();
	cr_assert_eq(judge(true, "leaderboard --game dominator"), 0, "%s", out);
	cr_assert_null(strchr(out, 27), "an escape sequence reached the terminal:\n%s", out);
	char *line = strtok(out, "\n");
	cr_assert(line && strncmp(line, "Dominator leaderboard, 20", 25) == 0, "%s", line);
	line = strtok(NULL, "\n");
	char cols[8][16];
	cr_assert_eq(sscanf(line, "%15s %15s %15s %15s %15s %15s %15s %15s", cols[0], cols[1],
			    cols[2], cols[3], cols[4], cols[5], cols[6], cols[7]), 8, "%s", line);
	static const char *const want_cols[] = { "rank", "player", "author", "score", "mu",
						 "sigma", "games", "wins" };
	for (int i = 0; i < 8; i++)
		cr_assert_str_eq(cols[i], want_cols[i]);
	for (size_t i = 0; i < BOARD_N; i++) {
		line = strtok(NULL, "\n");
		cr_assert_not_null(line, "row %zu missing", i);
		int rank, games, wins;
		char player[16], author[80], score[16], mu[16], sigma[16], want[16];
		cr_assert_eq(sscanf(line, "%d %15s %79s %15s %15s %15s %d %d", &rank, player, author,
				    score, mu, sigma, &games, &wins), 8, "%s", line);
		const struct want *w = &board[i];
		cr_assert_eq(rank, w->rank, "%s", line);
		cr_assert_str_eq(player, w->player);
		cr_assert_str_eq(author, w->author);
		snprintf(want, sizeof want, "%.2f", w->score);
		cr_assert_str_eq(score, want, "%s", line);
		snprintf(want, sizeof want, "%.2f", w->mu);
		cr_assert_str_eq(mu, want, "%s", line);
		snprintf(want, sizeof want, "%.2f", w->sigma);
		cr_assert_str_eq(sigma, want, "%s", line);
		cr_assert_eq(games, w->games);
		cr_assert_eq(wins, w->wins);
	}
	cr_assert_null(strtok(NULL, "\n"), "a player that is not ranked is listed");
}

Test(leaderboard, json_has_every_field_and_the_submission)
{
	ranked_fixture();
	json_t *arr = judge_json("leaderboard --game %s", "dominator");
	cr_assert_eq(json_array_size(arr), BOARD_N);
	for (size_t i = 0; i < BOARD_N; i++) {
		json_t *o = json_array_get(arr, i);
		const struct want *w = &board[i];
		cr_assert_eq(json_object_size(o), 9, "fields: %s", json_dumps(o, 0));
		cr_assert_eq(json_integer_value(json_object_get(o, "rank")), w->rank);
		cr_assert_eq(json_integer_value(json_object_get(o, "submission")), w->id);
		cr_assert_str_eq(json_string_value(json_object_get(o, "player")), w->player);
		cr_assert_float_eq(json_real_value(json_object_get(o, "score")), w->score, 1e-9);
		cr_assert_float_eq(json_real_value(json_object_get(o, "mu")), w->mu, 1e-9);
		cr_assert_float_eq(json_real_value(json_object_get(o, "sigma")), w->sigma, 0.01);
		cr_assert_eq(json_integer_value(json_object_get(o, "games")), w->games);
		cr_assert_eq(json_integer_value(json_object_get(o, "wins")), w->wins);
	}
	/* JSON carries the name as written; a byte that is not UTF-8 becomes
	 * U+FFFD so the document stays valid. */
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(arr, 4), "author")),
			 SCRIPT_AUTHOR);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(arr, 5), "author")),
			 "fr\033[31mank\xef\xbf\xbd");
	json_decref(arr);
}

/* A match of the game between the seats (0: a shipped player), written
 * as the worker records one: a ranked one counted by its size, a rated
 * one in each rated seat's matches by size. */
static void played_match(int id, const char *kind, int rated, const int *seats, int n)
{
	bool ranked = strcmp(kind, "ranked") == 0;
	sql("INSERT INTO jobs (id, kind, payload, state, created_at, updated_at)"
	    " VALUES (%d, 'match', '{}', 'done', 0, 0);"
	    "INSERT INTO matches (id, job_id, game, kind, seed, rated, created_at)"
	    " VALUES (%d, %d, 'blitz', '%s', 1, %d, 0)", 100 + id, id, 100 + id, kind, rated);
	if (ranked)
		sql("INSERT INTO ranked_sizes (game, players, matches) VALUES ('blitz', %d, 1)"
		    " ON CONFLICT DO UPDATE SET matches = matches + 1", n);
	for (int i = 0; i < n; i++) {
		sql("INSERT INTO match_players (match_id, seat, submission_id, name, score, rank,"
		    " cpu_ns, peak_memory) VALUES (%d, %d, %s%.0d, 'P', 0, %d, 0, 0)", id, i,
		    seats[i] ? "" : "NULL", seats[i], i + 1);
		if (ranked && rated && seats[i])
			sql("INSERT INTO rating_sizes (submission_id, game, players, games)"
			    " VALUES (%d, 'blitz', %d, 1) ON CONFLICT DO UPDATE SET games = games + 1",
			    seats[i], n);
	}
}

/* Blitz is played by 2 to 6: its board says how many matches of each size
 * every player played (rated ranked ones only); Dominator's does not. */
Test(leaderboard, a_game_with_a_range_of_players_counts_matches_by_size)
{
	upload_to("blitz", "Kilo", "kim");
	upload_to("blitz", "Lima", "lee");
	upload_to("blitz", "Mike", "max");
	for (int id = 1; id <= 3; id++)
		sql("UPDATE submissions SET state = 'qualified' WHERE id = %d;"
		    "INSERT INTO ratings (submission_id, game, mu, sigma, games, wins, updated_at)"
		    " VALUES (%d, 'blitz', %d, 1, 3, 1, 0)", id, id, 30 - id);
	played_match(1, "ranked", 1, (const int[]){ 1, 2 }, 2);
	played_match(2, "ranked", 1, (const int[]){ 3, 1 }, 2);
	played_match(3, "ranked", 1, (const int[]){ 1, 0, 2, 0, 0, 0 }, 6);
	played_match(4, "ranked", 1, (const int[]){ 2, 3, 0 }, 3);
	played_match(5, "ranked", 0, (const int[]){ 1, 2, 3, 0 }, 4);
	played_match(6, "qualifying", 1, (const int[]){ 1, 0, 0, 0, 0 }, 5);
	cr_assert_eq(judge(true, "leaderboard --game blitz"), 0, "%s", out);
	cr_expect(strstr(out, "by size (players:matches)"), "%s", out);
	static const char *const want[][2] = { { "Kilo", "2:2 6:1\n" }, { "Lima", "2:1 3:1 6:1\n" },
					       { "Mike", "2:1 3:1\n" } };
	for (int i = 0; i < 3; i++) {
		const char *line = strstr(out, want[i][0]);
		cr_assert_not_null(line, "%s", out);
		const char *end = strchr(line, '\n');
		size_t len = strlen(want[i][1]);
		cr_expect(end && (size_t)(end + 1 - line) >= len &&
				  strncmp(end + 1 - len, want[i][1], len) == 0,
			  "%s: want %s in:\n%s", want[i][0], want[i][1], out);
	}
	json_t *arr = judge_json("leaderboard --game %s", "blitz");
	json_t *kilo = json_object_get(json_array_get(arr, 0), "games_by_players");
	cr_expect_eq(json_object_size(kilo), 2, "%s", json_dumps(kilo, 0));
	cr_expect_eq(json_integer_value(json_object_get(kilo, "2")), 2);
	cr_expect_eq(json_integer_value(json_object_get(kilo, "6")), 1);
	json_decref(arr);
	char page[192];
	size_t len;
	snprintf(page, sizeof page, "%s/blitz.html", dir);
	cr_assert_eq(judge(true, "leaderboard --game blitz --html %s", page), 0, "%s", out);
	json_t *data = page_data(slurp(page, &len));
	cr_expect(json_is_true(json_object_get(data, "mixed_sizes")));
	kilo = json_object_get(json_array_get(json_object_get(data, "rows"), 0), "games_by_players");
	cr_expect_eq(json_integer_value(json_object_get(kilo, "2")), 2);
	cr_expect_eq(json_integer_value(json_object_get(kilo, "6")), 1);
	json_decref(data);
	upload("Oscar", "olga");
	sql("UPDATE submissions SET state = 'qualified' WHERE id = 4;"
	    "INSERT INTO ratings (submission_id, game, mu, sigma, games, wins, updated_at)"
	    " VALUES (4, 'dominator', 25, 1, 0, 0, 0)");
	cr_assert_eq(judge(true, "leaderboard --game dominator"), 0, "%s", out);
	cr_expect(strstr(out, "Oscar") && !strstr(out, "by size"),
		  "a game of one count has no sizes:\n%s", out);
}

/* The service's page, drawn by its own script from the data it carries:
 * nothing fetched, no markup from a name, the ranked players in order. */
Test(leaderboard, html_is_the_services_page_with_the_board_embedded)
{
	ranked_fixture();
	char page[192];
	snprintf(page, sizeof page, "%s/board.html", dir);
	cr_assert_eq(judge(true, "leaderboard --game dominator --html %s", page), 0, "%s", out);
	cr_assert_str_eq(out, "", "--html prints nothing else");
	size_t len;
	const char *html = slurp(page, &len);
	cr_assert(strstr(html, "<body data-page=\"leaderboard\">"), "not the service's page");
	cr_assert(strstr(html, "pages.leaderboard = "), "the service's script is not inlined");
	cr_assert(strstr(html, "content=\"default-src 'none'; "), "no policy against fetching");
	cr_assert_null(strstr(html, SCRIPT_AUTHOR), "markup from a name got through");
	cr_assert_null(strchr(html, 27), "a control character got through");
	static const char *const external[] = { "<script src", "<link rel=\"stylesheet\"", "/static/",
						"<img", "<iframe" };
	for (size_t i = 0; i < sizeof external / sizeof *external; i++)
		cr_assert_null(strcasestr(html, external[i]), "the page has %s", external[i]);
	json_t *data = page_data(html), *rows = json_object_get(data, "rows");
	cr_assert_str_eq(json_string_value(json_object_get(data, "title")), "Dominator");
	cr_assert_eq(json_array_size(rows), BOARD_N);
	for (size_t i = 0; i < BOARD_N; i++) {
		json_t *row = json_array_get(rows, i);
		cr_assert_str_eq(json_string_value(json_object_get(row, "player")), board[i].player);
		if (strcmp(board[i].player, "Echo") == 0)
			cr_assert_str_eq(json_string_value(json_object_get(row, "author")), SCRIPT_AUTHOR);
	}
	json_decref(data);
	cr_assert(len > 7 && strcmp(html + len - 8, "</html>\n") == 0);
}

Test(leaderboard, empty_board_and_bad_arguments)
{
	upload("Alpha", "alice");
	cr_assert_eq(judge(true, "leaderboard --game dominator"), 0, "%s", out);
	cr_assert(strstr(out, "no ranked players yet"), "%s", out);
	cr_assert_eq(judge(false, "leaderboard --game dominator --json"), 0);
	cr_assert_str_eq(out, "[]\n");
	char page[192];
	snprintf(page, sizeof page, "%s/empty.html", dir);
	cr_assert_eq(judge(true, "leaderboard --game dominator --html %s", page), 0, "%s", out);
	size_t len;
	json_t *rows = page_rows(slurp(page, &len));
	cr_assert_eq(json_array_size(rows), 0);
	json_decref(rows);
	cr_assert_eq(judge(true, "leaderboard --game chess"), 2);
	cr_assert(strstr(out, "--game takes one of dominator") && strstr(out, "not 'chess'"), "%s",
		  out);
	cr_assert_eq(judge(true, "leaderboard"), 2);
	/* The page's folder is made, as in README's `--html www/board.html`. */
	cr_assert_eq(judge(true, "leaderboard --game dominator --html %s/www/new/board.html", dir),
		     0, "%s", out);
	snprintf(page, sizeof page, "%s/www/new/board.html", dir);
	rows = page_rows(slurp(page, &len));
	cr_assert_eq(json_array_size(rows), 0);
	json_decref(rows);
	cr_assert_eq(judge(true, "leaderboard --game dominator --html %s/empty.html/x.html", dir), 2);
	cr_assert(strstr(out, "/empty.html/x.html: Not a directory"), "%s", out);
	cr_assert_eq(judge(true, "leaderboard --game dominator --html %s/empty.html/x/b.html", dir),
		     2);
	cr_assert(strstr(out, "cannot create the folder "), "%s", out);
	cr_assert(strstr(out, "/empty.html/x for --html: Not a directory"), "%s", out);
}

/* ---- a played fixture: real uploads, real qualifying matches ------------------ */

#define PLAYED_SECRET "played-1"

/* 1 Demo (loses every qualifying match), 2 Crash10 (frozen at round 10),
 * 3 Broken (does not compile), 4 Twin (a Dummy, by an author with markup
 * in the name). */
static void played_fixture(void)
{
	char twin[192], cmd[4096], cfg[192];
	snprintf(twin, sizeof twin, "%s/AITwin.c", dir);
	/* Qualifying seeds from a fixed secret: the same matches every run. */
	snprintf(cfg, sizeof cfg, "%s/judge.json", dir);
	FILE *f = fopen(cfg, "w");
	cr_assert_not_null(f);
	fputs("{\"worker\": {\"seed_secret\": \"" PLAYED_SECRET "\"}}\n", f);
	fclose(f);
	snprintf(cmd, sizeof cmd,
		 "sed 's/PLAYER_NAME(Dummy)/PLAYER_NAME(Twin)/' games/dominator/players/AIDummy.c > %s"
		 " && scripts/upload games/dominator/players/AIDemo.c --game dominator --author alice"
		 " --queue %s && scripts/upload tests/players/AICrash10.c --game dominator"
		 " --author bob --queue %s && scripts/upload tests/players/AIBroken.c --game dominator"
		 " --author carol --queue %s && scripts/upload %s --game dominator --author '%s'"
		 " --queue %s && JUDGE_CONFIG=%s %s-worker --queue %s --exit-when-idle --jobs 2"
		 " --ranked-matches 0 2>&1", twin, db, db, db, twin, SCRIPT_AUTHOR, db, cfg,
		 cli_judge(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
}

static json_t *status_json(int id)
{
	char arg[16];
	snprintf(arg, sizeof arg, "%d", id);
	return judge_json("status %s", arg);
}

static const char *jstr(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	cr_assert_not_null(s, "no string %s", key);
	return s;
}

static long long jint(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	cr_assert(json_is_integer(v), "no integer %s", key);
	return json_integer_value(v);
}

Test(played, status_tells_each_submission_what_became_of_it)
{
	played_fixture();
	json_t *demo = status_json(1);
	cr_assert_str_eq(jstr(demo, "player"), "Demo");
	cr_assert_str_eq(jstr(demo, "author"), "alice");
	cr_assert_str_eq(jstr(demo, "game"), "dominator");
	cr_assert_str_eq(jstr(demo, "state"), "not_qualified");
	cr_assert(json_is_false(json_object_get(demo, "qualified")));
	json_t *q = json_object_get(demo, "qualifying");
	cr_assert_eq(jint(q, "played"), 4);
	cr_assert_eq(jint(q, "won"), 0);
	cr_assert_eq(json_array_size(json_object_get(q, "matches")), 4);
	cr_assert(jint(demo, "updated_at") >= jint(demo, "created_at"));
	json_decref(demo);

	json_t *crash = status_json(2);
	json_t *m;
	size_t i;
	int seats = 0;
	json_array_foreach(json_object_get(json_object_get(crash, "qualifying"), "matches"), i, m) {
		cr_assert_eq(jint(m, "frozen_round"), 10);
		cr_assert(strstr(jstr(m, "reason"), "crash"), "%s", jstr(m, "reason"));
		cr_assert_eq(jint(m, "rank"), 4);
		seats |= 1 << jint(m, "seat");
	}
	cr_assert_eq(seats, 15, "a qualifying match in every seat");
	json_decref(crash);
	cr_assert_eq(judge(true, "status 2"), 0, "%s", out);
	cr_assert(strstr(out, "round 10: crash"), "%s", out);
	cr_assert(strstr(out, "not qualified: won 0 of 4"), "%s", out);

	json_t *broken = status_json(3);
	cr_assert_str_eq(jstr(broken, "state"), "compile_failed");
	cr_assert(strstr(jstr(broken, "compile_log"), "undeclared_function"));
	cr_assert_eq(jint(json_object_get(broken, "qualifying"), "played"), 0);
	json_decref(broken);
	cr_assert_eq(judge(true, "status 3"), 0, "%s", out);
	cr_assert(strstr(out, "did not compile") && strstr(out, "compile log:\n  ") &&
		  strstr(out, "undeclared_function"), "%s", out);

	/* Twin's outcome follows from its wins; qualified, it has a rating. */
	json_t *twin = status_json(4);
	cr_assert_str_eq(jstr(twin, "author"), SCRIPT_AUTHOR);
	q = json_object_get(twin, "qualifying");
	int won = 0;
	json_array_foreach(json_object_get(q, "matches"), i, m)
		won += jint(m, "rank") == 1;
	cr_assert_eq(jint(q, "won"), won);
	bool qualified = strcmp(jstr(twin, "state"), "qualified") == 0;
	cr_assert_eq(qualified, won >= 1);
	cr_assert_eq(json_is_object(json_object_get(twin, "rating")), qualified);
	cr_assert_eq(json_is_true(json_object_get(twin, "qualified")), qualified);
	json_decref(twin);

	cr_assert_eq(judge(true, "status 99"), 1);
	cr_assert(strstr(out, "no submission 99"), "%s", out);
	cr_assert_eq(judge(true, "status seven"), 2);
}

Test(played, matches_list_newest_first_and_replays_come_back_whole)
{
	played_fixture();
	json_t *all = judge_json("matches --game %s", "dominator");
	cr_assert_eq(json_array_size(all), 12, "3 players x 4 qualifying matches");
	json_t *m;
	size_t i;
	long long last = 1LL << 62;
	json_array_foreach(all, i, m) {
		cr_assert_lt(jint(m, "match"), last, "not newest first");
		last = jint(m, "match");
		cr_assert_str_eq(jstr(m, "kind"), "qualifying");
		cr_assert(json_is_false(json_object_get(m, "rated")));
		cr_assert_eq(json_array_size(json_object_get(m, "players")), 4);
	}
	json_decref(all);

	json_t *crash = judge_json("matches --player %s", "Crash10");
	cr_assert_eq(json_array_size(crash), 4);
	json_array_foreach(crash, i, m) {
		json_t *p;
		size_t k;
		int found = 0;
		json_array_foreach(json_object_get(m, "players"), k, p)
			if (strcmp(jstr(p, "name"), "Crash10") == 0)
				found += jint(p, "frozen_round") == 10 && jint(p, "submission") == 2;
			else
				cr_assert(json_is_null(json_object_get(p, "submission")), "a house player");
		cr_assert_eq(found, 1);
	}
	json_decref(crash);

	json_t *two = judge_json("matches --limit %s", "2");
	cr_assert_eq(json_array_size(two), 2);
	cr_assert_eq(jint(json_array_get(two, 0), "match"), 12);
	cr_assert_eq(jint(json_array_get(two, 1), "match"), 11);
	json_decref(two);
	cr_assert_eq(judge(true, "matches --player Crash10 --limit 1"), 0, "%s", out);
	cr_assert(strstr(out, "qualifying  unrated") && strstr(out, "frozen round 10: crash"), "%s",
		  out);
	cr_assert_eq(judge(true, "matches --player Nobody"), 1);
	cr_assert(strstr(out, "no player named 'Nobody'"), "%s", out);
	cr_assert_eq(judge(true, "matches --limit lots"), 2);

	/* The store keeps the replay gzip-compressed; the file is its plain
	 * JSON, the .gz file the same bytes compressed. */
	char path[192], gz[192], cmd[512];
	snprintf(path, sizeof path, "%s/m5.json", dir);
	snprintf(gz, sizeof gz, "%s/m5.json.gz", dir);
	snprintf(cmd, sizeof cmd, "sqlite3 %s \"SELECT typeof(replay), hex(substr(replay, 1, 2))"
		 " FROM matches WHERE id = 5\"", db);
	cli_run(cmd, out, sizeof out);
	cr_assert_str_eq(out, "blob|1F8B\n", "stored as gzip: %s", out);
	cr_assert_eq(judge(true, "replay 5 -o %s", path), 0, "%s", out);
	size_t len;
	char *file = strdup(slurp(path, &len));
	json_error_t e;
	json_t *r = json_loads(file, 0, &e);
	cr_assert_not_null(r, "%s", e.text);
	cr_assert_str_eq(jstr(r, "game"), "dominator");
	json_decref(r);
	cr_assert_eq(judge(false, "replay 5 -o -"), 0);
	cr_assert(strlen(out) == len && memcmp(out, file, len) == 0);
	cr_assert_eq(judge(true, "replay 5 -o %s", gz), 0, "%s", out);
	snprintf(cmd, sizeof cmd, "gzip -dc %s", gz);
	cli_run(cmd, out, sizeof out);
	cr_assert(strlen(out) == len && memcmp(out, file, len) == 0, "the .gz holds the same JSON");
	cr_assert_eq(judge(true, "replay check 5"), 0, "%s", out);
	cr_assert(strstr(out, "OK: 200 rounds agree"), "%s", out);
	free(file);

	/* A row from before compression holds plain text: it comes back whole. */
	sql("UPDATE matches SET replay = '{\"format\":1}' WHERE id = 4");
	cr_assert_eq(judge(false, "replay 4 -o -"), 0);
	cr_assert_str_eq(out, "{\"format\":1}");

	cr_assert_eq(judge(true, "replay 99 -o %s", path), 1);
	cr_assert(strstr(out, "no match 99"), "%s", out);
	sql("INSERT INTO jobs (kind, payload, state, created_at, updated_at)"
	    " VALUES ('match', '{}', 'done', 0, 0);"
	    "INSERT INTO matches (job_id, game, kind, seed, created_at)"
	    " VALUES (last_insert_rowid(), 'dominator', 'ranked', 1, 0)");
	cr_assert_eq(judge(true, "replay 13 -o %s", path), 1);
	cr_assert(strstr(out, "no replay stored for match 13"), "%s", out);
	cr_assert_eq(judge(true, "replay 5"), 2, "no -o nor --html");
}

/* A viewer page: the replay inlined, nothing else needed. */
static void assert_viewer_page(const char *path)
{
	size_t len;
	const char *html = slurp(path, &len);
	cr_assert(strstr(html, "<script type=\"application/json\" id=\"replay\""), "%s: no replay",
		  path);
	cr_assert(strstr(html, "Viewer.register('dominator'"), "%s: no viewer", path);
	cr_assert_null(strstr(html, "<script src="), "%s: a script is not inlined", path);
}

Test(played, replay_html_and_the_leaderboard_links_each_players_matches)
{
	played_fixture();
	char page[192];
	snprintf(page, sizeof page, "%s/m5.html", dir);
	cr_assert_eq(judge(true, "replay 5 --html %s", page), 0, "%s", out);
	cr_assert_str_eq(out, "");
	assert_viewer_page(page);
	cr_assert_eq(judge(true, "replay 99 --html %s", page), 1);
	cr_assert(strstr(out, "no match 99"), "%s", out);

	/* The crashing player's reason, as the store keeps it, is on its page. */
	json_t *crash = judge_json("matches --player %s --limit 1", "Crash10");
	long long id = jint(json_array_get(crash, 0), "match");
	json_decref(crash);
	snprintf(page, sizeof page, "%s/crash.html", dir);
	cr_assert_eq(judge(true, "replay %lld --html %s", id, page), 0, "%s", out);
	size_t len;
	char cmd[512];
	snprintf(cmd, sizeof cmd, "sqlite3 %s \"SELECT reason FROM match_players WHERE match_id = %lld"
		 " AND reason IS NOT NULL\"", db, id);
	cli_run(cmd, out, sizeof out);
	*strchr(out, '\n') = '\0';
	cr_assert_gt(strlen(out), 5);
	char *reason = strdup(out);
	const char *html = slurp(page, &len);
	cr_assert(strstr(html, reason) || strstr(html, "gzip-base64"), "no \"%s\" on the page", reason);
	free(reason);

	/* Each ranked player's latest matches: linked, and written beside. */
	snprintf(page, sizeof page, "%s/board.html", dir);
	cr_assert_eq(judge(true, "leaderboard --game dominator --html %s", page), 0, "%s", out);
	json_t *twin = judge_json("matches --player %s --limit 3", "Twin");
	cr_assert_eq(json_array_size(twin), 3);
	json_t *rows = page_rows(slurp(page, &len)), *recent = NULL, *row;
	size_t r;
	json_array_foreach(rows, r, row)
		if (strcmp(json_string_value(json_object_get(row, "player")), "Twin") == 0)
			recent = json_object_get(row, "recent");
	cr_assert_eq(json_array_size(recent), 3, "Twin's latest matches are not in the page");
	for (size_t i = 0; i < 3; i++) {
		char path[192];
		long long m = jint(json_array_get(twin, i), "match");
		cr_assert_eq(json_integer_value(json_array_get(recent, i)), m);
		snprintf(path, sizeof path, "%s/replay-%lld.html", dir, m);
		assert_viewer_page(path);
	}
	json_decref(rows);
	json_decref(twin);
}

Test(played, jobs_show_running_queued_parked_and_counts)
{
	played_fixture();
	cr_assert_eq(judge(true, "jobs"), 0, "%s", out);
	cr_assert_str_eq(out, "0 queued, 0 running, 0 parked, 16 done\n");
	cr_assert_eq(judge(true, "jobs --all"), 0, "%s", out);
	int lines = 0;
	for (char *p = out; (p = strchr(p, '\n')); p++)
		lines++;
	cr_assert_eq(lines, 1 + 16 + 1, "%s", out);

	sql("INSERT INTO jobs (kind, payload, state, priority, attempts, not_before, worker,"
	    " lease_until, last_error, created_at, updated_at) VALUES"
	    " ('match', '{\"kind\":\"ranked\",\"game\":\"dominator\",\"seed\":7,\"seats\":"
	    "[{\"submission\":4},{\"house\":\"Dummy\"}]}', 'parked', 0, 3, 0, NULL, NULL,"
	    " 'the engine said no', 1, 1),"
	    " ('compile', '{\"submission\":1}', 'queued', 0, 1, %lld, NULL, NULL, 'busy', 1, 1),"
	    " ('compile', '{\"submission\":2}', 'queued', 5, 0, 0, NULL, NULL, NULL, 1, 1),"
	    " ('compile', '{\"submission\":3}', 'running', 0, 1, 0, 'box:42', %lld, NULL, 1, 1)",
	    (long long)time(NULL) * 1000 + 3600000, (long long)time(NULL) * 1000 + 60000);
	cr_assert_eq(judge(true, "jobs"), 0, "%s", out);
	const char *run = strstr(out, "running"), *q5 = strstr(out, "submission 2"),
		   *q0 = strstr(out, "submission 1"), *parked = strstr(out, "parked");
	cr_assert(run && q5 && q0 && parked && run < q5 && q5 < q0 && q0 < parked,
		  "running, queued by priority, parked:\n%s", out);
	cr_assert(strstr(out, "[box:42, lease 60 s left]") || strstr(out, "[box:42, lease 59 s left]"),
		  "%s", out);
	cr_assert(strstr(out, "retry in "), "%s", out);
	cr_assert(strstr(out, "last error: the engine said no"), "%s", out);
	cr_assert(strstr(out, "ranked dominator seed 7: #4 Dummy"), "%s", out);
	cr_assert(strstr(out, "2 queued, 1 running, 1 parked, 16 done\n"), "%s", out);

	json_t *j = judge_json("jobs%s", "");
	json_t *c = json_object_get(j, "counts"), *jobs = json_object_get(j, "jobs");
	cr_assert(jint(c, "queued") == 2 && jint(c, "running") == 1 && jint(c, "parked") == 1 &&
		  jint(c, "done") == 16);
	cr_assert_eq(json_array_size(jobs), 4);
	json_t *running = json_array_get(jobs, 0), *last = json_array_get(jobs, 3);
	cr_assert_str_eq(jstr(running, "worker"), "box:42");
	cr_assert(jint(running, "lease_left_ms") > 0 && jint(running, "lease_left_ms") <= 60000);
	cr_assert_eq(jint(json_object_get(running, "payload"), "submission"), 3);
	cr_assert_str_eq(jstr(last, "state"), "parked");
	cr_assert_eq(jint(last, "attempts"), 3);
	cr_assert_str_eq(jstr(last, "last_error"), "the engine said no");
	json_decref(j);
}

/* ---- databases that cannot be read ---------------------------------------------- */

static const char *const commands[] = {
	"leaderboard --game dominator", "status 1", "matches", "replay 1 -o /dev/null", "jobs",
};
#define NCOMMANDS (sizeof commands / sizeof *commands)

Test(read_errors, a_missing_database_is_named_and_not_created)
{
	for (size_t i = 0; i < NCOMMANDS; i++) {
		cr_assert_eq(judge(true, "%s", commands[i]), 2, "%s: %s", commands[i], out);
		cr_assert(strstr(out, db) && strstr(out, "no judge database"), "%s: %s",
			  commands[i], out);
		cr_assert_neq(access(db, F_OK), 0, "%s created the database", commands[i]);
	}
}

Test(read_errors, a_foreign_file_is_refused_and_left_alone)
{
	sql("CREATE TABLE accounts (name TEXT); INSERT INTO accounts VALUES ('mine')");
	size_t len, len_after;
	const char *file = slurp(db, &len);
	char *before = malloc(len);
	memcpy(before, file, len);
	for (size_t i = 0; i < NCOMMANDS; i++) {
		cr_assert_eq(judge(true, "%s", commands[i]), 2, "%s: %s", commands[i], out);
		cr_assert(strstr(out, "not a judge's"), "%s: %s", commands[i], out);
	}
	const char *after = slurp(db, &len_after);
	cr_assert(len == len_after && memcmp(before, after, len) == 0, "the file was written");
	free(before);
	char cmd[256];
	snprintf(cmd, sizeof cmd, "sqlite3 %s 'SELECT group_concat(name) FROM sqlite_schema;"
		 " SELECT name FROM accounts'", db);
	cli_run(cmd, out, sizeof out);
	cr_assert_str_eq(out, "accounts\nmine\n");

	FILE *f = fopen(db, "w");
	fputs("these are my notes, not a database\n", f);
	fclose(f);
	for (size_t i = 0; i < NCOMMANDS; i++) {
		cr_assert_eq(judge(true, "%s", commands[i]), 2, "%s: %s", commands[i], out);
		cr_assert(strstr(out, "not a judge database"), "%s: %s", commands[i], out);
	}
}

Test(read_errors, every_command_explains_itself)
{
	static const char *const names[] = { "leaderboard", "status", "matches", "replay", "jobs" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		char cmd[256], want[64];
		snprintf(cmd, sizeof cmd, "%s %s --help", cli_judge(), names[i]);
		cr_assert_eq(cli_run(cmd, out, sizeof out), 0);
		snprintf(want, sizeof want, "usage: judge %s", names[i]);
		cr_assert(strncmp(out, want, strlen(want)) == 0, "%s", out);
		cr_assert(strstr(out, "--queue FILE"), "%s", out);
	}
	cr_assert_eq(judge(true, "jobs --player x"), 2);
	cr_assert(strstr(out, "--player is not an option"), "%s", out);
}
