#include "judge/base/lazy_libs.h"

/* the plain prototype of curl_easy_setopt, not its type-checking macro */
#define CURL_DISABLE_TYPECHECK 1

#include <curl/curl.h>
#include <dlfcn.h>
#include <libpq-fe.h>
#include <microhttpd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct lazy_lib {
	const char *soname, *what;
	void *handle;
};

static struct lazy_lib pq = { JUDGE_SONAME_PQ, "the PostgreSQL client library (libpq)", NULL };
static struct lazy_lib curl = { JUDGE_SONAME_CURL, "libcurl", NULL };
static struct lazy_lib mhd = { JUDGE_SONAME_MHD, "GNU libmicrohttpd", NULL };

__attribute__((noreturn)) static void missing(const struct lazy_lib *lib, const char *why)
{
	fprintf(stderr, "judge: cannot load %s (%s): %s; install it (scripts/deps.sh does)\n",
		lib->what, lib->soname, why);
	exit(2);
}

/* The library's function `name`; the library is loaded on the first call.
 * Two threads may both load it: dlopen() counts, and both get one handle. */
static void *lazy_symbol(struct lazy_lib *lib, const char *name)
{
	void *h = __atomic_load_n(&lib->handle, __ATOMIC_ACQUIRE);
	if (!h) {
		h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
		if (!h)
			missing(lib, dlerror());
		__atomic_store_n(&lib->handle, h, __ATOMIC_RELEASE);
	}
	void *fn = dlsym(h, name);
	if (!fn)
		missing(lib, dlerror());
	return fn;
}

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

/* ---- libpq ----------------------------------------------------------------- */

LAZY_VOID(pq, PQclear, (PGresult *res), (res))
LAZY(pq, char *, PQcmdTuples, (PGresult *res), (res))
LAZY(pq, PGconn *, PQconnectdb, (const char *conninfo), (conninfo))
LAZY(pq, int, PQconnectionNeedsPassword, (const PGconn *conn), (conn))
LAZY(pq, char *, PQdb, (const PGconn *conn), (conn))
LAZY(pq, char *, PQerrorMessage, (const PGconn *conn), (conn))
LAZY(pq, PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query))
LAZY(pq, PGresult *, PQexecParams,
     (PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
      const char *const *paramValues, const int *paramLengths, const int *paramFormats,
      int resultFormat),
     (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats,
      resultFormat))
LAZY(pq, PGresult *, PQexecPrepared,
     (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues,
      const int *paramLengths, const int *paramFormats, int resultFormat),
     (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat))
LAZY_VOID(pq, PQfinish, (PGconn *conn), (conn))
LAZY_VOID(pq, PQfreemem, (void *ptr), (ptr))
LAZY(pq, Oid, PQftype, (const PGresult *res, int field_num), (res, field_num))
LAZY(pq, int, PQgetisnull, (const PGresult *res, int tup_num, int field_num),
     (res, tup_num, field_num))
LAZY(pq, char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num),
     (res, tup_num, field_num))
LAZY(pq, char *, PQhost, (const PGconn *conn), (conn))
LAZY(pq, int, PQnfields, (const PGresult *res), (res))
LAZY(pq, int, PQntuples, (const PGresult *res), (res))
LAZY(pq, char *, PQport, (const PGconn *conn), (conn))
LAZY(pq, PGresult *, PQprepare,
     (PGconn *conn, const char *stmtName, const char *query, int nParams,
      const Oid *paramTypes),
     (conn, stmtName, query, nParams, paramTypes))
LAZY_VOID(pq, PQreset, (PGconn *conn), (conn))
LAZY(pq, char *, PQresultErrorMessage, (const PGresult *res), (res))
LAZY(pq, ExecStatusType, PQresultStatus, (const PGresult *res), (res))
LAZY(pq, PQnoticeProcessor, PQsetNoticeProcessor,
     (PGconn *conn, PQnoticeProcessor proc, void *arg), (conn, proc, arg))
LAZY(pq, ConnStatusType, PQstatus, (const PGconn *conn), (conn))
LAZY(pq, PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn), (conn))
LAZY(pq, unsigned char *, PQunescapeBytea, (const unsigned char *strtext, size_t *retbuflen),
     (strtext, retbuflen))

/* ---- libcurl --------------------------------------------------------------- */

LAZY_VOID(curl, curl_easy_cleanup, (CURL *h), (h))
LAZY(curl, CURL *, curl_easy_init, (void), ())
LAZY(curl, CURLcode, curl_easy_perform, (CURL *h), (h))
LAZY(curl, const char *, curl_easy_strerror, (CURLcode code), (code))
LAZY_VOID(curl, curl_global_cleanup, (void), ())
LAZY(curl, CURLcode, curl_global_init, (long flags), (flags))
LAZY(curl, struct curl_slist *, curl_slist_append, (struct curl_slist *list, const char *data),
     (list, data))
LAZY_VOID(curl, curl_slist_free_all, (struct curl_slist *list), (list))
LAZY(curl, CURLU *, curl_url, (void), ())
LAZY_VOID(curl, curl_url_cleanup, (CURLU *h), (h))
LAZY(curl, CURLUcode, curl_url_set, (CURLU *h, CURLUPart what, const char *part, unsigned flags),
     (h, what, part, flags))
LAZY(curl, const char *, curl_url_strerror, (CURLUcode code), (code))

typedef CURLcode (*curl_setopt_fn)(CURL *, CURLoption, ...);
typedef CURLcode (*curl_getinfo_fn)(CURL *, CURLINFO, ...);
static curl_setopt_fn lazy_curl_easy_setopt;
static curl_getinfo_fn lazy_curl_easy_getinfo;

/* The one argument after the option has the type the option's number
 * says (curl.h: CURLOPTTYPE_*), and goes on as that type. */
CURLcode curl_easy_setopt(CURL *h, CURLoption option, ...)
{
	LAZY_FN(curl, curl_easy_setopt, fn)
	va_list ap;
	va_start(ap, option);
	CURLcode rc;
	if (option < CURLOPTTYPE_OBJECTPOINT)
		rc = fn(h, option, va_arg(ap, long));
	else if (option < CURLOPTTYPE_FUNCTIONPOINT)
		rc = fn(h, option, va_arg(ap, void *));
	else if (option < CURLOPTTYPE_OFF_T)
		rc = fn(h, option, va_arg(ap, void (*)(void)));
	else if (option < CURLOPTTYPE_BLOB)
		rc = fn(h, option, va_arg(ap, curl_off_t));
	else
		rc = fn(h, option, va_arg(ap, void *));
	va_end(ap);
	return rc;
}

/* Every CURLINFO is read through one pointer. */
CURLcode curl_easy_getinfo(CURL *h, CURLINFO info, ...)
{
	LAZY_FN(curl, curl_easy_getinfo, fn)
	va_list ap;
	va_start(ap, info);
	CURLcode rc = fn(h, info, va_arg(ap, void *));
	va_end(ap);
	return rc;
}

/* ---- libmicrohttpd --------------------------------------------------------- */

LAZY(mhd, enum MHD_Result, MHD_add_connection,
     (struct MHD_Daemon *d, MHD_socket client_socket, const struct sockaddr *addr,
      socklen_t addrlen),
     (d, client_socket, addr, addrlen))
LAZY(mhd, int, MHD_get_connection_values,
     (struct MHD_Connection *c, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator,
      void *iterator_cls),
     (c, kind, iterator, iterator_cls))
LAZY(mhd, enum MHD_Result, MHD_add_response_header,
     (struct MHD_Response *response, const char *header, const char *content),
     (response, header, content))
LAZY(mhd, struct MHD_Response *, MHD_create_response_from_buffer,
     (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), (size, buffer, mode))
LAZY_VOID(mhd, MHD_destroy_response, (struct MHD_Response *response), (response))
LAZY(mhd, const char *, MHD_lookup_connection_value,
     (struct MHD_Connection *c, enum MHD_ValueKind kind, const char *key), (c, kind, key))
LAZY(mhd, enum MHD_Result, MHD_queue_response,
     (struct MHD_Connection *c, unsigned int status_code, struct MHD_Response *response),
     (c, status_code, response))
LAZY_VOID(mhd, MHD_stop_daemon, (struct MHD_Daemon *d), (d))
LAZY(mhd, struct MHD_Daemon *, MHD_start_daemon_va,
     (unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls,
      MHD_AccessHandlerCallback dh, void *dh_cls, va_list ap),
     (flags, port, apc, apc_cls, dh, dh_cls, ap))

struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port,
				    MHD_AcceptPolicyCallback apc, void *apc_cls,
				    MHD_AccessHandlerCallback dh, void *dh_cls, ...)
{
	va_list ap;
	va_start(ap, dh_cls);
	struct MHD_Daemon *d = MHD_start_daemon_va(flags, port, apc, apc_cls, dh, dh_cls, ap);
	va_end(ap);
	return d;
}

/* The library reads no argument after the kind for the kinds there are
 * (its "..." is for kinds to come), so none goes on. */
typedef const union MHD_ConnectionInfo *(*mhd_conn_info_fn)(struct MHD_Connection *,
							       enum MHD_ConnectionInfoType, ...);
typedef const union MHD_DaemonInfo *(*mhd_daemon_info_fn)(struct MHD_Daemon *,
							     enum MHD_DaemonInfoType, ...);
static mhd_conn_info_fn lazy_MHD_get_connection_info;
static mhd_daemon_info_fn lazy_MHD_get_daemon_info;

const union MHD_ConnectionInfo *MHD_get_connection_info(struct MHD_Connection *c,
							enum MHD_ConnectionInfoType type, ...)
{
	LAZY_FN(mhd, MHD_get_connection_info, fn)
	return fn(c, type);
}

const union MHD_DaemonInfo *MHD_get_daemon_info(struct MHD_Daemon *d,
						enum MHD_DaemonInfoType type, ...)
{
	LAZY_FN(mhd, MHD_get_daemon_info, fn)
	return fn(d, type);
}
