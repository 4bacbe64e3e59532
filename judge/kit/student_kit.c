/* student_kit.c - the kit is staged in a temporary folder as the student
 * will see it, the shipped opponents are built there by the kit's own
 * Makefile (so they are linked exactly as the student's players are), their
 * sources removed, and the folder archived. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "games/game.h"
#include "judge/base/paths.h"
#include "judge/base/tar_gz.h"
#include "judge/kit/student_kit.h"

#define KIT_FILE_MAX (8 << 20)
#define KIT_OPPONENTS_MAX 16
#define KIT_LOG_TAIL 600

extern char **environ;

/* What the student gets from the data directory: a pattern there (%s: the
 * game) and the folder of the kit it goes to. */
static const struct {
	const char *from, *to;
} kit_files[] = {
	{ "games/*.h", "src/games" },
	{ "games/*.c", "src/games" },
	{ "games/kit/*.h", "src/games/kit" },
	{ "games/%s/*.h", "src/games/%s" },
	{ "games/%s/kit/*", "src/games/%s/kit" },
	{ "games/%s/engine/*", "src/games/%s/engine" },
	{ "judge/base/error.[ch]", "src/judge/base" }, /* the engines' error type */
	{ "games/local/*.[ch]", "src/local" },
	{ "games/local/openssl/*.h", "src/local/openssl" },
	{ "games/local/Makefile", "." },
	{ "games/local/README.md", "." },
	{ "games/local/upload", "scripts" },
	{ "games/%s/players/AINull.c", "." },
	{ "games/%s/players/AIDemo.c", "." },
};

/* Files of the data directory a kit never holds: the list of every game
 * (the runner names its one game itself). */
static bool kit_skipped(const char *path)
{
	const char *slash = strrchr(path, '/');
	return strcmp(slash ? slash + 1 : path, "registry.c") == 0;
}

/* The kit's two entry points (its runtime.c's KIT_ENTRY functions) are
 * ENTRY_start and ENTRY_turn, ENTRY as games/LIST says; NULL for a game
 * without a kit: its players need the judge's own compile (an energy count
 * added to the code). */
static const char *kit_entry(const char *game)
{
	const struct game_entry *e = game_entry(game);
	return e && !e->game->asm_pass ? e->kit_entry : NULL;
}

bool student_kit_supported(const char *game)
{
	return kit_entry(game) != NULL;
}

const char *student_kit_why_none(const char *game)
{
	if (!game_find(game))
		return "there is no such game (`judge kit --help` lists the games)";
	return "its players are compiled by the judge with an energy count added to their code, "
	       "which plain gcc does not do: try them with `judge play` or challenges";
}

struct staging {
	const struct judge_config *cfg;
	const char *game;
	char tmp[PATH_MAX], dir[PATH_MAX];
	char opponent[KIT_OPPONENTS_MAX][64];
	int nopponents;
	struct err *err;
};

/* "DOING PATH: WHY", e.g. "cannot read games/x.h: No such file". */
static int fail(struct staging *s, const char *doing, const char *path, const char *why)
{
	err_set(s->err, "%s %.400s: %.500s", doing, path, why);
	return -1;
}

static int copy_file(struct staging *s, const char *from, const char *to)
{
	struct stat st;
	int in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0 || fstat(in, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > KIT_FILE_MAX) {
		if (in >= 0)
			close(in);
		return fail(s, "cannot read", from,
			    in < 0 ? "it is missing or unreadable (reinstall the judge: make install)"
				   : "not a file of the expected size");
	}
	mode_t mode = st.st_mode & 0111 ? 0755 : 0644;
	int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	char buf[1 << 15];
	ssize_t n = 0;
	while (out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n)
			n = -1, errno = EIO;
	int saved = errno;
	close(in);
	if (out < 0 || close(out) < 0 || n < 0)
		return fail(s, "cannot write", to, strerror(out < 0 || n < 0 ? saved : errno));
	return 0;
}

/* Makes dir/rel (and its parents), rel formatted with the game. */
static int stage_dir(struct staging *s, const char *rel, char out[PATH_MAX])
{
	char sub[PATH_MAX], failed[PATH_MAX];
	snprintf(sub, sizeof sub, rel, s->game);
	if (!paths_in(out, s->dir, "%s", sub) || paths_make_dirs(out, failed) < 0)
		return fail(s, "cannot create", sub, strerror(errno));
	return 0;
}

/* Copies what pattern (under the data directory) matches into folder to;
 * names the matches in names[] when names is not NULL.  None is an error:
 * the data directory is not what this judge shipped. */
static int stage_files(struct staging *s, const char *pattern, const char *to)
{
	char rel[PATH_MAX], full[PATH_MAX], dest[PATH_MAX], file[PATH_MAX];
	snprintf(rel, sizeof rel, pattern, s->game);
	if (!paths_in(full, s->cfg->data_dir, "%s", rel) || stage_dir(s, to, dest) < 0)
		return -1;
	glob_t g;
	if (glob(full, 0, NULL, &g) != 0)
		return fail(s, "cannot find", full,
			    "no such file in the judge's data directory (reinstall the judge: "
			    "make install)");
	int rc = 0;
	for (size_t i = 0; i < g.gl_pathc && rc == 0; i++) {
		const char *path = g.gl_pathv[i], *base = strrchr(path, '/');
		if (kit_skipped(path))
			continue;
		if (!paths_in(file, dest, "%s", base ? base + 1 : path))
			rc = fail(s, "cannot copy", path, "the path is too long");
		else
			rc = copy_file(s, path, file);
	}
	globfree(&g);
	return rc;
}

/* The shipped players beyond Null and Demo, their sources at the top of
 * the kit until their objects are built. */
static int stage_opponents(struct staging *s)
{
	char pattern[PATH_MAX], dest[PATH_MAX];
	if (!paths_in(pattern, s->cfg->data_dir, "games/%s/players/AI*.c", s->game))
		return fail(s, "cannot read", s->cfg->data_dir, "the path is too long");
	glob_t g;
	if (glob(pattern, 0, NULL, &g) != 0)
		g.gl_pathc = 0;
	int rc = 0;
	for (size_t i = 0; i < g.gl_pathc && rc == 0; i++) {
		const char *base = strrchr(g.gl_pathv[i], '/') + 3; /* after "/AI" */
		size_t n = strlen(base) - 2;
		if (n >= sizeof s->opponent[0] || s->nopponents == KIT_OPPONENTS_MAX)
			rc = fail(s, "cannot ship", g.gl_pathv[i], "too many shipped players or too long a name");
		else if (strncmp(base, "Null.c", 6) != 0 && strncmp(base, "Demo.c", 6) != 0) {
			snprintf(s->opponent[s->nopponents++], sizeof s->opponent[0], "%.*s", (int)n, base);
			rc = paths_in(dest, s->dir, "AI%s", base) ? copy_file(s, g.gl_pathv[i], dest) : -1;
		}
	}
	if (g.gl_pathc)
		globfree(&g);
	return rc;
}

static int write_text(struct staging *s, const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f = paths_in(path, s->dir, "%s", name) ? fopen(path, "wx") : NULL;
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		return fail(s, "cannot write", name, strerror(errno));
	return 0;
}

/* kit.mk: which game, the entry points' names, the seats and the limits
 * in force; the server for scripts/upload. */
static int write_settings(struct staging *s, const char *server)
{
	const struct game *gm = game_find(s->game);
	int seats = game_max_players(gm);
	char numbers[64] = "", text[1024];
	for (int i = 0; i < seats; i++)
		snprintf(numbers + strlen(numbers), sizeof numbers - strlen(numbers), "%s%d",
			 i ? " " : "", i);
	snprintf(text, sizeof text,
		 "# %s as this judge plays it (written by `judge kit`; the Makefile reads it).\n"
		 "GAME := %s\nGAME_TABLE := %s_game\nENTRY := %s\n"
		 "SEATS := %d\nSEAT_NUMBERS := %s\n"
		 "# Each player's CPU budget for the whole game, and its memory limit.\n"
		 "CPU_MS := %llu\nMEMORY_MB := %llu\n"
		 "# The service scripts/upload sends to.\nSERVER := %s\n",
		 gm->title, s->game, s->game, kit_entry(s->game), seats, numbers,
		 (unsigned long long)(s->cfg->sandbox.cpu_ns / 1000000),
		 (unsigned long long)(s->cfg->sandbox.memory_bytes >> 20), server ? server : "");
	return write_text(s, "kit.mk", text);
}

/* The parameters the judge plays with, when they are not the defaults. */
static int stage_params(struct staging *s)
{
	char from[PATH_MAX], to[PATH_MAX];
	paths_game_params(s->cfg->data_dir, s->game, from);
	if (access(from, R_OK) != 0)
		return 0;
	return paths_in(to, s->dir, "params.cnf") ? copy_file(s, from, to) : -1;
}

/* The last lines make wrote, for a message. */
static void log_tail(const char *log, char *out, size_t cap)
{
	FILE *f = fopen(log, "r");
	out[0] = '\0';
	if (!f)
		return;
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	fseek(f, size > KIT_LOG_TAIL ? size - KIT_LOG_TAIL : 0, SEEK_SET);
	size_t n = fread(out, 1, cap - 1, f);
	out[n] = '\0';
	fclose(f);
}

/* make in the staged kit, for the opponents' seat copies. */
static int build_opponents(struct staging *s)
{
	if (s->nopponents == 0)
		return 0;
	int seats = game_max_players(game_find(s->game));
	char targets[KIT_OPPONENTS_MAX * 8][96], log[PATH_MAX];
	char *argv[4 + KIT_OPPONENTS_MAX * 8] = { "make", "-s", "-C", s->dir };
	int argc = 4;
	for (int o = 0; o < s->nopponents; o++)
		for (int i = 0; i < seats && i < 8; i++) {
			snprintf(targets[argc - 4], sizeof targets[0], "build/%s-%d.o", s->opponent[o], i);
			argv[argc] = targets[argc - 4];
			argc++;
		}
	argv[argc] = NULL;
	paths_in(log, s->tmp, "make.log");
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	pid_t pid;
	int rc = posix_spawnp(&pid, "make", &fa, NULL, argv, environ), status = 0;
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0)
		return fail(s, "cannot run", "make", "it is missing (the kit is built with make, gcc, "
			    "ld and objcopy: install them)");
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		char tail[KIT_LOG_TAIL + 1];
		log_tail(log, tail, sizeof tail);
		err_set(s->err, "the shipped opponents did not build for the "
			 "kit (make, gcc, ld and objcopy are needed); make said:\n%s", tail);
		return -1;
	}
	for (int i = 0; i < argc - 4; i++) {
		char from[PATH_MAX], to[PATH_MAX];
		paths_in(from, s->dir, "%s", targets[i]);
		paths_in(to, s->dir, "opponents/%s", targets[i] + strlen("build/"));
		if (rename(from, to) < 0)
			return fail(s, "cannot move", from, strerror(errno));
	}
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* What the build left that the student must not get: the opponents'
 * sources and every intermediate object (build/ stays, empty). */
static int unstage_sources(struct staging *s)
{
	char path[PATH_MAX];
	for (int o = 0; o < s->nopponents; o++)
		if (paths_in(path, s->dir, "AI%s.c", s->opponent[o]) && unlink(path) < 0)
			return fail(s, "cannot remove", path, strerror(errno));
	if (!paths_in(path, s->dir, "build") || nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) < 0 ||
	    mkdir(path, 0755) < 0)
		return fail(s, "cannot empty", path, strerror(errno));
	return 0;
}

static int stage(struct staging *s, const char *server)
{
	for (size_t i = 0; i < sizeof kit_files / sizeof *kit_files; i++)
		if (stage_files(s, kit_files[i].from, kit_files[i].to) < 0)
			return -1;
	char dir[PATH_MAX];
	if (stage_dir(s, "build", dir) < 0 || stage_dir(s, "opponents", dir) < 0 ||
	    write_settings(s, server) < 0 || stage_params(s) < 0 || stage_opponents(s) < 0)
		return -1;
	return build_opponents(s) < 0 ? -1 : unstage_sources(s);
}

int student_kit_build(const struct judge_config *cfg, const char *game, const char *server,
		      char **out, size_t *len, err_t err)
{
	struct staging s = { .cfg = cfg, .game = game, .err = err };
	*out = NULL;
	if (!student_kit_supported(game)) {
		err_set(err, "no student kit for '%s': %s", game,
			 student_kit_why_none(game));
		return -1;
	}
	const char *tmpdir = getenv("TMPDIR");
	snprintf(s.tmp, sizeof s.tmp, "%s/judge-kit-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(s.tmp)) {
		err_set(err, "cannot create a temporary folder in %s: %s",
			 tmpdir && *tmpdir ? tmpdir : "/tmp", strerror(errno));
		return -1;
	}
	char top[64];
	snprintf(top, sizeof top, "%s-kit", game);
	paths_in(s.dir, s.tmp, "%s", top);
	int rc = stage(&s, server);
	if (rc == 0)
		rc = tgz_folder(s.dir, top, out, len, err);
	nftw(s.tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	return rc;
}
