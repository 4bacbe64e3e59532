/* lazy_pq.c - the PostgreSQL client library's functions the store calls,
 * loaded when the store requires them (lazy_pq.h); the prototypes are
 * libpq-fe.h's. */
#include "judge/store/lazy_pq.h"

#include "judge/base/lazy_load.h"

#include <libpq-fe.h>

static struct lazy_lib pq = { JUDGE_SONAME_PQ, "the PostgreSQL client library (libpq)", NULL };

int pq_require(err_t err)
{
	return lazy_require(&pq, err);
}

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

