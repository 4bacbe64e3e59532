#include "tests/unit/db_testlib.h"

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>

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
