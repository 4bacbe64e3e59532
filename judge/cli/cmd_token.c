/* judge token: the service's tokens.  `add` prints a new token once (the
 * store keeps only its SHA-256); `list` and `revoke` manage them. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/safe_text.h"
#include "judge/cli/board_html.h"
#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/compile/upload_check.h"
#include "judge/serve/serve.h"
#include "judge/store/store_serve.h"

static const char *const token_forms[] = {
	"judge token add --author NAME [--organiser] [--queue FILE]",
	"judge token list [--queue FILE]",
	"judge token revoke ID [--queue FILE]",
	NULL,
};

struct token_args {
	const char *action, *author, *queue;
	long long id;
	bool organiser;
};

/* The action and its ID, argv[1..n]: 0, or the exit status of bad usage
 * (said). */
static int take_action(const struct opt_command *cmd, char **argv, int n, struct token_args *a)
{
	a->action = argv[1];
	bool revoke = strcmp(a->action, "revoke") == 0;
	char *end = NULL;
	if (revoke && n == 2)
		a->id = strtoll(argv[2], &end, 10);
	if (n != 1 + revoke || (revoke && (!end || *end || a->id <= 0)) ||
	    (strcmp(a->action, "add") != 0 && strcmp(a->action, "list") != 0 && !revoke))
		return opt_bad(cmd, "say add --author NAME, list, or revoke ID");
	if (strcmp(a->action, "add") == 0 && (!a->author || !upload_author_valid(a->author)))
		return opt_bad(cmd, "give --author NAME: 1 to 63 printable characters, not only "
			       "blanks");
	return 0;
}

/* 0, or -1 when the command is done with exit status *status. */
static int parse_args(int argc, char **argv, struct token_args *a, int *status)
{
	const struct opt opts[] = {
		OPT_STR("author", 0, "NAME", &a->author, "who the token speaks for (1 to 63 "
			"printable characters)"),
		OPT_BOOL("organiser", 0, &a->organiser, "an organiser's token"),
		OPT_QUEUE_CREATED(&a->queue),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge token", .args = "add|list|revoke [ID]", .min_args = 1,
		.max_args = 2, .forms = token_forms, .opts = opts,
		.summary = "A token lets its holder use `judge serve` as NAME: upload, see their own\n"
			   "submissions; an organiser's token also opens the organisers' pages.\n"
			   "`add` prints the new token once, on its own line: give it to NAME; the\n"
			   "judge keeps only its SHA-256, so a lost token cannot be shown again\n"
			   "(revoke it and add another).",
		.exits = "0 done, 1 no such token, 2 bad usage or an unusable database.",
	};
	*a = (struct token_args){ .queue = STORE_DEFAULT_PATH };
	int n = opt_parse(&cmd, argc, argv, status);
	if (n >= 0)
		*status = take_action(&cmd, argv, n, a);
	return n < 0 || *status ? -1 : 0;
}

static int token_add(struct store *s, const struct token_args *a)
{
	char token[44], hex[65], err[SERVE_ERRLEN];
	int64_t id;
	if (serve_token_new(token, err) < 0 || serve_token_hash(token, hex) < 0) {
		fprintf(stderr, "judge token: %s\n", err);
		return 2;
	}
	if (store_token_add(s, hex, a->author, a->organiser, &id, err) < 0) {
		fprintf(stderr, "judge token: %s\n", err);
		return 2;
	}
	printf("%s\n", token);
	fprintf(stderr, "judge token: token %lld for %s%s; shown this once, keep it secret\n",
		(long long)id, a->author, a->organiser ? " (organiser)" : "");
	return 0;
}

static int token_list(struct store *s)
{
	char err[STORE_ERRLEN], when[32];
	json_t *list;
	if (store_token_list(s, &list, err) < 0) {
		fprintf(stderr, "judge token: %s\n", err);
		return 2;
	}
	printf("%6s  %-10s  %-23s  %s\n", "id", "role", "created", "author");
	size_t i;
	json_t *t;
	json_array_foreach(list, i, t) {
		board_time(json_integer_value(json_object_get(t, "created_at")), when);
		bool revoked = !json_is_null(json_object_get(t, "revoked_at"));
		printf("%6lld  %-10s  %-23s  ", (long long)json_integer_value(json_object_get(t, "id")),
		       revoked ? "revoked" : json_is_true(json_object_get(t, "organiser"))
		       ? "organiser" : "contestant", when);
		board_cell(stdout, json_string_value(json_object_get(t, "author")), 0);
		putchar('\n');
	}
	json_decref(list);
	return 0;
}

static int token_revoke(struct store *s, long long id)
{
	char err[STORE_ERRLEN];
	int rc = store_token_revoke(s, id, err);
	if (rc < 0)
		fprintf(stderr, "judge token: %s\n", err);
	else
		fprintf(stderr, "judge token: %s %lld\n", rc ? "revoked token" : "no working token",
			id);
	return rc < 0 ? 2 : rc ? 0 : 1;
}

int cmd_token(int argc, char **argv)
{
	struct token_args a;
	int status;
	if (parse_args(argc, argv, &a, &status) < 0)
		return status;
	char err[STORE_ERRLEN];
	struct store *s = store_open(a.queue, strcmp(a.action, "add") == 0, err);
	if (!s) {
		fprintf(stderr, "judge token: %s\n", err);
		return 2;
	}
	int rc = strcmp(a.action, "add") == 0 ? token_add(s, &a)
		 : strcmp(a.action, "list") == 0 ? token_list(s) : token_revoke(s, a.id);
	store_close(s);
	return rc;
}
