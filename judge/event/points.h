/* points.h - round-robin groups scored by points per place (the course's
 * final: 4, 3, 2, 1 points for first to last of each match), as pure
 * functions.
 *
 * Promises.  pts_schedule() deals a group's seats: every member sits in
 * every seat as evenly as the number of matches allows, each match with
 * its own seed derived from the phase's seed, so the group's series is
 * the same wherever it is computed.  pts_standings() reads only the
 * recorded matches (a seat of PTS_OPPONENT, filling a group smaller than
 * the game's matches, takes its place and counts for nobody): a player's
 * points are the sum, over its matches, of
 * the points of its place; players who share a place share the mean of
 * the places' points (two tied first of four get 3.5 each).  The order is
 * by points, then by first places, then by the order the group was given
 * (its seeding from the previous phase), so it is total and the same for
 * the same record.
 */
#ifndef JUDGE_POINTS_H
#define JUDGE_POINTS_H

#include <stdint.h>
#include "judge/base/error.h"

#define PTS_SEATS_MAX 8
#define PTS_OPPONENT 0 /* a seat filled by the phase's opponent: it takes its place, scores nothing */

/* One match of a group: who sat in each seat and the rank each got
 * (1 = best; ties share a rank, as games report them). */
struct pts_match {
	int nseats;
	int64_t who[PTS_SEATS_MAX];
	int rank[PTS_SEATS_MAX];
	uint64_t seed;
};

struct pts_row {
	int64_t who;
	double points;
	int matches, firsts;
	int place; /* 1-based; players equal in points and firsts share it */
};

/* Points of each place for a match of n seats: n for the first, down to 1
 * for the last (the course's 4/3/2/1 for four). */
double pts_for_place(int place, int nseats);

/* The `matches` matches of a group of n members (2 to PTS_SEATS_MAX; all
 * of them play every match), seats rotated: match m seats member
 * (s + m) % n in seat s.  out holds `matches` entries. */
void pts_schedule(const int64_t *members, int n, int matches, uint64_t seed,
		  struct pts_match *out);

/* The group's standings from its recorded matches; rows holds one per
 * member, best first.  -1 with err when a match seats somebody who is not
 * a member or has a rank out of range. */
int pts_standings(const int64_t *members, int n, const struct pts_match *played, int nplayed,
		  struct pts_row *rows, err_t err);

#endif
