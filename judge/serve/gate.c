/* gate.c - the connection limits and request deadlines (gate.h).  The
 * open connections in an array indexed by socket (the kernel gives the
 * lowest free numbers, so it stays about as long as the connections are
 * many), the count per address in a search tree. */
#include "judge/serve/gate.h"

#include <netinet/in.h>
#include <pthread.h>
#include <search.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* An address as counted: IPv4 whole, IPv6 its first 64 bits. */
struct addr_key {
	uint8_t bytes[9];
};

struct addr_count {
	struct addr_key key;
	unsigned n;
};

struct conn {
	bool open;
	bool receiving;      /* a request is (or may be) on its way */
	bool cut;            /* handed to cut(): not again */
	int64_t since_ms;    /* when its request clock started */
	struct addr_key key;
};

struct gate {
	struct gate_limits limits;
	pthread_mutex_t lock;
	struct conn *conns;  /* by socket */
	size_t nconns;
	unsigned open;
	void *counts;        /* tsearch tree of struct addr_count */
};

static struct addr_key addr_key_of(const struct sockaddr *sa)
{
	static const uint8_t v4_mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	struct addr_key k = { { 0 } };
	if (sa && sa->sa_family == AF_INET) {
		k.bytes[0] = 4;
		memcpy(k.bytes + 1, &((const struct sockaddr_in *)sa)->sin_addr, 4);
	} else if (sa && sa->sa_family == AF_INET6) {
		const uint8_t *a = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
		bool mapped = memcmp(a, v4_mapped, sizeof v4_mapped) == 0;
		k.bytes[0] = mapped ? 4 : 6;
		memcpy(k.bytes + 1, mapped ? a + 12 : a, mapped ? 4 : 8);
	}
	return k;
}

static int count_cmp(const void *a, const void *b)
{
	return memcmp(&((const struct addr_count *)a)->key, &((const struct addr_count *)b)->key,
		      sizeof(struct addr_key));
}

static struct addr_count *count_find(struct gate *g, const struct addr_key *k)
{
	struct addr_count probe = { .key = *k };
	struct addr_count **found = tfind(&probe, &g->counts, count_cmp);
	return found ? *found : NULL;
}

struct gate *gate_new(const struct gate_limits *limits)
{
	struct gate *g = calloc(1, sizeof *g);
	if (!g)
		return NULL;
	g->limits = *limits;
	pthread_mutex_init(&g->lock, NULL);
	return g;
}

void gate_free(struct gate *g)
{
	if (!g)
		return;
	tdestroy(g->counts, free);
	free(g->conns);
	pthread_mutex_destroy(&g->lock);
	free(g);
}

static enum gate_verdict verdict(const struct gate *g, unsigned held)
{
	const struct gate_limits *l = &g->limits;
	if (g->open >= l->connections)
		return GATE_FULL;
	if (held >= l->per_address)
		return GATE_ADDRESS_FULL;
	if (g->open + l->reserved >= l->connections && held >= GATE_RESERVE_SHARE)
		return GATE_RESERVED;
	return GATE_ADMIT;
}

/* The array reaches socket fd. */
static bool conns_reach(struct gate *g, int fd)
{
	if ((size_t)fd < g->nconns)
		return true;
	size_t n = g->nconns ? g->nconns : 64;
	while (n <= (size_t)fd)
		n *= 2;
	struct conn *grown = realloc(g->conns, n * sizeof *grown);
	if (!grown)
		return false;
	memset(grown + g->nconns, 0, (n - g->nconns) * sizeof *grown);
	g->conns = grown;
	g->nconns = n;
	return true;
}

/* One more connection of k: its count, or NULL out of memory. */
static struct addr_count *count_add(struct gate *g, const struct addr_key *k)
{
	struct addr_count *c = count_find(g, k);
	if (c)
		return c;
	c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->key = *k;
	if (!tsearch(c, &g->counts, count_cmp)) {
		free(c);
		return NULL;
	}
	return c;
}

enum gate_verdict gate_admit(struct gate *g, int fd, const struct sockaddr *sa, int64_t now_ms)
{
	struct addr_key k = addr_key_of(sa);
	pthread_mutex_lock(&g->lock);
	struct addr_count *c = count_find(g, &k);
	enum gate_verdict v = fd < 0 ? GATE_NO_MEMORY : verdict(g, c ? c->n : 0);
	if (v == GATE_ADMIT && (!conns_reach(g, fd) || g->conns[fd].open || !(c = count_add(g, &k))))
		v = GATE_NO_MEMORY;
	if (v == GATE_ADMIT) {
		c->n++;
		g->open++;
		g->conns[fd] = (struct conn){ .open = true, .receiving = true, .since_ms = now_ms,
					      .key = k };
	}
	pthread_mutex_unlock(&g->lock);
	return v;
}

/* fd's entry when it is open, else NULL: called with the lock held. */
static struct conn *conn_of(struct gate *g, int fd)
{
	return fd >= 0 && (size_t)fd < g->nconns && g->conns[fd].open ? &g->conns[fd] : NULL;
}

void gate_forget(struct gate *g, int fd)
{
	pthread_mutex_lock(&g->lock);
	struct conn *cn = conn_of(g, fd);
	struct addr_count *c = cn ? count_find(g, &cn->key) : NULL;
	if (cn) {
		cn->open = false;
		g->open--;
	}
	if (c && --c->n == 0) {
		tdelete(c, &g->counts, count_cmp);
		free(c);
	}
	pthread_mutex_unlock(&g->lock);
}

void gate_answering(struct gate *g, int fd)
{
	pthread_mutex_lock(&g->lock);
	struct conn *cn = conn_of(g, fd);
	if (cn)
		cn->receiving = false;
	pthread_mutex_unlock(&g->lock);
}

void gate_waiting(struct gate *g, int fd, int64_t now_ms)
{
	pthread_mutex_lock(&g->lock);
	struct conn *cn = conn_of(g, fd);
	if (cn) {
		cn->receiving = true;
		cn->since_ms = now_ms;
	}
	pthread_mutex_unlock(&g->lock);
}

void gate_cut_overdue(struct gate *g, int64_t now_ms, void (*cut)(int fd, void *arg), void *arg)
{
	pthread_mutex_lock(&g->lock);
	for (size_t fd = 0; fd < g->nconns; fd++) {
		struct conn *cn = &g->conns[fd];
		if (cn->open && cn->receiving && !cn->cut &&
		    now_ms - cn->since_ms > g->limits.request_ms) {
			cn->cut = true;
			cut((int)fd, arg);
		}
	}
	pthread_mutex_unlock(&g->lock);
}

unsigned gate_count(struct gate *g, const struct sockaddr *sa)
{
	struct addr_key k = addr_key_of(sa);
	pthread_mutex_lock(&g->lock);
	struct addr_count *c = sa ? count_find(g, &k) : NULL;
	unsigned n = sa ? (c ? c->n : 0) : g->open;
	pthread_mutex_unlock(&g->lock);
	return n;
}
