#include "tests/unit/serve_testlib.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "judge/base/config.h"
#include "judge/serve/serve.h"
#include "judge/store/store.h"
#include "judge/store/store_serve.h"
#include "tests/unit/cli_testlib.h"
#include "tests/unit/db_testlib.h"

void serve_test_token(const char *where, const char *author, bool organiser, char token[44])
{
	char hex[65];
	err_t err = {0};
	struct store *s = teststore_open(where, false);
	int64_t id;
	cr_assert_eq(serve_token_new(token, err), 0, "%s", err->msg);
	cr_assert_eq(serve_token_hash(token, hex), 0);
	cr_assert_eq(store_token_add(s, &(struct store_new_token){ .sha256 = hex, .author = author, .organiser = organiser }, &id, NULL, err), 0, "%s", err->msg);
	store_close(s);
}

int serve_test_call(const struct serve *server, const char *dir, const char *method,
		    const char *path, const char *token, const char *body, char *out, size_t cap)
{
	char cmd[2048], file[160];
	snprintf(file, sizeof file, "%s/reply", dir);
	int n = snprintf(cmd, sizeof cmd, "curl -s -o %s -w '%%{http_code}' -X %s "
			 "'http://127.0.0.1:%u%s'", file, method, serve_port(server), path);
	if (token)
		n += snprintf(cmd + n, sizeof cmd - (size_t)n, " -H 'Authorization: Bearer %s'",
			      token);
	if (body)
		snprintf(cmd + n, sizeof cmd - (size_t)n, " -H 'Content-Type: application/json' "
			 "--data-binary '%s'", body);
	char status[16];
	cr_assert_eq(cli_run(cmd, status, sizeof status), 0, "curl failed: %s", cmd);
	FILE *f = fopen(file, "r");
	size_t len = f ? fread(out, 1, cap - 1, f) : 0;
	out[len] = 0;
	if (f)
		fclose(f);
	return atoi(status);
}

void contest_open(struct contest *c, bool pg, const char *prefix, const char *settings)
{
	*c = (struct contest){ .server = NULL };
	if (pg)
		test_target_pg(&c->t, prefix);
	else
		test_target_sqlite(&c->t, prefix);
	snprintf(c->cfg, sizeof c->cfg, "%s/judge.json", c->t.dir);
	cr_assert_eq(cli_write_file(c->cfg, settings), 0);
}

void contest_player_file(struct contest *c, const char *shipped, const char *name, int version,
			 char file[160])
{
	char cmd[1024], mark[256] = "";
	snprintf(file, 160, "%s/AI%s.c", c->t.dir, name);
	if (version > 0)
		snprintf(mark, sizeof mark, " && echo '/* version %d */' >> %s", version, file);
	snprintf(cmd, sizeof cmd, "sed 's/PLAYER_NAME([A-Za-z]*)/PLAYER_NAME(%s)/' "
		 "games/dominator/players/AI%s.c > %s%s", name, shipped, file, mark);
	cr_assert_eq(cli_run(cmd, c->out, sizeof c->out), 0, "%s", c->out);
}

void contest_upload(struct contest *c, const char *shipped, const char *name,
		    const char *author, int version)
{
	char cmd[1024], file[160];
	contest_player_file(c, shipped, name, version, file);
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s scripts/upload %s --game dominator --author %s "
		 "--queue '%s' 2>&1", c->cfg, file, author, c->t.where);
	cr_assert_eq(cli_run(cmd, c->out, sizeof c->out), 0, "%s", c->out);
}

void contest_work(struct contest *c, int ranked)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "JUDGE_CONFIG=%s %s --queue '%s' --jobs 1 --exit-when-idle "
		 "--ranked-matches %d 2>&1", c->cfg, cli_worker(), c->t.where, ranked);
	cr_assert_eq(cli_run(cmd, c->out, sizeof c->out), 0, "%s", c->out);
}

void contest_serve(struct contest *c, bool frozen)
{
	struct judge_config cfg;
	cfg_defaults(&cfg);
	cfg.serve.threads = 2;
	cfg.contest.frozen = frozen;
	struct serve_options o = { .queue = c->t.where, .host = "127.0.0.1",
				   .limits = cfg.serve, .contest = cfg.contest };
	err_t err = {0};
	c->server = serve_start(&o, err);
	cr_assert_not_null(c->server, "serve_start: %s", err->msg);
}

int contest_call(struct contest *c, const char *method, const char *path, const char *token,
		 const char *body)
{
	return serve_test_call(c->server, c->t.dir, method, path, token, body, c->out,
			       sizeof c->out);
}

void contest_close(struct contest *c)
{
	if (c->server)
		serve_stop(c->server);
	c->server = NULL;
	test_target_remove(&c->t);
}
