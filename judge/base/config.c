#include "judge/base/config.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/base/paths.h"

#define MS 1000000ULL
#define MIB (1024ULL * 1024)

void cfg_defaults(struct judge_config *cfg)
{
	*cfg = (struct judge_config){
		.sandbox = {
			.cpu_ns = 1000 * MS,
			.wall_ns = 10000 * MS,
			.wall_budget_factor = 4,
			.wall_round_ns = 2 * MS,
			.memory_bytes = 512 * MIB,
			.stderr_bytes = 64 * 1024,
			.open_files = 16,
			.uid_base = 61000,
			.uid_count = 64,
		},
		.worker = {
			.lease_ms = 60000,
			.max_attempts = 3,
			.min_games = 30,
			.qualify_matches = 4,
			.qualify_wins = 1,
			.qualify_opponent = "Dummy",
			.keep_logs = true,
			/* the contestant's question "is v7 better than v6?" answered
			 * unasked, below qualifying and ranked work */
			.compare_pairs = 10,
		},
		.compile = {
			.cpu_ns = 20000 * MS,
			.wall_ns = 60000 * MS,
			.memory_bytes = 1024 * MIB,
			.output_bytes = 64 * MIB,
			.log_bytes = 64 * 1024,
			.cache_dir = "build/cache",
		},
		.plag = {
			.k = PLAG_K_DEFAULT,
			.w = PLAG_W_DEFAULT,
			.floor_pct = 20,
			.flag_pct = 50,
			.common_pct = 5,
			.common_min_docs = 20,
			.fragment_tokens = PLAG_FRAGMENT_DEFAULT,
			.min_run = PLAG_MIN_RUN_DEFAULT,
			.own_min_tokens = PLAG_OWN_MIN_DEFAULT,
			.dismissed_margin_pct = 10,
		},
		.serve = {
			.public_pages = true,
			.body_bytes = 512 * 1024,
			.header_bytes = 32 * 1024,
			.connections = 256,
			.per_ip = 96,
			.reserved = 64,
			.per_minute = 600,
			.timeout_s = 10,
			.request_s = 20,
			.threads = 4,
		},
		.contest = {
			.challenges_per_hour = 30,
		},
	};
	hook_defaults(&cfg->hooks);
	paths_data_dir(cfg->data_dir);
}

/* One numeric setting: its JSON key, where it goes, the unit it is given in
 * and the range a person may sensibly ask for. */
struct cfg_number {
	const char *key;
	uint64_t *u64;
	unsigned *uns;
	uid_t *uid;
	uint64_t unit;
	uint64_t min, max;
};

static int set_number(const struct cfg_number *n, json_t *v, const char *section,
		      err_t err)
{
	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		err_set(err, "config: %s.%s must be a non-negative integer",
			 section, n->key);
		return -1;
	}
	uint64_t x = (uint64_t)json_integer_value(v);
	if (x < n->min || x > n->max) {
		err_set(err, "config: %s.%s = %llu is out of range [%llu, %llu]",
			 section, n->key, (unsigned long long)x,
			 (unsigned long long)n->min, (unsigned long long)n->max);
		return -1;
	}
	if (n->u64)
		*n->u64 = x * n->unit;
	else if (n->uns)
		*n->uns = (unsigned)x;
	else
		*n->uid = (uid_t)x;
	return 0;
}

/* Each section's numbers live in one table, read by the loader and by
 * cfg_describe(); a table fills at most CFG_NUMS_MAX - 1 entries and ends
 * with { 0 }. */
#define CFG_NUMS_MAX 16
#define COPY_TABLE(dst, t)                                                  \
	do {                                                                \
		_Static_assert(sizeof(t) <= CFG_NUMS_MAX * sizeof *(dst), \
			       "CFG_NUMS_MAX is too small");              \
		memcpy((dst), (t), sizeof(t));                              \
	} while (0)

static const struct cfg_number *find_number(const struct cfg_number *list, const char *key)
{
	for (; list->key; list++)
		if (strcmp(list->key, key) == 0)
			return list;
	return NULL;
}

/* key = v in section: a number of the list, else an unknown setting. */
static int number_setting(const struct cfg_number *nums, const char *section, const char *key,
			  json_t *v, err_t err)
{
	const struct cfg_number *n = find_number(nums, key);
	if (!n) {
		err_set(err, "config: unknown setting %s.%s", section, key);
		return -1;
	}
	return set_number(n, v, section, err);
}

static void sandbox_numbers(struct judge_config *cfg, struct cfg_number nums[CFG_NUMS_MAX])
{
	struct cfg_sandbox *s = &cfg->sandbox;
	const struct cfg_number t[] = {
		{ "cpu_ms", &s->cpu_ns, NULL, NULL, MS, 1, 3600 * 1000 },
		{ "wall_ms", &s->wall_ns, NULL, NULL, MS, 1, 24 * 3600 * 1000 },
		{ "wall_budget_cpu_factor", NULL, &s->wall_budget_factor, NULL, 1, 1, 1000 },
		{ "wall_budget_round_ms", &s->wall_round_ns, NULL, NULL, MS, 0, 60 * 1000 },
		{ "memory_mb", &s->memory_bytes, NULL, NULL, MIB, 8, 1 << 20 },
		{ "stderr_kb", &s->stderr_bytes, NULL, NULL, 1024, 0, 1 << 20 },
		{ "open_files", NULL, &s->open_files, NULL, 1, 8, 1024 },
		{ "uid_base", NULL, NULL, &s->uid_base, 1, 1000, 1u << 30 },
		{ "uid_count", NULL, &s->uid_count, NULL, 1, 1, 65536 },
		{ 0 },
	};
	COPY_TABLE(nums, t);
}

static int load_sandbox(struct judge_config *cfg, json_t *obj, err_t err)
{
	struct cfg_number nums[CFG_NUMS_MAX];
	sandbox_numbers(cfg, nums);
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v) {
		if (number_setting(nums, "sandbox", key, v, err) < 0)
			return -1;
	}
	return 0;
}

/* A true/false setting section.key into *out: 0, or -1 with err. */
static int bool_setting(const char *section, const char *key, const json_t *v, bool *out,
			err_t err)
{
	if (!json_is_boolean(v)) {
		err_set(err, "config: %s.%s must be true or false", section, key);
		return -1;
	}
	*out = json_is_true(v);
	return 0;
}

static void compile_numbers(struct judge_config *cfg, struct cfg_number nums[CFG_NUMS_MAX])
{
	struct cfg_compile *c = &cfg->compile;
	const struct cfg_number t[] = {
		{ "cpu_ms", &c->cpu_ns, NULL, NULL, MS, 100, 3600 * 1000 },
		{ "wall_ms", &c->wall_ns, NULL, NULL, MS, 100, 3600 * 1000 },
		{ "memory_mb", &c->memory_bytes, NULL, NULL, MIB, 64, 1 << 20 },
		{ "output_mb", &c->output_bytes, NULL, NULL, MIB, 1, 1 << 14 },
		{ "log_kb", &c->log_bytes, NULL, NULL, 1024, 1, 1 << 14 },
		{ 0 },
	};
	COPY_TABLE(nums, t);
}

static int load_compile(struct judge_config *cfg, json_t *obj, err_t err)
{
	struct cfg_compile *c = &cfg->compile;
	struct cfg_number nums[CFG_NUMS_MAX];
	compile_numbers(cfg, nums);
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v) {
		if (strcmp(key, "unconfined") == 0) {
			if (bool_setting("compile", key, v, &c->unconfined, err) < 0)
				return -1;
			continue;
		}
		if (strcmp(key, "cache_dir") == 0) {
			const char *s = json_string_value(v);
			if (!s || !*s || strlen(s) >= sizeof c->cache_dir) {
				err_set(err, "config: compile.cache_dir must be a path");
				return -1;
			}
			strcpy(c->cache_dir, s);
			continue;
		}
		if (number_setting(nums, "compile", key, v, err) < 0)
			return -1;
	}
	return 0;
}

static void worker_numbers(struct judge_config *cfg, struct cfg_number nums[CFG_NUMS_MAX])
{
	struct cfg_worker *w = &cfg->worker;
	const struct cfg_number t[] = {
		{ "lease_ms", &w->lease_ms, NULL, NULL, 1, 1000, 24 * 3600 * 1000 },
		{ "max_attempts", NULL, &w->max_attempts, NULL, 1, 1, 100 },
		{ "min_games", NULL, &w->min_games, NULL, 1, 0, 100000 },
		{ "qualify_matches", NULL, &w->qualify_matches, NULL, 1, 0, 100 },
		{ "qualify_wins", NULL, &w->qualify_wins, NULL, 1, 0, 100 },
		/* at most COMPARE_PAIRS_MAX (judge/event/compare.h) */
		{ "compare_pairs", NULL, &w->compare_pairs, NULL, 1, 0, 200 },
		{ 0 },
	};
	COPY_TABLE(nums, t);
}

static int load_worker(struct judge_config *cfg, json_t *obj, err_t err)
{
	struct cfg_worker *w = &cfg->worker;
	struct cfg_number nums[CFG_NUMS_MAX];
	worker_numbers(cfg, nums);
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v) {
		if (strcmp(key, "qualify_opponent") == 0) {
			const char *s = json_string_value(v);
			if (!s || !*s || strlen(s) >= sizeof w->qualify_opponent) {
				err_set(err, "config: worker.qualify_opponent must be "
					 "a shipped player's name");
				return -1;
			}
			strcpy(w->qualify_opponent, s);
			continue;
		}
		if (strcmp(key, "keep_logs") == 0) {
			if (bool_setting("worker", key, v, &w->keep_logs, err) < 0)
				return -1;
			continue;
		}
		if (strcmp(key, "seed_secret") == 0) {
			const char *s = json_string_value(v);
			if (!s || strlen(s) >= sizeof w->seed_secret) {
				err_set(err, "config: worker.seed_secret must be a string "
					 "of at most %zu characters", sizeof w->seed_secret - 1);
				return -1;
			}
			strcpy(w->seed_secret, s);
			continue;
		}
		if (number_setting(nums, "worker", key, v, err) < 0)
			return -1;
	}
	if (w->compare_pairs == 1) {
		err_set(err, "config: worker.compare_pairs is 0 (no automatic "
			 "comparison) or 2 to 200: one pair gives no interval");
		return -1;
	}
	if (w->qualify_matches && w->qualify_wins > w->qualify_matches) {
		err_set(err, "config: worker.qualify_wins is more than "
			 "worker.qualify_matches");
		return -1;
	}
	return 0;
}

static void plag_numbers(struct judge_config *cfg, struct cfg_number nums[CFG_NUMS_MAX])
{
	struct cfg_plag *p = &cfg->plag;
	const struct cfg_number t[] = {
		{ "k", NULL, &p->k, NULL, 1, 4, PLAG_K_MAX },
		{ "w", NULL, &p->w, NULL, 1, 1, PLAG_W_MAX },
		{ "floor_percent", NULL, &p->floor_pct, NULL, 1, 1, 100 },
		{ "flag_percent", NULL, &p->flag_pct, NULL, 1, 1, 100 },
		{ "common_percent", NULL, &p->common_pct, NULL, 1, 1, 100 },
		{ "common_min_files", NULL, &p->common_min_docs, NULL, 1, 2, 1000000 },
		{ "fragment_tokens", NULL, &p->fragment_tokens, NULL, 1, 20, 1000000 },
		{ "min_run", NULL, &p->min_run, NULL, 1, 1, 64 },
		{ "own_min_tokens", NULL, &p->own_min_tokens, NULL, 1, 0, 1000000 },
		{ "dismissed_margin_percent", NULL, &p->dismissed_margin_pct, NULL, 1, 0, 100 },
		{ 0 },
	};
	COPY_TABLE(nums, t);
}

static int load_plag(struct judge_config *cfg, json_t *obj, err_t err)
{
	struct cfg_plag *p = &cfg->plag;
	struct cfg_number nums[CFG_NUMS_MAX];
	plag_numbers(cfg, nums);
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v) {
		if (number_setting(nums, "plagiarism", key, v, err) < 0)
			return -1;
	}
	if (p->floor_pct > p->flag_pct) {
		err_set(err, "config: plagiarism.floor_percent is more than "
			 "plagiarism.flag_percent");
		return -1;
	}
	return 0;
}

static void serve_numbers(struct judge_config *cfg, struct cfg_number nums[CFG_NUMS_MAX])
{
	struct cfg_serve *s = &cfg->serve;
	const struct cfg_number t[] = {
		{ "max_body_kb", &s->body_bytes, NULL, NULL, 1024, 300, 64 * 1024 },
		{ "max_header_kb", &s->header_bytes, NULL, NULL, 1024, 8, 1024 },
		{ "max_connections", NULL, &s->connections, NULL, 1, 1, 65536 },
		{ "max_connections_per_address", NULL, &s->per_ip, NULL, 1, 1, 65536 },
		{ "reserved_connections", NULL, &s->reserved, NULL, 1, 0, 65535 },
		{ "requests_per_minute", NULL, &s->per_minute, NULL, 1, 1, 1000000 },
		{ "timeout_s", NULL, &s->timeout_s, NULL, 1, 1, 3600 },
		{ "request_deadline_s", NULL, &s->request_s, NULL, 1, 1, 3600 },
		{ "threads", NULL, &s->threads, NULL, 1, 1, 256 },
		{ 0 },
	};
	COPY_TABLE(nums, t);
}

/* The settings of a section that are yes or no, by key (NULL: a number). */
static bool *serve_switch(struct judge_config *cfg, const char *key)
{
	if (strcmp(key, "public_leaderboard") == 0)
		return &cfg->serve.public_pages;
	return strcmp(key, "public_debug_marks") == 0 ? &cfg->serve.public_marks : NULL;
}

static bool *contest_switch(struct judge_config *cfg, const char *key)
{
	return strcmp(key, "frozen") == 0 ? &cfg->contest.frozen : NULL;
}

/* A section of numbers (table) and switches (switch_of). */
static int load_numbers_and_switches(struct judge_config *cfg, json_t *obj, const char *section,
				     void (*table)(struct judge_config *, struct cfg_number *),
				     bool *(*switch_of)(struct judge_config *, const char *),
				     err_t err)
{
	struct cfg_number nums[CFG_NUMS_MAX];
	table(cfg, nums);
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v) {
		bool *on = switch_of(cfg, key);
		int rc = on ? bool_setting(section, key, v, on, err)
			    : number_setting(nums, section, key, v, err);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* contest.games: a list of game names (checked against the registry where
 * uploads arrive; here, only their form). */
static int load_upload_games(struct cfg_contest *c, const json_t *list, err_t err)
{
	size_t i;
	const json_t *g;
	if (!json_is_array(list) || json_array_size(list) > CFG_GAMES_MAX) {
		err_set(err, "config: contest.games must be a list of at most %d game "
			 "names, e.g. [\"dominator\"]", CFG_GAMES_MAX);
		return -1;
	}
	c->ngames = 0;
	json_array_foreach(list, i, g) {
		const char *name = json_string_value(g);
		if (!name || !*name || strlen(name) >= sizeof c->games[0] ||
		    strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789") != strlen(name)) {
			err_set(err, "config: contest.games: item %zu is not a game's "
				 "name (judge play --help lists them)", i + 1);
			return -1;
		}
		strcpy(c->games[c->ngames++], name);
	}
	return 0;
}

bool cfg_takes_uploads(const struct cfg_contest *c, const char *game)
{
	for (unsigned i = 0; i < c->ngames; i++)
		if (strcmp(c->games[i], game) == 0)
			return true;
	return c->ngames == 0;
}

void cfg_upload_games(const struct cfg_contest *c, char *out, size_t size)
{
	size_t used = 0;
	out[0] = '\0';
	for (unsigned i = 0; i < c->ngames && used < size; i++)
		used += (size_t)snprintf(out + used, size - used, "%s%s", i ? ", " : "", c->games[i]);
}

static void contest_numbers(struct judge_config *cfg, struct cfg_number nums[CFG_NUMS_MAX])
{
	const struct cfg_number t[] = {
		{ "challenges_per_hour", NULL, &cfg->contest.challenges_per_hour, NULL, 1, 0, 100000 },
		{ 0 },
	};
	COPY_TABLE(nums, t);
}

static int load_contest(struct judge_config *cfg, json_t *obj, err_t err)
{
	const json_t *games = json_object_get(obj, "games");
	if (games && load_upload_games(&cfg->contest, games, err) < 0)
		return -1;
	json_t *rest = json_copy(obj);
	json_object_del(rest, "games");
	int rc = load_numbers_and_switches(cfg, rest, "contest", contest_numbers, contest_switch,
					   err);
	json_decref(rest);
	return rc;
}

static int load_root(struct judge_config *cfg, json_t *root, err_t err)
{
	const char *key;
	json_t *v;
	json_object_foreach(root, key, v) {
		int rc;
		if (strcmp(key, "webhooks") == 0) {
			if (hook_parse_endpoints(&cfg->hooks, v, err) < 0)
				return -1;
			continue;
		}
		if (!json_is_object(v)) {
			err_set(err, "config: %s must be an object", key);
			return -1;
		}
		if (strcmp(key, "sandbox") == 0)
			rc = load_sandbox(cfg, v, err);
		else if (strcmp(key, "compile") == 0)
			rc = load_compile(cfg, v, err);
		else if (strcmp(key, "worker") == 0)
			rc = load_worker(cfg, v, err);
		else if (strcmp(key, "plagiarism") == 0)
			rc = load_plag(cfg, v, err);
		else if (strcmp(key, "serve") == 0)
			rc = load_numbers_and_switches(cfg, v, key, serve_numbers, serve_switch, err);
		else if (strcmp(key, "contest") == 0)
			rc = load_contest(cfg, v, err);
		else if (strcmp(key, "webhook_delivery") == 0)
			rc = hook_parse_delivery(&cfg->hooks, v, err);
		else {
			err_set(err, "config: unknown section %s", key);
			rc = -1;
		}
		if (rc < 0)
			return -1;
	}
	return 0;
}

int cfg_which_file(const struct judge_config *cfg, const char *path, char file[PATH_MAX],
		   const char **why)
{
	*why = "--config";
	if (!path && getenv(CFG_ENV)) {
		path = getenv(CFG_ENV);
		*why = "$" CFG_ENV;
	}
	if (path) {
		snprintf(file, PATH_MAX, "%s", path);
		return 1;
	}
	*why = "the data directory's default";
	if (paths_in(file, cfg->data_dir, "%s", CFG_DEFAULT_PATH) && access(file, F_OK) == 0)
		return 1;
	*why = "no file: built-in defaults";
	file[0] = '\0';
	return 0;
}

/* "config: what is wrong" becomes "config FILE: what is wrong": with
 * several files in play ($JUDGE_CONFIG, --config), say which to edit. */
static void name_the_file(err_t err, const char *path)
{
	static const char prefix[] = "config: ";
	if (strncmp(err->msg, prefix, sizeof prefix - 1) != 0)
		return;
	err_t what;
	err_set(what, "%s", err->msg + sizeof prefix - 1);
	err_set(err, "config %.120s: %.120s", path, what->msg);
}

int cfg_load(struct judge_config *cfg, const char *path, err_t err)
{
	char file[PATH_MAX];
	const char *why;
	if (cfg_which_file(cfg, path, file, &why) == 0)
		return 0;
	path = file;
	json_error_t jerr;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root && jerr.line < 1) /* not read at all: jansson says why */
		err_set(err, "config %.120s: %.100s", path, jerr.text);
	else if (!root)
		err_set(err, "config %.120s: %.100s (line %d)", path, jerr.text, jerr.line);
	if (!root)
		return -1;
	int rc = -1;
	if (!json_is_object(root))
		err_set(err, "config %.180s: the top level must be an object", path);
	else if ((rc = load_root(cfg, root, err)) < 0)
		name_the_file(err, path);
	json_decref(root);
	return rc;
}

/* ---- describing the effective settings ------------------------------------ */

static json_t *number_value(const struct cfg_number *n)
{
	uint64_t v = n->u64 ? *n->u64 / n->unit : n->uns ? *n->uns : (uint64_t)*n->uid;
	return json_integer((json_int_t)v);
}

/* {"value": v, "from": file or "default"}, v taken. */
static void describe(json_t *out, const json_t *root, const char *section, const char *key,
		     json_t *value, const char *from)
{
	char name[96];
	snprintf(name, sizeof name, "%s.%s", section, key);
	bool set = json_object_get(json_object_get(root, section), key) != NULL;
	json_object_set_new(out, name, json_pack("{s:o, s:s}", "value", value, "from",
						 set ? from : "default"));
}

static void describe_numbers(json_t *out, const json_t *root, struct judge_config *cfg,
			     const char *section, const char *from,
			     void (*table)(struct judge_config *, struct cfg_number *))
{
	struct cfg_number nums[CFG_NUMS_MAX];
	table(cfg, nums);
	for (const struct cfg_number *n = nums; n->key; n++)
		describe(out, root, section, n->key, number_value(n), from);
}

json_t *cfg_describe(struct judge_config *cfg, const char *file, const char *from)
{
	json_t *root = file && *file ? json_load_file(file, 0, NULL) : NULL;
	json_t *out = json_object();
	const struct cfg_worker *w = &cfg->worker;
	describe_numbers(out, root, cfg, "sandbox", from, sandbox_numbers);
	describe_numbers(out, root, cfg, "compile", from, compile_numbers);
	describe(out, root, "compile", "cache_dir", json_string(cfg->compile.cache_dir), from);
	describe(out, root, "compile", "unconfined", json_boolean(cfg->compile.unconfined), from);
	describe_numbers(out, root, cfg, "worker", from, worker_numbers);
	describe(out, root, "worker", "qualify_opponent", json_string(w->qualify_opponent), from);
	describe(out, root, "worker", "keep_logs", json_boolean(w->keep_logs), from);
	/* a secret is said to be set, never shown */
	describe(out, root, "worker", "seed_secret", json_string(*w->seed_secret ? "(set)" : ""),
		 from);
	describe_numbers(out, root, cfg, "plagiarism", from, plag_numbers);
	describe_numbers(out, root, cfg, "serve", from, serve_numbers);
	describe(out, root, "serve", "public_leaderboard", json_boolean(cfg->serve.public_pages),
		 from);
	describe(out, root, "serve", "public_debug_marks", json_boolean(cfg->serve.public_marks),
		 from);
	describe_numbers(out, root, cfg, "contest", from, contest_numbers);
	describe(out, root, "contest", "frozen", json_boolean(cfg->contest.frozen), from);
	json_t *games = json_array();
	for (unsigned i = 0; i < cfg->contest.ngames; i++)
		json_array_append_new(games, json_string(cfg->contest.games[i]));
	describe(out, root, "contest", "games", games, from);
	describe(out, root, "webhook_delivery", "timeout_ms",
		 json_integer(cfg->hooks.timeout_ms), from);
	describe(out, root, "webhook_delivery", "max_attempts",
		 json_integer(cfg->hooks.max_attempts), from);
	bool hooks_set = json_object_get(root, "webhooks") != NULL;
	json_object_set_new(out, "webhooks", json_pack("{s:I, s:s}", "value",
						       (json_int_t)cfg->hooks.count, "from",
						       hooks_set ? from : "default"));
	json_decref(root);
	return out;
}

int cfg_init(struct judge_config *cfg, const char *path, err_t err)
{
	cfg_defaults(cfg);
	return cfg_load(cfg, path, err);
}
