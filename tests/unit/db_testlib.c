#include "tests/unit/db_testlib.h"

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "judge/store/db.h"
#include "tests/unit/pg_testlib.h"

/* The first row of the query, stepped to; the caller finalizes st. */
static sqlite3_stmt *first_row(sqlite3 *db, const char *fmt, va_list ap)
{
	char sql[1024];
	int n = vsnprintf(sql, sizeof sql, fmt, ap);
	cr_assert(n >= 0 && (size_t)n < sizeof sql, "a query too long for the test helper");
	sqlite3_stmt *st;
	cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK, "%s: %s", sql,
		     sqlite3_errmsg(db));
	cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "%s: %s", sql, sqlite3_errmsg(db));
	return st;
}

int64_t testdb_int(sqlite3 *db, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sqlite3_stmt *st = first_row(db, fmt, ap);
	va_end(ap);
	int64_t v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

void testdb_text(sqlite3 *db, char *out, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sqlite3_stmt *st = first_row(db, fmt, ap);
	va_end(ap);
	const unsigned char *t = sqlite3_column_text(st, 0);
	snprintf(out, size, "%s", t ? (const char *)t : "(null)");
	sqlite3_finalize(st);
}

struct store *teststore_open(const char *where, bool create)
{
	err_t err = {0};
	struct store *s = store_open(where, create, err);
	cr_assert_not_null(s, "store_open(%s, %d): %s", where, create, err->msg);
	return s;
}

/* The query's first row through the store, stepped to; the caller
 * finishes st. */
static struct db_stmt *store_row(struct store *s, bool row, const char *fmt, va_list ap)
{
	char sql[1024];
	err_t err = {0};
	int n = vsnprintf(sql, sizeof sql, fmt, ap);
	cr_assert(n >= 0 && (size_t)n < sizeof sql, "a query too long for the test helper");
	struct db_stmt *st = db_prepare(s, sql);
	if (!st)
		db_fail(s, "prepare", err);
	cr_assert_not_null(st, "%s: %s", sql, err->msg);
	int rc = db_step(st);
	if (rc < 0)
		db_fail(s, "step", err);
	cr_assert_eq(rc, row ? 1 : 0, "%s: %s", sql, rc < 0 ? err->msg : "no row");
	return st;
}

int64_t teststore_int(struct store *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct db_stmt *st = store_row(s, true, fmt, ap);
	va_end(ap);
	int64_t v = db_col_int(st, 0);
	db_finish(st);
	return v;
}

double teststore_double(struct store *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct db_stmt *st = store_row(s, true, fmt, ap);
	va_end(ap);
	double v = db_col_double(st, 0);
	db_finish(st);
	return v;
}

void teststore_text(struct store *s, char *out, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct db_stmt *st = store_row(s, true, fmt, ap);
	va_end(ap);
	snprintf(out, size, "%s", db_col_null(st, 0) ? "(null)" : db_col_text(st, 0));
	db_finish(st);
}

void teststore_run(struct store *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	db_finish(store_row(s, false, fmt, ap));
	va_end(ap);
}

void test_target_sqlite(struct test_target *t, const char *prefix)
{
	snprintf(t->dir, sizeof t->dir, "/tmp/%s-XXXXXX", prefix);
	cr_assert_not_null(mkdtemp(t->dir));
	snprintf(t->where, sizeof t->where, "%s/judge.sqlite", t->dir);
}

void test_target_pg(struct test_target *t, const char *prefix)
{
	test_target_sqlite(t, prefix);
	err_t err = {0};
	cr_assert_eq(pg_test_database(t->where, sizeof t->where, err), 0, "%s", err->msg);
}

void test_target_remove(const struct test_target *t)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", t->dir);
	cr_expect_eq(system(cmd), 0);
}

int64_t teststore_submit(struct store *s, const char *game, const char *author, const char *name)
{
	static unsigned version;
	char sha[16];
	err_t err = {0};
	snprintf(sha, sizeof sha, "%08x", ++version);
	struct store_new_submission sub = { .game = game, .author = author, .name = name,
					    .source = "int x;", .source_len = 6,
					    .source_sha256 = sha };
	int64_t id = 0;
	cr_assert_eq(store_submit(s, &sub, &id, err), 0, "%s", err->msg);
	return id;
}

void teststore_qualify(struct store *s, int64_t id, double mu, double sigma)
{
	err_t err = {0};
	struct store_submission sub;
	cr_assert_eq(store_get_submission(s, id, &sub, err), 1, "%s", err->msg);
	cr_assert_eq(store_begin(s, err), 0, "%s", err->msg);
	cr_assert_eq(store_conclude_qualification(s, &sub, true, mu, sigma, err), 0, "%s",
		     err->msg);
	cr_assert_eq(store_commit(s, err), 0, "%s", err->msg);
}
