/* options.h - every command's command line, read from one table.
 *
 * A command declares its options (long name, short letter, the value's
 * name, its kind, where it goes, one line of help), its arguments and a
 * summary in a struct opt_command; opt_parse() reads argv against it,
 * says what is wrong in one form for every command ("judge play: --cpu
 * takes a number of milliseconds from 0 to 3600000, not 'abc'") and
 * prints --help, made from the same table, so that the help never names
 * an option the parser does not know.
 *
 * Options may come before, between or after the arguments; "--name=value",
 * "-xVALUE", a unique prefix of a long name and "--" work as in getopt.
 * -h and --help are every command's.  No state is kept between calls.
 */
#ifndef JUDGE_OPTIONS_H
#define JUDGE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "judge/base/config.h"
#include "judge/store/store.h"

enum opt_kind {
	OPT_END,     /* ends a table */
	OPT_FLAG,    /* bool, set to true; takes no value */
	OPT_STRING,  /* const char *: the value as given */
	OPT_INT,     /* int64_t, from min to max */
	OPT_SEED,    /* uint64_t, 0 to 2^63-1: every seed the judge gives a match */
	OPT_REAL,    /* double, from real_min to real_max */
	OPT_ENUM,    /* const char *: one of the names choice() gives */
};

struct opt {
	enum opt_kind kind;
	const char *name;   /* the long name, without -- */
	char letter;        /* the short letter, or 0 */
	const char *arg;    /* the value's name in the help ("FILE"); NULL for a flag */
	void *to;
	const char *help;   /* one line, wrapped to fit */
	bool required;
	int64_t min, max;            /* OPT_INT */
	double real_min, real_max;   /* OPT_REAL */
	const char *what;            /* OPT_INT, OPT_REAL: the value in words ("a number of
					milliseconds"); "a number" when NULL */
	const char *(*choice)(size_t i); /* OPT_ENUM: the i-th name, NULL after the last */
};

/* The entries, with the type of `to` checked; what follows the help sets
 * more fields (.required = true). */
#define OPT_BOOL(n, l, p, h, ...) { .kind = OPT_FLAG, .name = (n), .letter = (l), \
	.to = _Generic((p), bool *: (p)), .help = (h), __VA_ARGS__ }
#define OPT_STR(n, l, a, p, h, ...) { .kind = OPT_STRING, .name = (n), .letter = (l), \
	.arg = (a), .to = _Generic((p), const char **: (p)), .help = (h), __VA_ARGS__ }
#define OPT_NUM(n, l, a, p, lo, hi, w, h, ...) { .kind = OPT_INT, .name = (n), .letter = (l), \
	.arg = (a), .to = _Generic((p), int64_t *: (p)), .min = (lo), .max = (hi), .what = (w), \
	.help = (h), __VA_ARGS__ }
#define OPT_SEED_NUM(n, l, a, p, h, ...) { .kind = OPT_SEED, .name = (n), .letter = (l), \
	.arg = (a), .to = _Generic((p), uint64_t *: (p)), .help = (h), __VA_ARGS__ }
#define OPT_REAL_NUM(n, l, a, p, lo, hi, w, h, ...) { .kind = OPT_REAL, .name = (n), \
	.letter = (l), .arg = (a), .to = _Generic((p), double *: (p)), .real_min = (lo), \
	.real_max = (hi), .what = (w), .help = (h), __VA_ARGS__ }
#define OPT_ONE_OF(n, l, a, p, names, h, ...) { .kind = OPT_ENUM, .name = (n), .letter = (l), \
	.arg = (a), .to = _Generic((p), const char **: (p)), .choice = (names), .help = (h), \
	__VA_ARGS__ }
#define OPT_DONE { .kind = OPT_END }

/* The options many commands share, declared once. */
#define OPT_QUEUE_HELP "the judge's database (default " STORE_DEFAULT_PATH ")"
#define OPT_QUEUE(p) OPT_STR("queue", 0, "FILE", p, OPT_QUEUE_HELP)
/* For the commands that create the database when it is missing. */
#define OPT_QUEUE_CREATED(p) OPT_STR("queue", 0, "FILE", p, \
	"the judge's database (default " STORE_DEFAULT_PATH "; created, with its folder, if missing)")
#define OPT_CONFIG(p) OPT_STR("config", 0, "FILE", p, \
	"settings (without it: $JUDGE_CONFIG, else config/judge.json in the data directory; " \
	"`judge config` shows which)")
#define OPT_JSON(p, h) OPT_BOOL("json", 0, p, h)
/* --game, refused as bad usage unless the judge knows the game. */
#define OPT_GAME(p, ...) OPT_ONE_OF("game", 0, "GAME", p, opt_game_name, "the game", __VA_ARGS__)

/* A macro's value as text, for help lines ("default " OPT_TEXT(N)). */
#define OPT_TEXT(x) OPT_TEXT_(x)
#define OPT_TEXT_(x) #x

#define OPT_MAX 64

struct opt_command {
	const char *name;          /* in the usage line and every message: "judge play" */
	const char *args;          /* the arguments as the usage line shows them, or NULL */
	int min_args, max_args;    /* how many arguments; max_args -1: no limit */
	int options_before;        /* >0: everything after argument N is an argument (a
				      program's own command line) */
	const char *const *forms;  /* NULL, or the usage lines spelled out, NULL-ended */
	const char *summary;       /* what it does; kept as written, long lines wrapped */
	const struct opt *opts;    /* ended by OPT_DONE; .required works for the first
				      OPT_MAX */
	bool list_games;           /* the help names the games (a GAME argument) */
	const char *epilogue;      /* NULL, or text after the options */
	const char *exits;         /* what each exit status means */
	/* The options most commands share, added after opts when set:
	 * --json, --queue FILE (STORE_DEFAULT_PATH until given; queue_created:
	 * the help says a missing one is created) and --config FILE. */
	bool *json;
	const char *json_help;     /* what --json prints */
	const char **queue;
	bool queue_created;
	const char **config;
	/* When set, the settings --config names are loaded here once the
	 * command line is read: a command needs no code of its own for it. */
	struct judge_config *settings;
};

/* Reads argv[1..argc) (argv[0] is the command's name) against c and stores
 * each option given where its entry says, then loads c->settings.  Returns
 * the number n of arguments, moved in order to argv[1..n] (argv[n + 1] is
 * NULL); or -1 when the command is done: *status is 0 after --help
 * (printed on stdout), 2 after bad usage or settings that cannot be read
 * (said on stderr, one line). */
int opt_parse(const struct opt_command *c, int argc, char **argv, int *status);

/* The help --help prints. */
void opt_help(const struct opt_command *c, FILE *out);

/* "NAME: what (see --help)" on stderr, for the usage errors a command
 * finds itself; returns 2, the exit status of bad usage. */
int opt_bad(const struct opt_command *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A command's one way to stop on an error: "NAME: message" on stderr (NAME
 * as "judge play"); returns status, the exit status to give. */
int opt_fail(const char *name, int status, const char *message);

/* The settings --config names (NULL: the default ones) into cfg: 0, or -1
 * said on stderr as opt_fail's. */
int opt_config(const char *name, const char *path, struct judge_config *cfg);

/* The store --queue names, created when create is set; NULL said on
 * stderr as opt_fail's.  The caller closes it. */
struct store *opt_store(const char *name, const char *queue, bool create);
/* A command's work on its store: opens it as opt_store, runs run(s, ctx)
 * and closes it.  run's exit status, or 2 when the store cannot be opened. */
int opt_on_store(const char *name, const char *queue, bool create,
		 int (*run)(struct store *s, void *ctx), void *ctx);

/* Who runs the command, the default --author: $USER, else "anonymous". */
const char *opt_user(void);

/* The i-th game's name, NULL after the last: --game's choices. */
const char *opt_game_name(size_t i);

#endif
