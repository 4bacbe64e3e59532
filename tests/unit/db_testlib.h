/* db_testlib.h - reading one value back from a SQLite file in a test: the
 * query is formatted as printf does, and a query that fails or returns no
 * row fails the test, naming the query. */
#ifndef DB_TESTLIB_H
#define DB_TESTLIB_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

__attribute__((format(printf, 2, 3)))
int64_t testdb_int(sqlite3 *db, const char *fmt, ...);

/* The text of the first column ("(null)" for NULL), cut to size. */
__attribute__((format(printf, 4, 5)))
void testdb_text(sqlite3 *db, char *out, size_t size, const char *fmt, ...);

#endif
