/* lazy_load.h - a shared library loaded on the first call into it.
 *
 * Promises.  The programs are not linked with libpq, libcurl or
 * libmicrohttpd: loading them and the thirty libraries they pull in
 * (Kerberos, LDAP, GnuTLS, SSH...) is most of what starting the judge
 * costs, and most commands (judge play, compile, replay) never call them.
 * The part that uses a library defines each of its functions the judge
 * calls, with the prototype of the library's own header, by LAZY() or
 * LAZY_VOID() (judge/store/lazy_pq.c, judge/notify/lazy_curl.c,
 * judge/serve/lazy_mhd.c, and curl's URL parser in
 * judge/base/lazy_curl_url.c).  The first call loads the library by its
 * soname (the one the build found: JUDGE_SONAME_PQ, _CURL, _MHD) and
 * every call then goes straight to the library's function.  Before its
 * first call into a library a part calls lazy_require() (through its
 * lazy file's *_require function): the library and every function the
 * judge calls in it are found then, or the part returns the error, which
 * names the library and what to install.  After that no call can fail to
 * find its function.  A call no part required first loads the library
 * itself and, if it cannot, aborts with the same message: a part that
 * forgot its lazy_require, a bug.
 *
 * The loaded libraries and the functions found in them are the process's,
 * as the dynamic loader's own tables are; calls from any thread are safe.
 *
 * A new call into one of the libraries needs its LAZY() line: without it
 * the link fails, naming the function.
 */
#ifndef JUDGE_LAZY_LOAD_H
#define JUDGE_LAZY_LOAD_H

#include "judge/base/error.h"

/* One library: its soname, what to call it in a message, and its handle
 * once loaded (NULL before). */
struct lazy_lib {
	const char *soname, *what;
	void *handle;
};

/* One function of a library that the judge calls, and where its address
 * is kept.  LAZY() puts one in the section judge_lazy for each forwarder,
 * so that lazy_require() finds them all. */
struct lazy_fn {
	struct lazy_lib *lib;
	const char *name;
	void **slot;
};

/* Loads lib and finds every function of it that the judge calls: 0, or
 * -1 with err naming what is missing and what to install. */
int lazy_require(struct lazy_lib *lib, err_t err);

/* The library's function `name`, for a call no part required first;
 * aborts when either cannot be found. */
void *lazy_symbol(struct lazy_lib *lib, const char *name);

#define LAZY_ENTRY(lib, name)                                                          \
	static const struct lazy_fn lazy_entry_##name                                  \
		__attribute__((used, section("judge_lazy"), aligned(sizeof(void *)))) = { \
			&lib, #name, (void **)&lazy_##name                             \
		};

/* fn: the function, found once and kept in lazy_NAME. */
#define LAZY_FN(lib, name, fn)                                                         \
	__typeof__(lazy_##name) fn = __atomic_load_n(&lazy_##name, __ATOMIC_ACQUIRE);  \
	if (!fn) {                                                                     \
		fn = (__typeof__(lazy_##name))lazy_symbol(&lib, #name);                \
		__atomic_store_n(&lazy_##name, fn, __ATOMIC_RELEASE);                  \
	}

/* A forwarder: ret name(params) { return real(args); }, and one for a
 * function that returns nothing. */
#define LAZY(lib, ret, name, params, args)                                             \
	static ret(*lazy_##name) params;                                               \
	LAZY_ENTRY(lib, name)                                                          \
	ret name params                                                                \
	{                                                                              \
		LAZY_FN(lib, name, fn)                                                 \
		return fn args;                                                        \
	}
#define LAZY_VOID(lib, name, params, args)                                             \
	static void(*lazy_##name) params;                                              \
	LAZY_ENTRY(lib, name)                                                          \
	void name params                                                               \
	{                                                                              \
		LAZY_FN(lib, name, fn)                                                 \
		fn args;                                                               \
	}

#endif
