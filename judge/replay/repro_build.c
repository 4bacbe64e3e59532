#include "judge/replay/repro_build.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "judge/base/file_write.h"
#include "judge/base/paths.h"
#include "judge/compile/compile.h"

/* Runs gcc (or any tool) with argv, its messages on our stderr: its exit
 * status, -1 when it did not run or was killed. */
static int run_tool(char *const *argv, FILE *log)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "judge repro: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	int status;
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		fprintf(log, "judge repro: cannot run %s: %s\n", argv[0], strerror(errno));
		return -1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct kit_paths {
	char runtime[PATH_MAX], inc_header[PATH_MAX + 2], inc_shared[PATH_MAX + 2];
};

/* "-IDIR" of the folder holding path. */
static void include_of(const char *path, char out[PATH_MAX + 2])
{
	snprintf(out, PATH_MAX + 2, "-I%s", path);
	char *slash = strrchr(out + 2, '/');
	if (slash)
		*slash = '\0';
}

static void kit_paths(const struct judge_config *cfg, const struct game *game,
		      struct kit_paths *k)
{
	char header[PATH_MAX], shared[PATH_MAX];
	paths_game_header(cfg->data_dir, game->name, header);
	paths_shared_header(cfg->data_dir, shared);
	paths_in(k->runtime, cfg->data_dir, "build/kits/lib%s.a", game->name);
	include_of(header, k->inc_header);
	include_of(shared, k->inc_shared);
}

const char *repro_build_asan_refusal(const struct game *game)
{
	if (!game->asm_pass)
		return NULL;
	return "AddressSanitizer adds its own checks to your code, and the energy count would "
	       "charge them like your code's, so your units would spend other amounts of energy "
	       "and the match would go otherwise than it went; besides, each unit runs on a "
	       "stack of its own, which AddressSanitizer cannot follow.  --gdb shows the line "
	       "where your unit failed";
}

/* ---- a game that plays the judge's own code ------------------------------- */

static char *read_whole(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t cap = 0;
	*len = 0;
	for (;;) {
		if (*len + 65536 + 1 > cap) {
			char *b = realloc(buf, cap = 2 * cap + 65536 + 1);
			if (!b)
				break;
			buf = b;
		}
		size_t n = fread(buf + *len, 1, cap - *len - 1, f);
		*len += n;
		if (n == 0) {
			buf[*len] = '\0';
			fclose(f);
			return buf;
		}
	}
	free(buf);
	fclose(f);
	return NULL;
}

/* The game's rewrite of gcc's assembly in s_path, into counted_path. */
static enum repro_build_result rewrite(const struct game *game, const char *source,
				       const char *s_path, const char *counted_path, FILE *log)
{
	size_t len, out_len;
	char *in = read_whole(s_path, &len), *out = NULL;
	err_t err = {0};
	int rc = in ? game->asm_pass(in, len, &out, &out_len, err) : -1;
	free(in);
	if (rc == 0 && file_write_whole(counted_path, out, out_len, 0600, err) < 0)
		rc = -1;
	free(out);
	if (rc == 1)
		fprintf(log, "judge repro: %s is refused as the judge refuses it: %s\n", source,
			err->msg);
	else if (rc < 0)
		fprintf(log, "judge repro: cannot rewrite the assembly of %s%s%s\n", source,
			err->msg[0] ? ": " : "", err->msg);
	return rc == 0 ? REPRO_BUILT : REPRO_BUILD_FAILED;
}

/* gcc -S with the judge's flags and -g, the game's rewrite, then the
 * assembler and a static link with the kit, as the judge does (less -s). */
static enum repro_build_result judges_code(const struct game *game, const struct kit_paths *k,
					   const char *source, const char *dir, const char *bin,
					   FILE *log)
{
	char s_path[PATH_MAX], counted[PATH_MAX], obj[PATH_MAX];
	paths_in(s_path, dir, "player.s");
	paths_in(counted, dir, "player.counted.s");
	paths_in(obj, dir, "player.o");
	char *cc[24] = { "gcc" };
	int n = 1;
	for (const char *const *f = cmp_code_flags; *f; f++)
		cc[n++] = (char *)*f;
	cc[n++] = "-g";
	cc[n++] = (char *)k->inc_header;
	cc[n++] = (char *)k->inc_shared;
	if (game->compile_flag)
		cc[n++] = (char *)game->compile_flag;
	char *tail[] = { "-S", (char *)source, "-o", s_path, NULL };
	memcpy(cc + n, tail, sizeof tail);
	char *as[] = { "gcc", "-fno-lto", "-c", counted, "-o", obj, NULL };
	char *ld[] = { "gcc", "-fno-lto", "-static", "-o", (char *)bin, obj, (char *)k->runtime,
		       "-lm", NULL };
	enum repro_build_result r = REPRO_BUILD_FAILED;
	if (run_tool(cc, log) == 0 && (r = rewrite(game, source, s_path, counted, log)) == REPRO_BUILT)
		r = run_tool(as, log) == 0 && run_tool(ld, log) == 0 ? REPRO_BUILT : REPRO_BUILD_FAILED;
	unlink(s_path);
	unlink(counted);
	unlink(obj);
	return r;
}

/* ---- the build ------------------------------------------------------------ */

enum repro_build_result repro_build(const struct judge_config *cfg, const struct game *game,
				    const char *source, bool asan, const char *dir,
				    const char *bin, FILE *log)
{
	if (asan && repro_build_asan_refusal(game)) {
		fprintf(log, "judge repro: --asan is not available for %s: %s.\n", game->title,
			repro_build_asan_refusal(game));
		return REPRO_BUILD_REFUSED;
	}
	struct kit_paths k;
	kit_paths(cfg, game, &k);
	enum repro_build_result r;
	if (game->asm_pass) {
		fprintf(log, "judge repro: building %s as the judge does (its energy count), with "
			"line information\n", source);
		r = judges_code(game, &k, source, dir, bin, log);
	} else {
		fprintf(log, "judge repro: building %s%s with the %s kit\n", source,
			asan ? " under AddressSanitizer" : "", game->title);
		char *argv[24] = { "gcc", "-std=gnu17", "-g", "-O0", "-fno-omit-frame-pointer",
				   "-D_GNU_SOURCE", k.inc_header, k.inc_shared };
		int n = 8;
		if (asan)
			argv[n++] = "-fsanitize=address";
		if (game->compile_flag)
			argv[n++] = (char *)game->compile_flag;
		char *tail[] = { (char *)source, k.runtime, "-lm", "-o", (char *)bin, NULL };
		memcpy(argv + n, tail, sizeof tail);
		r = run_tool(argv, log) == 0 ? REPRO_BUILT : REPRO_BUILD_FAILED;
	}
	if (r == REPRO_BUILD_FAILED)
		fprintf(log, "judge repro: %s does not build here (the messages above say why)\n",
			source);
	return r;
}
