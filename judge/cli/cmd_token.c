/* judge token: the service's tokens.  `add` prints a new token once (the
 * store keeps only its SHA-256); `list` and `revoke` manage them. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/file_write.h"
#include "judge/base/safe_text.h"
#include "judge/cli/board_html.h"
#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/cli/roster.h"
#include "judge/compile/upload_check.h"
#include "judge/serve/serve.h"
#include "judge/store/store_serve.h"

static const char *const token_forms[] = {
	"judge token add --author NAME [--label TEXT] [--group NAME] [--organiser] [--queue FILE]",
	"judge token import ROSTER.csv [-o TOKENS.csv] [--queue FILE]",
	"judge token list [--queue FILE]",
	"judge token revoke ID [--queue FILE]",
	NULL,
};

struct token_args {
	const char *action, *author, *label, *group, *queue, *roster, *output;
	long long id;
	bool organiser;
};

/* The action and its ID, argv[1..n]: 0, or the exit status of bad usage
 * (said). */
static int take_action(const struct opt_command *cmd, char **argv, int n, struct token_args *a)
{
	a->action = argv[1];
	bool revoke = strcmp(a->action, "revoke") == 0, import = strcmp(a->action, "import") == 0;
	char *end = NULL;
	if (revoke && n == 2)
		a->id = strtoll(argv[2], &end, 10);
	if (import && n == 2)
		a->roster = argv[2];
	if (n != 1 + (revoke || import) || (revoke && (!end || *end || a->id <= 0)) ||
	    (strcmp(a->action, "add") != 0 && strcmp(a->action, "list") != 0 && !revoke && !import))
		return opt_bad(cmd, "say add --author NAME, import ROSTER.csv, list, or revoke ID");
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
		OPT_STR("label", 0, "TEXT", &a->label, "add: a label shown by list (a name, a seat)"),
		OPT_STR("group", 0, "NAME", &a->group, "add: the author's group (a class)"),
		OPT_STR("output", 'o', "FILE", &a->output, "import: write author,group,label,token "
			"to FILE (mode 0600) instead of standard output"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge token", .args = "add|import|list|revoke [ID|ROSTER]", .min_args = 1,
		.queue = &a->queue, .queue_created = true,
		.max_args = 2, .forms = token_forms, .opts = opts,
		.summary = "A token lets its holder use `judge serve` as NAME: upload, see their own\n"
			   "submissions; an organiser's token also opens the organisers' pages.\n"
			   "`add` prints the new token once, on its own line: give it to NAME; the\n"
			   "judge keeps only its SHA-256, so a lost token cannot be shown again\n"
			   "(revoke it and add another).  `import` adds one token per line of a\n"
			   "roster (author[,group[,label]]; # comments), all or none, and prints\n"
			   "author,group,label,token once.  A second working token for an author is\n"
			   "added with a warning naming the first.",
		.exits = "0 done, 1 no such token, 2 bad usage or an unusable database.",
	};
	*a = (struct token_args){ 0 };
	int n = opt_parse(&cmd, argc, argv, status);
	if (n >= 0)
		*status = take_action(&cmd, argv, n, a);
	return n < 0 || *status ? -1 : 0;
}

/* Two working tokens of one author are allowed (a new device) but never
 * silent: often the first was lost and should be revoked. */
static void warn_others(const char *author, int64_t others)
{
	if (others > 0)
		fprintf(stderr, "judge token: warning: %s already has %lld working token%s; if one "
			"was lost, revoke it (`judge token list`, `judge token revoke ID`)\n", author,
			(long long)others, others == 1 ? "" : "s");
}

static int token_add(struct store *s, const struct token_args *a)
{
	char token[44], hex[65];
	err_t err;
	int64_t id;
	if (serve_token_new(token, err) < 0 || serve_token_hash(token, hex) < 0) {
		fprintf(stderr, "judge token: %s\n", err->msg);
		return 2;
	}
	int64_t others;
	const struct store_new_token t = { .sha256 = hex, .author = a->author, .organiser = a->organiser,
					   .label = a->label, .group = a->group };
	if (store_token_add(s, &t, &id, &others, err) < 0) {
		fprintf(stderr, "judge token: %s\n", err->msg);
		return 2;
	}
	printf("%s\n", token);
	fprintf(stderr, "judge token: token %lld for %s%s; shown this once, keep it secret\n",
		(long long)id, a->author, a->organiser ? " (organiser)" : "");
	warn_others(a->author, others);
	return 0;
}

/* ---- import ---------------------------------------------------------------- */

struct import {
	struct store *s;
	json_t *made; /* [[author, group, label, token]] in the roster's order */
};

static bool fits(const char *text)
{
	return !text || (strlen(text) < 64 && !strpbrk(text, "\"\n"));
}

static int import_person(void *ctx, const char *author, const char *group, const char *label,
			 int line)
{
	struct import *im = ctx;
	char token[44], hex[65];
	err_t err;
	int64_t id, others;
	if (!upload_author_valid(author) || !fits(group) || !fits(label)) {
		fprintf(stderr, "judge token: line %d: %s (1 to 63 printable characters each, no "
			"quote); nothing was imported\n", line,
			upload_author_valid(author) ? "a group or label too long" : "not an author name");
		return -1;
	}
	const struct store_new_token t = { .sha256 = hex, .author = author, .label = label,
					   .group = group };
	if (serve_token_new(token, err) < 0 || serve_token_hash(token, hex) < 0 ||
	    store_token_add(im->s, &t, &id, &others, err) < 0) {
		fprintf(stderr, "judge token: line %d: %s; nothing was imported\n", line, err->msg);
		return -1;
	}
	warn_others(author, others);
	json_array_append_new(im->made, json_pack("[s, s, s, s]", author, group ? group : "",
						  label ? label : "", token));
	return 0;
}

/* The tokens as CSV, shown this once: to FILE (mode 0600) or stdout. */
static int put_tokens(const json_t *made, const char *output)
{
	char *text = NULL;
	size_t len = 0, i;
	FILE *mem = open_memstream(&text, &len);
	const json_t *row;
	fputs("author,group,label,token\n", mem);
	json_array_foreach(made, i, row) {
		for (size_t c = 0; c < 4; c++) {
			const char *v = json_string_value(json_array_get(row, c));
			bool quote = strpbrk(v, ",") != NULL;
			fprintf(mem, "%s%s%s%s", c ? "," : "", quote ? "\"" : "", v, quote ? "\"" : "");
		}
		fputc('\n', mem);
	}
	fclose(mem);
	err_t err;
	int rc = 0;
	if (!output)
		fwrite(text, 1, len, stdout);
	else if ((rc = file_write_whole(output, text, len, 0600, err)) < 0)
		fprintf(stderr, "judge token: %s (the tokens are stored: revoke them and import "
			"again)\n", err->msg);
	free(text);
	return rc;
}

/* All or none: one transaction for the roster. */
static int token_import(struct store *s, const struct token_args *a)
{
	err_t err;
	struct import im = { .s = s, .made = json_array() };
	int rc = store_begin(s, err) < 0 ? -1 : roster_each(a->roster, "judge token", import_person, &im);
	if (rc == 0 && store_commit(s, err) < 0)
		rc = -1, fprintf(stderr, "judge token: %s\n", err->msg);
	if (rc != 0)
		store_rollback(s);
	else if (put_tokens(im.made, a->output) == 0)
		fprintf(stderr, "judge token: %zu tokens imported; shown this once, give each to its "
			"author\n", json_array_size(im.made));
	else
		rc = 1;
	json_decref(im.made);
	return rc == 0 ? 0 : 1;
}

static int token_list(struct store *s)
{
	char when[32];
	err_t err;
	json_t *list;
	if (store_token_list(s, &list, err) < 0) {
		fprintf(stderr, "judge token: %s\n", err->msg);
		return 2;
	}
	printf("%6s  %-10s  %-23s  %-24s  %-10s  %s\n", "id", "role", "created", "author", "group",
	       "label");
	size_t i;
	json_t *t;
	json_array_foreach(list, i, t) {
		board_time(json_integer_value(json_object_get(t, "created_at")), when);
		bool revoked = !json_is_null(json_object_get(t, "revoked_at"));
		printf("%6lld  %-10s  %-23s  ", (long long)json_integer_value(json_object_get(t, "id")),
		       revoked ? "revoked" : json_is_true(json_object_get(t, "organiser"))
		       ? "organiser" : "contestant", when);
		board_cell(stdout, json_string_value(json_object_get(t, "author")), 24);
		fputs("  ", stdout);
		const char *group = json_string_value(json_object_get(t, "group")),
			   *label = json_string_value(json_object_get(t, "label"));
		board_cell(stdout, group ? group : "-", 10);
		fputs("  ", stdout);
		board_cell(stdout, label ? label : "-", 0);
		putchar('\n');
	}
	json_decref(list);
	return 0;
}

static int token_revoke(struct store *s, long long id)
{
	err_t err;
	int rc = store_token_revoke(s, id, err);
	if (rc < 0)
		fprintf(stderr, "judge token: %s\n", err->msg);
	else
		fprintf(stderr, "judge token: %s %lld\n", rc ? "revoked token" : "no working token",
			id);
	return rc < 0 ? 2 : rc ? 0 : 1;
}

static int run_action(struct store *s, void *args)
{
	const struct token_args *a = args;
	return strcmp(a->action, "add") == 0	  ? token_add(s, a)
	       : strcmp(a->action, "import") == 0 ? token_import(s, a)
	       : strcmp(a->action, "list") == 0	  ? token_list(s)
						  : token_revoke(s, a->id);
}

int cmd_token(int argc, char **argv)
{
	struct token_args a;
	int status;
	return parse_args(argc, argv, &a, &status) < 0 ? status
	       : opt_on_store("judge token", a.queue,
			      strcmp(a.action, "add") == 0 || strcmp(a.action, "import") == 0,
			      run_action, &a);
}
