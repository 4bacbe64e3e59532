/* plag_review.h - `judge plagiarism flags`, `confirm`, `dismiss` and
 * `clear`: the organiser's list of flagged pairs and decisions on them
 * (judge/store/store_plag_review.h keeps them, with their history). */
#ifndef JUDGE_CLI_PLAG_REVIEW_H
#define JUDGE_CLI_PLAG_REVIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "judge/cli/options.h"
#include "judge/store/store.h"

struct plag_review_args {
	const char *command;     /* "flags", "confirm", "dismiss", "clear"; NULL: none */
	int64_t flag;            /* the flag decided on */
	const char *by, *note, *game;
	bool json;
};

bool plag_review_is_command(const char *word);

/* argv[1..n] is a review command: checked into r; 0, or the exit status
 * of bad usage (said). */
int plag_review_positional(const struct opt_command *cmd, char **argv, int n,
			   struct plag_review_args *r);

/* Runs it: the exit status. */
int plag_review_run(const struct plag_review_args *r, struct store *s);

#endif
