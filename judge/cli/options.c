/* options.c - reading a command line against its table; see options.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "judge/cli/options.h"

#define HELP_WIDTH 79
#define OPTION_COLUMN_MAX 22 /* a longer option has its help on the next line */

/* Every command's -h, --help; its `to` is never written. */
static const struct opt help_opt = { .kind = OPT_FLAG, .name = "help", .letter = 'h',
				     .help = "print this help and exit" };

/* What opt_parse() is reading. */
struct reading {
	const struct opt_command *c;
	int argc;
	char **argv;
	int next;      /* the index of the next argv element to read */
	uint64_t seen; /* bit i: the table's option i was given */
};

enum { READ_ON, READ_HELP, READ_BAD };

int opt_fail(const char *name, int status, const char *message)
{
	fprintf(stderr, "%s: %s\n", name, message);
	return status;
}

int opt_config(const char *name, const char *path, struct judge_config *cfg)
{
	err_t err;
	if (cfg_init(cfg, path, err) == 0)
		return 0;
	opt_fail(name, 2, err->msg);
	return -1;
}

struct store *opt_store(const char *name, const char *queue, bool create)
{
	err_t err;
	struct store *s = store_open(queue, create, err);
	if (!s)
		opt_fail(name, 2, err->msg);
	return s;
}

int opt_on_store(const char *name, const char *queue, bool create,
		 int (*run)(struct store *s, void *ctx), void *ctx)
{
	struct store *s = opt_store(name, queue, create);
	if (!s)
		return 2;
	int rc = run(s, ctx);
	store_close(s);
	return rc;
}

const char *opt_user(void)
{
	const char *user = getenv("USER");
	return user && *user ? user : "anonymous";
}

const char *opt_game_name(size_t i)
{
	const struct game *const *g = game_list();
	for (size_t k = 0; k < i; k++)
		if (!g[k])
			return NULL;
	return g[i] ? g[i]->name : NULL;
}

static void say_bad(const struct opt_command *c, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", c->name);
	vfprintf(stderr, fmt, ap);
	fputs(" (see --help)\n", stderr);
}

int opt_bad(const struct opt_command *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say_bad(c, fmt, ap);
	va_end(ap);
	return 2;
}

static int bad(const struct reading *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad(const struct reading *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say_bad(r->c, fmt, ap);
	va_end(ap);
	return READ_BAD;
}

/* "--queue FILE", or "--json" for a flag; its length. */
static int spelled(const struct opt *o, char *out, size_t cap)
{
	return snprintf(out, cap, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

/* ---- the values --------------------------------------------------------- */

/* "dominator, ants, ..." appended to out[0..cap) at n. */
static void list_choices(const struct opt *o, char *out, size_t cap, size_t n)
{
	for (size_t i = 0; o->choice(i) && n < cap; i++)
		n += (size_t)snprintf(out + n, cap - n, "%s%s", i ? ", " : "", o->choice(i));
}

/* What the option takes: "a number of milliseconds from 0 to 3600000". */
static void describe(const struct opt *o, char *out, size_t cap)
{
	const char *what = o->what ? o->what : "a number";
	if (o->kind == OPT_SEED)
		snprintf(out, cap, "a seed from 0 to 2^63-1");
	else if (o->kind == OPT_REAL)
		snprintf(out, cap, "%s from %g to %g", what, o->real_min, o->real_max);
	else if (o->kind == OPT_INT && o->max == INT64_MAX)
		snprintf(out, cap, "%s (%lld or more)", what, (long long)o->min);
	else if (o->kind == OPT_INT)
		snprintf(out, cap, "%s from %lld to %lld", what, (long long)o->min,
			 (long long)o->max);
	else
		list_choices(o, out, cap, (size_t)snprintf(out, cap, "one of "));
}

static bool read_int(const char *s, int64_t min, int64_t max, int64_t *v)
{
	char *end;
	errno = 0;
	long long x = strtoll(s, &end, 10);
	if (errno || end == s || *end || x < min || x > max)
		return false;
	*v = x;
	return true;
}

static bool read_real(const char *s, double min, double max, double *v)
{
	char *end;
	errno = 0;
	double x = strtod(s, &end);
	if (errno || end == s || *end || !(x >= min && x <= max))
		return false;
	*v = x;
	return true;
}

static const char *read_choice(const struct opt *o, const char *s)
{
	for (size_t i = 0; o->choice(i); i++)
		if (strcmp(o->choice(i), s) == 0)
			return o->choice(i);
	return NULL;
}

/* Stores the value of an option that takes one; false when it is not one
 * the option takes. */
static bool store_value(const struct opt *o, const char *value)
{
	int64_t v;
	switch (o->kind) {
	case OPT_STRING:
		*(const char **)o->to = value;
		return true;
	case OPT_INT:
		return read_int(value, o->min, o->max, o->to);
	case OPT_SEED:
		if (!read_int(value, 0, INT64_MAX, &v))
			return false;
		*(uint64_t *)o->to = (uint64_t)v;
		return true;
	case OPT_REAL:
		return read_real(value, o->real_min, o->real_max, o->to);
	case OPT_ENUM:
		return (*(const char **)o->to = read_choice(o, value)) != NULL;
	default:
		return false;
	}
}

/* ---- the options -------------------------------------------------------- */

static int given(struct reading *r, const struct opt *o, const char *value, bool has_value)
{
	if (o->kind == OPT_FLAG && has_value)
		return bad(r, "--%s takes no value, not '%s'", o->name, value);
	if (o->kind != OPT_FLAG && !has_value && r->next == r->argc)
		return bad(r, "--%s is missing its value (--%s %s)", o->name, o->name, o->arg);
	if (o == &help_opt) {
		opt_help(r->c, stdout);
		return READ_HELP;
	}
	if (o->kind == OPT_FLAG) {
		*(bool *)o->to = true;
	} else {
		value = has_value ? value : r->argv[r->next++];
		if (!store_value(o, value)) {
			char takes[512];
			describe(o, takes, sizeof takes);
			return bad(r, "--%s takes %s, not '%s'", o->name, takes, value);
		}
	}
	if (o - r->c->opts < OPT_MAX)
		r->seen |= UINT64_C(1) << (o - r->c->opts);
	return READ_ON;
}

/* The option named by name[0..len): exactly, else by a unique prefix. */
static const struct opt *find_long(const struct reading *r, const char *name, size_t len,
				   int *matches)
{
	const struct opt *prefixed = NULL;
	*matches = 0;
	for (const struct opt *o = r->c->opts;; o++) {
		const struct opt *e = o->kind == OPT_END ? &help_opt : o;
		if (strncmp(e->name, name, len) == 0 && e->name[len] == '\0') {
			*matches = 1;
			return e;
		}
		if (strncmp(e->name, name, len) == 0 && ++*matches == 1)
			prefixed = e;
		if (e == &help_opt)
			return *matches == 1 ? prefixed : NULL;
	}
}

static int long_option(struct reading *r, const char *arg)
{
	const char *name = arg + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	int matches;
	const struct opt *o = find_long(r, name, len, &matches);
	if (matches > 1)
		return bad(r, "--%.*s is short for more than one option", (int)len, name);
	if (!o)
		return bad(r, "--%.*s is not an option of this command", (int)len, name);
	return given(r, o, eq ? eq + 1 : NULL, eq != NULL);
}

static const struct opt *find_short(const struct reading *r, char letter)
{
	for (const struct opt *o = r->c->opts; o->kind != OPT_END; o++)
		if (o->letter == letter)
			return o;
	return letter == help_opt.letter ? &help_opt : NULL;
}

/* -x, -xy (flags together), -xVALUE, -x VALUE. */
static int short_options(struct reading *r, const char *arg)
{
	for (const char *p = arg + 1; *p; p++) {
		const struct opt *o = find_short(r, *p);
		if (!o)
			return bad(r, "-%c is not an option of this command", *p);
		bool takes_value = o->kind != OPT_FLAG;
		int rc = given(r, o, p + 1, takes_value && p[1]);
		if (rc != READ_ON || takes_value)
			return rc;
	}
	return READ_ON;
}

/* ---- the whole line ----------------------------------------------------- */

/* What the line lacks: the arguments when there are too few, and the
 * required options not given ("copy --from STORE --to STORE"). */
static void lacking(const struct reading *r, bool args, char *out, size_t cap)
{
	const struct opt_command *c = r->c;
	size_t n = (size_t)snprintf(out, cap, "%s", args ? c->args : "");
	for (const struct opt *o = c->opts; o->kind != OPT_END && n + 1 < cap; o++) {
		bool seen = o - c->opts < OPT_MAX && (r->seen >> (o - c->opts) & 1);
		if (!o->required || seen)
			continue;
		if (n)
			out[n++] = ' ';
		n += (size_t)spelled(o, out + n, cap - n);
	}
}

static int check_counts(const struct reading *r, int nargs)
{
	const struct opt_command *c = r->c;
	char lack[512];
	if (c->max_args >= 0 && nargs > c->max_args)
		return bad(r, "unexpected argument '%s'", r->argv[c->max_args + 1]);
	lacking(r, nargs < c->min_args, lack, sizeof lack);
	return lack[0] ? bad(r, "give %s", lack) : READ_ON;
}

/* A command's own options, then the shared ones, then OPT_DONE. */
#define OPT_SHARED_MAX (OPT_MAX + 4)

/* c with its shared options (.json, .queue, .config) appended to its own,
 * in table (OPT_SHARED_MAX entries). */
static struct opt_command with_shared(const struct opt_command *c, struct opt table[])
{
	size_t n = 0;
	for (const struct opt *o = c->opts; o->kind != OPT_END && n < OPT_MAX; o++)
		table[n++] = *o;
	if (c->json)
		table[n++] = (struct opt)OPT_JSON(c->json, c->json_help);
	if (c->queue && c->queue_created)
		table[n++] = (struct opt)OPT_QUEUE_CREATED(c->queue);
	else if (c->queue)
		table[n++] = (struct opt)OPT_QUEUE(c->queue);
	if (c->config)
		table[n++] = (struct opt)OPT_CONFIG(c->config);
	table[n] = (struct opt)OPT_DONE;
	struct opt_command whole = *c;
	whole.opts = table;
	whole.json = NULL;
	whole.queue = whole.config = NULL;
	return whole;
}

int opt_parse(const struct opt_command *given, int argc, char **argv, int *status)
{
	struct opt table[OPT_SHARED_MAX];
	struct opt_command whole = with_shared(given, table);
	const struct opt_command *c = &whole;
	if (given->queue)
		*given->queue = STORE_DEFAULT_PATH;
	struct reading r = { .c = c, .argc = argc, .argv = argv, .next = 1 };
	bool options = true;
	int nargs = 0, rc = READ_ON;
	while (rc == READ_ON && r.next < argc) {
		char *arg = argv[r.next++];
		if (options && strcmp(arg, "--") == 0) {
			options = false;
		} else if (!options || arg[0] != '-' || arg[1] == '\0') {
			/* Arguments move down over the options already read. */
			argv[++nargs] = arg;
			options = options && nargs != c->options_before;
		} else {
			rc = arg[1] == '-' ? long_option(&r, arg) : short_options(&r, arg);
		}
	}
	if (rc == READ_ON)
		rc = check_counts(&r, nargs);
	if (rc == READ_ON && given->settings &&
	    opt_config(c->name, given->config ? *given->config : NULL, given->settings) < 0)
		rc = READ_BAD;
	if (rc == READ_ON) {
		argv[nargs + 1] = NULL;
		return nargs;
	}
	*status = rc == READ_HELP ? 0 : 2;
	return -1;
}

/* ---- the help ----------------------------------------------------------- */

/* One line of text, s[0..len), written from column col and cut at blanks
 * to fit HELP_WIDTH; the pieces after the first start at column cont. */
static void put_line(FILE *out, const char *s, size_t len, int col, int cont)
{
	for (;;) {
		size_t room = col < HELP_WIDTH ? (size_t)(HELP_WIDTH - col) : 0, n = len;
		if (n > room) {
			n = room;
			while (n > 0 && (s[n] != ' ' || s[n - 1] == ' ')) /* the end of a word */
				n--;
			for (n = n ? n : room; n < len && s[n] != ' ';) /* a word longer than the line */
				n++;
		}
		fprintf(out, "%.*s\n", (int)n, s);
		while (n < len && s[n] == ' ')
			n++;
		s += n;
		len -= n;
		if (len == 0)
			return;
		col = fprintf(out, "%*s", cont, "");
	}
}

/* text from column col: each line of it wrapped by put_line(), the lines
 * after the first starting at column indent, a line's own pieces under its
 * own leading blanks. */
static void put_wrapped(FILE *out, const char *text, int col, int indent)
{
	for (;;) {
		size_t len = strcspn(text, "\n");
		put_line(out, text, len, col, indent + (int)strspn(text, " "));
		text += len;
		if (!*text || !*++text)
			return;
		col = fprintf(out, "%*s", indent, "");
	}
}

static bool has_letters(const struct opt *opts)
{
	for (const struct opt *o = opts; o->kind != OPT_END; o++)
		if (o->letter)
			return true;
	return false;
}

/* "-s, --seed N", "    --html FILE" or "--queue FILE". */
static int option_name(const struct opt *o, bool letters, char *out, size_t cap)
{
	char letter[8] = "";
	if (o->letter)
		snprintf(letter, sizeof letter, "-%c, ", o->letter);
	int n = snprintf(out, cap, "%s", letters && !o->letter ? "    " : letter);
	return n + spelled(o, out + n, cap - (size_t)n);
}

/* The option's line: its names, then its help (an --game's with the
 * games) from column `column`. */
static void put_option(FILE *out, const struct opt *o, bool letters, int column)
{
	char name[128], help[1024];
	int col = fprintf(out, "  ");
	if (option_name(o, letters, name, sizeof name) + col + 2 > column) {
		fprintf(out, "%s\n", name);
		col = 0;
	} else {
		col += fprintf(out, "%s", name);
	}
	col += fprintf(out, "%*s", column - col, "");
	size_t n = (size_t)snprintf(help, sizeof help, "%s%s", o->help,
				    o->kind == OPT_ENUM ? ": " : "");
	if (o->kind == OPT_ENUM)
		list_choices(o, help, sizeof help, n);
	put_wrapped(out, help, col, column);
}

static void put_options(FILE *out, const struct opt_command *c)
{
	bool letters = has_letters(c->opts);
	const struct opt help = { .kind = OPT_FLAG, .name = help_opt.name,
				  .letter = letters ? help_opt.letter : 0, .help = help_opt.help };
	char name[128];
	int widest = option_name(&help, letters, name, sizeof name);
	for (const struct opt *o = c->opts; o->kind != OPT_END; o++) {
		int n = option_name(o, letters, name, sizeof name);
		if (n <= OPTION_COLUMN_MAX && n > widest)
			widest = n;
	}
	fputs("\noptions:\n", out);
	for (const struct opt *o = c->opts; o->kind != OPT_END; o++)
		put_option(out, o, letters, widest + 4);
	put_option(out, &help, letters, widest + 4);
}

/* "usage: judge status SUBMISSION [--json] [--queue FILE]", wrapped under
 * its first argument; or the command's own lines. */
static void put_usage(FILE *out, const struct opt_command *c)
{
	for (size_t i = 0; c->forms && c->forms[i]; i++)
		fprintf(out, "%s%s\n", i ? "       " : "usage: ", c->forms[i]);
	if (c->forms)
		return;
	int col = fprintf(out, "usage: %s", c->name), indent = col + 1;
	if (c->args)
		col += fprintf(out, " %s", c->args);
	for (const struct opt *o = c->opts; o->kind != OPT_END; o++) {
		char item[128];
		int n = spelled(o, item, sizeof item) + (o->required ? 0 : 2);
		if (col + 1 + n > HELP_WIDTH)
			col = fprintf(out, "\n%*s", indent - 1, "") - 1;
		col += fprintf(out, o->required ? " %s" : " [%s]", item);
	}
	fputc('\n', out);
}

static void put_paragraph(FILE *out, const char *head, const char *text)
{
	char *all = NULL;
	if (asprintf(&all, "\n%s%s", head, text) < 0)
		return;
	put_wrapped(out, all, 0, 0);
	free(all);
}

void opt_help(const struct opt_command *given, FILE *out)
{
	struct opt table[OPT_SHARED_MAX];
	struct opt_command whole = with_shared(given, table);
	const struct opt_command *c = &whole;
	put_usage(out, c);
	if (c->summary)
		put_paragraph(out, "", c->summary);
	put_options(out, c);
	char games[1024] = "";
	for (size_t i = 0, n = 0; c->list_games && opt_game_name(i) && n < sizeof games; i++)
		n += (size_t)snprintf(games + n, sizeof games - n, " %s", opt_game_name(i));
	if (c->list_games)
		put_paragraph(out, "games:", games);
	if (c->epilogue)
		put_paragraph(out, "", c->epilogue);
	if (c->exits)
		put_paragraph(out, "exit status: ", c->exits);
}
