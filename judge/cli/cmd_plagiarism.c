/* judge plagiarism: the similar pairs of a game, most similar first (a
 * table, their JSON, or the service's page with the list embedded:
 * plag_list.h writes the data, web/serve/plag.js draws it), and `show A
 * B`: both files with their matched fragments numbered and their line
 * numbers, for a person to judge. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "judge/base/file_write.h"
#include "judge/cli/board_html.h"
#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/cli/plag_review.h"
#include "judge/replay/web_page.h"
#include "judge/base/config.h"
#include "judge/plag/plag_doc.h"
#include "judge/plag/plag_list.h"
#include "judge/plag/plag_sim.h"
#include "judge/plag/plag_store.h"
#include "judge/store/store.h"

static const char *const plag_forms[] = {
	"judge plagiarism --game GAME [--min SHARE] [--json] [--html FILE]",
	"judge plagiarism show A B",
	"judge plagiarism flags [--game GAME] [--json]",
	"judge plagiarism confirm|dismiss|clear ID [--by NAME] [--note TEXT]",
	"(both take [--queue FILE] [--config FILE])",
	NULL,
};

static const char summary[] =
"Lists the pairs of files of GAME that resemble each other, most similar\n"
"first: the share of each file found in the other (the larger one is the\n"
"pair's similarity), the longest matched fragment, and both files' player,\n"
"author and archive label.  Files are submissions (their id, e.g. 12) or\n"
"archived files of earlier years (doc:N).  A flagged pair reached\n"
"plagiarism.flag_percent, or shares a fragment of at least\n"
"plagiarism.fragment_tokens tokens (a whole function copied): both files\n"
"are marked suspected and go on playing; a person decides.\n"
"\n"
"`show A B` prints the longest shared fragment side by side, then both\n"
"files with line numbers; code found in both is marked with the number of\n"
"its fragment, the same number in both files.  The list and `show` measure\n"
"a pair the same way, leaving out the tournament's idioms.\n"
"\n"
"`flags` lists the flagged pairs by number, news (not yet seen) first, each\n"
"with its earlier file (the original) and its later one (the suspected\n"
"copy), their ids, upload times and authors, and the decision taken.\n"
"`confirm ID` marks the later author's file a copy (a tournament's grades\n"
"give it the grade for a copy); `dismiss ID` clears both, and the same two\n"
"authors are not flagged again unless a later version shares more than\n"
"the dismissed share plus plagiarism.dismissed_margin_percent; `clear ID`\n"
"withdraws the decision (the pair is open again).  Every decision is kept\n"
"with who took it (--by, default the login name) and --note.";

struct plag_args {
	const char *game, *queue, *html, *config;
	struct judge_config cfg;
	const char *show[2];
	struct plag_review_args review; /* flags, confirm, dismiss, clear */
	double min;
	bool json, has_min;
};

/* show A B, or the list of --game: 0, or the exit status of bad usage
 * (said). */
static int check_positional(const struct opt_command *cmd, char **argv, int n,
			    struct plag_args *a)
{
	if (n > 0 && strcmp(argv[1], "show") == 0) {
		if (n != 3)
			return opt_bad(cmd, "show takes two files: show A B");
		a->show[0] = argv[2];
		a->show[1] = argv[3];
		return 0;
	}
	if (n > 0 && plag_review_is_command(argv[1]))
		return plag_review_positional(cmd, argv, n, &a->review);
	if (n > 0 || !a->game)
		return opt_bad(cmd, "give --game GAME, or show A B");
	return 0;
}

/* 0, or -1 when the command is done with exit status *status. */
static int parse_args(int argc, char **argv, struct plag_args *a, int *status)
{
	const struct opt opts[] = {
		OPT_GAME(&a->game),
		OPT_REAL_NUM("min", 0, "SHARE", &a->min, 0, 1, "a share", "pairs at least this "
			     "similar, 0 to 1 (default: the flagged pairs: plagiarism.flag_percent, "
			     "or a long fragment)"),
		OPT_STR("html", 0, "FILE", &a->html, "write the list as the service's plagiarism "
			"page, one file with the list embedded (readable by you alone)"),
		OPT_STR("by", 0, "NAME", &a->review.by, "who decides (default: the login name)"),
		OPT_STR("note", 0, "TEXT", &a->review.note, "why, kept with the decision"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge plagiarism", .args = "[show A B | flags | confirm|dismiss|clear ID]",
		.json = &a->json, .json_help = "a JSON array of pairs",
		.queue = &a->queue, .config = &a->config, .settings = &a->cfg,
		.max_args = 3,
		.forms = plag_forms, .opts = opts, .summary = summary,
		.exits = "0 done (no pair too), 1 a file of `show` is unknown, 2 bad usage or an "
			 "unusable database.",
	};
	*a = (struct plag_args){ .min = -1 };
	int n = opt_parse(&cmd, argc, argv, status);
	if (n >= 0)
		*status = check_positional(&cmd, argv, n, a);
	a->has_min = a->min >= 0;
	return n < 0 || *status ? -1 : 0;
}

/* ---- the list as a table, JSON or the service's page */

static void print_side(const struct plag_list_side *s)
{
	char ref[96], who[160];
	snprintf(who, sizeof who, "%s by %s", s->name, s->author);
	printf("  %-16s ", plag_list_ref(s, ref));
	board_cell(stdout, who, 28);
	printf(" lines %d-%d\n", s->first_line, s->last_line);
}

static void print_table(const struct plag_list *l)
{
	if (l->n == 0) {
		printf("no pair of %s files is at least %.0f%% similar\n", l->game, l->min * 100);
		return;
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct plag_list_pair *r = &l->v[i];
		printf("%3.0f%%%s  A in B %.0f%%, B in A %.0f%%, longest fragment %d tokens\n",
		       r->similarity * 100, r->fragment ? " FLAGGED (long fragment)"
		       : r->flagged ? " FLAGGED" : "", r->a_in_b * 100,
		       r->b_in_a * 100, r->longest);
		print_side(&r->a);
		print_side(&r->b);
	}
	printf("%zu pair%s; `judge plagiarism show A B` shows one side by side\n", l->n,
	       l->n == 1 ? "" : "s");
}

/* The service's plagiarism page with the list embedded, as the API answers
 * it: drawn by the same script, nothing fetched. */
static int write_html(const char *path, const struct plag_list *l)
{
	char *page;
	err_t err;
	size_t len;
	json_t *data = plag_list_json(l);
	int rc = data ? web_page_embed("serve/plagiarism.html", data, &page, &len, err) : -1;
	if (!data)
		err_set(err, "cannot build the page: out of memory");
	json_decref(data);
	/* names who is suspected of copying whom: the organiser's alone */
	if (rc == 0) {
		rc = file_write_whole(path, page, len, 0600, err);
		free(page);
	}
	if (rc < 0)
		fprintf(stderr, "judge plagiarism: %s\n", err->msg);
	return rc;
}

static int list_pairs(const struct plag_args *a, struct store *s, const struct judge_config *cfg)
{
	struct plag_list l;
	err_t err;
	if (plag_list_load(s, &cfg->plag, a->game, a->has_min ? a->min : -1, &l, err) < 0) {
		fprintf(stderr, "judge plagiarism: %s\n", err->msg);
		return 2;
	}
	if (l.unmeasured)
		fprintf(stderr, "judge plagiarism: %zu pair%s left out, not measured: %s\n",
			l.unmeasured, l.unmeasured == 1 ? "" : "s", l.unmeasured_why->msg);
	int rc = 0;
	if (a->json) {
		json_t *arr = plag_list_pairs_json(&l);
		json_dumpf(arr, stdout, JSON_INDENT(1));
		putchar('\n');
		json_decref(arr);
	}
	if (a->html)
		rc = write_html(a->html, &l) < 0 ? 2 : 0;
	else if (!a->json)
		print_table(&l);
	plag_list_free(&l);
	return rc;
}

/* ---- show: one pair, both files with their fragments numbered */

struct shown {
	struct plag_list_side side;
	char *source;
	size_t len;
	struct plag_fps fps;
};

static int resolve(struct store *store, const char *ref, struct shown *out)
{
	bool is_doc = strncmp(ref, "doc:", 4) == 0;
	char *end;
	long long id = strtoll(ref + (is_doc ? 4 : 0), &end, 10);
	if (*end || id <= 0) {
		fprintf(stderr, "judge plagiarism: '%s' names no file: give a submission id or "
			"doc:N\n", ref);
		return 1;
	}
	struct store_plag_doc d;
	err_t err;
	*out = (struct shown){ 0 };
	int found = store_plag_get(store, is_doc ? id : 0, is_doc ? 0 : id, &d, err);
	if (found < 0) {
		fprintf(stderr, "judge plagiarism: %s\n", err->msg);
		return 2;
	}
	int rc = 1;
	if (found == 0)
		fprintf(stderr, "judge plagiarism: no fingerprinted file %s\n", ref);
	else if (d.has_error)
		fprintf(stderr, "judge plagiarism: %s has no fingerprints: %s\n", ref,
			d.error->msg);
	else if (plag_fps_decode(d.fps, d.fps_len, (unsigned)d.k, (unsigned)d.w,
				 (uint32_t)d.ntokens, &out->fps, err))
		fprintf(stderr, "judge plagiarism: %s: %s\n", ref, err->msg);
	else {
		plag_list_side_read(&d, &out->side);
		out->source = d.source; /* NUL-ended */
		out->len = d.source_len;
		d.source = NULL;
		rc = 0;
	}
	if (found)
		store_plag_doc_clear(&d);
	return rc;
}

/* Fragment numbers: a run of consecutive fingerprints of A whose hashes B
 * has is one fragment; a fingerprint of B takes the number of the A
 * fragment its hash belongs to.  Lines take the lowest number touching
 * them (0: none). */
struct hash_frag {
	uint64_t hash;
	unsigned frag;
};

static int hf_cmp(const void *x, const void *y)
{
	const struct hash_frag *a = x, *b = y;
	return a->hash != b->hash ? (a->hash > b->hash) - (a->hash < b->hash)
				  : (a->frag > b->frag) - (a->frag < b->frag);
}

static void mark_lines(unsigned *line_frag, size_t nlines, const struct plag_fp *fp,
		       unsigned frag)
{
	for (uint32_t l = fp->first_line; l <= fp->last_line && l <= nlines; l++)
		if (!line_frag[l] || line_frag[l] > frag)
			line_frag[l] = frag;
}

static size_t count_lines(const struct shown *s)
{
	size_t n = 1;
	for (size_t i = 0; i < s->len; i++)
		n += s->source[i] == '\n' && i + 1 < s->len;
	return n;
}

static unsigned number_fragments(const struct shown *a, const struct shown *b,
				 const struct plag_hashset *idioms, unsigned *fa, size_t na,
				 unsigned *fb, size_t nb)
{
	struct hash_frag *hf = malloc((a->fps.n ? a->fps.n : 1) * sizeof *hf);
	struct plag_hashset hb = { 0 };
	bool ok = hf && !plag_hashset_add_fps(&hb, &b->fps, NULL);
	size_t nhf = 0;
	unsigned frag = 0;
	bool in_run = false;
	for (size_t i = 0; ok && i < a->fps.n; i++) {
		bool shared = plag_hashset_has(&hb, a->fps.v[i].hash) &&
			      !plag_hashset_has(idioms, a->fps.v[i].hash);
		if (shared && !in_run)
			frag++;
		in_run = shared;
		if (!shared)
			continue;
		hf[nhf++] = (struct hash_frag){ a->fps.v[i].hash, frag };
		mark_lines(fa, na, &a->fps.v[i], frag);
	}
	if (ok && nhf)
		qsort(hf, nhf, sizeof *hf, hf_cmp);
	for (size_t i = 0; ok && i < b->fps.n; i++) {
		struct hash_frag key = { b->fps.v[i].hash, 0 };
		size_t lo = 0, hi = nhf;
		while (lo < hi) { /* first entry with this hash */
			size_t mid = (lo + hi) / 2;
			if (hf_cmp(&hf[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < nhf && hf[lo].hash == key.hash)
			mark_lines(fb, nb, &b->fps.v[i], hf[lo].frag);
	}
	free(hf);
	plag_hashset_free(&hb);
	return frag;
}

/* text[0..n) with its tabs expanded to 8 columns (malloc'd). */
static char *expand_tabs(const char *text, size_t n)
{
	size_t tabs = 0;
	for (size_t i = 0; i < n; i++)
		tabs += text[i] == '\t';
	char *out = malloc(n + tabs * 7 + 1), *o = out;
	for (size_t i = 0, col = 0; out && i < n; i++) {
		if (text[i] != '\t') {
			*o++ = text[i];
			col++;
			continue;
		}
		do
			*o++ = ' ';
		while (++col % 8);
	}
	if (out)
		*o = 0;
	return out;
}

static void print_listing(const char *title, const struct shown *s, const unsigned *frag)
{
	char ref[96];
	printf("\n==== %s: %s, %s by %s\n", title, plag_list_ref(&s->side, ref), s->side.name,
	       s->side.author);
	const char *p = s->source, *end = s->source + s->len;
	for (size_t line = 1; p < end; line++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *text = expand_tabs(p, n), mark[16] = "";
		if (frag[line])
			snprintf(mark, sizeof mark, "[%u]", frag[line]);
		printf("%5zu %-6s| ", line, mark);
		board_cell(stdout, text ? text : "", 0);
		putchar('\n');
		free(text);
		p += n + 1;
	}
}

/* Line n (1-based) of s: its start and length, or NULL past the end. */
static const char *line_at(const struct shown *s, size_t n, size_t *len)
{
	const char *p = s->source, *end = s->source + s->len;
	for (size_t line = 1; p < end; line++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		*len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (line == n)
			return p;
		p += *len + 1;
	}
	return NULL;
}

/* One half of a side-by-side row: number and text, cut or padded to cols. */
static void half_row(const struct shown *s, uint32_t line, uint32_t last, int cols)
{
	size_t len = 0;
	const char *p = line <= last ? line_at(s, line, &len) : NULL;
	char *text = p ? expand_tabs(p, len) : NULL;
	if (!text) {
		printf("%*s", cols + 6, "");
		return;
	}
	size_t cut = strlen(text);
	if (cut > (size_t)cols) {
		cut = (size_t)cols;
		while (cut > 0 && ((unsigned char)text[cut] & 0xc0) == 0x80)
			cut--; /* not inside a UTF-8 character */
	}
	text[cut] = 0;
	printf("%5u ", line);
	board_cell(stdout, text, cols);
	free(text);
}

#define SIDE_COLS 52
#define SIDE_MAX_LINES 400

/* The longest shared fragment, A's lines beside B's. */
static void print_fragment(const struct shown *s, const struct plag_pair *p)
{
	if (!p->longest)
		return;
	uint32_t na = p->longest_a.last_line - p->longest_a.first_line + 1;
	uint32_t nb = p->longest_b.last_line - p->longest_b.first_line + 1;
	uint32_t rows = na > nb ? na : nb;
	printf("\n==== the longest shared fragment, %u tokens: lines %u-%u of A beside "
	       "lines %u-%u of B\n", plag_longest_tokens(p), p->longest_a.first_line,
	       p->longest_a.last_line, p->longest_b.first_line, p->longest_b.last_line);
	for (uint32_t i = 0; i < rows && i < SIDE_MAX_LINES; i++) {
		half_row(&s[0], p->longest_a.first_line + i, p->longest_a.last_line, SIDE_COLS);
		fputs(" | ", stdout);
		half_row(&s[1], p->longest_b.first_line + i, p->longest_b.last_line, SIDE_COLS);
		putchar('\n');
	}
	if (rows > SIDE_MAX_LINES)
		printf("(%u more lines: see the listings below)\n", rows - SIDE_MAX_LINES);
}

static int show_pair(const struct plag_args *a, struct store *store, const struct cfg_plag *cfg)
{
	struct shown s[2] = { 0 };
	int rc = resolve(store, a->show[0], &s[0]);
	if (rc == 0)
		rc = resolve(store, a->show[1], &s[1]);
	struct plag_match m;
	struct plag_hashset idioms = { 0 };
	err_t err;
	if (rc == 0 && plag_store_pair(store, cfg, s[0].side.doc, s[1].side.doc, &m, &idioms, err)) {
		fprintf(stderr, "judge plagiarism: %s\n", err->msg);
		rc = 1;
	}
	if (rc == 0) {
		const struct plag_pair *pair = &m.pair;
		size_t na = count_lines(&s[0]), nb = count_lines(&s[1]);
		unsigned *fa = calloc(na + 2, sizeof *fa), *fb = calloc(nb + 2, sizeof *fb);
		unsigned frags = fa && fb ? number_fragments(&s[0], &s[1], &idioms, fa, na, fb, nb)
					  : 0;
		printf("A in B %.0f%%, B in A %.0f%%%s; %u matched fragment%s, the longest %u "
		       "tokens at lines %u-%u of A and %u-%u of B\nCode found in both files is "
		       "marked [N], the same N in both.\n", pair->a_in_b * 100, pair->b_in_a * 100,
		       m.fragment ? " (FLAGGED: long fragment)" : m.flagged ? " (FLAGGED)" : "",
		       frags, frags == 1 ? "" : "s", plag_longest_tokens(pair),
		       pair->longest_a.first_line, pair->longest_a.last_line,
		       pair->longest_b.first_line, pair->longest_b.last_line);
		print_fragment(s, pair);
		if (fa && fb) {
			print_listing("A", &s[0], fa);
			print_listing("B", &s[1], fb);
		}
		free(fa);
		free(fb);
	}
	plag_hashset_free(&idioms);
	for (int i = 0; i < 2; i++) {
		free(s[i].source);
		plag_fps_free(&s[i].fps);
	}
	return rc;
}

/* Files fingerprinted by an older version of the method are fingerprinted
 * again first, so that every pair can be measured (the store is written
 * only when there are some; skipped on a store this user may not write:
 * the worker does it with the next submission). */
static void refresh(struct store *s, const struct judge_config *cfg, const char *game)
{
	err_t err;
	err_t perr;
	size_t n = 0;
	int64_t stale;
	if (plag_store_stale(s, game, &stale, perr) < 0 || stale == 0 ||
	    store_begin(s, err) < 0)
		return;
	if (plag_store_refresh(s, &cfg->plag, cfg->data_dir, game, &n, perr) < 0 ||
	    store_commit(s, err) < 0) {
		store_rollback(s);
		return;
	}
	if (n)
		fprintf(stderr, "judge plagiarism: fingerprinted %zu file%s again (the method "
			"changed)\n", n, n == 1 ? "" : "s");
}

int cmd_plagiarism(int argc, char **argv)
{
	struct plag_args a;
	int status;
	if (parse_args(argc, argv, &a, &status) < 0)
		return status;
	struct store *s = opt_store("judge plagiarism", a.queue, false);
	if (!s)
		return 2;
	int rc;
	a.review.game = a.game;
	a.review.json = a.json;
	if (a.review.command) {
		rc = plag_review_run(&a.review, s);
		store_close(s);
		return rc;
	}
	refresh(s, &a.cfg, a.game);
	rc = a.show[0] ? show_pair(&a, s, &a.cfg.plag) : list_pairs(&a, s, &a.cfg);
	store_close(s);
	return rc;
}
