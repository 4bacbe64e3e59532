#include "tests/unit/serve_testlib.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "judge/serve/serve.h"
#include "judge/store/store.h"
#include "judge/store/store_serve.h"
#include "tests/unit/cli_testlib.h"
#include "tests/unit/db_testlib.h"

void serve_test_token(const char *where, const char *author, bool organiser, char token[44])
{
	char err[SERVE_ERRLEN] = "", hex[65];
	struct store *s = teststore_open(where, false);
	int64_t id;
	cr_assert_eq(serve_token_new(token, err), 0, "%s", err);
	cr_assert_eq(serve_token_hash(token, hex), 0);
	cr_assert_eq(store_token_add(s, &(struct store_new_token){ .sha256 = hex, .author = author, .organiser = organiser }, &id, NULL, err), 0, "%s", err);
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
