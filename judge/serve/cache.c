/* cache.c - a small bounded cache of byte strings (cache.h). */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/serve/cache.h"
#include "judge/store/store.h"

struct entry {
	char key[64];
	char *bytes;
	size_t len;
	int64_t stored_ms;
	uint64_t order; /* when stored: the smallest goes first */
};

struct cache {
	pthread_mutex_t lock;
	struct entry *e;
	size_t n, max_entries, bytes, max_bytes;
	uint64_t clock;
};

struct cache *cache_new(size_t max_entries, size_t max_bytes)
{
	struct cache *c = calloc(1, sizeof *c);
	if (!c || !(c->e = calloc(max_entries, sizeof *c->e))) {
		free(c);
		return NULL;
	}
	pthread_mutex_init(&c->lock, NULL);
	c->max_entries = max_entries;
	c->max_bytes = max_bytes;
	return c;
}

void cache_free(struct cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		free(c->e[i].bytes);
	free(c->e);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

static struct entry *find(struct cache *c, const char *key)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->e[i].key, key) == 0)
			return &c->e[i];
	return NULL;
}

char *cache_get(struct cache *c, const char *key, int64_t max_age_ms, size_t *len)
{
	char *copy = NULL;
	pthread_mutex_lock(&c->lock);
	struct entry *e = find(c, key);
	if (e && (max_age_ms == 0 || store_now_ms() - e->stored_ms < max_age_ms) &&
	    (copy = malloc(e->len + 1))) {
		memcpy(copy, e->bytes, e->len);
		copy[e->len] = 0;
		*len = e->len;
	}
	pthread_mutex_unlock(&c->lock);
	return copy;
}

static void drop(struct cache *c, struct entry *e)
{
	c->bytes -= e->len;
	free(e->bytes);
	*e = c->e[--c->n];
}

static void drop_oldest(struct cache *c)
{
	struct entry *oldest = &c->e[0];
	for (size_t i = 1; i < c->n; i++)
		if (c->e[i].order < oldest->order)
			oldest = &c->e[i];
	drop(c, oldest);
}

void cache_put(struct cache *c, const char *key, const char *bytes, size_t len)
{
	if (strlen(key) >= sizeof c->e->key || len > c->max_bytes)
		return;
	char *copy = malloc(len ? len : 1);
	if (!copy)
		return;
	memcpy(copy, bytes, len);
	pthread_mutex_lock(&c->lock);
	struct entry *old = find(c, key);
	if (old)
		drop(c, old);
	while (c->n && (c->n == c->max_entries || c->bytes + len > c->max_bytes))
		drop_oldest(c);
	struct entry *e = &c->e[c->n++];
	snprintf(e->key, sizeof e->key, "%s", key);
	e->bytes = copy;
	e->len = len;
	e->stored_ms = store_now_ms();
	e->order = ++c->clock;
	c->bytes += len;
	pthread_mutex_unlock(&c->lock);
}
