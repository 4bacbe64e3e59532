/* Replays of real matches (sandboxed shipped players, through `judge
 * play`): their start is the engine's initial state, `judge replay check`
 * agrees with them for 20 seeds of every game, and a replay damaged in one
 * number (a change of a round, an order, a score, the seed, the result) is
 * caught at the right place.  Also the command itself, gzip and size. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "games/game.h"
#include "judge/replay/replay_check.h"
#include "judge/replay/replay_io.h"
#include "tests/unit/game_testlib.h"
#include "tests/unit/cli_testlib.h"
#include "tests/unit/gen_testlib.h"

#define SEEDS 20

static char out[16384];

/* Plays GAME with the players of the line-up at seed, into path; returns
 * the replay as read back. */
static json_t *play_match(const char *game, const char *lineup, int seed, const char *path)
{
	char cmd[1024];
	err_t err;
	snprintf(cmd, sizeof cmd, "%s play %s %s --seed %d -o %s 2>&1", cli_judge(), game, lineup,
		 seed, path);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	json_t *r = replay_read_file(path, err);
	cr_assert_not_null(r, "%s", err->msg);
	return r;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "cannot open %s", path);
	char *buf = malloc(1 << 20);
	*len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

static void temp_path(char path[64], const char *suffix)
{
	snprintf(path, 64, "/tmp/judge-replay-XXXXXX%s", suffix);
	int fd = mkstemps(path, (int)strlen(suffix));
	cr_assert_geq(fd, 0);
	close(fd);
}

/* Line-ups that vary with the seed: Demos, Dummies and an idle Null. */
static const char *lineup(int seed)
{
	static const char *const lineups[] = {
		"Demo Demo Demo Demo", "Dummy Demo Demo Null", "Demo Dummy Null Demo",
		"Null Demo Dummy Dummy",
	};
	return lineups[seed % 4];
}

static void expect_agrees(const json_t *r, const char *what)
{
	struct replay_verdict v;
	int rc = replay_check(r, &v);
	cr_assert_eq(rc, 0, "%s: %s differs: %s", what, v.where, v.what);
	cr_assert_eq(v.rounds, (int)json_array_size(json_object_get(r, "rounds")));
}

/* The check of a damaged copy fails, and names `where`. */
static void expect_caught(const json_t *damaged, const char *where, const char *what)
{
	struct replay_verdict v;
	cr_assert_eq(replay_check(damaged, &v), 1, "%s: not caught", what);
	cr_assert_str_eq(v.where, where, "%s: named %s (%s)", what, v.where, v.what);
}

/* ---- the start ------------------------------------------------------------ */

/* Parameterized tests get an index into the course games: Criterion may
 * run them in a fresh process, where a pointer of this one means nothing. */
static const char *course_game(int index)
{
	const char *names[GT_GAMES_MAX];
	size_t n = gt_course_games(names, GT_GAMES_MAX);
	cr_assert_lt((size_t)index, n);
	return names[index];
}

static size_t course_games(void)
{
	const char *names[GT_GAMES_MAX];
	return gt_course_games(names, GT_GAMES_MAX);
}

/* The engine's state before round 1 for the replay's parameters and seed,
 * as its replay header. */
static json_t *engine_start(const json_t *r, json_int_t seed)
{
	const struct game *game = game_find(json_string_value(json_object_get(r, "game")));
	err_t err;
	struct game_state *g = game->create(
		json_string_value(json_object_get(r, "params_file")), (uint64_t)seed, err);
	cr_assert_not_null(g, "%s", err);
	json_t *start = game->replay_header(g);
	game->destroy(g);
	return start;
}

ParameterizedTestParameters(replay_start, is_the_state_before_round_1)
{
	return cr_make_param_array(int, gt_game_index, course_games());
}

ParameterizedTest(int *index, replay_start, is_the_state_before_round_1, .timeout = 60)
{
	const char *name = course_game(*index);
	char path[64];
	temp_path(path, ".json");
	json_t *r = play_match(name, "Demo Demo Demo Demo", 5, path);
	json_t *initial = engine_start(r, 5);
	cr_assert(json_equal(initial, json_object_get(r, "start")),
		  "%s: the replay's start is not the state before round 1", name);
	json_decref(initial);
	json_decref(r);
	unlink(path);
}

/* ---- damage --------------------------------------------------------------- */

/* Changes one number (or one letter of a string) among the leaves of j,
 * picked by the random sequence; false when j has none. */
static bool damage_leaf(json_t *j, uint64_t *rng)
{
	if (json_is_object(j)) {
		size_t n = json_object_size(j), pick = n ? gen_rand(rng) % n : 0, i = 0;
		const char *key;
		json_t *v;
		json_object_foreach(j, key, v)
			if (i++ >= pick && damage_leaf(v, rng))
				return true;
		return false;
	}
	if (json_is_array(j)) {
		size_t n = json_array_size(j);
		for (size_t k = 0; k < n; k++)
			if (damage_leaf(json_array_get(j, (gen_rand(rng) % n + k) % n), rng))
				return true;
		return false;
	}
	if (json_is_integer(j))
		return json_integer_set(j, json_integer_value(j) + 1 + (json_int_t)(gen_rand(rng) % 3)) == 0;
	const char *s = json_string_value(j);
	if (!s || !*s)
		return false;
	char *t = strdup(s);
	size_t at = gen_rand(rng) % strlen(t);
	t[at] = t[at] == 'b' ? 'c' : 'b'; /* a letter stays a letter, a digit becomes one */
	json_string_set(j, t);
	free(t);
	return true;
}

/* A round whose record has something to damage beside the score. */
static size_t busy_round(const json_t *rounds, uint64_t *rng)
{
	size_t n = json_array_size(rounds);
	for (size_t k = 0;; k++) {
		size_t r = gen_rand(rng) % n;
		if (json_object_size(json_array_get(rounds, r)) > 3 || k > 1000)
			return r;
	}
}

/* One changed number in what a round changed (not its orders, not
 * "live"): the engine's own record of that round differs. */
static void damage_changes(const json_t *r, uint64_t *rng)
{
	json_t *d = json_deep_copy(r);
	size_t at = busy_round(json_object_get(d, "rounds"), rng);
	json_t *frame = json_array_get(json_object_get(d, "rounds"), at);
	json_t *orders = json_incref(json_object_get(frame, "orders"));
	json_t *live = json_incref(json_object_get(frame, "live"));
	json_object_del(frame, "orders");
	json_object_del(frame, "live");
	cr_assert(damage_leaf(frame, rng));
	json_object_set_new(frame, "orders", orders);
	json_object_set_new(frame, "live", live);
	char where[48];
	snprintf(where, sizeof where, "round %zu", at);
	expect_caught(d, where, "a changed number in a round");
	json_decref(d);
}

static void damage_score(const json_t *r, uint64_t *rng)
{
	json_t *d = json_deep_copy(r);
	json_t *rounds = json_object_get(d, "rounds");
	size_t at = gen_rand(rng) % json_array_size(rounds);
	json_t *score = json_object_get(json_array_get(rounds, at), "score");
	json_t *one = json_array_get(score, gen_rand(rng) % json_array_size(score));
	json_integer_set(one, json_integer_value(one) + 1);
	char where[48];
	snprintf(where, sizeof where, "round %zu", at);
	expect_caught(d, where, "a changed score");
	json_decref(d);
}

/* Whether another seed gives another start (Star War's default map and
 * start cells are fixed: there the seed first shows in a round). */
static bool seed_changes_start(const json_t *r, json_int_t seed)
{
	json_t *start = engine_start(r, seed);
	bool changed = !json_equal(start, json_object_get(r, "start"));
	json_decref(start);
	return changed;
}

static void damage_seed_and_result(const json_t *r)
{
	json_t *d = json_deep_copy(r);
	json_int_t seed = json_integer_value(json_object_get(d, "seed")) + 1;
	json_object_set_new(d, "seed", json_integer(seed));
	struct replay_verdict v;
	if (seed_changes_start(r, seed))
		expect_caught(d, "the start", "another seed");
	else
		cr_assert(replay_check(d, &v) == 1 && strncmp(v.where, "round ", 6) == 0,
			  "another seed: not caught in a round");
	json_decref(d);
	d = json_deep_copy(r);
	json_t *scores = json_object_get(json_object_get(d, "result"), "scores");
	json_array_set_new(scores, 1, json_integer(json_integer_value(json_array_get(scores, 1)) - 1));
	expect_caught(d, "the result", "a changed final score");
	json_decref(d);
}

/* Dominator, Ants: "orders" is one letter per id with runs of skipped ids
 * (games/replay_runs.h); the id of the k-th letter. */
static int letter_id(const char *s, size_t k, size_t *pos)
{
	int next = 0;
	size_t seen = 0;
	for (size_t i = 0; s[i];) {
		int skip = 0;
		while (s[i] >= '0' && s[i] <= '9')
			skip = skip * 10 + (s[i++] - '0');
		int id = next + skip;
		next = id + 1;
		if (seen++ == k) {
			*pos = i;
			return id;
		}
		i++;
	}
	return -1;
}

/* An order that made its unit step (its letter is in "moves" too, for
 * Dominator; its ant is in "moved", for Ants), given another direction:
 * the unit ends elsewhere in that very round. */
static bool redirect_a_step(json_t *frame, const char *game)
{
	const char *orders = json_string_value(json_object_get(frame, "orders"));
	for (size_t k = 0;; k++) {
		size_t pos;
		int id = letter_id(orders, k, &pos);
		if (id < 0)
			return false;
		bool stepped = false;
		if (strcmp(game, "dominator") == 0) {
			size_t mpos;
			const char *moves = json_string_value(json_object_get(frame, "moves"));
			for (size_t m = 0; !stepped && letter_id(moves, m, &mpos) >= 0; m++)
				stepped = letter_id(moves, m, &mpos) == id;
		} else {
			size_t i;
			json_t *mv;
			json_array_foreach(json_object_get(frame, "moved"), i, mv)
				stepped |= json_integer_value(json_array_get(mv, 0)) == id;
			stepped &= orders[pos] >= 'a' && orders[pos] <= 'd';
		}
		if (!stepped)
			continue;
		char *t = strdup(orders);
		t[pos] = t[pos] == 'a' ? 'c' : 'a'; /* a direction of both games */
		json_object_set_new(frame, "orders", json_string(t));
		free(t);
		return true;
	}
}

/* Star War: one instruction moved to a ship of the next seat, which the
 * engine never takes from this one. */
static bool redirect_to_another_ship(json_t *frame, int ships)
{
	json_t *orders = json_object_get(frame, "orders");
	for (size_t p = 0; p < json_array_size(orders); p++) {
		json_t *mine = json_array_get(orders, p);
		if (json_array_size(mine) == 0)
			continue;
		json_int_t id = json_integer_value(json_array_get(mine, 0));
		json_array_set_new(mine, 0, json_integer((id + ships) % (4 * ships)));
		return true;
	}
	return false;
}

static void damage_order(const json_t *r, const char *game, uint64_t *rng)
{
	json_t *d = json_deep_copy(r);
	json_t *rounds = json_object_get(d, "rounds");
	int ships = (int)json_integer_value(
		json_object_get(json_object_get(json_object_get(d, "start"), "params"), "ships"));
	size_t n = json_array_size(rounds);
	for (size_t k = 0; k < n; k++) {
		size_t at = (gen_rand(rng) % n + k) % n;
		json_t *frame = json_array_get(rounds, at);
		bool done = strcmp(game, "starwar") == 0 ? redirect_to_another_ship(frame, ships)
							 : redirect_a_step(frame, game);
		if (!done)
			continue;
		char where[48];
		snprintf(where, sizeof where, "round %zu", at);
		expect_caught(d, where, "a changed order");
		json_decref(d);
		return;
	}
	cr_assert_fail("%s: no order to change in the whole match", game);
}

/* ---- 20 seeds of every game ----------------------------------------------- */

static void check_seeds(const char *game)
{
	char path[64];
	temp_path(path, ".json.gz");
	uint64_t rng = 0x5eed;
	for (int seed = 1; seed <= SEEDS; seed++) {
		json_t *r = play_match(game, lineup(seed), seed, path);
		expect_agrees(r, game);
		damage_changes(r, &rng);
		damage_changes(r, &rng);
		damage_score(r, &rng);
		damage_order(r, game, &rng);
		damage_seed_and_result(r);
		json_decref(r);
	}
	unlink(path);
}

ParameterizedTestParameters(replay_check, agrees_for_20_seeds_and_catches_damage)
{
	return cr_make_param_array(int, gt_game_index, course_games());
}

ParameterizedTest(int *index, replay_check, agrees_for_20_seeds_and_catches_damage,
		  .timeout = 300)
{
	check_seeds(course_game(*index));
}

/* Seats frozen by the engine (1001 orders in round 3) and by the sandbox
 * (a crash in round 10): "live" and the result's frozen rounds agree. */
Test(replay_check, frozen_seats_replay_too, .timeout = 120)
{
	char path[64];
	temp_path(path, ".json");
	json_t *r = play_match("dominator", "Demo tests/players/AIOrders1001.c Demo "
			       "tests/players/AICrash10.c", 2, path);
	expect_agrees(r, "frozen seats");
	json_t *frozen = json_object_get(json_object_get(r, "result"), "frozen");
	cr_assert_eq(json_array_size(frozen), 2, "both froze");

	json_t *d = json_deep_copy(r);
	json_t *f = json_array_get(json_object_get(json_object_get(d, "result"), "frozen"), 0);
	json_array_set_new(f, 1, json_integer(json_integer_value(json_array_get(f, 1)) + 1));
	expect_caught(d, "the result", "a changed frozen round");
	json_decref(d);

	d = json_deep_copy(r);
	json_t *live = json_object_get(json_array_get(json_object_get(d, "rounds"), 12), "live");
	json_array_set_new(live, 3, json_integer(1));
	expect_caught(d, "round 12", "a frozen seat playing again");
	json_decref(d);
	json_decref(r);
	unlink(path);
}

/* ---- the command, files, size --------------------------------------------- */

static int judge(const char *fmt, const char *arg)
{
	char cmd[1024], args[512];
	snprintf(args, sizeof args, fmt, arg);
	snprintf(cmd, sizeof cmd, "%s %s 2>&1", cli_judge(), args);
	return cli_run(cmd, out, sizeof out);
}

Test(replay_cli, check_says_ok_names_the_round_and_refuses_bad_usage, .timeout = 120)
{
	char path[64], gz[64], bad[64];
	temp_path(path, ".json");
	temp_path(gz, ".json.gz");
	temp_path(bad, ".json");
	json_decref(play_match("starwar", "Demo Demo Dummy Null", 4, gz));
	json_t *r = play_match("starwar", "Demo Demo Dummy Null", 4, path);
	cr_assert_eq(judge("replay check %s", gz), 0, "%s", out);
	cr_assert_str_eq(out, "OK: 300 rounds agree with the engine\n");
	cr_assert_eq(judge("replay check %s", path), 0, "%s", out);
	/* written as jansson would dump what it reads back, byte for byte */
	size_t len;
	char *written = slurp(path, &len), *dumped = json_dumps(r, JSON_COMPACT);
	cr_assert(len == strlen(dumped) && memcmp(written, dumped, len) == 0,
		  "judge play wrote a replay of %zu bytes that differs from jansson's %zu", len,
		  strlen(dumped));
	free(written);
	free(dumped);

	json_t *frame = json_array_get(json_object_get(r, "rounds"), 41);
	json_t *score = json_object_get(frame, "score");
	json_array_set_new(score, 2, json_integer(json_integer_value(json_array_get(score, 2)) + 7));
	err_t err;
	cr_assert_eq(replay_write_file(bad, r, err), 0, "%s", err->msg);
	cr_assert_eq(judge("replay check %s", bad), 1, "%s", out);
	cr_assert(strncmp(out, "round 41 differs: score[2]: recorded ", 37) == 0, "%s", out);

	FILE *f = fopen(bad, "w");
	fputs("{\"format\": 2, \"game\": \"chess\"", f);
	fclose(f);
	cr_assert_eq(judge("replay check %s", bad), 1, "%s", out);
	cr_assert(strstr(out, "not JSON"), "%s", out);

	cr_assert_eq(judge("replay check %s", "/nonexistent/replay.json"), 2, "%s", out);
	cr_assert(strstr(out, "cannot read /nonexistent/replay.json"), "%s", out);
	cr_assert_eq(judge("replay check%s", ""), 2, "%s", out);
	cr_assert_eq(judge("replay check %s b.json", path), 2, "%s", out);
	cr_assert_eq(judge("replay check %s", "--help"), 0, "%s", out);
	cr_assert(strstr(out, "usage: judge replay check FILE|MATCH"), "%s", out);
	cr_assert_eq(judge("replay check 7 --queue %s", "/nonexistent/jobs.sqlite"), 2, "%s", out);
	json_decref(r);
	unlink(path);
	unlink(gz);
	unlink(bad);
}

/* Four Demos, default parameters: at most 40 KB compressed, orders and
 * CPU per round included, and the same match for the same seed. */
Test(replay_cli, dominator_demo_match_fits_in_40_kb_gzip_same_match, .timeout = 120)
{
	char a[64], b[64];
	temp_path(a, ".json.gz");
	temp_path(b, ".json.gz");
	for (int seed = 1; seed <= 3; seed++) {
		json_decref(play_match("dominator", "Demo Demo Demo Demo", seed, a));
		json_decref(play_match("dominator", "Demo Demo Demo Demo", seed, b));
		char *ta = gt_replay_but_cpu(a), *tb = gt_replay_but_cpu(b);
		cr_assert_str_eq(ta, tb, "seed %d: not the same match", seed);
		free(ta);
		free(tb);
		size_t la;
		char *ca = slurp(a, &la);
		cr_assert(la > 2 && (unsigned char)ca[0] == 0x1f && (unsigned char)ca[1] == 0x8b,
			  "gzip");
		cr_assert_leq(la, 40 * 1000, "seed %d: %zu bytes compressed", seed, la);
		free(ca);
	}
	unlink(a);
	unlink(b);
}

/* Damaged gzip is named, never trusted. */
Test(replay_io, damaged_gzip_is_refused_with_a_reason)
{
	const char *text = "{\"format\":2}";
	uint8_t *gz;
	size_t len;
	char *back;
	err_t err;
	size_t back_len;
	cr_assert_eq(replay_gzip(text, strlen(text), &gz, &len, err), 0, "%s", err->msg);
	cr_assert_eq(replay_text(gz, len, &back, &back_len, err), 0, "%s", err->msg);
	cr_assert_str_eq(back, text);
	free(back);
	cr_assert_eq(replay_text(gz, len - 3, &back, &back_len, err), -1, "cut short");
	cr_assert(strstr(err->msg, "cut short"), "%s", err->msg);
	gz[len / 2] ^= 0x55;
	cr_assert_eq(replay_text(gz, len, &back, &back_len, err), -1, "damaged");
	free(gz);
}
