#include "tests/unit/cli_testlib.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

const char *cli_judge(void)
{
	const char *j = getenv("JUDGE_BIN");
	return j ? j : "build/judge";
}

const char *cli_worker(void)
{
	static char path[4096];
	const char *w = getenv("WORKER_BIN");
	if (w)
		return w;
	snprintf(path, sizeof path, "%s-worker", cli_judge());
	return path;
}

const char *cli_attack_dir(void)
{
	const char *d = getenv("ATTACK_DIR");
	return d ? d : "build/attack";
}

int cli_run(const char *cmdline, char *out, size_t cap)
{
	FILE *f = popen(cmdline, "r");
	cr_assert_not_null(f, "cannot run %s", cmdline);
	size_t n = 0, got;
	char sink[4096];
	while ((got = fread(n + 1 < cap ? out + n : sink, 1,
			    n + 1 < cap ? cap - 1 - n : sizeof sink, f)) > 0)
		if (n + 1 < cap)
			n += got;
	out[n] = '\0';
	int status = pclose(f);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

const char *cli_table_row(const char *out, int seat)
{
	char key[16];
	snprintf(key, sizeof key, "\n%-4d ", seat);
	const char *r = strstr(out, key);
	return r ? r + 1 : NULL;
}

const char *cli_last_line(char *out)
{
	size_t n = strlen(out);
	if (n && out[n - 1] == '\n')
		out[--n] = '\0';
	char *nl = strrchr(out, '\n');
	return nl ? nl + 1 : out;
}

void cli_workdir(const char *name, char dir[64], char db[128], char cfg[128])
{
	snprintf(dir, 64, "/tmp/judge-%.20s-XXXXXX", name);
	cr_assert_not_null(mkdtemp(dir), "cannot make a folder for the test in /tmp");
	snprintf(db, 128, "%s/jobs.sqlite", dir);
	snprintf(cfg, 128, "%s/judge.json", dir);
}

void cli_workdir_remove(const char *dir)
{
	char cmd[128], out[256];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cli_run(cmd, out, sizeof out);
}

int cli_count(const char *text, const char *what)
{
	int n = 0;
	for (const char *p = text; (p = strstr(p, what)); p++)
		n++;
	return n;
}

int cli_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	int rc = fputs(text, f) < 0 ? -1 : 0;
	return fclose(f) == 0 ? rc : -1;
}

void cli_upload_demo(const char *dir, const char *cfg, const char *db, const char *game,
		     const char *name)
{
	char cmd[1024], out[4096];
	snprintf(cmd, sizeof cmd, "sed 's/PLAYER_NAME([A-Za-z]*)/PLAYER_NAME(%s)/' "
		 "games/%s/players/AIDemo.c > %s/AI%s.c && JUDGE_CONFIG=%s %s submit "
		 "%s/AI%s.c --game %s --author a%s --queue %s 2>&1", name, game, dir, name, cfg,
		 cli_judge(), dir, name, game, name, db);
	cr_assert_eq(cli_run(cmd, out, sizeof out), 0, "%s", out);
}
