/* The option table every command reads its command line with (options.h):
 * each kind of option, the errors in their one form, --help made from the
 * table; then every `judge` command's help against its parser. */
#include <criterion/criterion.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/cli/options.h"
#include "tests/unit/cli_testlib.h"

struct sample {
	const char *output, *queue, *game, *config;
	int64_t cpu, limit;
	uint64_t seed;
	double min;
	bool json, all;
};

#define MAX_WORDS 32

/* The words of line, split at blanks, after argv[0] "sample". */
static int split(char *line, char *argv[MAX_WORDS + 2])
{
	int argc = 0;
	argv[argc++] = "sample";
	for (char *w = strtok(line, " "); w && argc <= MAX_WORDS; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	return argc;
}

struct parsed {
	int n, status;
	char *argv[MAX_WORDS + 2];
	char said[4096];   /* stderr, or stdout after --help */
	char words[1024];
};

static void sample_table(struct sample *s, struct opt opts[12])
{
	const struct opt table[] = {
		OPT_SEED_NUM("seed", 's', "N", &s->seed, "the match's seed"),
		OPT_STR("output", 'o', "FILE", &s->output, "where the replay goes"),
		OPT_NUM("cpu", 0, "MS", &s->cpu, 0, 3600000, "a number of milliseconds",
			"CPU budget of each player for the whole game"),
		OPT_NUM("limit", 'n', "N", &s->limit, 0, INT64_MAX, NULL, "at most N"),
		OPT_REAL_NUM("min", 0, "SHARE", &s->min, 0, 1, "a share", "pairs this similar"),
		OPT_GAME(&s->game),
		OPT_JSON(&s->json, "print it as JSON"),
		OPT_BOOL("all", 'a', &s->all, "the done ones too"),
		OPT_QUEUE(&s->queue),
		OPT_STR("config", 0, "FILE", &s->config, "settings", .required = true),
		OPT_DONE,
	};
	memcpy(opts, table, sizeof table);
}

static struct opt_command sample_cmd(const struct opt *opts)
{
	return (struct opt_command){
		.name = "judge sample", .args = "GAME PLAYER...", .min_args = 1, .max_args = 3,
		.opts = opts, .summary = "Plays one sample.\n\nPLAYER is a shipped player.",
		.list_games = true, .epilogue = "SIGTERM stops it.",
		.exits = "0 played, 1 a player did not compile, 2 bad usage.",
	};
}

static void parse_with(const struct opt_command *c, const char *line, struct parsed *p);

/* opt_parse() of "sample LINE", what it says on stderr (stdout after
 * --help) in p->said. */
static void parse(const char *line, struct sample *s, struct parsed *p)
{
	struct opt opts[12];
	*s = (struct sample){ .cpu = -1, .limit = 20, .seed = 1, .min = -1 };
	sample_table(s, opts);
	struct opt_command c = sample_cmd(opts);
	parse_with(&c, line, p);
}

static void parse_with(const struct opt_command *c, const char *line, struct parsed *p)
{
	*p = (struct parsed){ .status = -1 };
	snprintf(p->words, sizeof p->words, "%s", line);
	int argc = split(p->words, p->argv);
	fflush(stdout);
	fflush(stderr);
	FILE *t = tmpfile();
	int out = dup(1), err = dup(2);
	cr_assert(t && out >= 0 && err >= 0);
	dup2(fileno(t), 1);
	dup2(fileno(t), 2);
	p->n = opt_parse(c, argc, p->argv, &p->status);
	fflush(stdout);
	fflush(stderr);
	dup2(out, 1);
	dup2(err, 2);
	close(out);
	close(err);
	rewind(t);
	p->said[fread(p->said, 1, sizeof p->said - 1, t)] = '\0';
	fclose(t);
}

/* A bad line: exit status 2 and exactly this one line on stderr. */
static void expect_refused(const char *line, const char *said)
{
	struct sample s;
	struct parsed p;
	parse(line, &s, &p);
	cr_expect_eq(p.n, -1, "%s: accepted", line);
	cr_expect_eq(p.status, 2, "%s", line);
	cr_expect_str_eq(p.said, said, "%s", line);
}

Test(options, every_kind_is_read_and_stored)
{
	struct sample s;
	struct parsed p;
	parse("--seed 9223372036854775807 -o out.json --cpu=250 -n5 --min 0.5 --game dominator "
	      "--json -a --queue q.sqlite --config c.json GAME P1 P2", &s, &p);
	cr_assert_eq(p.n, 3, "%s", p.said);
	cr_expect_str_eq(p.said, "");
	cr_expect_eq(s.seed, 9223372036854775807ULL);
	cr_expect_str_eq(s.output, "out.json");
	cr_expect_eq(s.cpu, 250);
	cr_expect_eq(s.limit, 5);
	cr_expect_eq(s.min, 0.5);
	cr_expect_str_eq(s.game, "dominator");
	cr_expect(s.json && s.all);
	cr_expect_str_eq(s.queue, "q.sqlite");
	cr_expect_str_eq(s.config, "c.json");
	cr_expect_str_eq(p.argv[1], "GAME");
	cr_expect_str_eq(p.argv[3], "P2");
	cr_expect_null(p.argv[4]);
}

Test(options, options_go_anywhere_and_dash_dash_ends_them)
{
	struct sample s;
	struct parsed p;
	parse("GAME --config c -s7 P1 -ao - -- --json", &s, &p);
	cr_assert_eq(p.n, 3, "%s", p.said);
	cr_expect_str_eq(p.argv[1], "GAME");
	cr_expect_str_eq(p.argv[2], "P1");
	cr_expect_str_eq(p.argv[3], "--json");
	cr_expect_eq(s.seed, 7);
	cr_expect(s.all && !s.json);
	cr_expect_str_eq(s.output, "-");
	/* A unique beginning of a long name is the option; a value may start with a dash. */
	parse("GAME --conf c --se -5 --cp 0 --li 0", &s, &p);
	cr_expect_eq(p.n, -1);
	cr_expect_str_eq(p.said, "judge sample: --seed takes a seed from 0 to 2^63-1, not '-5' "
				 "(see --help)\n");
	parse("GAME --conf c --se 5 --cp 0 --li 0 --output -x", &s, &p);
	cr_expect_eq(p.n, 1, "%s", p.said);
	cr_expect(s.seed == 5 && s.cpu == 0 && s.limit == 0);
	cr_expect_str_eq(s.output, "-x");
}

Test(options, a_bad_value_is_said_with_what_the_option_takes)
{
	expect_refused("G --config c --cpu abc", "judge sample: --cpu takes a number of "
		       "milliseconds from 0 to 3600000, not 'abc' (see --help)\n");
	expect_refused("G --config c --cpu 3600001", "judge sample: --cpu takes a number of "
		       "milliseconds from 0 to 3600000, not '3600001' (see --help)\n");
	expect_refused("G --config c --cpu=", "judge sample: --cpu takes a number of "
		       "milliseconds from 0 to 3600000, not '' (see --help)\n");
	expect_refused("G --config c -n -1", "judge sample: --limit takes a number (0 or more), "
		       "not '-1' (see --help)\n");
	expect_refused("G --config c -s 9223372036854775808", "judge sample: --seed takes a seed "
		       "from 0 to 2^63-1, not '9223372036854775808' (see --help)\n");
	expect_refused("G --config c --min 1.5", "judge sample: --min takes a share from 0 to 1, "
		       "not '1.5' (see --help)\n");
	expect_refused("G --config c --min nan", "judge sample: --min takes a share from 0 to 1, "
		       "not 'nan' (see --help)\n");
	struct sample s;
	struct parsed p;
	parse("G --config c --game tetris", &s, &p);
	cr_expect_eq(p.status, 2);
	cr_expect(strstr(p.said, "judge sample: --game takes one of dominator, ") &&
		  strstr(p.said, ", not 'tetris' (see --help)\n"), "%s", p.said);
}

Test(options, an_unknown_or_incomplete_option_is_bad_usage)
{
	expect_refused("G --config c --frobnicate", "judge sample: --frobnicate is not an option "
		       "of this command (see --help)\n");
	expect_refused("G --config c --frob=1", "judge sample: --frob is not an option of this "
		       "command (see --help)\n");
	expect_refused("G --config c -ax", "judge sample: -x is not an option of this command "
		       "(see --help)\n");
	expect_refused("G --config c --c 1", "judge sample: --c is short for more than one "
		       "option (see --help)\n");
	expect_refused("G --config c --queue", "judge sample: --queue is missing its value "
		       "(--queue FILE) (see --help)\n");
	expect_refused("G --config c -o", "judge sample: --output is missing its value "
		       "(--output FILE) (see --help)\n");
	expect_refused("G --config c --json=yes", "judge sample: --json takes no value, not "
		       "'yes' (see --help)\n");
}

Test(options, the_arguments_and_required_options_are_counted)
{
	expect_refused("", "judge sample: give GAME PLAYER... --config FILE (see --help)\n");
	expect_refused("--config c", "judge sample: give GAME PLAYER... (see --help)\n");
	expect_refused("--config c G A B C", "judge sample: unexpected argument 'C' (see "
		       "--help)\n");
	expect_refused("G", "judge sample: give --config FILE (see --help)\n");
}

Test(options, help_is_printed_and_nothing_else_done)
{
	static const char *const lines[] = { "--help", "G -h", "G --config c --he" };
	for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
		struct sample s;
		struct parsed p;
		parse(lines[i], &s, &p);
		cr_expect_eq(p.n, -1, "%s", lines[i]);
		cr_expect_eq(p.status, 0, "%s", lines[i]);
		cr_expect(strncmp(p.said, "usage: judge sample GAME PLAYER... [--seed N]", 45) == 0,
			  "%s: %s", lines[i], p.said);
	}
}

/* The help, as --help prints it. */
static char *help_text(const struct opt_command *c)
{
	static char text[16384];
	FILE *f = fmemopen(text, sizeof text, "w");
	cr_assert_not_null(f);
	opt_help(c, f);
	cr_assert_lt(ftell(f), (long)sizeof text - 1);
	fclose(f);
	return text;
}

Test(options, the_help_names_every_option_with_its_value)
{
	struct sample s;
	struct opt opts[12];
	sample_table(&s, opts);
	struct opt_command c = sample_cmd(opts);
	char *help = help_text(&c);
	for (const struct opt *o = opts; o->kind != OPT_END; o++) {
		char name[64];
		snprintf(name, sizeof name, "--%s%s%s ", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
		cr_expect(strstr(help, name), "%s not in:\n%s", name, help);
		if (o->letter) {
			snprintf(name, sizeof name, "\n  -%c, --%s", o->letter, o->name);
			cr_expect(strstr(help, name), "%s not in:\n%s", name, help);
		}
	}
	cr_expect(strstr(help, "\n  -h, --help "), "%s", help);
	cr_expect(strstr(help, "\n      --cpu MS "), "%s", help);
	const char *options = strstr(help, "\noptions:\n");
	cr_assert_not_null(options, "%s", help);
	cr_expect(strstr(help, " --config FILE\n") && strstr(help, " --config FILE\n") < options &&
		  !strstr(help, "[--config"), "a required option is not in brackets:\n%s", help);
	cr_expect(strstr(help, "the game: dominator, "), "%s", help);
	cr_expect(strstr(help, "\n\nPlays one sample.\n\nPLAYER is a shipped player.\n"), "%s",
		  help);
	cr_expect(strstr(help, "\n\ngames: dominator "), "%s", help);
	cr_expect(strstr(help, "\n\nSIGTERM stops it.\n\nexit status: 0 played, 1 a player did "
			       "not compile, 2 bad usage.\n"), "%s", help);
	for (char *line = help, *nl; (nl = strchr(line, '\n')); line = nl + 1)
		cr_expect_leq(nl - line, 79, "a line too long: %.*s", (int)(nl - line), line);
}

/* --json, --queue and --config, declared once in struct opt_command: read
 * as the command's own options, listed after them in its help, the queue's
 * default given, and the settings --config names loaded (or refused, said
 * as the command's usage errors are). */
Test(options, the_shared_options_are_declared_once_and_the_settings_loaded)
{
	const char *out = NULL, *queue = "unset", *config = NULL;
	bool json = false;
	struct judge_config cfg;
	const struct opt opts[] = { OPT_STR("output", 'o', "FILE", &out, "where it goes"), OPT_DONE };
	const struct opt_command c = { .name = "judge shared", .opts = opts, .json = &json,
				       .json_help = "print it as JSON", .queue = &queue,
				       .config = &config, .settings = &cfg };
	struct parsed p;
	parse_with(&c, "-o f --json", &p);
	cr_expect_eq(p.n, 0, "%s", p.said);
	cr_expect(json);
	cr_expect_str_eq(queue, STORE_DEFAULT_PATH);
	cr_expect_str_eq(out, "f");

	char path[] = "/tmp/judge-options-XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	const char *text = "{\"worker\": {\"qualify_matches\": 7}}";
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	char line[128];
	snprintf(line, sizeof line, "--queue q.sqlite --config %s", path);
	parse_with(&c, line, &p);
	unlink(path);
	cr_expect_eq(p.n, 0, "%s", p.said);
	cr_expect_str_eq(queue, "q.sqlite");
	cr_expect_eq(cfg.worker.qualify_matches, 7u);

	parse_with(&c, "--config /nonexistent/judge.json", &p);
	cr_expect_eq(p.n, -1);
	cr_expect_eq(p.status, 2);
	cr_expect_eq(strncmp(p.said, "judge shared: ", 14), 0, "%s", p.said);
	cr_expect_not_null(strstr(p.said, "/nonexistent/judge.json"), "%s", p.said);

	parse_with(&c, "--help", &p);
	const char *own = strstr(p.said, "--output FILE"), *j = strstr(p.said, "--json");
	const char *q = strstr(p.said, "--queue FILE"), *k = strstr(p.said, "--config FILE");
	cr_expect(own && j && q && k && own < j && j < q && q < k, "%s", p.said);
}

Test(options, a_programs_own_options_are_its_arguments)
{
	struct sample s = { .cpu = -1 };
	const struct opt opts[] = {
		OPT_NUM("cpu", 0, "MS", &s.cpu, 0, 3600000, NULL, "CPU budget"),
		OPT_DONE,
	};
	const struct opt_command c = { .name = "judge sandbox", .args = "run BINARY [ARGS...]",
				       .min_args = 2, .max_args = -1, .options_before = 2,
				       .opts = opts };
	char words[] = "run --cpu 5 ./prog --cpu x -h", *argv[MAX_WORDS + 2];
	int status = -1, n = opt_parse(&c, split(words, argv), argv, &status);
	cr_assert_eq(n, 5);
	cr_expect_eq(s.cpu, 5);
	cr_expect_str_eq(argv[2], "./prog");
	cr_expect_str_eq(argv[3], "--cpu");
	cr_expect_str_eq(argv[5], "-h");
	cr_expect_null(argv[6]);
}

/* ---- every command's help against its parser ---------------------------- */

#define HELP_MAX 16384

/* The options a help lists: its lines "  -s, --seed N  ...", "      --html
 * FILE  ..." or "  --json  ...": the name, and whether a value follows. */
struct listed {
	char name[64];
	char letter;
	bool value;
};

static size_t listed_options(const char *help, struct listed *out, size_t cap)
{
	regex_t re;
	regmatch_t m[5];
	cr_assert_eq(regcomp(&re, "^  (-([a-zA-Z]), |    )?--([a-z][a-z-]*)( [A-Z][^ ]*)?( |$)",
			     REG_EXTENDED | REG_NEWLINE), 0);
	size_t n = 0;
	for (const char *p = help; n < cap && regexec(&re, p, 5, m, p == help ? 0 : REG_NOTBOL) == 0;
	     p += m[0].rm_eo) {
		struct listed *l = &out[n++];
		snprintf(l->name, sizeof l->name, "%.*s", (int)(m[3].rm_eo - m[3].rm_so),
			 p + m[3].rm_so);
		l->letter = m[2].rm_so >= 0 ? p[m[2].rm_so] : 0;
		l->value = m[4].rm_so >= 0;
	}
	regfree(&re);
	return n;
}

/* `judge --help`'s commands, and `replay check`, which `replay` leads to. */
static size_t command_names(char names[][32], size_t cap)
{
	static char out[HELP_MAX];
	char cmd[256];
	snprintf(cmd, sizeof cmd, "%s --help", cli_judge());
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
	const char *list = strstr(out, "commands:\n");
	cr_assert_not_null(list, "%s", out);
	size_t n = 0;
	char name[32];
	for (const char *p = list + 10; n < cap && sscanf(p, "  %31[a-z-] ", name) == 1;
	     p = strchr(p, '\n') + 1)
		snprintf(names[n++], 32, "%s", name);
	snprintf(names[n++], 32, "replay check");
	return n;
}

/* `PROGRAM ARGS 2>&1`: its exit status, what it said in out. */
static int run_program(const char *program, const char *args, char *out, size_t cap)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "%s %s 2>&1 </dev/null", program, args);
	return cli_run(cmd, out, cap);
}

/* Every option the help of `PROGRAM SUB` lists is one its parser knows:
 * given without its value (or a flag given one) it is refused as such, not
 * as unknown, and nothing runs. */
static void check_help(const char *program, const char *sub)
{
	static char help[HELP_MAX], said[HELP_MAX];
	char args[256];
	snprintf(args, sizeof args, "%.40s --help", sub);
	cr_assert_eq(run_program(program, args, help, sizeof help), 0, "%s %s: %s", program, args,
		     help);
	cr_assert(strncmp(help, "usage: ", 7) == 0, "%s %s: %s", program, args, help);
	struct listed opts[64];
	size_t n = listed_options(help, opts, 64);
	cr_assert_geq(n, 2, "%s %s lists no option:\n%s", program, sub, help);
	for (size_t i = 0; i < n; i++) {
		const struct listed *o = &opts[i];
		char want[128];
		if (strcmp(o->name, "help") == 0)
			continue;
		snprintf(args, sizeof args, "%.40s --%.60s%s", sub, o->name, o->value ? "" : "=x");
		snprintf(want, sizeof want, o->value ? "--%s is missing its value" :
			 "--%s takes no value", o->name);
		cr_expect_eq(run_program(program, args, said, sizeof said), 2, "%s %s: %s", program,
			     args, said);
		cr_expect(strstr(said, want), "%s %s: '%s' not in: %s", program, args, want, said);
		if (!o->letter)
			continue;
		snprintf(args, sizeof args, "%.40s -%c%s", sub, o->letter, o->value ? "" : "x");
		cr_expect_eq(run_program(program, args, said, sizeof said), 2, "%s %s", program, args);
		cr_expect(o->value ? strstr(said, want) != NULL : strstr(said, "-x is not") != NULL,
			  "%s %s: %s", program, args, said);
	}
}

Test(options_cli, every_option_a_commands_help_lists_is_one_it_takes, .timeout = 120)
{
	char names[64][32];
	size_t n = command_names(names, 62);
	cr_assert_geq(n, 17);
	for (size_t i = 0; i < n; i++)
		check_help(cli_judge(), names[i]);
	check_help(cli_worker(), "");
}
