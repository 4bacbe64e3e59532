/* db_testlib.h - reading one value back from a SQLite file in a test, or
 * from a store on either backend (teststore_*, SQL both understand): the
 * query is formatted as printf does, and a query that fails or returns no
 * row fails the test, naming the query. */
#ifndef DB_TESTLIB_H
#define DB_TESTLIB_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

__attribute__((format(printf, 2, 3)))
int64_t testdb_int(sqlite3 *db, const char *fmt, ...);

/* The text of the first column ("(null)" for NULL), cut to size. */
__attribute__((format(printf, 4, 5)))
void testdb_text(sqlite3 *db, char *out, size_t size, const char *fmt, ...);

/* A Criterion test whose body runs on both backends: Test(SUITE, NAME) on
 * SQLite, Test(SUITE_pg, NAME) on PostgreSQL (the suites' fixtures open
 * the store). */
#define BOTH(suite, name)                               \
	static void suite##_##name(void);               \
	Test(suite, name) { suite##_##name(); }         \
	Test(suite##_pg, name) { suite##_##name(); }    \
	static void suite##_##name(void)

struct store;

/* The store at where (a SQLite path or a PostgreSQL URL), created when
 * create is set; failing to open it fails the test, naming where. */
struct store *teststore_open(const char *where, bool create);

/* Where a test's store lives: a fresh folder, and in it a SQLite file
 * (test_target_sqlite) or, for the PostgreSQL suites, a fresh database on
 * the tests' private server (test_target_pg); test_target_remove deletes
 * the folder.  prefix names the folder (/tmp/PREFIX-XXXXXX). */
struct test_target {
	char dir[64];
	char where[512];
};
void test_target_sqlite(struct test_target *t, const char *prefix);
void test_target_pg(struct test_target *t, const char *prefix);
void test_target_remove(const struct test_target *t);

__attribute__((format(printf, 2, 3)))
int64_t teststore_int(struct store *s, const char *fmt, ...);
__attribute__((format(printf, 2, 3)))
double teststore_double(struct store *s, const char *fmt, ...);
__attribute__((format(printf, 4, 5)))
void teststore_text(struct store *s, char *out, size_t size, const char *fmt, ...);
/* A statement that returns no rows. */
__attribute__((format(printf, 2, 3)))
void teststore_run(struct store *s, const char *fmt, ...);

/* A new version of the player's file (each call's hash differs), stored
 * with its compile job: its id. */
int64_t teststore_submit(struct store *s, const char *game, const char *author,
			 const char *name);
/* The submission qualified at (mu, sigma): in the ranked pool, its
 * player's older submissions out of it. */
void teststore_qualify(struct store *s, int64_t id, double mu, double sigma);

#endif
