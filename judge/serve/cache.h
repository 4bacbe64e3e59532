/* cache.h - answers `judge serve` keeps in memory: a match's replay
 * (never changes once recorded) and a leaderboard's public part (kept for
 * a second, so a crowd of readers costs the store one query a second).
 *
 * Promises: thread-safe (one lock, held only to copy); bounded in entries
 * and in bytes, the least recently stored dropped first; cache_get hands
 * out a copy, so a dropped entry never pulls memory from under a reader.
 */
#ifndef JUDGE_SERVE_CACHE_H
#define JUDGE_SERVE_CACHE_H

#include <stddef.h>
#include <stdint.h>

struct cache;

struct cache *cache_new(size_t max_entries, size_t max_bytes);
void cache_free(struct cache *c);

/* A copy of key's bytes (malloc'd, NUL-terminated; *len without the NUL)
 * when stored less than max_age_ms ago (0: whatever its age); NULL when
 * not there, too old or out of memory. */
char *cache_get(struct cache *c, const char *key, int64_t max_age_ms, size_t *len);
/* Stores a copy of len bytes under key, replacing what was there. */
void cache_put(struct cache *c, const char *key, const char *bytes, size_t len);

#endif
