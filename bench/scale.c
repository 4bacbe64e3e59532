/* scale.c - what a recorded match and a leaderboard cost the store as the
 * field grows, on a private PostgreSQL 15 server.  Two Dominator fields,
 * SMALL and LARGE ranked players, each with PER_PLAYER ranked matches
 * (4 seats) of history per player (2,000 players: 20,000 matches).
 * Figures, measured in one run:
 *   - the store's time per recorded ranked match, the two fields side by
 *     side (rounds of matches alternating; the median): the transaction
 *     the worker commits (the job done, the match and its seats, the
 *     ratings, games by size, and for a listening webhook the places and
 *     rank.changed events, which grow with how often places move); goal:
 *     LARGE over SMALL <= 1.2;
 *   - the organiser's leaderboard at LARGE: the board with its counts by
 *     size and suspected marks (one query), the ranked matches by size and
 *     the disqualifications, written as the JSON text the service sends;
 *     goal <= 10 ms;
 *   - beside them, the old readings the counters replace, timed on the
 *     same data: a place counted over every ranked player, and every
 *     rated match's seats read for the counts by size.
 * The players go in through the store; their history, which only the
 * board's counters and the database's size depend on, is written in bulk
 * by SQL here (a few seconds), not played.  The server runs without fsync
 * (commit costs are the round trips, not the disk).
 * Usage: bench-scale [SMALL LARGE PER_PLAYER] (bench/scale.sh: larger runs).
 * It prints, it never fails on speed. */
#include <libpq-fe.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/bench_pg.h"
#include "judge/base/json_text.h"
#include "judge/base/hook_config.h"
#include "judge/rating/board.h"
#include "judge/rating/ladder.h"
#include "judge/store/store.h"
#include "judge/store/store_serve.h"

#define SEATS 4
#define ROUNDS_FULL 4
#define MATCHES_FULL 30
#define ROUNDS ((int)bench_size(ROUNDS_FULL, 1))
#define MATCHES_PER_ROUND ((int)bench_size(MATCHES_FULL, 3))
#define PER_FIELD (ROUNDS * MATCHES_PER_ROUND)
#define BOARD_READS ((int)bench_size(20, 1))
#define RATIO_GOAL 1.2
#define BOARD_GOAL_MS 10.0

static struct bench_pg pg;

struct field {
	const char *name;
	int players, matches;
	char url[512];
	struct store *s;
	PGconn *pq;
	int64_t *ids;
};

static void cleanup(void)
{
	bench_pg_remove(&pg, "bench-scale");
}

static _Noreturn void die(const char *what, const char *why)
{
	bench_fail("bench-scale", cleanup, what, why);
}

static void sql(struct field *f, const char *text)
{
	PGresult *r = PQexec(f->pq, text);
	ExecStatusType st = PQresultStatus(r);
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
		die(text, PQerrorMessage(f->pq));
	PQclear(r);
}

/* The field's players, qualified at ratings spread as a ladder spreads
 * them, through the store. */
static void enter_players(struct field *f)
{
	char name[16], sha[16];
	err_t err;
	f->ids = calloc((size_t)f->players, sizeof *f->ids);
	if (!f->ids || store_begin(f->s, err) < 0)
		die("entering players", f->ids ? err->msg : "out of memory");
	for (int i = 0; i < f->players; i++) {
		snprintf(name, sizeof name, "P%d", i);
		snprintf(sha, sizeof sha, "%08x", i);
		struct store_new_submission sub = { .game = "dominator", .author = name,
						    .name = name, .source = "int x;",
						    .source_len = 6, .source_sha256 = sha };
		struct store_submission got;
		if (store_submit(f->s, &sub, &f->ids[i], err) < 0 ||
		    store_get_submission(f->s, f->ids[i], &got, err) <= 0 ||
		    store_conclude_qualification(f->s, &got, true, 15 + 20.0 * rand() / RAND_MAX,
						 1 + 7.0 * rand() / RAND_MAX, err) < 0)
			die("entering players", err->msg);
	}
	if (store_commit(f->s, err) < 0)
		die("entering players", err->msg);
}

/* PER_PLAYER rated matches per player, 4 random seats each, with the
 * counters the judge keeps for them. */
static void write_history(struct field *f)
{
	char text[4096];
	snprintf(text, sizeof text,
		 "BEGIN;"
		 "INSERT INTO jobs (kind, payload, state, priority, created_at, updated_at)"
		 " SELECT 'match', '{}', 'done', 40, 0, 0 FROM generate_series(1, %d);"
		 "INSERT INTO matches (job_id, game, kind, seed, rated, created_at, wall_ms)"
		 " SELECT id, 'dominator', 'ranked', id, 1, id, 1000 FROM jobs"
		 " WHERE kind = 'match' ORDER BY id;"
		 "CREATE TEMP TABLE pool AS SELECT row_number() OVER (ORDER BY id) AS k, id"
		 " FROM submissions;"
		 "INSERT INTO match_players (match_id, seat, submission_id, name, score, rank,"
		 " cpu_ns, peak_memory) SELECT m.id, seat, p.id, 'P', 0, seat + 1, 0, 0"
		 " FROM matches m CROSS JOIN generate_series(0, %d) seat"
		 " JOIN pool p ON p.k = 1 + (m.id * %d + seat * 7919) %% %d;"
		 "INSERT INTO rating_sizes (submission_id, game, players, games)"
		 " SELECT submission_id, 'dominator', %d, count(*) FROM match_players"
		 " GROUP BY submission_id;"
		 "INSERT INTO ranked_sizes VALUES ('dominator', %d, %d);"
		 "UPDATE ratings r SET games = rs.games FROM rating_sizes rs"
		 " WHERE rs.submission_id = r.submission_id;"
		 "COMMIT;",
		 f->matches, SEATS - 1, SEATS * 7 + 1, f->players, SEATS, SEATS, f->matches);
	sql(f, text);
	/* As autovacuum leaves a database that has been running a while. */
	sql(f, "VACUUM ANALYZE");
}

static void open_field(struct field *f, const char *name, int players, int per_player)
{
	err_t err;
	err_t perr;
	*f = (struct field){ .name = name, .players = players,
			     .matches = players * per_player / SEATS };
	if (pg_server_createdb(&pg.server, name, f->url, sizeof f->url, perr) < 0)
		die("createdb", perr->msg);
	if (!(f->s = store_open(f->url, true, err)))
		die("opening the store", err->msg);
	f->pq = PQconnectdb(f->url);
	if (PQstatus(f->pq) != CONNECTION_OK)
		die("connecting", PQerrorMessage(f->pq));
	uint64_t t0 = bench_now_ns();
	enter_players(f);
	write_history(f);
	printf("  %s: %d players, %d matches of history, set up in %.1f s\n", name, players,
	       f->matches, (double)(bench_now_ns() - t0) / 1e9);
}

static void close_field(struct field *f)
{
	store_close(f->s);
	PQfinish(f->pq);
	free(f->ids);
}

/* One ranked match of 4 random players recorded as the worker records it;
 * its time in ns. */
static uint64_t record_match(struct field *f, const struct hook_config *hc)
{
	err_t err;
	int64_t job, match, seat[SEATS];
	if (store_enqueue(f->s, "match", "{}", SCHED_RANKED, 0, &job, err) < 0)
		die("queueing", err->msg);
	for (int i = 0; i < SEATS; i++) {
		bool again;
		do {
			seat[i] = f->ids[rand() % f->players];
			again = false;
			for (int k = 0; k < i; k++)
				again |= seat[k] == seat[i];
		} while (again);
	}
	uint64_t t0 = bench_now_ns();
	struct store_new_match m = { .job = job, .game = "dominator", .kind = "ranked",
				     .seed = job, .replay = "", .replay_len = 0, .wall_ms = 1000,
				     .players = SEATS };
	struct ladder_seat ls[SEATS];
	if (store_begin(f->s, err) < 0 || store_mark_done(f->s, job, err) < 0 ||
	    store_add_match(f->s, &m, &match, err) < 0)
		die("recording", err->msg);
	for (int i = 0; i < SEATS; i++) {
		struct store_match_player p = { .seat = i, .submission = seat[i], .name = "P",
						.score = SEATS - i, .rank = 1 + rand() % SEATS,
						.cpu_ns = 1000000, .peak_memory = 1 << 20 };
		ls[i] = (struct ladder_seat){ seat[i], "P", p.rank };
		if (store_add_match_player(f->s, match, &p, err) < 0)
			die("recording", err->msg);
	}
	if (ladder_rate(f->s, hc, match, "dominator", ls, SEATS, err) < 0 ||
	    store_commit(f->s, err) < 0)
		die("recording", err->msg);
	return bench_now_ns() - t0;
}

static int64_t one_number(struct field *f, const char *query)
{
	PGresult *r = PQexec(f->pq, query);
	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		die(query, PQerrorMessage(f->pq));
	int64_t n = atoll(PQgetvalue(r, 0, 0));
	PQclear(r);
	return n;
}

static int64_t rank_events(struct field *f)
{
	return one_number(f, "SELECT count(*) FROM events WHERE kind = 'rank.changed'");
}

static int64_t database_bytes(struct field *f)
{
	return one_number(f, "SELECT pg_database_size(current_database())");
}

struct timing {
	double ms[2];     /* per match: the small field, the large one */
	double events[2]; /* rank.changed per match */
};

/* The median time per match of the rounds, both fields alternating (a
 * median, as other work on the machine stretches some matches). */
static struct timing time_recording(struct field *small, struct field *large,
				    const struct hook_config *hc)
{
	struct field *f[2] = { small, large };
	static uint64_t ns[2][ROUNDS_FULL * MATCHES_FULL];
	int64_t events[2] = { rank_events(small), rank_events(large) };
	for (int round = 0; round < ROUNDS; round++)
		for (int which = 0; which < 2; which++)
			for (int i = 0; i < MATCHES_PER_ROUND; i++)
				ns[which][round * MATCHES_PER_ROUND + i] = record_match(f[which], hc);
	struct timing t;
	for (int which = 0; which < 2; which++) {
		t.ms[which] = (double)bench_median(ns[which], PER_FIELD) / 1e6;
		t.events[which] = (double)(rank_events(f[which]) - events[which]) / PER_FIELD;
	}
	return t;
}

static void print_timing(const char *what, const struct timing *t, int small_n, int large_n)
{
	printf("  %-26s %d players %.2f ms, %d players %.2f ms: ratio %.2f (goal <= %.1f);"
	       " rank.changed events per match %.1f and %.1f\n", what, small_n, t->ms[0], large_n,
	       t->ms[1], t->ms[1] / t->ms[0], RATIO_GOAL, t->events[0], t->events[1]);
}

/* The organiser's leaderboard as the service builds it (judge/serve/api.c),
 * in ms: the board read with its counts by size and suspected marks, and
 * ranked; the disqualifications; the page written as the JSON text the
 * service sends, with the ranked matches by size. */
static double board_once(struct field *f)
{
	err_t err;
	uint64_t t0 = bench_now_ns();
	struct board b = { .game = "dominator", .title = "Dominator", .sizes = true,
			   .organiser = true };
	json_t *dq = NULL;
	size_t len;
	char *text = NULL;
	if (board_load(f->s, &b, err) < 0 || store_disqualifications(f->s, "dominator", &dq, err) < 0 ||
	    !(text = board_page_text(f->s, &b, dq, &len, err)))
		die("reading the leaderboard", err->msg);
	double ms = (double)(bench_now_ns() - t0) / 1e6;
	if (b.n != (size_t)f->players)
		die("reading the leaderboard", "not every player on the board");
	free(text);
	json_decref(dq);
	board_free(&b);
	return ms;
}

static double median_ms(double (*once)(struct field *), struct field *f)
{
	uint64_t ns[BOARD_READS];
	for (int i = 0; i < BOARD_READS; i++)
		ns[i] = (uint64_t)(once(f) * 1e6);
	return (double)bench_median(ns, BOARD_READS) / 1e6;
}

static double query_ms(struct field *f, const char *text)
{
	uint64_t t0 = bench_now_ns();
	sql(f, text);
	return (double)(bench_now_ns() - t0) / 1e6;
}

/* The readings the counters replaced, as they were. */
static double old_place_once(struct field *f)
{
	return query_ms(f, "SELECT count(*) FROM ratings r JOIN submissions s"
			   " ON s.id = r.submission_id WHERE s.game = 'dominator'"
			   " AND s.state = 'qualified' AND r.mu - 3 * r.sigma > 1.5");
}

static double old_sizes_once(struct field *f)
{
	return query_ms(f, "SELECT m.id, mp.submission_id, mp.rank FROM matches m"
			   " JOIN match_players mp ON mp.match_id = m.id"
			   " WHERE m.game = 'dominator' AND m.kind = 'ranked' AND m.rated = 1"
			   " AND m.created_at > coalesce((SELECT max(created_at) FROM rejudges"
			   " WHERE game = 'dominator' AND submission_id IS NULL), -1)"
			   " ORDER BY m.id, mp.seat");
}

static double place_once(struct field *f)
{
	err_t err;
	uint64_t t0 = bench_now_ns();
	if (store_board_place(f->s, "dominator", 1.5, err) < 0)
		die("reading a place", err->msg);
	return (double)(bench_now_ns() - t0) / 1e6;
}

static int arg(int argc, char **argv, int i, int fallback)
{
	int v = argc > i ? atoi(argv[i]) : fallback;
	if (v < SEATS * 2)
		die("usage", "bench-scale [SMALL LARGE PER_PLAYER], each at least 8");
	return v;
}

int main(int argc, char **argv)
{
	int small_n = arg(argc, argv, 1, (int)bench_size(200, 20)),
	    large_n = arg(argc, argv, 2, (int)bench_size(2000, 40)),
	    per_player = argc > 3 ? arg(argc, argv, 3, 40) : (int)bench_size(40, 8);
	srand(30);
	err_t err;
	if (bench_pg_start(&pg, "bench-scale", false, err) < 0)
		die("starting PostgreSQL", err->msg);
	struct field small, large;
	open_field(&small, "small", small_n, per_player);
	open_field(&large, "large", large_n, per_player);
	struct hook_config listening, quiet;
	hook_defaults(&quiet);
	hook_defaults(&listening);
	listening.count = 1;
	snprintf(listening.endpoints[0].url, sizeof listening.endpoints[0].url, "http://127.0.0.1:9/");
	listening.endpoints[0].events = 1u << HOOK_RANK_CHANGED;

	int64_t bytes = database_bytes(&large);
	struct timing quiet_t = time_recording(&small, &large, &quiet);
	bytes = database_bytes(&large) - bytes;
	struct timing heard_t = time_recording(&small, &large, &listening);
	double load[1] = { 0 };
	if (getloadavg(load, 1) < 1)
		load[0] = -1;
	printf("store time per recorded ranked match (%d seats, median of %d per field):\n", SEATS,
	       PER_FIELD);
	print_timing("no webhook listening:", &quiet_t, small_n, large_n);
	print_timing("rank.changed listened to:", &heard_t, small_n, large_n);
	printf("  the database grew by %.1f KB per recorded match without its replay (match, seats,"
	       " rating history, job); load average %.1f\n",
	       (double)bytes / 1024 / PER_FIELD, load[0]);
	printf("one leaderboard place: %.3f ms at %d players, %.3f ms at %d from the tree; %.3f ms"
	       " counting every ranked player (the old way, %d of them per match)\n",
	       median_ms(place_once, &small), small_n, median_ms(place_once, &large), large_n,
	       median_ms(old_place_once, &large), 2 * SEATS);
	printf("organiser's leaderboard at %d players, %d matches: %.2f ms (goal <= %.0f ms);"
	       " at %d players %.2f ms\n", large_n, large.matches + PER_FIELD * 2,
	       median_ms(board_once, &large), BOARD_GOAL_MS, small_n, median_ms(board_once, &small));
	printf("  the old counts by size read every rated seat: %.2f ms at %d players\n",
	       median_ms(old_sizes_once, &large), large_n);
	close_field(&small);
	close_field(&large);
	cleanup();
	return 0;
}
