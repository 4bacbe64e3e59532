/* test_plag_cli.c - plagiarism end to end: real uploads (judge submit), the
 * real worker fingerprinting at the compile job, `judge plagiarism` (list,
 * JSON, show), `judge archive import` with its refusals, the
 * plagiarism.flagged event and its delivery to a real HTTP receiver.  Every
 * test works on its own SQLite file and config in a mkdtemp folder. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/cli_testlib.h"
#include "tests/unit/gen_testlib.h"
#include "judge/base/config.h"
#include "judge/serve/serve.h"
#include "tests/unit/http_receiver.h"
#include "tests/unit/serve_testlib.h"

static char dir[64], db[128], cfg[128], out[131072];

static void setup(void)
{
	cli_workdir("plag-cli", dir, db, cfg);
}

static void teardown(void)
{
	cli_workdir_remove(dir);
}

TestSuite(plag_cli, .init = setup, .fini = teardown, .timeout = 120);

/* ---- players ------------------------------------------------------------- */

/* An original Dominator player: farmers prefer cells that are not ours and
 * that they have not trodden often, knights hit the weakest enemy next to
 * them.  Nothing of it comes from the shipped Demo or Null. */
static const char ALPHA[] =
	"/* Alpha: greedy farmers with a memory, knights that finish the weak. */\n"
	"#include \"dominator.h\"\n"
	"#include <stdlib.h>\n"
	"\n"
	"PLAYER_NAME(Alpha);\n"
	"\n"
	"static int visits[64][64];\n"
	"\n"
	"static bool walkable(Pos p)\n"
	"{\n"
	"\tif (!pos_ok(p))\n"
	"\t\treturn false;\n"
	"\tCell c = cell(p);\n"
	"\treturn c.type != Wall && c.id < 0 && !c.haunted;\n"
	"}\n"
	"\n"
	"static int value_of(Pos p)\n"
	"{\n"
	"\tCell c = cell(p);\n"
	"\tint v = c.owner == me() ? 0 : c.owner < 0 ? 3 : 5;\n"
	"\tif (p.i < 64 && p.j < 64)\n"
	"\t\tv -= visits[p.i][p.j] / 4;\n"
	"\treturn v;\n"
	"}\n"
	"\n"
	"static void guide_farmer(int id)\n"
	"{\n"
	"\tPos here = unit(id).pos;\n"
	"\tDir pick = None;\n"
	"\tint best = -1000;\n"
	"\tfor (int d = 0; d < 8; d += 2) {\n"
	"\t\tPos next = pos_move(here, (Dir)d);\n"
	"\t\tif (!walkable(next))\n"
	"\t\t\tcontinue;\n"
	"\t\tint v = value_of(next) * 10 + random_int(0, 9);\n"
	"\t\tif (v > best) {\n"
	"\t\t\tbest = v;\n"
	"\t\t\tpick = (Dir)d;\n"
	"\t\t}\n"
	"\t}\n"
	"\tif (pick != None) {\n"
	"\t\tPos to = pos_move(here, pick);\n"
	"\t\tif (to.i < 64 && to.j < 64)\n"
	"\t\t\tvisits[to.i][to.j]++;\n"
	"\t}\n"
	"\tcommand(id, pick);\n"
	"}\n"
	"\n"
	"static void guide_knight(int id)\n"
	"{\n"
	"\tPos here = unit(id).pos;\n"
	"\tDir target = None;\n"
	"\tint weakest = 1 << 30;\n"
	"\tfor (int d = 0; d < 8; ++d) {\n"
	"\t\tPos q = pos_move(here, (Dir)d);\n"
	"\t\tif (!pos_ok(q))\n"
	"\t\t\tcontinue;\n"
	"\t\tCell c = cell(q);\n"
	"\t\tif (c.id < 0)\n"
	"\t\t\tcontinue;\n"
	"\t\tUnit u = unit(c.id);\n"
	"\t\tif (u.player == me() || u.type == Witch)\n"
	"\t\t\tcontinue;\n"
	"\t\tif (u.health < weakest) {\n"
	"\t\t\tweakest = u.health;\n"
	"\t\t\ttarget = (Dir)d;\n"
	"\t\t}\n"
	"\t}\n"
	"\tif (target == None) {\n"
	"\t\tDir d = (Dir)random_int(0, 7);\n"
	"\t\tif (walkable(pos_move(here, d)))\n"
	"\t\t\ttarget = d;\n"
	"\t}\n"
	"\tcommand(id, target);\n"
	"}\n"
	"\n"
	"void play(void)\n"
	"{\n"
	"\tIds f = farmers(me());\n"
	"\tIds k = knights(me());\n"
	"\tfor (int n = 0; n < f.n; ++n)\n"
	"\t\tguide_farmer(f.id[n]);\n"
	"\tfor (int n = 0; n < k.n; ++n)\n"
	"\t\tguide_knight(k.id[n]);\n"
	"}\n";

/* ALPHA as a copier hands it in: every name changed, comments and layout
 * changed, plus a function of its own at the end (lines 57-70), which must
 * not be marked as shared. */
static const char COPYCAT[] =
	"#include <stdlib.h>\n"
	"#include \"dominator.h\"\n"
	"// written by me, all by myself\n"
	"PLAYER_NAME(Copycat);\n"
	"static int trodden[64][64];\n"
	"static bool can_step(Pos where) {\n"
	"  if (!pos_ok(where)) return false;\n"
	"  Cell cc = cell(where);\n"
	"  return cc.type != Wall && cc.id < 0 && !cc.haunted;\n"
	"}\n"
	"static int worth(Pos where) {\n"
	"  Cell cc = cell(where);\n"
	"  int w = cc.owner == me() ? 0 : cc.owner < 0 ? 2 : 7;\n"
	"  if (where.i < 64 && where.j < 64) w -= trodden[where.i][where.j] / 3;\n"
	"  return w;\n"
	"}\n"
	"static void steer_farmer(int who) {\n"
	"  Pos at = unit(who).pos; Dir choice = None; int top = -999;\n"
	"  for (int dir = 0; dir < 8; dir += 2) {\n"
	"    Pos nxt = pos_move(at, (Dir)dir);\n"
	"    if (!can_step(nxt)) continue;\n"
	"    int val = worth(nxt) * 12 + random_int(0, 11);\n"
	"    if (val > top) { top = val; choice = (Dir)dir; }\n"
	"  }\n"
	"  if (choice != None) {\n"
	"    Pos dest = pos_move(at, choice);\n"
	"    if (dest.i < 64 && dest.j < 64) trodden[dest.i][dest.j]++;\n"
	"  }\n"
	"  command(who, choice);\n"
	"}\n"
	"static void steer_knight(int who) {\n"
	"  Pos at = unit(who).pos; Dir aim = None; int low = 1 << 29;\n"
	"  for (int dir = 0; dir < 8; ++dir) {\n"
	"    Pos nb = pos_move(at, (Dir)dir);\n"
	"    if (!pos_ok(nb)) continue;\n"
	"    Cell cc = cell(nb);\n"
	"    if (cc.id < 0) continue;\n"
	"    Unit foe = unit(cc.id);\n"
	"    if (foe.player == me() || foe.type == Witch) continue;\n"
	"    if (foe.health < low) { low = foe.health; aim = (Dir)dir; }\n"
	"  }\n"
	"  if (aim == None) {\n"
	"    Dir r = (Dir)random_int(0, 7);\n"
	"    if (can_step(pos_move(at, r))) aim = r;\n"
	"  }\n"
	"  command(who, aim);\n"
	"}\n"
	"void play(void) {\n"
	"  Ids mine = farmers(me());\n"
	"  Ids army = knights(me());\n"
	"  for (int x = 0; x < mine.n; ++x)\n"
	"    steer_farmer(mine.id[x]);\n"
	"  for (int x = 0; x < army.n; ++x)\n"
	"    steer_knight(army.id[x]);\n"
	"}\n"
	"\n"
	"/* My own addition: a table of weights no one else has. */\n"
	"long copycat_weights(unsigned char kind, long base)\n"
	"{\n"
	"  switch (kind) {\n"
	"  case 'a': do { base ^= 0x5bd1e995L; } while (base & 1); break;\n"
	"  case 'b': base = base > 0 ? ~base : -base; break;\n"
	"  case 'c': { unsigned long u = (unsigned long)base; u >>= 3; base = (long)u; } break;\n"
	"  case 'd': goto done;\n"
	"  default: base = sizeof(long) * (long)kind;\n"
	"  }\n"
	"  base %= 977;\n"
	"done:\n"
	"  return base;\n"
	"}\n";

/* ALPHA's next version by its own author: a few changes. */
static const char ALPHA_V2[] =
	"/* Alpha, version 2: knights rest when hurt. */\n"
	"#include \"dominator.h\"\n"
	"#include <stdlib.h>\n"
	"\n"
	"PLAYER_NAME(Alpha);\n"
	"\n"
	"static int visits[64][64];\n"
	"\n"
	"static bool walkable(Pos p)\n"
	"{\n"
	"\tif (!pos_ok(p))\n"
	"\t\treturn false;\n"
	"\tCell c = cell(p);\n"
	"\treturn c.type != Wall && c.id < 0 && !c.haunted;\n"
	"}\n"
	"\n"
	"static int value_of(Pos p)\n"
	"{\n"
	"\tCell c = cell(p);\n"
	"\tint v = c.owner == me() ? 0 : c.owner < 0 ? 3 : 6;\n"
	"\tif (p.i < 64 && p.j < 64)\n"
	"\t\tv -= visits[p.i][p.j] / 4;\n"
	"\treturn v;\n"
	"}\n"
	"\n"
	"static void guide_farmer(int id)\n"
	"{\n"
	"\tPos here = unit(id).pos;\n"
	"\tDir pick = None;\n"
	"\tint best = -1000;\n"
	"\tfor (int d = 0; d < 8; d += 2) {\n"
	"\t\tPos next = pos_move(here, (Dir)d);\n"
	"\t\tif (!walkable(next))\n"
	"\t\t\tcontinue;\n"
	"\t\tint v = value_of(next) * 10 + random_int(0, 9);\n"
	"\t\tif (v > best) {\n"
	"\t\t\tbest = v;\n"
	"\t\t\tpick = (Dir)d;\n"
	"\t\t}\n"
	"\t}\n"
	"\tif (pick != None) {\n"
	"\t\tPos to = pos_move(here, pick);\n"
	"\t\tif (to.i < 64 && to.j < 64)\n"
	"\t\t\tvisits[to.i][to.j]++;\n"
	"\t}\n"
	"\tcommand(id, pick);\n"
	"}\n"
	"\n"
	"static void guide_knight(int id)\n"
	"{\n"
	"\tPos here = unit(id).pos;\n"
	"\tif (unit(id).health < knights_health() / 4) {\n"
	"\t\tcommand(id, None);\n"
	"\t\treturn;\n"
	"\t}\n"
	"\tDir target = None;\n"
	"\tint weakest = 1 << 30;\n"
	"\tfor (int d = 0; d < 8; ++d) {\n"
	"\t\tPos q = pos_move(here, (Dir)d);\n"
	"\t\tif (!pos_ok(q))\n"
	"\t\t\tcontinue;\n"
	"\t\tCell c = cell(q);\n"
	"\t\tif (c.id < 0)\n"
	"\t\t\tcontinue;\n"
	"\t\tUnit u = unit(c.id);\n"
	"\t\tif (u.player == me() || u.type == Witch)\n"
	"\t\t\tcontinue;\n"
	"\t\tif (u.health < weakest) {\n"
	"\t\t\tweakest = u.health;\n"
	"\t\t\ttarget = (Dir)d;\n"
	"\t\t}\n"
	"\t}\n"
	"\tcommand(id, target);\n"
	"}\n"
	"\n"
	"void play(void)\n"
	"{\n"
	"\tIds f = farmers(me());\n"
	"\tIds k = knights(me());\n"
	"\tfor (int n = 0; n < f.n; ++n)\n"
	"\t\tguide_farmer(f.id[n]);\n"
	"\tfor (int n = 0; n < k.n; ++n)\n"
	"\t\tguide_knight(k.id[n]);\n"
	"}\n";

/* An independent player: a sweep by rows, no memory, no hunting. */
static const char BETA[] =
	"#include \"dominator.h\"\n"
	"\n"
	"PLAYER_NAME(Beta);\n"
	"\n"
	"/* Each farmer keeps one heading until it hits something, then turns a\n"
	" * quarter clockwise; knights stand guard on our land. */\n"
	"static Dir heading[1024];\n"
	"\n"
	"void play(void)\n"
	"{\n"
	"\tif (current_round() == 0)\n"
	"\t\tfor (unsigned i = 0; i < sizeof heading / sizeof *heading; i++)\n"
	"\t\t\theading[i] = (i & 1) ? Right : Bottom;\n"
	"\tIds mine = farmers(0);\n"
	"\tint turned = 0;\n"
	"\twhile (turned < mine.n) {\n"
	"\t\tint id = mine.id[turned++];\n"
	"\t\tDir h = heading[id % 1024];\n"
	"\t\tPos ahead = pos_move(unit(id).pos, h);\n"
	"\t\tswitch (pos_ok(ahead) ? cell(ahead).type : Wall) {\n"
	"\t\tcase Wall:\n"
	"\t\t\theading[id % 1024] = (Dir)((h + 2) % 8);\n"
	"\t\t\tcommand(id, None);\n"
	"\t\t\tbreak;\n"
	"\t\tdefault:\n"
	"\t\t\tcommand(id, cell(ahead).id == -1 ? h : None);\n"
	"\t\t}\n"
	"\t}\n"
	"\tIds guards = knights(0);\n"
	"\tfor (int g = guards.n - 1; g >= 0; g--) {\n"
	"\t\tPos at = unit(guards.id[g]).pos;\n"
	"\t\tint left = at.j > 0 && cell(pos(at.i, at.j - 1)).owner == 0;\n"
	"\t\tcommand(guards.id[g], left ? Left : Top);\n"
	"\t}\n"
	"}\n";

/* Another independent player, short and plain. */
static const char GAMMA[] =
	"#include \"dominator.h\"\n"
	"PLAYER_NAME(Gamma);\n"
	"static long long last_score;\n"
	"void play(void)\n"
	"{\n"
	"\tlong long now = score(0);\n"
	"\tint stuck = now == last_score;\n"
	"\tlast_score = now;\n"
	"\tIds all[3] = { farmers(0), knights(0), witches(0) };\n"
	"\tfor (int kind = 0; kind < 3; kind++)\n"
	"\t\tfor (int u = 0; u < all[kind].n; u++)\n"
	"\t\t\tcommand(all[kind].id[u], (Dir)((u + kind + (stuck ? current_round() : 0)) % 8));\n"
	"}\n";

/* ---- helpers ------------------------------------------------------------- */

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f, "cannot write %s", path);
	cr_assert_eq(fwrite(data, 1, len, f), len);
	cr_assert_eq(fclose(f), 0);
}

static void write_text(const char *path, const char *text)
{
	write_file(path, text, strlen(text));
}

/* dir/rel, written with text; the path is returned (static, one at a time). */
static const char *put(const char *rel, const char *text)
{
	static char path[256];
	char cmd[512];
	snprintf(path, sizeof path, "%s/%s", dir, rel);
	snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname %s)\"", path);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0);
	write_text(path, text);
	return path;
}

static void write_config(const char *json)
{
	write_text(cfg, json);
}

static int upload(const char *rel, const char *text, const char *author)
{
	const char *path = put(rel, text);
	char cmd[768];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s submit %s --game dominator "
		 "--author %s --queue %s 2>&1", cfg, cli_judge(), path, author, db);
	return cli_run(cmd, out, sizeof out);
}

static void upload_ok(const char *rel, const char *text, const char *author)
{
	cr_assert_eq(upload(rel, text, author), 0, "upload %s by %s: %s", rel, author, out);
}

static void work(void)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue %s --jobs 1 "
		 "--exit-when-idle --ranked-matches 0 2>&1", cfg, cli_worker(), db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "worker: %s", out);
}

/* `judge ARGS --queue DB --config CFG`, stdout and stderr in out. */
__attribute__((format(printf, 1, 2)))
static int judge(const char *fmt, ...)
{
	char args[1024], cmd[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof cmd, "%s %s --queue %s --config %s 2>&1", cli_judge(), args, db, cfg);
	return cli_run(cmd, out, sizeof out);
}

/* The first line of what the sqlite3 program answers to query. */
static const char *sql(const char *query)
{
	static char result[8192];
	char path[128], cmd[512];
	snprintf(path, sizeof path, "%s/query.sql", dir);
	write_text(path, query);
	snprintf(cmd, sizeof cmd, "sqlite3 -batch %s < %s 2>&1", db, path);
	cli_run(cmd, result, sizeof result);
	result[strcspn(result, "\n")] = '\0';
	return result;
}

static int sql_int(const char *query)
{
	const char *r = sql(query);
	char *end;
	long v = strtol(r, &end, 10);
	cr_assert(*r && !*end, "%s: not a number: %s", query, r);
	return (int)v;
}

/* The pairs `judge plagiarism --game dominator --json [extra]` lists. */
static json_t *pairs(const char *extra)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s plagiarism --game dominator --json %s --queue %s "
		 "--config %s", cli_judge(), extra, db, cfg);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	json_error_t e;
	json_t *arr = json_loads(out, 0, &e);
	cr_assert_not_null(arr, "not JSON (%s): %s", e.text, out);
	cr_assert(json_is_array(arr), "%s", out);
	return arr;
}

/* What the page at path, written by --html, carries for its script; it
 * must be the service's plagiarism page. */
static json_t *page_data(const char *path)
{
	static char html[1 << 20];
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "no page %s", path);
	size_t len = fread(html, 1, sizeof html - 1, f);
	fclose(f);
	html[len] = '\0';
	cr_assert(strstr(html, "<body data-page=\"plagiarism\">"), "not the service's page:\n%.300s",
		  html);
	static const char mark[] = "<script type=\"application/json\" id=\"page-data\">";
	const char *at = strstr(html, mark);
	cr_assert_not_null(at, "the page carries no data:\n%.400s", html);
	at += strlen(mark);
	json_error_t e;
	/* the data's own '<' are escapes: the first one ends it */
	json_t *data = json_loadb(at, strcspn(at, "<"), 0, &e);
	cr_assert_not_null(data, "the page's data is not JSON: %s", e.text);
	return data;
}

static const char *str_at(json_t *obj, const char *a, const char *b)
{
	json_t *v = json_object_get(obj, a);
	if (b)
		v = json_object_get(v, b);
	cr_assert(json_is_string(v), "%s.%s is no string", a, b ? b : "");
	return json_string_value(v);
}

static json_int_t int_at(json_t *obj, const char *a, const char *b)
{
	json_t *v = json_object_get(json_object_get(obj, a), b);
	cr_assert(json_is_integer(v), "%s.%s is no integer", a, b);
	return json_integer_value(v);
}

/* The listing line of `show` for line n of a file's listing ("   12 [1]    | ..."),
 * searched after the heading that starts that file's listing. */
static const char *listing_line(const char *text, const char *heading, int n, char *line,
				size_t size)
{
	const char *p = strstr(text, heading);
	cr_assert_not_null(p, "no heading '%s' in:\n%s", heading, text);
	char prefix[16];
	snprintf(prefix, sizeof prefix, "\n%5d ", n);
	p = strstr(p, prefix);
	cr_assert_not_null(p, "no line %d after '%s' in:\n%s", n, heading, text);
	p++;
	size_t len = strcspn(p, "\n");
	cr_assert_lt(len, size);
	memcpy(line, p, len);
	line[len] = '\0';
	return line;
}

/* The source line n (1-based) of text. */
static void source_line(const char *text, int n, char *line, size_t size)
{
	const char *p = text;
	for (int i = 1; i < n; i++) {
		p = strchr(p, '\n');
		cr_assert_not_null(p);
		p++;
	}
	size_t len = strcspn(p, "\n");
	cr_assert_lt(len, size);
	memcpy(line, p, len);
	line[len] = '\0';
}

/* ---- submissions --------------------------------------------------------- */

/* A real HTTP receiver at /plag, and a config that sends it every
 * plagiarism.flagged event (no qualification). */
static struct http_receiver *flag_receiver(void)
{
	struct http_receiver *rcv = calloc(1, sizeof *rcv);
	cr_assert_not_null(rcv);
	struct rcv_program prog = { .mode = RCV_ANSWER, .status = 204 };
	cr_assert_eq(rcv_start(rcv, &prog), 0);
	char url[128], json[512];
	rcv_url(rcv, "/plag", url, sizeof url);
	snprintf(json, sizeof json, "{\"webhooks\": [{\"url\": \"%s\", \"events\": "
		 "[\"plagiarism.flagged\"]}], \"worker\": {\"qualify_matches\": 0}}", url);
	write_config(json);
	return rcv;
}

Test(plag_cli, a_copy_by_another_author_is_flagged_listed_and_sent)
{
	struct http_receiver *rcv = flag_receiver();

	upload_ok("AIAlpha.c", ALPHA, "alice");
	upload_ok("AIBeta.c", BETA, "bob");
	upload_ok("AICopycat.c", COPYCAT, "mallory");
	work();
	rcv_stop(rcv);

	/* The listing: exactly the copy and its original, flagged. */
	json_t *arr = pairs("");
	cr_assert_eq(json_array_size(arr), 1, "%s", out);
	json_t *p = json_array_get(arr, 0);
	cr_assert(json_is_true(json_object_get(p, "flagged")), "%s", out);
	cr_assert_geq(json_real_value(json_object_get(p, "similarity")), 0.5, "%s", out);
	cr_assert_eq(int_at(p, "a", "submission"), 3);
	cr_assert_str_eq(str_at(p, "a", "author"), "mallory");
	cr_assert_str_eq(str_at(p, "a", "player"), "Copycat");
	cr_assert_eq(int_at(p, "b", "submission"), 1);
	cr_assert_str_eq(str_at(p, "b", "author"), "alice");
	cr_assert_str_eq(str_at(p, "b", "player"), "Alpha");
	cr_assert_gt(json_integer_value(json_object_get(p, "longest_tokens")), 20, "%s", out);
	json_decref(arr);

	/* The later file marked suspected, not the original; both go on: a
	 * person decides. */
	cr_assert_str_eq(sql("SELECT group_concat(submission_id || ':' || suspected, ' ')"
			     " FROM (SELECT * FROM plag_docs ORDER BY submission_id)"), "1:0 2:0 3:1");
	cr_assert_str_eq(sql("SELECT group_concat(state, ' ') FROM submissions"),
			 "qualified qualified qualified");
	char status_cmd[512];
	snprintf(status_cmd, sizeof status_cmd, "%s status 3 --queue %s | grep '^plagiarism'",
		 cli_judge(), db);
	cr_assert_eq(cli_run(status_cmd, out, sizeof out), 0, "judge status shows no suspicion");
	cr_assert(strstr(out, "suspected"), "%s", out);
	snprintf(status_cmd, sizeof status_cmd, "%s status 2 --queue %s --json", cli_judge(), db);
	cr_assert_eq(cli_run(status_cmd, out, sizeof out), 0, "%s", out);
	cr_assert(strstr(out, "\"plagiarism\": \"clear\""), "%s", out);

	/* One event, for the copy, naming the original. */
	cr_assert_eq(sql_int("SELECT count(*) FROM events WHERE kind = 'plagiarism.flagged'"), 1);
	cr_assert_eq(sql_int("SELECT submission_id FROM events WHERE kind = 'plagiarism.flagged'"), 3);
	const char *ev = sql("SELECT payload FROM events WHERE kind = 'plagiarism.flagged'");
	cr_assert(strstr(ev, "\"author\":\"alice\"") && strstr(ev, "\"submission\":1"), "%s", ev);
	cr_assert(!strstr(ev, "\"author\":\"bob\""), "%s", ev);

	/* Delivered to the receiver, once. */
	cr_assert_eq(rcv->requests, 1);
	cr_assert_str_eq(rcv->first.path, "/plag");
	cr_assert(strstr(rcv->first.body, "\"event\":\"plagiarism.flagged\""), "%s", rcv->first.body);
	cr_assert(strstr(rcv->first.body, "\"player\":\"Copycat\""), "%s", rcv->first.body);
	cr_assert(strstr(rcv->first.body, "\"author\":\"alice\""), "%s", rcv->first.body);
	cr_assert_str_eq(sql("SELECT group_concat(state) FROM jobs WHERE kind = 'notify'"), "done");
	free(rcv);

	/* The table too; --min 0 adds nothing here but unflagged pairs. */
	cr_assert_eq(judge("plagiarism --game dominator"), 0, "%s", out);
	cr_assert(strstr(out, "FLAGGED") && strstr(out, "Copycat by mallory") &&
		  strstr(out, "Alpha by alice") && strstr(out, "1 pair;"), "%s", out);
	/* And the page: the service's, with the list (test below). */
	char page[128];
	snprintf(page, sizeof page, "%s/pairs.html", dir);
	cr_assert_eq(judge("plagiarism --game dominator --html %s", page), 0, "%s", out);
	json_t *data = page_data(page);
	arr = json_object_get(data, "pairs");
	cr_assert_eq(json_array_size(arr), 1);
	cr_assert_str_eq(str_at(json_array_get(arr, 0), "a", "author"), "mallory");
	json_decref(data);
	arr = pairs("--min 0");
	for (size_t i = 0; i < json_array_size(arr); i++) {
		json_t *q = json_array_get(arr, i);
		cr_assert(strcmp(str_at(q, "a", "author"), "bob") && strcmp(str_at(q, "b", "author"), "bob"),
			  "the independent player is in a pair: %s", out);
	}
	json_decref(arr);
}

/* The organisers' answer, GET /api/organiser/plagiarism/dominator[query],
 * from a real `judge serve` on the same store. */
static json_t *service_list(const char *query)
{
	char token[44], path[128];
	err_t err = {0};
	static char reply[131072];
	serve_test_token(db, "gandalf", true, token);
	struct judge_config defaults;
	cfg_defaults(&defaults);
	defaults.serve.threads = 1;
	struct serve_options o = { .queue = db, .host = "127.0.0.1", .limits = defaults.serve,
				   .contest = defaults.contest };
	struct serve *server = serve_start(&o, err);
	cr_assert_not_null(server, "serve_start: %s", err->msg);
	snprintf(path, sizeof path, "/api/organiser/plagiarism/dominator%s", query);
	int status = serve_test_call(server, dir, "GET", path, token, NULL, reply, sizeof reply);
	serve_stop(server);
	cr_assert_eq(status, 200, "%s: %s", path, reply);
	json_error_t e;
	json_t *list = json_loads(reply, 0, &e);
	cr_assert_not_null(list, "not JSON (%s): %s", e.text, reply);
	return list;
}

/* Both lists without the moment each was measured. */
static void expect_same_list(json_t *page, json_t *api, const char *what)
{
	cr_assert(json_is_integer(json_object_get(page, "generated_at")), "%s", what);
	json_object_del(page, "generated_at");
	json_object_del(api, "generated_at");
	char *a = json_dumps(page, JSON_SORT_KEYS), *b = json_dumps(api, JSON_SORT_KEYS);
	cr_expect(json_equal(page, api), "%s: the page carries\n%s\nthe service answers\n%s", what,
		  a, b);
	free(a);
	free(b);
	json_decref(page);
	json_decref(api);
}

/* `judge plagiarism --html` is the service's own page (plag.js draws it)
 * carrying the very list the service answers, so neither can show what
 * the other does not; nothing is fetched, and it is the organiser's file
 * alone. */
Test(plag_cli, html_is_the_services_page_carrying_the_services_answer)
{
	write_config("{\"worker\": {\"qualify_matches\": 0}}");
	upload_ok("AIAlpha.c", ALPHA, "alice");
	upload_ok("AIBeta.c", BETA, "bob");
	upload_ok("AICopycat.c", COPYCAT, "mallory");
	work();
	char page[128], all[128];
	snprintf(page, sizeof page, "%s/flagged.html", dir);
	snprintf(all, sizeof all, "%s/all.html", dir);
	cr_assert_eq(judge("plagiarism --game dominator --html %s", page), 0, "%s", out);
	cr_assert_str_eq(out, "", "--html prints nothing else");
	cr_assert_eq(judge("plagiarism --game dominator --min 0 --html %s", all), 0, "%s", out);
	struct stat st;
	cr_assert_eq(stat(page, &st), 0);
	cr_expect_eq(st.st_mode & 0777, 0600, "the page names suspects: %o", st.st_mode & 0777);
	char cmd[256];
	snprintf(cmd, sizeof cmd, "grep -c -e '<script src' -e 'stylesheet' -e '/static/' %s", page);
	cli_run(cmd, out, sizeof out);
	cr_expect_eq(atoi(out), 0, "the page fetches something");
	snprintf(cmd, sizeof cmd, "grep -c -e 'J.plagPairs = ' -e \"default-src 'none'\" %s", page);
	cli_run(cmd, out, sizeof out);
	cr_expect_eq(atoi(out), 2, "plag.js is not inlined, or no policy forbids fetching");

	json_t *flagged = page_data(page);
	cr_assert_eq(json_array_size(json_object_get(flagged, "pairs")), 1);
	cr_assert(json_is_true(json_object_get(flagged, "flagged_too")));
	expect_same_list(flagged, service_list(""), "the flagged pairs");
	json_t *every = page_data(all);
	cr_assert_geq(json_array_size(json_object_get(every, "pairs")), 1);
	expect_same_list(every, service_list("?min=0"), "every pair");
}

Test(plag_cli, show_marks_the_shared_lines_in_both_files)
{
	write_config("{\"worker\": {\"qualify_matches\": 0}}");
	upload_ok("AIAlpha.c", ALPHA, "alice");
	upload_ok("AICopycat.c", COPYCAT, "mallory");
	work();
	cr_assert_eq(judge("plagiarism show 2 1"), 0, "%s", out);
	cr_assert(strstr(out, "==== A: 2, Copycat by mallory"), "%s", out);
	cr_assert(strstr(out, "==== B: 1, Alpha by alice"), "%s", out);
	cr_assert(strstr(out, "Code found in both files is marked [N]"), "%s", out);

	/* Every line of both files is listed, numbered, with its text. */
	char want[256], got[512], text[256];
	int lines_a = 0, lines_b = 0;
	for (const char *c = COPYCAT; *c; c++)
		lines_a += *c == '\n';
	for (const char *c = ALPHA; *c; c++)
		lines_b += *c == '\n';
	listing_line(out, "==== A:", lines_a, got, sizeof got);
	cr_assert(strstr(got, "| }"), "%s", got);
	snprintf(want, sizeof want, "\n%5d ", lines_a + 1);
	const char *b_head = strstr(out, "==== B:");
	cr_assert_not_null(b_head);
	char *past = strstr(strstr(out, "==== A:"), want);
	cr_assert(!past || past > b_head, "A has %d lines: %s", lines_a, out);

	/* The copied knight loop: marked [1] on both sides, and alike. */
	source_line(COPYCAT, 33, text, sizeof text); /* for (int dir = 0; dir < 8; ++dir) { */
	listing_line(out, "==== A:", 33, got, sizeof got);
	cr_assert(strstr(got, text), "line 33 of A is not '%s': %s", text, got);
	cr_assert(strstr(got, " [1]"), "line 33 of A unmarked: %s", got);
	source_line(ALPHA, 54, text, sizeof text); /* for (int d = 0; d < 8; ++d) { */
	listing_line(out, "==== B:", 54, got, sizeof got);
	cr_assert(strstr(got, "for (int d = 0; d < 8; ++d) {"), "%s", got);
	cr_assert(strstr(got, " [1]"), "line 54 of B unmarked: %s", got);
	/* Tabs are expanded, so the listing lines up. */
	cr_assert(!strchr(got, '\t'), "%s", got);

	/* The copier's own function (lines 57-70 of A) is not marked. */
	for (int n = 60; n <= 67; n++) {
		listing_line(out, "==== A:", n, got, sizeof got);
		snprintf(want, sizeof want, "%5d %-6s| ", n, "");
		cr_assert(strncmp(got, want, strlen(want)) == 0, "line %d of A is marked: %s", n, got);
	}
	/* B's listing ends with its last line. */
	listing_line(out, "==== B:", lines_b, got, sizeof got);
	cr_assert(strstr(got, "| }"), "%s", got);

	/* An archived file is named doc:N; a file never fingerprinted is not. */
	cr_assert_eq(judge("plagiarism show 2 99"), 1, "%s", out);
	cr_assert(strstr(out, "no fingerprinted file 99"), "%s", out);
	cr_assert_eq(judge("plagiarism show 2 x1"), 1, "%s", out);
	cr_assert(strstr(out, "'x1' names no file"), "%s", out);
}

/* ALPHA's helpers and farmers under another name, and a play() of its
 * own: what several authors may share, so that it is an idiom by the time
 * COPYCAT comes. */
static char *alpha_first_half(const char *name)
{
	const char *cut = strstr(ALPHA, "static void guide_knight");
	const char *named = strstr(ALPHA, "PLAYER_NAME(Alpha);");
	cr_assert(cut && named && named < cut);
	struct gen_text t = { 0 };
	gen_printf(&t, "%.*sPLAYER_NAME(%s);%.*svoid play(void)\n{\n}\n", (int)(named - ALPHA),
		   ALPHA, name, (int)(cut - named - 19), named + 19);
	return t.s;
}

/* "A in B N%, B in A M%" as show prints them. */
static void shown_shares(int *a_in_b, int *b_in_a)
{
	const char *p = strstr(out, "A in B ");
	cr_assert_not_null(p, "%s", out);
	cr_assert_eq(sscanf(p, "A in B %d%%, B in A %d%%", a_in_b, b_in_a), 2, "%s", out);
}

Test(plag_cli, show_and_the_list_measure_a_pair_alike_idioms_left_out)
{
	write_config("{\"worker\": {\"qualify_matches\": 0}, \"plagiarism\": "
		     "{\"common_percent\": 1, \"common_min_files\": 2}}");
	upload_ok("a/AIAlpha.c", ALPHA, "alice");
	static const char *const others[][2] = { { "carol", "Half" }, { "dave", "Part" },
						 { "erin", "Piece" } };
	for (size_t i = 0; i < 3; i++) {
		char *half = alpha_first_half(others[i][1]), rel[64];
		snprintf(rel, sizeof rel, "%s/AI%s.c", others[i][0], others[i][1]);
		upload_ok(rel, half, others[i][0]);
		free(half);
	}
	upload_ok("m/AICopycat.c", COPYCAT, "mallory");
	work();
	/* The pair of Copycat (5) and Alpha (1), in the list... */
	json_t *arr = pairs("--min 0"), *pair = NULL;
	for (size_t i = 0; i < json_array_size(arr); i++) {
		json_t *q = json_array_get(arr, i);
		if (int_at(q, "a", "submission") == 5 && int_at(q, "b", "submission") == 1)
			pair = q;
	}
	cr_assert_not_null(pair, "no pair of 5 and 1: %s", out);
	double a_in_b = json_real_value(json_object_get(pair, "a_in_b"));
	double b_in_a = json_real_value(json_object_get(pair, "b_in_a"));
	/* ...the shared helpers being idioms, Copycat is far from whole in Alpha */
	cr_assert_lt(a_in_b, 0.9, "idioms were counted: %s", out);
	json_decref(arr);
	/* ...and show, either way round: the same numbers. */
	int sa, sb;
	cr_assert_eq(judge("plagiarism show 5 1"), 0, "%s", out);
	shown_shares(&sa, &sb);
	cr_assert_eq(sa, (int)(a_in_b * 100 + 0.5), "show %d%%, list %.1f%%", sa, a_in_b * 100);
	cr_assert_eq(sb, (int)(b_in_a * 100 + 0.5), "show %d%%, list %.1f%%", sb, b_in_a * 100);
	cr_assert_eq(judge("plagiarism show 1 5"), 0, "%s", out);
	shown_shares(&sb, &sa);
	cr_assert_eq(sa, (int)(a_in_b * 100 + 0.5), "show %d%%, list %.1f%%", sa, a_in_b * 100);
	cr_assert_eq(sb, (int)(b_in_a * 100 + 0.5), "show %d%%, list %.1f%%", sb, b_in_a * 100);
}

Test(plag_cli, show_puts_the_longest_fragment_side_by_side)
{
	write_config("{\"worker\": {\"qualify_matches\": 0}}");
	upload_ok("AIAlpha.c", ALPHA, "alice");
	upload_ok("AICopycat.c", COPYCAT, "mallory");
	work();
	cr_assert_eq(judge("plagiarism show 2 1"), 0, "%s", out);
	const char *head = strstr(out, "==== the longest shared fragment, ");
	cr_assert_not_null(head, "%s", out);
	unsigned tokens, a1, a2, b1, b2;
	cr_assert_eq(sscanf(head, "==== the longest shared fragment, %u tokens: lines %u-%u of A "
			    "beside lines %u-%u of B", &tokens, &a1, &a2, &b1, &b2), 5, "%s", head);
	cr_assert(a1 <= a2 && b1 <= b2 && tokens > 20, "%s", head);
	/* The first row: A's first line of it, then B's, on one line. */
	char a_text[256], b_text[256], want[64];
	source_line(COPYCAT, (int)a1, a_text, sizeof a_text);
	source_line(ALPHA, (int)b1, b_text, sizeof b_text);
	const char *row = strchr(head, '\n') + 1;
	size_t len = strcspn(row, "\n");
	char line[512];
	cr_assert_lt(len, sizeof line);
	memcpy(line, row, len);
	line[len] = 0;
	snprintf(want, sizeof want, "%5u ", a1);
	cr_assert(strncmp(line, want, strlen(want)) == 0, "%s", line);
	snprintf(want, sizeof want, " | %5u ", b1);
	const char *right = strstr(line, want);
	cr_assert_not_null(right, "no B column in '%s'", line);
	/* Both texts (tabs expanded, so compare a tab-free stretch). */
	const char *a_word = a_text + strspn(a_text, " \t"), *b_word = b_text + strspn(b_text, " \t");
	char a_part[24] = "", b_part[24] = "";
	snprintf(a_part, sizeof a_part, "%.*s", (int)strcspn(a_word, "\t"), a_word);
	snprintf(b_part, sizeof b_part, "%.*s", (int)strcspn(b_word, "\t"), b_word);
	cr_assert(strstr(line, a_part) && strstr(line, a_part) < right, "'%s' not left in '%s'",
		  a_part, line);
	cr_assert(strstr(right, b_part), "'%s' not right in '%s'", b_part, line);
	/* The listings follow. */
	cr_assert(strstr(head, "==== A: 2, Copycat by mallory"), "%s", out);
}

Test(plag_cli, files_of_an_older_method_are_fingerprinted_again)
{
	write_config("{\"worker\": {\"qualify_matches\": 0}}");
	upload_ok("AIAlpha.c", ALPHA, "alice");
	upload_ok("AICopycat.c", COPYCAT, "mallory");
	work();
	/* As an older judge left them. */
	sql("UPDATE plag_docs SET hash_version = 1");
	cr_assert_eq(judge("plagiarism --game dominator"), 0, "%s", out);
	cr_assert(strstr(out, "fingerprinted 2 files again"), "%s", out);
	cr_assert(strstr(out, "FLAGGED") && strstr(out, "Copycat by mallory"), "%s", out);
	cr_assert_eq(sql_int("SELECT count(*) FROM plag_docs WHERE hash_version = 1"), 0);
	/* Nothing stale: nothing said, nothing written. */
	cr_assert_eq(judge("plagiarism --game dominator"), 0, "%s", out);
	cr_assert(!strstr(out, "again"), "%s", out);
}

Test(plag_cli, two_versions_by_one_author_are_no_pair)
{
	write_config("{\"worker\": {\"qualify_matches\": 0}}");
	upload_ok("v1/AIAlpha.c", ALPHA, "carol");
	work();
	upload_ok("v2/AIAlpha.c", ALPHA_V2, "carol");
	work();
	cr_assert_eq(sql_int("SELECT count(*) FROM plag_docs WHERE error IS NULL AND nfps > 20"), 2);
	json_t *arr = pairs("--min 0");
	cr_assert_eq(json_array_size(arr), 0, "%s", out);
	json_decref(arr);
	cr_assert_eq(sql_int("SELECT count(*) FROM plag_pairs"), 0);
	cr_assert_eq(sql_int("SELECT count(*) FROM plag_docs WHERE suspected"), 0);
	cr_assert_eq(sql_int("SELECT count(*) FROM events WHERE kind = 'plagiarism.flagged'"), 0);
	cr_assert_eq(judge("plagiarism --game dominator"), 0, "%s", out);
	cr_assert(strstr(out, "no pair of dominator files is at least 50% similar"), "%s", out);

	/* The same second version by somebody else is a flagged pair: it was
	 * the author, not the text, that kept the pair out. */
	char renamed[sizeof ALPHA_V2 + 8];
	const char *at = strstr(ALPHA_V2, "PLAYER_NAME(Alpha)");
	snprintf(renamed, sizeof renamed, "%.*sPLAYER_NAME(AlphaBis)%s", (int)(at - ALPHA_V2),
		 ALPHA_V2, at + strlen("PLAYER_NAME(Alpha)"));
	upload_ok("v3/AIAlphaBis.c", renamed, "dan");
	work();
	arr = pairs("");
	cr_assert_eq(json_array_size(arr), 2, "dan's file against both of carol's: %s", out);
	for (size_t i = 0; i < 2; i++) {
		json_t *q = json_array_get(arr, i);
		cr_assert_str_eq(str_at(q, "a", "author"), "dan");
		cr_assert_str_eq(str_at(q, "b", "author"), "carol");
		cr_assert(json_is_true(json_object_get(q, "flagged")));
	}
	json_decref(arr);
}

/* ---- earlier years ------------------------------------------------------- */

static int docs(void)
{
	return sql_int("SELECT count(*) FROM plag_docs");
}

Test(plag_cli, an_archive_is_compared_against_and_never_plays)
{
	write_config("{\"worker\": {\"qualify_matches\": 0}}");
	put("old/alice/AIAlpha.c", ALPHA);
	put("old/bob/AIBeta.c", BETA);
	put("old/AIGamma.c", GAMMA);
	put("old/notes.txt", "not a C file: not imported\n");
	cr_assert_eq(judge("archive import %s/old --game dominator --label 2025", dir), 0, "%s", out);
	cr_assert(strstr(out, "imported 3 files of dominator as archive 2025"), "%s", out);

	/* Author: the first folder; name: PLAYER_NAME; sources kept. */
	cr_assert_str_eq(sql("SELECT group_concat(author || '/' || name || '/' || label, ' ')"
			     " FROM (SELECT * FROM plag_docs ORDER BY author)"),
			 "Gamma/Gamma/2025 alice/Alpha/2025 bob/Beta/2025");
	cr_assert_eq(sql_int("SELECT count(*) FROM plag_docs WHERE submission_id IS NULL"
			     " AND error IS NULL AND nfps > 0 AND source IS NOT NULL"), 3);
	cr_assert_eq(sql_int("SELECT length(source) FROM plag_docs WHERE name = 'Alpha'"),
		     (int)strlen(ALPHA));
	cr_assert_eq(sql_int("SELECT count(*) FROM submissions"), 0);
	cr_assert_eq(sql_int("SELECT count(*) FROM jobs"), 0);
	cr_assert_eq(sql_int("SELECT count(*) FROM plag_pairs"), 0, "independent files paired");
	int alpha_doc = sql_int("SELECT id FROM plag_docs WHERE name = 'Alpha'");

	/* This year's copy of last year's Alpha. */
	upload_ok("AICopycat.c", COPYCAT, "zed");
	work();
	json_t *arr = pairs("");
	cr_assert_eq(json_array_size(arr), 1, "%s", out);
	json_t *p = json_array_get(arr, 0);
	cr_assert(json_is_true(json_object_get(p, "flagged")), "%s", out);
	cr_assert_eq(int_at(p, "a", "submission"), 1);
	cr_assert_str_eq(str_at(p, "a", "author"), "zed");
	cr_assert_str_eq(str_at(p, "b", "archive"), "2025");
	cr_assert_str_eq(str_at(p, "b", "author"), "alice");
	cr_assert_str_eq(str_at(p, "b", "player"), "Alpha");
	cr_assert_eq(int_at(p, "b", "doc"), alpha_doc);
	cr_assert_null(json_object_get(json_object_get(p, "b"), "submission"), "%s", out);
	json_decref(arr);
	const char *ev = sql("SELECT payload FROM events WHERE kind = 'plagiarism.flagged'"
			     " AND submission_id = 1");
	cr_assert(strstr(ev, "\"archive\":\"2025\"") && strstr(ev, "\"author\":\"alice\""), "%s", ev);
	/* The archived file is the earlier year's: not the suspected one. */
	cr_assert_eq(sql_int("SELECT suspected FROM plag_docs WHERE name = 'Alpha'"), 0);
	cr_assert_eq(sql_int("SELECT count(*) FROM plag_docs WHERE suspected"), 1);

	/* show reads an archived file from the archive. */
	cr_assert_eq(judge("plagiarism show 1 doc:%d", alpha_doc), 0, "%s", out);
	char head[128];
	snprintf(head, sizeof head, "==== B: doc:%d (2025), Alpha by alice", alpha_doc);
	cr_assert(strstr(out, head), "%s", out);
	cr_assert(strstr(out, "| PLAYER_NAME(Alpha);"), "%s", out);

	/* The same archive again: refused whole, nothing new stored. */
	cr_assert_eq(judge("archive import %s/old --game dominator --label 2025", dir), 1, "%s", out);
	cr_assert(strstr(out, "already in archive 2025") && strstr(out, "nothing was imported"),
		  "%s", out);
	cr_assert_eq(docs(), 4);
	cr_assert_eq(sql_int("SELECT count(*) FROM plag_pairs"), 1);
}

/* The payload of the n-th plagiarism.flagged event (from 0), parsed. */
static json_t *flag_event(int n)
{
	char q[160];
	snprintf(q, sizeof q, "SELECT payload FROM events WHERE kind = 'plagiarism.flagged'"
		 " ORDER BY id LIMIT 1 OFFSET %d", n);
	json_t *ev = json_loads(sql(q), 0, NULL);
	cr_assert_not_null(ev, "event %d: %s", n, sql(q));
	return ev;
}

Test(plag_cli, an_archive_imported_later_flags_the_submissions_it_resembles)
{
	struct http_receiver *rcv = flag_receiver();
	upload_ok("AICopycat.c", COPYCAT, "zed");
	work();
	cr_assert_eq(sql_int("SELECT suspected FROM plag_docs WHERE submission_id = 1"), 0);
	put("old/alice/AIAlpha.c", ALPHA);
	put("old/bob/AIBeta.c", BETA);
	cr_assert_eq(judge("archive import %s/old --game dominator --label 2024", dir), 0, "%s", out);
	cr_assert(strstr(out, "Alpha by alice resembles submission 1 (Copycat by zed)"), "%s", out);
	cr_assert(strstr(out, "imported 2 files") && strstr(out, "1 submissions of this tournament"
								 " flagged"), "%s", out);
	cr_assert(!strstr(out, "Beta by bob resembles"), "%s", out);
	cr_assert_eq(sql_int("SELECT suspected FROM plag_docs WHERE submission_id = 1"), 1);
	json_t *arr = pairs("");
	cr_assert_eq(json_array_size(arr), 1, "%s", out);
	json_t *p = json_array_get(arr, 0);
	cr_assert_str_eq(str_at(p, "a", "archive"), "2024");
	cr_assert_eq(int_at(p, "b", "submission"), 1);

	/* The submission hears of it as of a later copy: one event, about
	 * it, naming the archived file, its own lines first. */
	cr_assert_eq(sql_int("SELECT count(*) FROM events WHERE kind = 'plagiarism.flagged'"
			     " AND submission_id = 1"), 1);
	json_t *ev = flag_event(0);
	cr_assert_str_eq(json_string_value(json_object_get(ev, "player")), "Copycat");
	cr_assert_str_eq(json_string_value(json_object_get(ev, "author")), "zed");
	json_t *similar = json_object_get(ev, "similar");
	cr_assert_eq(json_array_size(similar), 1);
	json_t *one = json_array_get(similar, 0);
	cr_assert_str_eq(json_string_value(json_object_get(one, "archive")), "2024");
	cr_assert_str_eq(json_string_value(json_object_get(one, "author")), "alice");
	cr_assert_str_eq(json_string_value(json_object_get(one, "player")), "Alpha");
	cr_assert(json_equal(json_object_get(one, "lines"),
			     json_object_get(json_object_get(p, "b"), "lines")), "%s", out);
	cr_assert(json_equal(json_object_get(one, "their_lines"),
			     json_object_get(json_object_get(p, "a"), "lines")), "%s", out);
	cr_assert_float_eq(json_real_value(json_object_get(one, "a_in_b")),
			   json_real_value(json_object_get(p, "b_in_a")), 1e-9);
	json_decref(ev);
	json_decref(arr);
	work();
	rcv_stop(rcv);
	cr_assert_eq(rcv->requests, 1);
	cr_assert(strstr(rcv->first.body, "\"event\":\"plagiarism.flagged\"") &&
		  strstr(rcv->first.body, "\"archive\":\"2024\""), "%s", rcv->first.body);
	free(rcv);

	/* Another year's copy: it resembles last year's file and the
	 * submission, but only the submission is this tournament's news. */
	put("older/yan/AIAlpha.c", ALPHA);
	cr_assert_eq(judge("archive import %s/older --game dominator --label 2023", dir), 0, "%s", out);
	cr_assert(strstr(out, "Alpha by yan resembles submission 1 (Copycat by zed)"), "%s", out);
	cr_assert(!strstr(out, "resembles submission 0") && !strstr(out, "by alice)"), "%s", out);
	cr_assert(strstr(out, "imported 1 files of dominator as archive 2023; 2 similar pairs stored,"
			  " 1 submissions of this tournament flagged"), "%s", out);
	cr_assert_eq(sql_int("SELECT count(*) FROM events WHERE kind = 'plagiarism.flagged'"), 2);
	ev = flag_event(1);
	one = json_array_get(json_object_get(ev, "similar"), 0);
	cr_assert_str_eq(json_string_value(json_object_get(one, "author")), "yan");
	cr_assert_str_eq(json_string_value(json_object_get(one, "archive")), "2023");
	json_decref(ev);
}

/* Imports dir/rel as 2025; it must fail naming `names` and store nothing. */
static void expect_import_refused(const char *rel, const char *names, const char *words)
{
	int before = docs();
	cr_assert_eq(judge("archive import %s/%s --game dominator --label 2025", dir, rel), 1,
		     "%s", out);
	cr_assert(strstr(out, names), "'%s' not named in: %s", names, out);
	cr_assert(strstr(out, words), "'%s' not in: %s", words, out);
	cr_assert(!strstr(out, "imported 1 file") && !strstr(out, "imported 2 files"), "%s", out);
	cr_assert_eq(docs(), before, "something was stored: %s", out);
	cr_assert_eq(sql_int("SELECT count(*) FROM plag_docs WHERE label = '2025'"), 0);
}

/* A C file of `size` bytes, all of it fine C. */
static void big_file(const char *path, size_t size)
{
	char *text = malloc(size);
	cr_assert_not_null(text);
	static const char stmt[] = "int big_%07zu;\n";
	size_t n = 0;
	for (size_t i = 0; n + 32 < size; i++)
		n += (size_t)snprintf(text + n, size - n, stmt, i);
	memset(text + n, '\n', size - n);
	write_file(path, text, size);
	free(text);
}

Test(plag_cli, archive_import_refuses_bad_files_and_stores_nothing)
{
	write_config("{}");
	put("good/alice/AIAlpha.c", ALPHA);
	cr_assert_eq(judge("archive import %s/good --game dominator --label 2024", dir), 0, "%s", out);
	cr_assert_eq(docs(), 1);
	char path[256];

	put("empty/alice/AIAlpha.c", ALPHA);
	put("empty/bob/AIEmpty.c", "");
	snprintf(path, sizeof path, "%s/empty/bob/AIEmpty.c is empty", dir);
	expect_import_refused("empty", path, "nothing was imported");

	put("binary/alice/AIAlpha.c", ALPHA);
	snprintf(path, sizeof path, "%s", put("binary/bob/AIBin.c", "x"));
	write_file(path, "int main(void)\n{\0\0\0\x01\x02}\n", 23);
	expect_import_refused("binary", path, "NUL byte");

	put("huge/alice/AIAlpha.c", ALPHA);
	snprintf(path, sizeof path, "%s", put("huge/bob/AIHuge.c", "x"));
	big_file(path, 1024 * 1024 + 1);
	expect_import_refused("huge", path, "larger than 1024 KiB");

	put("notc/alice/AIAlpha.c", ALPHA);
	put("notc/bob/AINotes.c", "# My notes\n\n# To do: write the player\n// later\n");
	snprintf(path, sizeof path, "%s/notc/bob/AINotes.c", dir);
	expect_import_refused("notc", path, "no C tokens");

	put("noc/README.txt", "the files went missing\n");
	put("noc/alice/AIAlpha.h", "int x;\n");
	snprintf(path, sizeof path, "no .c file under %s/noc", dir);
	expect_import_refused("noc", path, "no .c file");

	snprintf(path, sizeof path, "%s/missing", dir);
	expect_import_refused("missing", path, "cannot be read");

	/* Two versions of one player by one author would be one document:
	 * the second is named as such, not as an archive imported twice. */
	put("twice/alice/v1/AIAlpha.c", ALPHA);
	put("twice/alice/v2/AIAlpha.c", ALPHA_V2);
	put("twice/bob/AIBeta.c", BETA);
	snprintf(path, sizeof path, "%s/twice/alice/v2/AIAlpha.c: player Alpha by alice again "
		 "(first %s/twice/alice/v1/AIAlpha.c)", dir, dir);
	expect_import_refused("twice", path, "1 of 3 files are not usable");
	cr_assert(!strstr(out, "imported once"), "%s", out);
	/* With --skip-bad the first one (in path order) is kept. */
	cr_assert_eq(judge("archive import %s/twice --game dominator --label 2019 --skip-bad", dir), 1,
		     "%s", out);
	cr_assert(strstr(out, path) && strstr(out, "imported 2 files"), "%s", out);
	char want[64];
	snprintf(want, sizeof want, "alice:%zu", strlen(ALPHA));
	cr_assert_str_eq(sql("SELECT group_concat(author || ':' || length(source)) FROM plag_docs"
			     " WHERE label = '2019' AND name = 'Alpha'"), want);
	cr_assert_eq(docs(), 3);

	/* Exactly 1 MiB is within the limit: the limit is not off by one. */
	put("edge/alice/AIAlpha.c", ALPHA);
	snprintf(path, sizeof path, "%s", put("edge/bob/AIEdge.c", "x"));
	big_file(path, 1024 * 1024);
	cr_assert_eq(judge("archive import %s/edge --game dominator --label 2025", dir), 0, "%s", out);
	cr_assert(strstr(out, "imported 2 files"), "%s", out);
	cr_assert_eq(docs(), 5);
}

Test(plag_cli, skip_bad_stores_the_good_files_and_names_the_bad)
{
	write_config("{}");
	put("mixed/alice/AIAlpha.c", ALPHA);
	put("mixed/bob/AIBeta.c", BETA);
	put("mixed/carl/AIEmpty.c", "");
	put("mixed/erin/AINotes.c", "// nothing yet\n#define LATER 1\n");
	char path[256];
	snprintf(path, sizeof path, "%s", put("mixed/dora/AIBin.c", "x"));
	write_file(path, "\x7f" "ELF\0\0\0", 7);
	cr_assert_eq(judge("archive import %s/mixed --game dominator --label 2023 --skip-bad", dir), 1,
		     "%s", out);
	const char *bad[] = { "carl/AIEmpty.c", "dora/AIBin.c", "erin/AINotes.c" };
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "%s/mixed/%s", dir, bad[i]);
		cr_assert(strstr(out, path), "%s not named: %s", path, out);
	}
	cr_assert(strstr(out, "imported 2 files of dominator as archive 2023"), "%s", out);
	cr_assert_str_eq(sql("SELECT group_concat(author || '/' || name, ' ')"
			     " FROM (SELECT * FROM plag_docs ORDER BY author)"), "alice/Alpha bob/Beta");

	/* Nothing usable at all: exit 1, nothing stored, even with --skip-bad. */
	put("allbad/carl/AIEmpty.c", "");
	cr_assert_eq(judge("archive import %s/allbad --game dominator --label 2022 --skip-bad", dir),
		     1, "%s", out);
	cr_assert(strstr(out, "no usable file"), "%s", out);
	cr_assert_eq(docs(), 2);
}

Test(plag_cli, bad_usage_exits_2_and_touches_nothing)
{
	write_config("{}");
	put("old/alice/AIAlpha.c", ALPHA);
	static const struct {
		const char *args, *words;
	} cases[] = {
		{ "archive import %s/old --game tetris --label 2025", "--game takes one of dominator" },
		{ "archive import %s/old --game dominator --label '20 25'", "the label must be" },
		{ "archive import %s/old --game dominator --label ''", "the label must be" },
		{ "archive import %s/old --game dominator --label ../x", "the label must be" },
		{ "archive import %s/old --game dominator --label "
		  "abcdefghijabcdefghijabcdefghijabc", "the label must be" },
		{ "archive import %s/old --game dominator", "--label LABEL" },
		{ "archive export %s/old --game dominator --label 2025", "import DIR" },
		{ "archive import %s/old --game dominator --label 2025 --bogus", "" },
		{ "plagiarism --game tetris %s", "not 'tetris'" },
		{ "plagiarism --game dominator --min 7 %s", "--min takes a share from 0 to 1" },
		{ "plagiarism --game dominator --min -0.5 %s", "--min takes a share" },
		{ "plagiarism --game dominator --min half %s", "--min takes a share" },
		{ "plagiarism %s", "give --game GAME" },
		{ "plagiarism show 1 %s", "show takes two files" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char args[512];
		snprintf(args, sizeof args, cases[i].args, strstr(cases[i].args, "import") ||
			 strstr(cases[i].args, "export") ? dir : "");
		cr_assert_eq(judge("%s", args), 2, "%s: %s", args, out);
		cr_assert(strstr(out, cases[i].words), "%s: '%s' not in: %s", args, cases[i].words, out);
		cr_assert_neq(access(db, F_OK), 0, "%s created the database", args);
	}
	/* The 32-letter label is still a label. */
	cr_assert_eq(judge("archive import %s/old --game dominator --label "
			   "abcdefghijabcdefghijabcdefghij.-", dir), 0, "%s", out);
	cr_assert_str_eq(sql("SELECT label FROM plag_docs"), "abcdefghijabcdefghijabcdefghij.-");
}
