/* judge archive import: files of earlier years become fingerprinted
 * documents that every later submission is compared with; they never play.
 * All or nothing: one bad file and nothing is stored (unless --skip-bad). */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "judge/cli/commands.h"
#include "judge/cli/options.h"
#include "judge/base/config.h"
#include "judge/notify/events.h"
#include "judge/compile/cscan.h"
#include "judge/plag/plag_doc.h"
#include "judge/plag/plag_event.h"
#include "judge/plag/plag_store.h"
#include "judge/compile/source.h"
#include "judge/store/store.h"

#define ARCHIVE_MAX_FILES 100000
#define LABEL_MAX 32

static const char summary[] =
"Stores the fingerprints and sources of the C files under DIR (the\n"
"submissions of an earlier year, say) as an archive named LABEL.  Every\n"
"later submission of GAME is compared with them; they never play.  Each\n"
"file is also compared with what is already stored, so copies of last\n"
"year's files among this year's submissions show up at once.\n"
"\n"
"A file's author is the first folder under DIR that holds it (DIR/alice/\n"
"AIFoo.c: alice), or its player's name for files directly in DIR; its\n"
"name is its PLAYER_NAME, or the file name without AI and .c.  The\n"
"settings' plagiarism.k and .w fingerprint them.";

struct archive_args {
	const char *dir, *game, *label, *queue, *config;
	bool skip_bad;
	struct judge_config cfg;
};

static bool label_valid(const char *s)
{
	size_t n = strlen(s);
	if (n < 1 || n > LABEL_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", s[i]))
			return false;
	return true;
}

/* 0, or -1 when the command is done with exit status *status. */
static int parse_args(int argc, char **argv, struct archive_args *a, int *status)
{
	const struct opt opts[] = {
		OPT_GAME(&a->game, .required = true),
		OPT_STR("label", 0, "LABEL", &a->label, "1 to " OPT_TEXT(LABEL_MAX) " letters, "
			"digits, '.', '_' or '-' (e.g. 2025)", .required = true),
		OPT_BOOL("skip-bad", 0, &a->skip_bad, "store the good files and report the bad "
			 "ones; without it one bad file (empty, binary, not C, too big, a second "
			 "file of one player by one author) stores nothing"),
		OPT_DONE,
	};
	const struct opt_command cmd = {
		.name = "judge archive", .args = "import DIR", .min_args = 2, .max_args = 2,
		.queue = &a->queue, .queue_created = true, .config = &a->config, .settings = &a->cfg,
		.opts = opts, .summary = summary,
		.exits = "0 imported, 1 bad files (nothing stored without --skip-bad) or a store "
			 "error, 2 bad usage.",
	};
	*a = (struct archive_args){ 0 };
	if (opt_parse(&cmd, argc, argv, status) < 0)
		return -1;
	*status = 0;
	a->dir = argv[2];
	if (strcmp(argv[1], "import") != 0)
		*status = opt_bad(&cmd, "give import DIR --game GAME --label LABEL");
	else if (!label_valid(a->label))
		*status = opt_bad(&cmd, "the label must be 1 to %d letters, digits, '.', '_' or "
				  "'-'", LABEL_MAX);
	return *status ? -1 : 0;
}

/* ---- finding the files */

struct file_list {
	char **path;
	size_t n;
	bool too_many;
};

/* nftw() has no user argument: the walk's list lives here, for one walk at
 * a time in this single-threaded command. */
static struct file_list *walk_list;

static int walk_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	size_t len = strlen(path);
	if (type != FTW_F || len < 3 || strcmp(path + len - 2, ".c") != 0)
		return 0;
	if (walk_list->n == ARCHIVE_MAX_FILES) {
		walk_list->too_many = true;
		return 1;
	}
	char **grown = realloc(walk_list->path, (walk_list->n + 1) * sizeof *grown);
	if (!grown || !(grown[walk_list->n] = strdup(path)))
		return -1;
	walk_list->path = grown;
	walk_list->n++;
	return 0;
}

static int path_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int find_files(const char *dir, struct file_list *out)
{
	*out = (struct file_list){ 0 };
	walk_list = out;
	int rc = nftw(dir, walk_one, 32, FTW_PHYS);
	walk_list = NULL;
	if (rc < 0 || out->too_many) {
		fprintf(stderr, "judge archive: %s %s\n", dir,
			out->too_many ? "holds more than 100000 C files" : "cannot be read");
		return -1;
	}
	if (out->n == 0) {
		fprintf(stderr, "judge archive: no .c file under %s\n", dir);
		return -1;
	}
	qsort(out->path, out->n, sizeof *out->path, path_cmp);
	return 0;
}

static void files_free(struct file_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->path[i]);
	free(l->path);
}

/* ---- reading and fingerprinting one file */

struct archived {
	char *source;
	size_t len;
	char author[64], name[64];
	struct plag_fps fps;
};

/* Author: the first folder below dir; name: PLAYER_NAME or the file's. */
static void identify(const char *dir, const char *path, struct archived *f)
{
	const char *rel = path + strlen(dir);
	rel += strspn(rel, "/");
	const char *slash = strchr(rel, '/'), *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	struct cscan_names names;
	if (cscan_player_names(f->source, f->len, &names) == 0 && names.name[0])
		snprintf(f->name, sizeof f->name, "%s", names.name);
	else
		snprintf(f->name, sizeof f->name, "%.*s",
			 (int)(strlen(base) - 2 - (strncmp(base, "AI", 2) == 0 ? 2 : 0)),
			 base + (strncmp(base, "AI", 2) == 0 ? 2 : 0));
	if (slash)
		snprintf(f->author, sizeof f->author, "%.*s", (int)(slash - rel), rel);
	else
		snprintf(f->author, sizeof f->author, "%s", f->name);
}

static int load_one(const struct archive_args *a, const struct judge_config *cfg,
		    const struct plag_hashset *base, const char *path, struct archived *f)
{
	err_t err;
	*f = (struct archived){ 0 };
	if (src_read(path, PLAG_MAX_BYTES_DEFAULT, &f->source, &f->len, err) < 0) {
		fprintf(stderr, "judge archive: %s\n", err->msg);
		return -1;
	}
	if (f->len == 0 || cscan_text(path, f->source, f->len, err) != 0) {
		fprintf(stderr, "judge archive: %s%s\n", f->len ? err->msg : path,
			f->len ? "" : " is empty");
		return -1;
	}
	if (plag_fingerprint(&cfg->plag, base, f->source, f->len, &f->fps, err)) {
		fprintf(stderr, "judge archive: %s: %s\n", path, err->msg);
		return -1;
	}
	identify(a->dir, path, f);
	return 0;
}

/* Frees f and leaves it empty: an empty file is one that is not stored. */
static void archived_free(struct archived *f)
{
	free(f->source);
	plag_fps_free(&f->fps);
	*f = (struct archived){ 0 };
}

/* Two files of one author naming one player would be one document: each
 * later one (in path order) is refused, naming the first. */
static int identity_cmp(const void *a, const void *b)
{
	const struct archived *x = *(const struct archived *const *)a;
	const struct archived *y = *(const struct archived *const *)b;
	int c = strcmp(x->author, y->author);
	if (c == 0)
		c = strcmp(x->name, y->name);
	return c ? c : (x > y) - (x < y);
}

static size_t refuse_duplicates(const struct file_list *list, struct archived *files)
{
	struct archived **v = malloc((list->n ? list->n : 1) * sizeof *v);
	size_t n = 0, dups = 0;
	if (!v)
		return 0; /* the store's unique index still refuses them */
	for (size_t i = 0; i < list->n; i++)
		if (files[i].source)
			v[n++] = &files[i];
	qsort(v, n, sizeof *v, identity_cmp);
	for (size_t i = 1, first = 0; i < n; i++) {
		if (strcmp(v[i]->author, v[first]->author) || strcmp(v[i]->name, v[first]->name)) {
			first = i;
			continue;
		}
		fprintf(stderr, "judge archive: %s: player %s by %s again (first %s); an archive "
			"keeps one file per player and author\n", list->path[v[i] - files],
			v[i]->name, v[i]->author, list->path[v[first] - files]);
		archived_free(v[i]);
		dups++;
	}
	free(v);
	return dups;
}

/* ---- storing */

/* A current submission that an archived file resembles over the flag
 * threshold hears of it as it would of a later copy: a plagiarism.flagged
 * event (recorded with the import, so delivered only if the import is). */
static int flag_submissions(struct store *s, const struct judge_config *cfg,
			    const struct archive_args *a, const struct archived *f, int64_t id,
			    const struct plag_matches *m, size_t *flagged, err_t err)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct plag_match *mine = &m->v[i];
		if (!mine->flagged || !mine->submission)
			continue;
		++*flagged;
		printf("  %s by %s resembles submission %lld (%s by %s): %.0f%%\n", f->name,
		       f->author, (long long)mine->submission, mine->name, mine->author,
		       mine->similarity * 100);
		struct plag_match seen = *mine;
		seen.doc = id;
		seen.submission = 0;
		snprintf(seen.author, sizeof seen.author, "%s", f->author);
		snprintf(seen.name, sizeof seen.name, "%s", f->name);
		snprintf(seen.label, sizeof seen.label, "%s", a->label);
		plag_pair_swap(&seen.pair);
		json_t *data = plag_event_data(mine->name, mine->author, &seen, 1);
		int rc = data ? events_record(s, &cfg->hooks, "plagiarism.flagged",
					      mine->submission, data, err) : 0;
		json_decref(data);
		if (rc < 0)
			return -1;
	}
	return 0;
}

struct import_totals {
	size_t stored, pairs, flagged;
};

/* Stores one file, its similar pairs and the events they cause. */
static int store_one(struct store *s, const struct archive_args *a,
		     const struct judge_config *cfg, const struct archived *f,
		     struct import_totals *t, err_t err)
{
	struct plag_doc doc = { .game = a->game, .author = f->author, .name = f->name,
				.label = a->label, .source = f->source, .source_len = f->len };
	struct plag_matches m;
	int64_t id;
	if (plag_store_add(s, &cfg->plag, &doc, &f->fps, NULL, &id, &m, err) < 0)
		return -1;
	t->pairs += m.n;
	int rc = flag_submissions(s, cfg, a, f, id, &m, &t->flagged, err);
	plag_matches_free(&m);
	t->stored += rc == 0;
	return rc;
}

static int store_all(const struct archive_args *a, const struct judge_config *cfg,
		     struct archived *files, size_t n)
{
	err_t err;
	struct store *s = store_open(a->queue, true, err);
	if (!s || store_begin(s, err) < 0) {
		fprintf(stderr, "judge archive: %s\n", err->msg);
		store_close(s);
		return 1;
	}
	struct import_totals t = { 0 };
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++)
		if (files[i].source)
			rc = store_one(s, a, cfg, &files[i], &t, err);
	if (rc == 0)
		rc = store_commit(s, err);
	if (rc < 0) {
		fprintf(stderr, "judge archive: %s; nothing was imported\n", err->msg);
		store_rollback(s);
	} else {
		printf("imported %zu files of %s as archive %s; %zu similar pairs stored, %zu "
		       "submissions of this tournament flagged\n", t.stored, a->game, a->label,
		       t.pairs, t.flagged);
	}
	store_close(s);
	return rc < 0 ? 1 : 0;
}

static int import(const struct archive_args *a, const struct judge_config *cfg)
{
	struct file_list list;
	if (find_files(a->dir, &list) < 0)
		return 1;
	struct plag_hashset base;
	err_t err;
	struct archived *files = calloc(list.n, sizeof *files);
	if (!files || plag_base_load(cfg->data_dir, a->game, cfg->plag.k, &base, err)) {
		fprintf(stderr, "judge archive: %s\n", files ? err->msg : "out of memory");
		free(files);
		files_free(&list);
		return 1;
	}
	size_t bad = 0;
	for (size_t i = 0; i < list.n; i++)
		if (load_one(a, cfg, &base, list.path[i], &files[i]) < 0) {
			archived_free(&files[i]);
			bad++;
		}
	bad += refuse_duplicates(&list, files);
	int rc = 1;
	if (bad && !a->skip_bad)
		fprintf(stderr, "judge archive: %zu of %zu files are not usable; nothing was "
			"imported (fix or remove them, or give --skip-bad)\n", bad, list.n);
	else if (bad == list.n)
		fprintf(stderr, "judge archive: no usable file; nothing was imported\n");
	else
		rc = store_all(a, cfg, files, list.n) || bad ? 1 : 0;
	for (size_t i = 0; i < list.n; i++)
		archived_free(&files[i]);
	free(files);
	files_free(&list);
	plag_hashset_free(&base);
	return rc;
}

int cmd_archive(int argc, char **argv)
{
	struct archive_args a;
	int status;
	return parse_args(argc, argv, &a, &status) < 0 ? status : import(&a, &a.cfg);
}
