/* lazy_libs.h - libpq, libcurl and libmicrohttpd loaded on first use.
 *
 * Promises.  The programs are not linked with these three libraries:
 * loading them and the thirty libraries they pull in (Kerberos, LDAP,
 * GnuTLS, SSH...) is most of what starting the judge costs, and most
 * commands (judge play, compile, replay) never call them.  lazy_libs.c
 * defines each of their functions the judge calls, with the prototype of
 * the library's own header; the first call loads the library by its
 * soname (the one the build found, JUDGE_SONAME_PQ, _CURL, _MHD) and
 * every call then goes straight to the library's function.  A library
 * that cannot be loaded ends the program with a message saying which and
 * what to install, as the dynamic loader would have at its start.
 *
 * The loaded libraries and the functions found in them are the process's,
 * as the dynamic loader's own tables are; calls from any thread are safe.
 *
 * A new call into one of the three libraries needs its line in
 * lazy_libs.c: without it the link fails, naming the function.
 */
#ifndef JUDGE_LAZY_LIBS_H
#define JUDGE_LAZY_LIBS_H

#endif
