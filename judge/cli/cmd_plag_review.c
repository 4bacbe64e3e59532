/* cmd_plag_review.c - the flagged pairs and the organiser's decisions on
 * them, from `judge plagiarism` (plag_review.h). */
#include "judge/cli/plag_review.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/cli/board_html.h"
#include "judge/cli/report.h"
#include "judge/store/store_plag_review.h"

static const char *const commands[] = { "flags", "confirm", "dismiss", "clear", NULL };

bool plag_review_is_command(const char *word)
{
	for (size_t i = 0; commands[i]; i++)
		if (strcmp(word, commands[i]) == 0)
			return true;
	return false;
}

int plag_review_positional(const struct opt_command *cmd, char **argv, int n,
			   struct plag_review_args *r)
{
	r->command = argv[1];
	if (strcmp(r->command, "flags") == 0)
		return n == 1 ? 0 : opt_bad(cmd, "flags takes no file: flags [--game GAME]");
	if (n != 2)
		return opt_bad(cmd, "%s takes one flag number, as `judge plagiarism flags` lists "
			       "them: %s ID", r->command, r->command);
	char *end;
	errno = 0;
	long long id = strtoll(argv[2], &end, 10);
	if (errno || *end || end == argv[2] || id < 1)
		return opt_bad(cmd, "%s: '%s' is not a flag number (`judge plagiarism flags` lists "
			       "them)", r->command, argv[2]);
	r->flag = id;
	return 0;
}

static const char *text(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));
	return v ? v : "";
}

/* "submission 12 Bob by bob, uploaded 2026-11-02 10:11" or an archive's. */
static void print_side(const char *role, json_t *side)
{
	json_t *sub = json_object_get(side, "submission");
	char when[32] = "";
	json_t *at = json_object_get(side, "uploaded_at");
	if (json_is_integer(at))
		board_time(json_integer_value(at), when);
	printf("  %-20s ", role);
	if (json_is_integer(sub))
		printf("submission %lld", (long long)json_integer_value(sub));
	else
		printf("archived doc:%lld (%s)", (long long)json_integer_value(
			json_object_get(side, "doc")), text(side, "label"));
	printf(" %s by %s%s%s\n", text(side, "player"), text(side, "author"),
	       when[0] ? ", uploaded " : "", when);
}

static void print_flag(json_t *f)
{
	const char *review = text(f, "review");
	printf("flag %lld  %s  %.0f%% similar  %s%s\n", (long long)json_integer_value(
		json_object_get(f, "id")), text(f, "game"),
	       json_number_value(json_object_get(f, "similarity")) * 100,
	       review[0] ? review : "open", json_is_true(json_object_get(f, "seen")) ? "" : ", new");
	print_side("earlier (original)", json_object_get(f, "earlier"));
	print_side(review[0] && strcmp(review, "dismissed") == 0 ? "later" : "later (suspected)",
		   json_object_get(f, "later"));
	if (review[0])
		printf("  %-20s by %s%s%s\n", "decided", text(f, "reviewed_by"),
		       text(f, "note")[0] ? ": " : "", text(f, "note"));
}

static int fail(const char *err)
{
	fprintf(stderr, "judge plagiarism: %s\n", err);
	return 2;
}

static int list_flags(const struct plag_review_args *r, struct store *s)
{
	json_t *flags;
	err_t err;
	if (store_plag_flags(s, r->game, &flags, err) < 0)
		return fail(err->msg);
	if (r->json) {
		report_json_as(flags, JSON_INDENT(1));
	} else {
		size_t i;
		json_t *f;
		json_array_foreach(flags, i, f)
			print_flag(f);
		printf("%zu flagged pair%s%s%s; confirm, dismiss or clear one with `judge plagiarism "
		       "confirm ID`\n", json_array_size(flags), json_array_size(flags) == 1 ? "" : "s",
		       r->game ? " of " : "", r->game ? r->game : "");
	}
	json_decref(flags);
	return 0;
}

/* The action as its past participle, for the message. */
static const char *done_word(const char *action)
{
	return strcmp(action, "confirm") == 0 ? "confirmed a copy"
	       : strcmp(action, "dismiss") == 0 ? "dismissed" : "open again";
}

static int review(const struct plag_review_args *r, struct store *s)
{
	json_t *flag = NULL;
	err_t err;
	const char *by = r->by && *r->by ? r->by : opt_user();
	int rc = store_plag_review(s, r->flag, r->command, by, r->note, &flag, err);
	if (rc < 0)
		return fail(err->msg);
	if (rc == 0) {
		fprintf(stderr, "judge plagiarism: there is no flag %lld (`judge plagiarism flags` "
			"lists them)\n", (long long)r->flag);
		return 1;
	}
	if (r->json) {
		report_json_as(flag, JSON_INDENT(1));
	} else {
		printf("flag %lld: %s\n", (long long)r->flag, done_word(r->command));
		print_flag(flag);
	}
	json_decref(flag);
	return 0;
}

int plag_review_run(const struct plag_review_args *r, struct store *s)
{
	return strcmp(r->command, "flags") == 0 ? list_flags(r, s) : review(r, s);
}
