/* listener.c - judge serve's listener and limits (serve.h): the daemon
 * behind the door (door.c), RFC 9112's framing rules, request bodies read
 * under a cap, the per-token rate, one store connection per serving
 * thread. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "judge/base/grow.h"
#include "judge/base/safe_text.h"
#include "judge/serve/gate.h"
#include "judge/serve/lazy_mhd.h"
#include "judge/serve/serve_int.h"

#define RATE_SLOTS 4096
#define RATE_WINDOW_MS 60000
#define CACHE_ENTRIES 256
#define CACHE_BYTES ((size_t)128 << 20)
/* The access log shows a method's first METHOD_SHOWN characters and keeps
 * a few more, to tell a longer one (marked "...") from one that fits. */
#define METHOD_SHOWN 16
#define METHOD_KEPT (METHOD_SHOWN + 8)

/* Requests counted per key (a token's hash, or an address) in the current
 * minute, in the slot the key hashes to.  Two keys landing in one slot
 * while both are active share its count: a rare and harmless over-count. */
struct rate_slot {
	int64_t window;
	unsigned count;
};

struct serve {
	struct serve_options opt;
	char queue[4096], host[64];
	struct MHD_Daemon *daemon;
	struct door *door;
	char *viewer_policy;        /* csp_viewer_policy() */
	pthread_mutex_t lock;       /* guards stores and rate */
	struct store **stores;      /* idle connections to the store */
	size_t nstores;
	struct rate_slot *rate;
	struct cache *cache;
};

/* One connection's request, from its first byte to its reply. */
struct exchange {
	char *raw;                  /* the URI as sent (up to a NUL) */
	const char *raw_end;        /* where that NUL is in MHD's buffer */
	bool started;
	char *body;
	size_t len, cap;
	bool too_big;
	/* For the access log: */
	int64_t started_ns;
	char method[METHOD_KEPT];    /* as sent, maybe cut: log_exchange shows less */
	unsigned status;
	size_t sent;
	char who[64];               /* the token's author, or "-" */
};

/* ---- the store connections ----------------------------------------------- */

static struct store *store_borrow(struct serve *sv, err_t err)
{
	pthread_mutex_lock(&sv->lock);
	struct store *s = sv->nstores ? sv->stores[--sv->nstores] : NULL;
	pthread_mutex_unlock(&sv->lock);
	return s ? s : store_open(sv->queue, false, err);
}

/* Kept for the next request, or closed when the pool is full. */
static void store_return(struct serve *sv, struct store *s)
{
	pthread_mutex_lock(&sv->lock);
	bool kept = s && sv->nstores < sv->opt.limits.threads + 1;
	if (kept)
		sv->stores[sv->nstores++] = s;
	pthread_mutex_unlock(&sv->lock);
	if (!kept)
		store_close(s);
}

/* ---- the request rate ------------------------------------------------------ */

static uint64_t key_hash(const char *key)
{
	uint64_t h = 1469598103934665603ull;
	for (; *key; key++)
		h = (h ^ (unsigned char)*key) * 1099511628211ull;
	return h;
}

/* true when key may make one more request this minute. */
static bool rate_take(struct serve *sv, const char *key)
{
	int64_t window = store_now_ms() / RATE_WINDOW_MS;
	pthread_mutex_lock(&sv->lock);
	struct rate_slot *r = &sv->rate[key_hash(key) % RATE_SLOTS];
	if (r->window != window) {
		r->count = 0;
		r->window = window;
	}
	bool ok = r->count < sv->opt.limits.per_minute;
	if (ok)
		r->count++;
	pthread_mutex_unlock(&sv->lock);
	return ok;
}

static void client_address(struct MHD_Connection *c, char out[64])
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c,
		MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	snprintf(out, 64, "?");
	if (!ci || !ci->client_addr)
		return;
	const struct sockaddr *sa = ci->client_addr;
	if (sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, out, 64);
	else if (sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, out, 64);
}

/* ---- replies ------------------------------------------------------------------- */

/* Queues rp's answer; with close, the connection ends after it (its
 * framing is not to be trusted, or its body was not read). */
static enum MHD_Result send_reply(struct serve *sv, struct MHD_Connection *c,
				  struct exchange *ex, struct reply *rp, bool close)
{
	door_answering(sv->door, c);
	const char *body = rp->body ? rp->body : rp->static_body ? rp->static_body : "";
	size_t len = rp->body || rp->static_body ? rp->len : 0;
	ex->status = rp->status;
	ex->sent = len;
	struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)body,
		rp->body ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
	if (!r) {
		free(rp->body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				rp->type ? rp->type : "application/json; charset=utf-8");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
	if (rp->policy)
		MHD_add_response_header(r, "Content-Security-Policy", rp->policy);
	if (close)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
	if (rp->encoding) {
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, rp->encoding);
		MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, MHD_HTTP_HEADER_ACCEPT_ENCODING);
	}
	if (*rp->allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, rp->allow);
	char disposition[80];
	if (*rp->filename) {
		snprintf(disposition, sizeof disposition, "attachment; filename=\"%s\"", rp->filename);
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_DISPOSITION, disposition);
	}
	if (rp->status == 401)
		MHD_add_response_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer");
	if (rp->status == 429)
		MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, "60");
	enum MHD_Result ok = MHD_queue_response(c, rp->status, r);
	MHD_destroy_response(r);
	return ok;
}

/* A request refused before it is handled: its connection ends. */
__attribute__((format(printf, 5, 6)))
static enum MHD_Result refuse(struct serve *sv, struct MHD_Connection *c, struct exchange *ex,
			      unsigned status, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	struct reply rp = { 0 };
	reply_error(&rp, status, "%s", msg);
	return send_reply(sv, c, ex, &rp, true);
}

/* ---- one request --------------------------------------------------------------- */

static bool takes_body(const char *method)
{
	return strcmp(method, "POST") == 0 || strcmp(method, "PUT") == 0 ||
	       strcmp(method, "PATCH") == 0;
}

/* ---- framing (RFC 9112, section 6) ---------------------------------------------- */

/* The headers that say where a body ends, and whether every name is a token. */
struct framing {
	unsigned lengths, encodings;
	const char *encoding;
	bool bad_name;
};

static bool token_char(char c)
{
	return isalnum((unsigned char)c) || (c && strchr("!#$%&'*+-.^_`|~", c));
}

static enum MHD_Result framing_header(void *cls, enum MHD_ValueKind kind, const char *key,
				      const char *value)
{
	(void)kind;
	struct framing *f = cls;
	const char *k = key;
	while (token_char(*k))
		k++;
	f->bad_name |= k == key || *k;
	if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0)
		f->lengths++;
	if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
		f->encodings++;
		f->encoding = value ? value : "";
	}
	return MHD_YES;
}

/* A Transfer-Encoding list: NULL when it is "chunked", else why not. */
static const char *coding_refused(const char *list, unsigned *status)
{
	unsigned chunked = 0, other = 0;
	for (const char *p = list;; p++) {
		p += strspn(p, " \t");
		size_t n = strcspn(p, ","), m = n;
		while (m && (p[m - 1] == ' ' || p[m - 1] == '\t'))
			m--;
		if (m == 7 && strncasecmp(p, "chunked", 7) == 0)
			chunked++;
		else
			other++;
		p += n;
		if (!*p)
			break;
	}
	*status = other ? 501 : 400;
	if (other)
		return "this server takes no Transfer-Encoding but chunked: send the body as it "
		       "is, with Content-Length";
	return chunked > 1 ? "Transfer-Encoding names chunked twice" : NULL;
}

/* NULL when the request says plainly where its body ends; else why not,
 * with the status (400, or 501 for a coding this server does not know). */
static const char *framing_refused(struct MHD_Connection *c, const char *version,
				   unsigned *status)
{
	struct framing f = { 0 };
	MHD_get_connection_values(c, MHD_HEADER_KIND, framing_header, &f);
	*status = 400;
	if (f.bad_name)
		return "a header name holds a space or a character HTTP does not allow "
		       "(no space may come before the colon)";
	if (f.lengths > 1)
		return "the request has more than one Content-Length header: send one";
	if (!f.encodings)
		return NULL;
	if (f.lengths)
		return "the request has both Content-Length and Transfer-Encoding: send one of them";
	if (f.encodings > 1)
		return "the request has more than one Transfer-Encoding header: send one";
	if (strcmp(version, MHD_HTTP_VERSION_1_0) == 0)
		return "HTTP/1.0 has no Transfer-Encoding: send Content-Length";
	return coding_refused(f.encoding, status);
}

/* The first call: refuse what is wrong before reading any body. */
static enum MHD_Result first_look(struct serve *sv, struct MHD_Connection *c,
				  struct exchange *ex, const char *method, const char *version)
{
	ex->started = true;
	snprintf(ex->method, sizeof ex->method, "%s", method);
	if (!version || (strcmp(version, MHD_HTTP_VERSION_1_1) != 0 &&
			 strcmp(version, MHD_HTTP_VERSION_1_0) != 0))
		return refuse(sv, c, ex, 400, "the request line must end with HTTP/1.0 or HTTP/1.1");
	unsigned status;
	const char *bad_framing = framing_refused(c, version, &status);
	if (bad_framing)
		return refuse(sv, c, ex, status, "%s", bad_framing);
	/* MHD keeps the request line in one buffer, the version right after
	 * the target and its one separator: a version further on means a raw
	 * NUL byte cut the target short, hiding the rest of the path. */
	if (ex->raw_end && version > ex->raw_end + 1 && version < ex->raw_end + 8192)
		return refuse(sv, c, ex, 400, "the path holds a NUL byte");
	const char *why = route_path_refused(ex->raw ? ex->raw : "");
	if (why)
		return refuse(sv, c, ex, 400, "%s", why);
	if (!takes_body(method))
		return MHD_YES;
	const char *length = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_CONTENT_LENGTH);
	const char *chunked = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							  MHD_HTTP_HEADER_TRANSFER_ENCODING);
	if (!length && !chunked)
		return refuse(sv, c, ex, 411, "a request with a body needs a Content-Length header");
	char *end;
	errno = 0;
	unsigned long long n = length ? strtoull(length, &end, 10) : 0;
	if (length && (errno || *end || n > sv->opt.limits.body_bytes))
		return refuse(sv, c, ex, 413, "the body is larger than the %llu KiB this server takes: "
			      "send a smaller file", (unsigned long long)sv->opt.limits.body_bytes / 1024);
	return MHD_YES;
}

/* Appends a piece of the body, or notes that it went past the cap (a
 * chunked body has no length to refuse it by up front). */
static void take_body(struct serve *sv, struct exchange *ex, const char *data, size_t n)
{
	if (ex->too_big || ex->len + n > sv->opt.limits.body_bytes) {
		ex->too_big = true;
		return;
	}
	if (!grow_room(&ex->body, &ex->cap, ex->len + n + 1, 1, 4096)) {
		ex->too_big = true;
		return;
	}
	memcpy(ex->body + ex->len, data, n);
	ex->len += n;
	ex->body[ex->len] = 0;
}

/* The rate key: the token when it works, else the client's address. */
static bool within_rate(struct serve *sv, const struct request *rq)
{
	char key[72];
	if (rq->authed)
		snprintf(key, sizeof key, "t%lld", (long long)rq->who.id);
	else
		client_address(rq->conn, key);
	return rate_take(sv, key);
}

static enum MHD_Result answer(struct serve *sv, struct MHD_Connection *c, struct exchange *ex,
			      const char *url, const char *method)
{
	if (ex->too_big)
		return refuse(sv, c, ex, 413, "the body is larger than the %llu KiB this server takes: "
			      "send a smaller file", (unsigned long long)sv->opt.limits.body_bytes / 1024);
	err_t err;
	struct request rq = { .opt = &sv->opt, .method = method, .path = url, .raw = ex->raw,
			      .conn = c, .cache = sv->cache, .viewer_policy = sv->viewer_policy,
			      .body = ex->body ? ex->body : "", .body_len = ex->len };
	rq.store = store_borrow(sv, err);
	if (!rq.store)
		return refuse(sv, c, ex, 503,
			      "the judge's store cannot be opened (%s): try again later", err->msg);
	struct reply rp = { 0 };
	/* Counted before the token is judged: guessing tokens costs requests
	 * from the guesser's address like anything else. */
	int known = auth_identify(&rq, &rp);
	if (!within_rate(sv, &rq))
		reply_error(&rp, 429, "too many requests: at most %u a minute; wait a minute",
			    sv->opt.limits.per_minute);
	else if (known == 0)
		route_request(&rq, &rp);
	store_return(sv, rq.store);
	if (rq.authed)
		snprintf(ex->who, sizeof ex->who, "%s", rq.who.author);
	return send_reply(sv, c, ex, &rp, false);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version,
				  const char *upload, size_t *upload_size, void **con_cls)
{
	struct serve *sv = cls;
	struct exchange *ex = *con_cls;
	if (!ex)
		return MHD_NO; /* the URI callback always runs first */
	if (!ex->started)
		return first_look(sv, c, ex, method, version);
	if (*upload_size) {
		take_body(sv, ex, upload, *upload_size);
		*upload_size = 0;
		return MHD_YES;
	}
	return answer(sv, c, ex, url, method);
}

/* ---- the access log ------------------------------------------------------------ */

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A field a client chose (the method, the path, an author): every byte
 * that is not printable, and space, quote and backslash, as \xNN, so that
 * a line can neither forge another nor drive a terminal; at most max
 * characters of s shown, then "..." when s goes on. */
static void log_field(FILE *f, const char *s, size_t max)
{
	size_t n = strlen(s), i = 0;
	for (size_t shown = 0; i < n && shown < max; shown++) {
		bool printable;
		size_t k = text_char((const unsigned char *)s + i, n - i, &printable);
		if (printable && !strchr(" \"\\", s[i])) {
			fwrite(s + i, 1, k, f);
			i += k;
		} else {
			fprintf(f, "\\x%02x", (unsigned char)s[i++]);
		}
	}
	if (i < n) /* cut short */
		fputs("...", f);
}

/* One line per request: when it started (UTC), the client, the method,
 * the path as sent, the status, the body's bytes, how long it took, the
 * token's author ("-": none), and "cut" when the client went away first.
 * The stream is locked for the line, so the threads' lines stay whole. */
static void log_exchange(FILE *f, struct MHD_Connection *c, const struct exchange *ex,
			 enum MHD_RequestTerminationCode why)
{
	char when[32], client[64];
	time_t t = (time_t)(ex->started_ns / 1000000000);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
	client_address(c, client);
	flockfile(f);
	fprintf(f, "%s.%03dZ %s ", when, (int)(ex->started_ns / 1000000 % 1000), client);
	log_field(f, ex->method, METHOD_SHOWN);
	fputc(' ', f);
	log_field(f, ex->raw ? ex->raw : "", 512);
	fprintf(f, " %u %zu %.1fms ", ex->status, ex->sent, (double)(now_ns() - ex->started_ns) / 1e6);
	log_field(f, *ex->who ? ex->who : "-", 64);
	fputs(why == MHD_REQUEST_TERMINATED_COMPLETED_OK ? "\n" : " cut\n", f);
	fflush(f);
	funlockfile(f);
}

/* Runs before MHD decodes the URI: the raw form is what path tricks hide in. */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *c)
{
	(void)cls;
	(void)c;
	struct exchange *ex = calloc(1, sizeof *ex);
	if (ex) {
		ex->started_ns = now_ns();
		ex->raw = strndup(uri, 8192);
		ex->raw_end = uri + strlen(uri);
	}
	return ex;
}

static void on_done(void *cls, struct MHD_Connection *c, void **con_cls,
		    enum MHD_RequestTerminationCode why)
{
	struct serve *sv = cls;
	struct exchange *ex = *con_cls;
	door_waiting(sv->door, c);
	if (ex && ex->started && sv->opt.access_log)
		log_exchange(sv->opt.access_log, c, ex, why);
	if (ex) {
		free(ex->raw);
		free(ex->body);
		free(ex);
	}
	*con_cls = NULL;
}

/* ---- the daemon ------------------------------------------------------------------- */

int serve_parse_listen(const char *spec, char *host, size_t host_len, uint16_t *port,
		       err_t err)
{
	const char *colon = strrchr(spec, ':');
	char *end;
	long p = colon ? strtol(colon + 1, &end, 10) : -1;
	if (!colon || colon[1] == 0 || *end || p < 0 || p > 65535) {
		err_set(err, "--listen %s: give HOST:PORT, as 127.0.0.1:8080", spec);
		return -1;
	}
	const char *h = spec;
	size_t n = (size_t)(colon - spec);
	if (n >= 2 && h[0] == '[' && h[n - 1] == ']') {
		h++;
		n -= 2;
	}
	if (n >= host_len) {
		err_set(err, "--listen %s: the host is too long", spec);
		return -1;
	}
	snprintf(host, host_len, "%.*s", (int)n, n ? h : "0.0.0.0");
	if (!n)
		snprintf(host, host_len, "0.0.0.0");
	*port = (uint16_t)p;
	return 0;
}

static int start_daemon(struct serve *sv, err_t err)
{
	if (mhd_require(err) < 0)
		return -1;
	const struct cfg_serve *l = &sv->opt.limits;
	struct gate_limits gl = { .connections = l->connections, .per_address = l->per_ip,
				  .reserved = l->reserved, .request_ms = (int64_t)l->request_s * 1000 };
	sv->door = door_open(sv->host, sv->opt.port, &gl, err);
	if (!sv->door)
		return -1;
	/* MHD listens on nothing: the door takes each connection, and the gate's
	 * limits are the ones that hold (MHD's own only guard against a slip). */
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_NO_LISTEN_SOCKET |
			 MHD_USE_ITC;
	sv->daemon = MHD_start_daemon(flags, 0, NULL, NULL, on_request, sv,
		MHD_OPTION_THREAD_POOL_SIZE, (unsigned)l->threads,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned)l->connections * 2 + l->threads,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)l->timeout_s,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)l->header_bytes,
		MHD_OPTION_STRICT_FOR_CLIENT, (int)1,
		MHD_OPTION_URI_LOG_CALLBACK, on_uri, sv,
		MHD_OPTION_NOTIFY_COMPLETED, on_done, sv,
		MHD_OPTION_NOTIFY_CONNECTION, door_notify, sv->door,
		MHD_OPTION_END);
	if (!sv->daemon) {
		err_set(err, "cannot start the HTTP server's threads (%s)",
			 strerror(errno));
		return -1;
	}
	return door_start(sv->door, sv->daemon, err);
}

struct serve *serve_start(const struct serve_options *o, err_t err)
{
	struct serve *sv = calloc(1, sizeof *sv);
	if (!sv) {
		err_set(err, "out of memory");
		return NULL;
	}
	sv->opt = *o;
	snprintf(sv->queue, sizeof sv->queue, "%s", o->queue);
	snprintf(sv->host, sizeof sv->host, "%s", o->host ? o->host : "127.0.0.1");
	sv->opt.queue = sv->queue;
	sv->opt.host = sv->host;
	pthread_mutex_init(&sv->lock, NULL);
	sv->stores = calloc(o->limits.threads + 1, sizeof *sv->stores);
	sv->rate = calloc(RATE_SLOTS, sizeof *sv->rate);
	sv->cache = cache_new(CACHE_ENTRIES, CACHE_BYTES);
	sv->viewer_policy = csp_viewer_policy(err);
	if (!sv->viewer_policy) {
		serve_stop(sv);
		return NULL;
	}
	bool allocated = sv->stores && sv->rate && sv->cache;
	/* One connection now: a wrong --queue is said at start, not per request. */
	struct store *first = allocated ? store_open(sv->queue, true, err) : NULL;
	if (!first) {
		if (!allocated)
			err_set(err, "out of memory");
		serve_stop(sv);
		return NULL;
	}
	sv->stores[sv->nstores++] = first;
	if (start_daemon(sv, err) < 0) {
		serve_stop(sv);
		return NULL;
	}
	return sv;
}

uint16_t serve_port(const struct serve *sv)
{
	return door_port(sv->door);
}

void serve_stop(struct serve *sv)
{
	if (!sv)
		return;
	door_stop(sv->door); /* first no new connections, then none at all */
	if (sv->daemon)
		MHD_stop_daemon(sv->daemon);
	door_close(sv->door);
	free(sv->viewer_policy);
	for (size_t i = 0; i < sv->nstores; i++)
		store_close(sv->stores[i]);
	free(sv->stores);
	free(sv->rate);
	cache_free(sv->cache);
	pthread_mutex_destroy(&sv->lock);
	free(sv);
}
