/* lazy_mhd.c - GNU libmicrohttpd's functions `judge serve` calls, loaded
 * on the first call (judge/base/lazy_load.h); the prototypes are
 * microhttpd.h's. */
#include "judge/serve/lazy_mhd.h"

#include "judge/base/lazy_load.h"

#include <microhttpd.h>
#include <stdarg.h>

static struct lazy_lib mhd = { JUDGE_SONAME_MHD, "GNU libmicrohttpd", NULL };

int mhd_require(err_t err)
{
	return lazy_require(&mhd, err);
}

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
