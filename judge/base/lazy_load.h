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
 * every call then goes straight to the library's function.  A library
 * that cannot be loaded ends the program with a message saying which and
 * what to install, as the dynamic loader would have at its start.
 *
 * The loaded libraries and the functions found in them are the process's,
 * as the dynamic loader's own tables are; calls from any thread are safe.
 *
 * A new call into one of the libraries needs its LAZY() line: without it
 * the link fails, naming the function.
 */
#ifndef JUDGE_LAZY_LOAD_H
#define JUDGE_LAZY_LOAD_H

/* One library: its soname, what to call it in a message, and its handle
 * once loaded (NULL before). */
struct lazy_lib {
	const char *soname, *what;
	void *handle;
};

/* The library's function `name`; the library is loaded on the first call.
 * Ends the program when either cannot be found. */
void *lazy_symbol(struct lazy_lib *lib, const char *name);

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
	ret name params                                                                \
	{                                                                              \
		LAZY_FN(lib, name, fn)                                                 \
		return fn args;                                                        \
	}
#define LAZY_VOID(lib, name, params, args)                                             \
	static void(*lazy_##name) params;                                              \
	void name params                                                               \
	{                                                                              \
		LAZY_FN(lib, name, fn)                                                 \
		fn args;                                                               \
	}

#endif
