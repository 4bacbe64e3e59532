/* judge plagiarism: the similar pairs of a game, most similar first (table,
 * JSON or HTML), and `show A B`: both files with their matched fragments
 * numbered and their line numbers, for a person to judge. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "judge/base/file_write.h"
#include "judge/base/safe_text.h"
#include "judge/cli/board_html.h"
#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/cli/plag_review.h"
#include "judge/base/config.h"
#include "judge/plag/plag_doc.h"
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
		OPT_STR("html", 0, "FILE", &a->html, "write the list as one self-contained HTML "
			"page"),
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

/* ---- one side of a pair: how a person names a file */

struct side {
	int64_t doc, submission;
	char author[64], name[64], label[64];
	int first_line, last_line;
};

/* "12" (submission 12) or "doc:7 (2025)" for an archived file. */
static const char *side_ref(const struct side *s, char buf[96])
{
	if (s->submission)
		snprintf(buf, 96, "%lld", (long long)s->submission);
	else
		snprintf(buf, 96, "doc:%lld (%.60s)", (long long)s->doc, s->label);
	return buf;
}

static void side_read(const struct store_plag_doc *d, struct side *s)
{
	*s = (struct side){ .doc = d->id, .submission = d->submission };
	snprintf(s->author, sizeof s->author, "%s", d->author);
	snprintf(s->name, sizeof s->name, "%s", d->name);
	snprintf(s->label, sizeof s->label, "%s", d->label);
}

struct pair_row {
	double similarity, a_in_b, b_in_a;
	int longest;
	bool flagged, fragment;
	struct side a, b;
};

struct pair_list {
	struct pair_row *v;
	size_t n;
};

/* The row's numbers as plag_store_pair() measures the pair now. */
static int measure_row(struct store *store, const struct cfg_plag *cfg, struct pair_row *r)
{
	struct plag_match m;
	char err[ERR_LEN];
	if (plag_store_pair(store, cfg, r->a.doc, r->b.doc, &m, NULL, err) < 0) {
		fprintf(stderr, "judge plagiarism: %s\n", err);
		return -1;
	}
	r->similarity = m.similarity;
	r->a_in_b = m.pair.a_in_b;
	r->b_in_a = m.pair.b_in_a;
	r->longest = (int)plag_longest_tokens(&m.pair);
	r->flagged = m.flagged;
	r->fragment = m.fragment;
	r->a.first_line = (int)m.pair.longest_a.first_line;
	r->a.last_line = (int)m.pair.longest_a.last_line;
	r->b.first_line = (int)m.pair.longest_b.first_line;
	r->b.last_line = (int)m.pair.longest_b.last_line;
	return 0;
}

static int by_similarity(const void *x, const void *y)
{
	const struct pair_row *a = x, *b = y;
	if (a->similarity != b->similarity)
		return a->similarity < b->similarity ? 1 : -1;
	if (a->a.doc != b->a.doc)
		return a->a.doc < b->a.doc ? -1 : 1;
	return (a->b.doc > b->b.doc) - (a->b.doc < b->b.doc);
}

/* Reading the pairs: what they are measured with, which to keep. */
struct pair_reading {
	struct store *s;
	const struct cfg_plag *cfg;
	double min;
	bool flagged_too;
	struct pair_list *out;
};

/* One stored pair, measured again (a pair that cannot be is left out,
 * said on stderr). */
static int pair_read(void *ctx, const struct store_plag_doc *a, const struct store_plag_doc *b)
{
	struct pair_reading *p = ctx;
	struct pair_row r = { 0 };
	side_read(a, &r.a);
	side_read(b, &r.b);
	if (measure_row(p->s, p->cfg, &r) < 0)
		return 0;
	if (r.similarity < p->min - 1e-9 && !(p->flagged_too && r.flagged))
		return 0;
	struct pair_row *v = realloc(p->out->v, (p->out->n + 1) * sizeof *v);
	if (!v)
		return -1;
	p->out->v = v;
	p->out->v[p->out->n++] = r;
	return 0;
}

/* The stored pairs of game (those that reached the floor or had a long
 * fragment when they were compared), measured again; kept when at least
 * min similar, or flagged when all is true. */
static int load_pairs(struct store *s, const struct cfg_plag *cfg, const char *game, double min,
		      bool flagged_too, struct pair_list *out, char err[ERR_LEN])
{
	*out = (struct pair_list){ 0 };
	struct pair_reading p = { s, cfg, min, flagged_too, out };
	err[0] = '\0';
	int rc = store_plag_pairs(s, game, pair_read, &p, err);
	if (rc < 0 && !err[0]) /* pair_read stopped */
		snprintf(err, ERR_LEN, "reading the pairs: out of memory");
	if (out->n > 1)
		qsort(out->v, out->n, sizeof *out->v, by_similarity);
	return rc;
}

/* ---- the list as a table, JSON or a page */

static void print_side(const struct side *s)
{
	char ref[96], who[160];
	snprintf(who, sizeof who, "%s by %s", s->name, s->author);
	printf("  %-16s ", side_ref(s, ref));
	board_cell(stdout, who, 28);
	printf(" lines %d-%d\n", s->first_line, s->last_line);
}

static void print_table(const struct pair_list *l, const char *game, double min)
{
	if (l->n == 0) {
		printf("no pair of %s files is at least %.0f%% similar\n", game, min * 100);
		return;
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct pair_row *r = &l->v[i];
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

static json_t *side_json(const struct side *s)
{
	json_t *j = json_pack("{s:I, s:o, s:o, s:[i, i]}", "doc", (json_int_t)s->doc,
			      "author", safe_json_text(s->author), "player",
			      safe_json_text(s->name), "lines", s->first_line, s->last_line);
	if (s->submission)
		json_object_set_new(j, "submission", json_integer(s->submission));
	else
		json_object_set_new(j, "archive", safe_json_text(s->label));
	return j;
}

static json_t *pairs_json(const struct pair_list *l)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < l->n; i++) {
		const struct pair_row *r = &l->v[i];
		json_array_append_new(arr, json_pack("{s:f, s:f, s:f, s:i, s:b, s:b, s:o, s:o}",
			"similarity", r->similarity, "a_in_b", r->a_in_b, "b_in_a", r->b_in_a,
			"longest_tokens", r->longest, "flagged", r->flagged, "fragment", r->fragment,
			"a", side_json(&r->a), "b", side_json(&r->b)));
	}
	return arr;
}

static void html_side(FILE *f, const struct side *s)
{
	char ref[96];
	fputs("<td>", f);
	board_html_text(f, side_ref(s, ref));
	fputs("</td><td>", f);
	board_html_text(f, s->name);
	fputs("</td><td>", f);
	board_html_text(f, s->author);
	fprintf(f, "</td><td class=\"n\">%d&ndash;%d</td>", s->first_line, s->last_line);
}

static int write_html(const char *path, const struct pair_list *l, const char *game)
{
	char *page = NULL, when[32], title[96], err[ERR_LEN];
	size_t len = 0;
	FILE *f = open_memstream(&page, &len);
	if (!f)
		return -1;
	board_time(store_now_ms(), when);
	snprintf(title, sizeof title, "%s: similar files", game);
	board_html_head(f, title, when);
	fprintf(f, "<p class=\"when\">%zu pair%s, as of %s</p>\n<table>\n<thead><tr>"
		"<th class=\"n\">Similarity</th><th class=\"n\">A in B</th><th class=\"n\">B in A</th>"
		"<th>A</th><th>Player</th><th>Author</th><th class=\"n\">Lines</th>"
		"<th>B</th><th>Player</th><th>Author</th><th class=\"n\">Lines</th></tr></thead>\n"
		"<tbody>\n", l->n, l->n == 1 ? "" : "s", when);
	for (size_t i = 0; i < l->n; i++) {
		const struct pair_row *r = &l->v[i];
		fprintf(f, "<tr%s><td class=\"n\">%.0f%%</td><td class=\"n\">%.0f%%</td>"
			"<td class=\"n\">%.0f%%</td>", r->flagged ? " class=\"top\"" : "",
			r->similarity * 100, r->a_in_b * 100, r->b_in_a * 100);
		html_side(f, &r->a);
		html_side(f, &r->b);
		fputs("</tr>\n", f);
	}
	fputs("</tbody>\n</table>\n<p class=\"note\">Bold rows are flagged. A file is a "
	      "submission id or doc:N, an archived file; <code>judge plagiarism show A B</code> "
	      "shows a pair side by side.</p>\n</body>\n</html>\n", f);
	if (fclose(f) != 0) {
		free(page);
		return -1;
	}
	/* it quotes contestants' code: the organiser's alone */
	int rc = file_write_whole(path, page, len, 0600, err);
	if (rc < 0)
		fprintf(stderr, "judge plagiarism: %s\n", err);
	free(page);
	return rc;
}

static int list_pairs(const struct plag_args *a, struct store *s, const struct judge_config *cfg)
{
	struct pair_list l;
	char err[ERR_LEN];
	double min = a->has_min ? a->min : cfg->plag.flag_pct / 100.0;
	if (load_pairs(s, &cfg->plag, a->game, min, !a->has_min, &l, err) < 0) {
		fprintf(stderr, "judge plagiarism: %s\n", err);
		free(l.v);
		return 2;
	}
	int rc = 0;
	if (a->json) {
		json_t *arr = pairs_json(&l);
		json_dumpf(arr, stdout, JSON_INDENT(1));
		putchar('\n');
		json_decref(arr);
	}
	if (a->html)
		rc = write_html(a->html, &l, a->game) < 0 ? 2 : 0;
	else if (!a->json)
		print_table(&l, a->game, min);
	free(l.v);
	return rc;
}

/* ---- show: one pair, both files with their fragments numbered */

struct shown {
	struct side side;
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
	char err[ERR_LEN];
	*out = (struct shown){ 0 };
	int found = store_plag_get(store, is_doc ? id : 0, is_doc ? 0 : id, &d, err);
	if (found < 0) {
		fprintf(stderr, "judge plagiarism: %s\n", err);
		return 2;
	}
	int rc = 1;
	if (found == 0)
		fprintf(stderr, "judge plagiarism: no fingerprinted file %s\n", ref);
	else if (d.has_error)
		fprintf(stderr, "judge plagiarism: %s has no fingerprints: %s\n", ref, d.error);
	else if (plag_fps_decode(d.fps, d.fps_len, (unsigned)d.k, (unsigned)d.w,
				 (uint32_t)d.ntokens, &out->fps, err))
		fprintf(stderr, "judge plagiarism: %s: %s\n", ref, err);
	else {
		side_read(&d, &out->side);
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
	printf("\n==== %s: %s, %s by %s\n", title, side_ref(&s->side, ref), s->side.name,
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
	char err[ERR_LEN];
	if (rc == 0 && plag_store_pair(store, cfg, s[0].side.doc, s[1].side.doc, &m, &idioms, err)) {
		fprintf(stderr, "judge plagiarism: %s\n", err);
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
	char err[ERR_LEN], perr[ERR_LEN];
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
