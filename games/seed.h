/* seed.h - the random seeds of one match, all derived from its one seed.
 *
 * Promises: seed_derive(s, purpose, seat) is the first 8 bytes (little
 * endian) of SHA-256 over s (8 bytes, little endian), seat (4 bytes, little
 * endian) and the purpose's bytes.  The same inputs always give the same
 * seed, so one match seed still fixes the whole match; a derived seed tells
 * nothing of the match seed, of another seat's seed or of the engine's
 * (short of trying every match seed, so match seeds must be drawn at random
 * from a large space for that to hold).
 */
#ifndef GAMES_SEED_H
#define GAMES_SEED_H

#include <stdint.h>

/* What a derived seed is for. */
#define SEED_ENGINE "engine" /* the engine's own random stream (seat 0) */
#define SEED_PLAYER "player" /* the seed a seat's start message carries */

uint64_t seed_derive(uint64_t match_seed, const char *purpose, unsigned seat);

/* A match seed nobody can guess: 62 bits from the kernel's random source
 * (it fits a JSON or SQL integer); the judge stores it with the match, so
 * the match can still be replayed. */
uint64_t seed_fresh(void);

#endif
