/* judge reference: the organiser's own reference players.  `add` compiles
 * a private opponent (a stronger Dummy) as the worker compiles uploads and
 * stores it, source and all; a tournament's phase then names it as its
 * `opponent`, and `object` hands out its compiled object file, which
 * contestants link with the game's kit for local play, never seeing the
 * source.  `list` names them. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "judge/base/file_write.h"
#include "judge/base/hash.h"
#include "judge/base/paths.h"
#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/cli/report.h"
#include "judge/compile/source.h"
#include "judge/play/players.h"
#include "judge/store/store_reference.h"

static const char *const forms[] = {
	"judge reference add --game GAME AIName.c",
	"judge reference object NAME --game GAME -o FILE.o",
	"judge reference list [--game GAME] [--json]",
	"(each with [--queue FILE] [--config FILE])",
	NULL,
};

struct ref_args {
	const char *action, *arg, *game, *out, *queue, *config;
	bool json;
	struct judge_config cfg;
};

static int fail(const char *what)
{
	fprintf(stderr, "judge reference: %s\n", what);
	return 1;
}

/* The program's bytes (and the object's, when kept) into the store. */
static int put_file(struct store *s, const char *path, char sha[HASH_HEXLEN + 1],
		    err_t err)
{
	char *bytes = NULL;
	err_t rerr;
	size_t len = 0;
	if (src_read(path, 64 << 20, &bytes, &len, rerr) < 0 || hash_hex(bytes, len, sha) < 0) {
		err_set(err, "cannot read %.100s: %.100s", path, rerr->msg);
		free(bytes);
		return -1;
	}
	int rc = store_put_binary(s, sha, bytes, len, err);
	free(bytes);
	return rc;
}

static int store_compiled(struct store *s, const struct ref_args *a, const char *name,
			  const char *src, size_t len, const struct cmp_result *res)
{
	char bin[HASH_HEXLEN + 1], obj[HASH_HEXLEN + 1] = "";
	err_t serr;
	struct store_new_reference r = { .game = a->game, .name = name, .source = src,
					 .source_len = len, .source_sha256 = res->source_sha256,
					 .binary_sha256 = bin, .object_sha256 = obj };
	int rc = store_begin(s, serr);
	rc = rc ? rc : put_file(s, res->binary, bin, serr);
	if (rc == 0 && res->object[0])
		rc = put_file(s, res->object, obj, serr);
	if (!obj[0])
		r.object_sha256 = NULL;
	rc = rc ? rc : store_reference_put(s, &r, serr);
	rc = rc ? rc : store_commit(s, serr);
	if (rc < 0) {
		store_rollback(s);
		return fail(serr->msg);
	}
	printf("reference player %s of %s stored: a tournament's phase may name it as its "
	       "opponent (judge tournament opponent T %s)%s\n", name, a->game, name,
	       obj[0] ? "" : "; no object file was kept, so `object` cannot hand it out");
	return 0;
}

static int add(struct store *s, const struct ref_args *a, const struct judge_config *cfg)
{
	char name[PLAYER_NAME_MAX + 1];
	err_t uerr;
	err_t cerr;
	err_t rerr;
	char shipped[PATH_MAX], *src = NULL;
	size_t len;
	if (players_source_name(a->arg, name, uerr) < 0)
		return fail(uerr->msg);
	if (paths_shipped_player(cfg->data_dir, a->game, name, shipped)) {
		fprintf(stderr, "judge reference: %s is a shipped player of %s: name yours "
			"otherwise (AIStrong.c, say)\n", name, a->game);
		return 1;
	}
	if (src_read(a->arg, CMP_SOURCE_MAX, &src, &len, rerr) < 0)
		return fail(rerr->msg);
	struct cmp_result res = { 0 };
	int rc = players_compile(cfg, a->game, a->arg, &res, cerr);
	if (rc < 0)
		rc = fail(cerr->msg);
	else if (!res.ok)
		rc = fprintf(stderr, "%sjudge reference: %s does not compile\n", res.log, a->arg) > 0;
	else
		rc = store_compiled(s, a, name, src, len, &res);
	cmp_result_free(&res);
	free(src);
	return rc;
}

static int object(struct store *s, const struct ref_args *a)
{
	struct store_reference r;
	err_t serr;
	err_t ferr;
	int found = store_reference_get(s, a->game, a->arg, &r, serr);
	if (found <= 0) {
		if (found == 0)
			fprintf(stderr, "judge reference: %s has no reference player %s (judge "
				"reference list)\n", a->game, a->arg);
		return found < 0 ? fail(serr->msg) : 1;
	}
	if (!r.object_sha256[0])
		return fail("its object file was not kept: add the reference player again");
	uint8_t *bytes;
	size_t len;
	found = store_get_binary(s, r.object_sha256, &bytes, &len, serr);
	if (found <= 0)
		return fail(found < 0 ? serr->msg : "its object file is missing from the store");
	int rc = file_write_whole(a->out, (const char *)bytes, len, 0644, ferr);
	free(bytes);
	if (rc < 0)
		return fail(ferr->msg);
	printf("%s: %s's object; link it with the kit for local play, e.g. gcc %s "
	       "build/kits/lib%s.a -lm -static -o AI%s\n", a->out, a->arg, a->out, a->game, a->arg);
	return 0;
}

static int list(struct store *s, const struct ref_args *a)
{
	json_t *rows, *r;
	err_t serr;
	size_t i;
	if (store_reference_list(s, a->game, &rows, serr) < 0)
		return fail(serr->msg);
	if (a->json) {
		report_json_as(rows, JSON_INDENT(1));
	} else {
		json_array_foreach(rows, i, r)
			printf("%-10s %s\n", json_string_value(json_object_get(r, "game")),
			       json_string_value(json_object_get(r, "name")));
	}
	json_decref(rows);
	return 0;
}

static int parse_args(int argc, char **argv, struct ref_args *a, int *status)
{
	const struct opt opts[] = {
		OPT_GAME(&a->game),
		OPT_STR("output", 'o', "FILE", &a->out, "object: where the object file goes"),
		OPT_DONE,
	};
	static struct opt_command cmd;
	cmd = (struct opt_command){
		.name = "judge reference", .args = "ACTION [ARG]", .min_args = 1, .max_args = 2,
		.json = &a->json, .json_help = "list: as JSON",
		.queue = &a->queue, .config = &a->config, .settings = &a->cfg,
		.forms = forms, .opts = opts,
		.summary = "The organiser's private opponents: `add` compiles and stores one,\n"
			   "whose source no contestant sees; a tournament's phase names it as\n"
			   "its opponent; `object` writes its compiled object for local play.",
		.exits = "0 done, 1 refused (does not compile, a name taken, none such), "
			 "2 bad usage or an unusable database.",
	};
	*a = (struct ref_args){ 0 };
	int n = opt_parse(&cmd, argc, argv, status);
	if (n < 0)
		return -1;
	a->action = argv[1];
	a->arg = n >= 2 ? argv[2] : NULL;
	bool listing = strcmp(a->action, "list") == 0;
	const char *bad = !listing && strcmp(a->action, "add") && strcmp(a->action, "object")
			  ? "say what to do: add, object or list"
		: !listing && !a->arg ? "add takes the file AIName.c; object the player's NAME"
		: !listing && !a->game ? "say which game: --game GAME"
		: strcmp(a->action, "object") == 0 && !a->out ? "object needs -o FILE.o"
		: NULL;
	if (bad) {
		*status = opt_bad(&cmd, "%s", bad);
		return -1;
	}
	return 0;
}

static int run_action(struct store *s, void *args)
{
	const struct ref_args *a = args;
	return strcmp(a->action, "add") == 0	  ? add(s, a, &a->cfg)
	       : strcmp(a->action, "object") == 0 ? object(s, a)
						  : list(s, a);
}

int cmd_reference(int argc, char **argv)
{
	struct ref_args a;
	int status;
	return parse_args(argc, argv, &a, &status) < 0 ? status
	       : opt_on_store("judge reference", a.queue, strcmp(a.action, "add") == 0,
			      run_action, &a);
}
