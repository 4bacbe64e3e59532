/* players.h (student kit) - the players linked into the local runner.
 *
 * Each player is linked LOCAL_SEATS times, one copy per seat, so that the
 * same player in two seats keeps two separate states, as two processes
 * would on the judge: copy i's entry points are local_NAME_start_i and
 * local_NAME_turn_i (the kit's own, renamed by the Makefile).  The
 * Makefile writes players.c: LOCAL_DECLARE(Name) for each player, then
 * local_players[] of LOCAL_ENTRY(Name), ended by { 0 }.
 */
#ifndef KIT_LOCAL_PLAYERS_H
#define KIT_LOCAL_PLAYERS_H

#include <stddef.h>
#include <stdint.h>

#ifndef LOCAL_SEATS
#error "LOCAL_SEATS (the game's largest number of players) comes from kit.mk"
#endif

typedef int (*local_start_fn)(const uint8_t *msg, size_t len);
typedef long (*local_turn_fn)(const uint8_t *msg, size_t len, uint8_t *out, size_t cap);

struct local_player {
	const char *name;
	local_start_fn start[LOCAL_SEATS];
	local_turn_fn turn[LOCAL_SEATS];
};

extern const struct local_player local_players[];

#if LOCAL_SEATS == 4
#define LOCAL_COPIES(F, X) F(X, 0) F(X, 1) F(X, 2) F(X, 3)
#elif LOCAL_SEATS == 6
#define LOCAL_COPIES(F, X) F(X, 0) F(X, 1) F(X, 2) F(X, 3) F(X, 4) F(X, 5)
#else
#error "LOCAL_SEATS is 4 or 6"
#endif

#define LOCAL_PROTOTYPES(X, i)                                                      \
	int local_##X##_start_##i(const uint8_t *, size_t);                       \
	long local_##X##_turn_##i(const uint8_t *, size_t, uint8_t *, size_t);
#define LOCAL_START(X, i) local_##X##_start_##i,
#define LOCAL_TURN(X, i) local_##X##_turn_##i,

#define LOCAL_DECLARE(X) LOCAL_COPIES(LOCAL_PROTOTYPES, X)
#define LOCAL_ENTRY(X) { #X, { LOCAL_COPIES(LOCAL_START, X) }, { LOCAL_COPIES(LOCAL_TURN, X) } },

#endif
