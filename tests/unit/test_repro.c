/* test_repro.c - crash and timeout forensics end to end: a player uploaded
 * with `judge submit`, its qualifying match against Null played by the real
 * worker in the real sandbox, the frozen seat's record read back from the
 * store and from `judge serve`, and `judge repro`, which must make the same
 * failure come again at the same turn with the contestant's own build. */
#include <criterion/criterion.h>
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/play/players.h"
#include "judge/replay/fault.h"
#include "judge/replay/repro_build.h"
#include "judge/serve/serve.h"
#include "judge/store/store.h"
#include "judge/store/store_serve.h"
#include "tests/unit/cli_testlib.h"

static char dir[64], db[128], cfg[128], out[1 << 17];

static void setup(void)
{
	cli_workdir("repro", dir, db, cfg);
	cr_assert_eq(cli_write_file(cfg, "{\"sandbox\": {\"cpu_ms\": 400}, \"worker\": "
				    "{\"qualify_matches\": 1, \"qualify_wins\": 0, "
				    "\"qualify_opponent\": \"Null\"}}\n"), 0);
}

static void teardown(void)
{
	cli_workdir_remove(dir);
}

TestSuite(repro, .init = setup, .fini = teardown, .timeout = 120);

#define BUDGET_NS 400000000LL

/* tests/players/[folder/]AI<name>.c for game (its header swapped in),
 * uploaded by alice and its one qualifying match played: its path in
 * *path. */
static void played_from(const char *folder, const char *name, const char *game, char path[160])
{
	char cmd[768];
	snprintf(path, 160, "%s/AI%s.c", dir, name);
	snprintf(cmd, sizeof cmd, "sed 's/\"dominator.h\"/\"%s.h\"/' tests/players/%sAI%s.c > %s && "
		 "JUDGE_CONFIG=%s %s submit %s --game %s --author alice --queue %s 2>&1 && "
		 "JUDGE_CONFIG=%s %s --queue %s --jobs 1 --exit-when-idle --ranked-matches 0 2>&1",
		 game, folder, name, path, cfg, cli_judge(), path, game, db, cfg, cli_worker(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
}

static void played(const char *name, const char *game, char path[160])
{
	played_from("", name, game, path);
}

/* Alice's seat of match 1 and its record. */
static int alices_seat(struct store_fault *f)
{
	err_t err = {0};
	struct store *s = store_open(db, false, err);
	cr_assert_not_null(s, "%s", err->msg);
	for (int seat = 0; seat < 4; seat++) {
		cr_assert_eq(store_match_fault(s, 1, seat, f, err), 1, "%s", err->msg);
		if (strcmp(f->author, "alice") == 0) {
			store_close(s);
			return seat;
		}
		free(f->input);
	}
	cr_assert_fail("alice has no seat in match 1");
	return -1;
}

/* "FILE:LINE" of the first line of path holding text. */
static void line_of(const char *path, const char *text, char where[200])
{
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f);
	char line[256];
	for (int n = 1; fgets(line, sizeof line, f); n++)
		if (strstr(line, text)) {
			snprintf(where, 200, "%s:%d", path, n);
			fclose(f);
			return;
		}
	fclose(f);
	cr_assert_fail("no '%s' in %s", text, path);
}

static int repro(const char *args)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s repro %s --queue %s 2>&1", cli_judge(), args, db);
	return cli_run(cmd, out, sizeof out);
}

/* The deliberate out-of-bounds write of tests/players/AIReach7.c in game,
 * found again by `judge repro --asan` at round 7, with its line. */
static void crash_found_again(const char *game)
{
	char path[160], where[200], args[256];
	played("Reach7", game, path);
	struct store_fault f;
	int seat = alices_seat(&f);
	free(f.input);
	cr_assert_eq(f.frozen_round, 7, "%s", f.reason);
	snprintf(args, sizeof args, "1 %d --player %s --asan", seat, path);
	cr_assert_eq(repro(args), 0, "%s", out);
	line_of(path, "cells[at] = 1;", where);
	cr_expect(strstr(out, "ERROR: AddressSanitizer"), "%s", out);
	cr_expect(strstr(out, where), "the backtrace must name %s: %s", where, out);
	cr_expect(strstr(out, "reproduced: your player ended with status 1 at round 7"), "%s", out);
	cr_expect(strstr(out, "the failing turn, round 7: sending the recorded input"), "%s", out);
}

Test(repro, a_dominator_crash_comes_again_under_asan_at_its_line)
{
	crash_found_again("dominator");
}

Test(repro, a_star_war_crash_comes_again_under_asan_at_its_line)
{
	crash_found_again("starwar");
}

/* The record keeps what the runner and the sandbox saw: the round, the
 * verdict, the whole match's CPU (match_players, the sandbox's figure), the
 * CPU from the last message on within it, the budget, the message. */
Test(repro, the_record_holds_the_turn_the_reason_and_the_cpu_measured)
{
	char path[160];
	played("Reach7", "dominator", path);
	struct store_fault f;
	alices_seat(&f);
	cr_expect_str_eq(f.verdict, "signaled");
	cr_expect(strstr(f.reason, "SIGSEGV"), "%s", f.reason);
	cr_expect_eq(f.frozen_round, 7);
	cr_expect_eq(f.message, 8, "the start, then rounds 0 to 7: its ninth message");
	cr_expect_eq(f.cpu_budget_ns, BUDGET_NS);
	cr_expect(f.cpu_ns > 0 && f.turn_cpu_ns > 0 && f.turn_cpu_ns <= f.cpu_ns,
		  "turn %lld ns of %lld ns", (long long)f.turn_cpu_ns, (long long)f.cpu_ns);
	cr_expect(f.input_size > 100, "a Dominator view is more than %lld bytes",
		  (long long)f.input_size);
	free(f.input);
}

/* AISpin50 thinks forever from round 50: frozen for its CPU budget, most
 * of it spent on that turn; under gdb, `judge repro` shows where it spins. */
Test(repro, a_frozen_spinner_is_recorded_and_gdb_shows_where_it_spins)
{
	char path[160], where[200], args[256];
	played("Spin50", "dominator", path);
	struct store_fault f;
	int seat = alices_seat(&f);
	free(f.input);
	cr_expect_str_eq(f.verdict, "cpu-limit");
	cr_expect_eq(f.frozen_round, 50);
	cr_expect_eq(f.message, 51);
	cr_expect(f.cpu_ns >= BUDGET_NS && f.turn_cpu_ns > f.cpu_ns * 3 / 4,
		  "the spinning turn took most of its %lld ns: %lld", (long long)f.cpu_ns,
		  (long long)f.turn_cpu_ns);
	snprintf(args, sizeof args, "1 %d --player %s --gdb --wait 1", seat, path);
	cr_assert_eq(repro(args), 0, "%s", out);
	line_of(path, "n++;", where);
	cr_expect(strstr(out, where), "gdb must show %s: %s", where, out);
	cr_expect(strstr(out, "reproduced: your player did not answer round 50 within 1 s"),
		  "%s", out);
}

Test(repro, a_build_that_answers_the_turn_does_not_reproduce_it)
{
	char path[160], args[256];
	played("Reach7", "dominator", path);
	struct store_fault f;
	int seat = alices_seat(&f);
	free(f.input);
	snprintf(args, sizeof args, "1 %d --player games/dominator/players/AINull.c", seat);
	cr_expect_eq(repro(args), 1, "%s", out);
	cr_expect(strstr(out, "not reproduced: your player answered round 7"), "%s", out);
	cr_expect_eq(repro("1 9 --player x.c"), 2, "%s", out);
	snprintf(args, sizeof args, "1 %d --player x.c", 1 - seat < 0 ? 1 : (seat + 1) % 4);
	cr_expect_eq(repro(args), 2, "%s", out);
	cr_expect(strstr(out, "did not freeze"), "a Null seat played to the end: %s", out);
}

/* ---- the record from the service ----------------------------------------- */

static char token[3][44];

static void add_tokens(void)
{
	const char *who[] = { "alice", "eve", "boss" };
	char hex[65];
	err_t err = {0};
	struct store *s = store_open(db, false, err);
	cr_assert_not_null(s, "%s", err->msg);
	for (int i = 0; i < 3; i++) {
		int64_t id;
		cr_assert_eq(serve_token_new(token[i], err), 0, "%s", err->msg);
		cr_assert_eq(serve_token_hash(token[i], hex), 0);
		cr_assert_eq(store_token_add(s, &(struct store_new_token){ .sha256 = hex, .author = who[i], .organiser = i == 2 }, &id, NULL, err), 0, "%s", err->msg);
	}
	store_close(s);
}

/* GET path as the holder of tok (NULL: none) into file: the status. */
static long download(struct serve *sv, const char *path, const char *tok, const char *file)
{
	char url[160], auth[80];
	snprintf(url, sizeof url, "http://127.0.0.1:%u%s", serve_port(sv), path);
	snprintf(auth, sizeof auth, "Authorization: Bearer %s", tok ? tok : "");
	FILE *f = fopen(file, "wb");
	cr_assert_not_null(f);
	CURL *curl = curl_easy_init();
	struct curl_slist *h = tok ? curl_slist_append(NULL, auth) : NULL;
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, f);
	CURLcode rc = curl_easy_perform(curl);
	long status = 0;
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_cleanup(curl);
	curl_slist_free_all(h);
	fclose(f);
	cr_assert_eq(rc, CURLE_OK, "%s", curl_easy_strerror(rc));
	return status;
}

Test(repro, the_record_downloads_for_its_author_alone_and_reproduces_from_files)
{
	char path[160], record[160], replay[160], url[64], args[600], where[200];
	played("Reach7", "dominator", path);
	struct store_fault sf;
	int seat = alices_seat(&sf);
	free(sf.input);
	add_tokens();
	struct judge_config c;
	cfg_defaults(&c);
	struct serve_options o = { .queue = db, .host = "127.0.0.1", .limits = c.serve };
	err_t err = {0};
	struct serve *sv = serve_start(&o, err);
	cr_assert_not_null(sv, "%s", err->msg);
	snprintf(record, sizeof record, "%s/fault.json", dir);
	snprintf(replay, sizeof replay, "%s/replay.json", dir);
	snprintf(url, sizeof url, "/api/matches/1/faults/%d", seat);
	cr_expect_eq(download(sv, url, token[1], record), 403, "another contestant");
	cr_expect_eq(download(sv, url, NULL, record), 401, "no token");
	cr_expect_eq(download(sv, url, token[2], record), 200, "an organiser");
	snprintf(url, sizeof url, "/api/matches/1/faults/%d", (seat + 1) % 4);
	cr_expect_eq(download(sv, url, token[2], record), 404, "a seat that did not freeze");
	snprintf(url, sizeof url, "/api/matches/1/faults/%d", seat);
	cr_assert_eq(download(sv, url, token[0], record), 200, "its author");
	cr_assert_eq(download(sv, "/api/matches/1/replay", NULL, replay), 200);
	serve_stop(sv);
	json_error_t jerr;
	json_t *j = json_load_file(record, 0, &jerr);
	cr_assert_not_null(j, "%s", jerr.text);
	struct fault f;
	cr_assert_eq(fault_parse(j, &f, err), 0, "%s", err->msg);
	cr_expect_eq(f.round, 7);
	cr_expect_eq(f.message, 8);
	cr_expect_eq(f.input_len, f.input_size, "a Dominator view is kept whole");
	fault_free(&f);
	json_decref(j);
	snprintf(args, sizeof args, "--record %s --replay %s --player %s --asan", record, replay,
		 path);
	cr_assert_eq(repro(args), 0, "%s", out);
	line_of(path, "cells[at] = 1;", where);
	cr_expect(strstr(out, where), "%s", out);
}

/* ---- the record as a file: hostile input -------------------------------- */

Test(fault_record, goes_to_json_and_back_and_refuses_what_it_does_not_hold)
{
	uint8_t bytes[5] = { 'A', 0, 0xff, '\n', 7 };
	struct fault f = { .match = 3, .seat = 2, .player = "Sauron", .verdict = "signaled",
			   .reason = "crashed", .round = 7, .message = 8, .cpu_ns = 9,
			   .turn_cpu_ns = 4, .cpu_budget_ns = 1000, .peak_memory = 5,
			   .input = bytes, .input_len = 5, .input_size = 9, .unit = 5464,
			   .step = 2 };
	err_t err = {0};
	json_t *j = fault_json(&f);
	cr_assert_not_null(j);
	struct fault back;
	cr_assert_eq(fault_parse(j, &back, err), 0, "%s", err->msg);
	cr_expect(back.match == 3 && back.seat == 2 && back.round == 7 && back.message == 8 &&
		  back.cpu_ns == 9 && back.turn_cpu_ns == 4 && back.cpu_budget_ns == 1000 &&
		  back.input_size == 9 && back.input_len == 5);
	cr_expect(back.unit == 5464 && back.step == 2, "the crashed unit and its step");
	cr_expect_str_eq(back.player, "Sauron");
	cr_expect_eq(memcmp(back.input, bytes, 5), 0, "the bytes, a NUL and 0xff among them");
	fault_free(&back);
	const char *broken[][2] = {
		{ "input_kept", "6" },          /* more than the base64 holds */
		{ "input_size", "4" },          /* less than kept */
		{ "seat", "8" },                /* no such seat */
		{ "message", "-1" },
		{ "format", "2" },
		{ "input_base64", "\"QUJD!\"" },
		{ "player", "7" },
		{ "unit", "-3" },
		{ "step", "\"2\"" },
	};
	for (size_t i = 0; i < sizeof broken / sizeof *broken; i++) {
		json_t *bad = json_deep_copy(j);
		json_object_set_new(bad, broken[i][0], json_loads(broken[i][1], JSON_DECODE_ANY, NULL));
		cr_expect_eq(fault_parse(bad, &back, err), -1, "%s = %s taken", broken[i][0],
			     broken[i][1]);
		cr_expect(strstr(err->msg, broken[i][0]) || strstr(err->msg, "input"), "%s: %s",
			  broken[i][0], err->msg);
		fault_free(&back);
		json_decref(bad);
	}
	json_decref(j);
}

/* tests/players/aic2018/AI<name>.c played: alice's seat, whose team must
 * have played on, and its record, which must name a unit. */
static int aic_unit_record(const char *name, char path[160], struct store_fault *f)
{
	played_from("aic2018/", name, "aic2018", path);
	int seat = alices_seat(f);
	free(f->input);
	cr_assert_str_eq(f->verdict, "", "the team must play on: %s", f->reason);
	cr_assert_gt(f->unit, 0, "no unit named in the record of seat %d", seat);
	return seat;
}

/* Whether the debug log of seat in match 1 holds said. */
static bool seat_log_says(int seat, const char *said)
{
	err_t err = {0};
	struct store *s = store_open(db, false, err);
	struct store_seat_log log;
	cr_assert_eq(store_match_log(s, 1, seat, &log, err), 1, "%s", err->msg);
	store_close(s);
	char *text;
	err_t rerr;
	size_t len;
	cr_assert_eq(replay_text(log.bytes, log.len, &text, &len, rerr), 0, "%s", rerr->msg);
	free(log.bytes);
	bool found = memmem(text, len, said, strlen(said)) != NULL;
	if (!found)
		cr_log_error("no '%s' in the log: %s", said, text);
	free(text);
	return found;
}

/* AIC2018: a unit that crashes freezes nobody (its team plays on), yet
 * the seat gets a record naming the unit, its round and its step, with the
 * input of that step; `judge repro` re-creates the match to that step and
 * the unit's fault, no longer caught by the kit, ends the player there. */
Test(repro, an_aic2018_unit_crash_is_recorded_with_its_unit_and_step_and_comes_again)
{
	char path[160], args[256], said[64];
	struct store_fault f;
	int seat = aic_unit_record("CrashUnit", path, &f);
	cr_expect_eq(f.unit_round, 7);
	cr_expect_geq(f.message, 7, "the record's message is a step of round 7");
	cr_expect(strstr(f.unit_reason, "a bad memory access"), "%s", f.unit_reason);
	snprintf(said, sizeof said, "unit %d writes through a null pointer in round 7", f.unit);
	cr_expect(seat_log_says(seat, said));

	snprintf(args, sizeof args, "1 %d --player %s", seat, path);
	cr_assert_eq(repro(args), 0, "%s", out);
	char where[96];
	snprintf(where, sizeof where, "at round 7, its step %d, where unit %d died", f.unit_step,
		 f.unit);
	cr_expect(strstr(out, "reproduced: your player was killed by signal 11"), "%s", out);
	cr_expect(strstr(out, where), "no '%s' in: %s", where, out);

	char line[200];
	line_of(path, "*nowhere = 7;", line);
	snprintf(args, sizeof args, "1 %d --player %s --gdb", seat, path);
	cr_assert_eq(repro(args), 0, "%s", out);
	cr_expect(strstr(out, line), "gdb must name %s: %s", line, out);
	snprintf(args, sizeof args, "1 %d --player %s --asan", seat, path);
	cr_expect_eq(repro(args), 2, "%s", out);
	cr_expect(strstr(out, "--asan is not available for AIC2018: AddressSanitizer adds its "
			      "own checks to your code, and the energy count would charge them"),
		  "%s", out);
}

/* AIC2018: a unit that breaks its energy count (tests/players/aic2018/
 * AITamperUnit.c reloads it, huge, through the kit's own code from round 1
 * on, and works for milliseconds a turn) is killed by the kit's check from
 * outside while its team plays on; the record names it, the round and step
 * of its death and why, in words, and `judge repro` ends the player there. */
Test(repro, an_aic2018_unit_that_breaks_its_energy_count_is_recorded_and_comes_again)
{
	char path[160], args[256], said[160];
	struct store_fault f;
	int seat = aic_unit_record("TamperUnit", path, &f);
	cr_expect(f.unit_round == 1 || f.unit_round == 2,
		  "its first tampered turn is round 1, timed by its CPU from round 2 at the "
		  "latest: round %d", f.unit_round);
	cr_expect_geq(f.unit_step, 0);
	cr_expect(strstr(f.unit_reason, "its energy count was tampered with"), "%s",
		  f.unit_reason);
	snprintf(said, sizeof said, "unit %d worked uncounted in round 1", f.unit);
	cr_expect(seat_log_says(seat, said));
	snprintf(said, sizeof said, "round %d: unit %d died: its energy count", f.unit_round,
		 f.unit);
	cr_expect(seat_log_says(seat, said));

	/* The kit times a suspicious unit by the clock, so on a loaded machine
	 * the re-created match may catch it one round apart from the judge's:
	 * three tries, one of which must end where the record says. */
	snprintf(args, sizeof args, "1 %d --player %s", seat, path);
	int rc = 1;
	for (int try = 0; try < 3 && rc; try++)
		rc = repro(args);
	cr_assert_eq(rc, 0, "%s", out);
	char where[96];
	snprintf(where, sizeof where, "at round %d, its step %d, where unit %d died", f.unit_round,
		 f.unit_step, f.unit);
	cr_expect(strstr(out, where), "no '%s' in: %s", where, out);
	cr_expect(strstr(out, "its energy count was tampered with"), "%s", out);
}

/* The build `judge repro` makes of an AIC2018 file has line information
 * for gdb, and the machine code of the judge's build, to the byte: the
 * energy count's rewrite leaves what -g adds out of the count, so every
 * unit spends in the re-created match what it spent in the judge's. */
static void same_code_as_the_judges(const char *source)
{
	char bin[160], cmd[PATH_MAX + 1024];
	err_t err = {0};
	struct judge_config c;
	cr_assert_eq(cfg_init(&c, cfg, err), 0, "%s", err->msg);
	struct cmp_result res = { 0 };
	cr_assert_eq(players_compile(&c, "aic2018", source, &res, err), 0, "%s", err->msg);
	cr_assert(res.ok, "%s", res.log);
	snprintf(bin, sizeof bin, "%s/with-lines", dir);
	cr_assert_eq(repro_build(&c, game_find("aic2018"), source, false, dir, bin, stderr),
		     REPRO_BUILT);
	snprintf(cmd, sizeof cmd, "readelf -S %s | grep -q debug_line || echo no lines; "
		 "objcopy -O binary --only-section=.text %s %s/judge.text && "
		 "objcopy -O binary --only-section=.text %s %s/lines.text && "
		 "cmp %s/judge.text %s/lines.text 2>&1", bin, res.binary, dir, bin, dir, dir, dir);
	cmp_result_free(&res);
	cr_expect_eq(cli_run(cmd, out, sizeof out), 0, "%s: %s", source, out);
	cr_expect_eq(out[0], '\0', "%s: %s", source, out);
}

Test(repro, an_aic2018_build_for_gdb_runs_the_judges_machine_code)
{
	same_code_as_the_judges("games/aic2018/players/AIDemo.c");
	same_code_as_the_judges("tests/players/aic2018/AITamperUnit.c");
}

/* AIC2018 plays a round as steps, one run of a team's units at a time: the
 * re-creation follows them and reaches the recorded step, the other team's
 * steps played from the replay.  Demo froze nowhere, so a record made up for
 * its 40th message must end with Demo answering it, at a unit's step. */
Test(repro, a_game_of_steps_is_re_created_step_by_step)
{
	char cmd[600], record[160];
	snprintf(cmd, sizeof cmd, "%s play aic2018 Demo Null --seed 3 -o %s/replay.json 2>&1",
		 cli_judge(), dir);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	snprintf(record, sizeof record, "%s/fault.json", dir);
	cr_assert_eq(cli_write_file(record, "{\"format\": 1, \"match\": 1, \"seat\": 0, \"player\": "
				    "\"Demo\", \"round\": 39, \"message\": 40, \"verdict\": \"signaled\","
				    " \"reason\": \"made up\", \"cpu_ns\": 1, \"turn_cpu_ns\": 1, "
				    "\"cpu_budget_ns\": 1, \"peak_memory\": 1, \"input_size\": 1, "
				    "\"input_kept\": 0, \"input_base64\": \"\"}"), 0);
	snprintf(cmd, sizeof cmd, "--record %s --replay %s/replay.json --player "
		 "games/aic2018/players/AIDemo.c", record, dir);
	cr_expect_eq(repro(cmd), 1, "%s", out);
	cr_expect(strstr(out, "its step "), "the failing turn is a step: %s", out);
	cr_expect(strstr(out, "sending the re-created input"), "%s", out);
	cr_expect(strstr(out, "not reproduced: your player answered round "), "%s", out);
}
