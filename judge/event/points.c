/* points.c - groups scored by points per place (points.h). */
#include "judge/event/points.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "games/seed.h"

double pts_for_place(int place, int nseats)
{
	return place >= 1 && place <= nseats ? nseats + 1 - place : 0;
}

void pts_schedule(const int64_t *members, int n, int matches, uint64_t seed,
		  struct pts_match *out)
{
	for (int m = 0; m < matches; m++) {
		out[m] = (struct pts_match){ .nseats = n,
					     .seed = seed_derive(seed, "group match", (unsigned)m) >> 2 };
		for (int s = 0; s < n; s++)
			out[m].who[s] = members[(s + m) % n];
	}
}

static int member_index(const int64_t *members, int n, int64_t who)
{
	for (int i = 0; i < n; i++)
		if (members[i] == who)
			return i;
	return -1;
}

/* Seats that share a rank share the mean of the points of the places they
 * fill: k seats at rank r fill places r .. r + k - 1. */
static double shared_points(const struct pts_match *m, int seat)
{
	int r = m->rank[seat], k = 0;
	for (int s = 0; s < m->nseats; s++)
		k += m->rank[s] == r;
	double sum = 0;
	for (int p = r; p < r + k; p++)
		sum += pts_for_place(p, m->nseats);
	return sum / k;
}

static int add_match(const int64_t *members, int n, const struct pts_match *m,
		     struct pts_row *rows, err_t err)
{
	for (int s = 0; s < m->nseats; s++) {
		if (m->who[s] == PTS_OPPONENT)
			continue;
		int i = member_index(members, n, m->who[s]);
		if (i < 0 || m->rank[s] < 1 || m->rank[s] > m->nseats) {
			err_set(err, "a group match seats %lld with rank %d: %s",
				 (long long)m->who[s], m->rank[s],
				 i < 0 ? "not a member of the group" : "rank out of range");
			return -1;
		}
		rows[i].points += shared_points(m, s);
		rows[i].matches++;
		rows[i].firsts += m->rank[s] == 1;
	}
	return 0;
}

/* Best first: points, then first places, then the group's given order
 * (kept by the stable merge below). */
static bool better(const struct pts_row *a, const struct pts_row *b)
{
	if (a->points != b->points)
		return a->points > b->points;
	return a->firsts > b->firsts;
}

static void sort_rows(struct pts_row *rows, int n)
{
	for (int i = 1; i < n; i++) { /* insertion sort: stable, groups are small */
		struct pts_row r = rows[i];
		int j = i;
		for (; j > 0 && better(&r, &rows[j - 1]); j--)
			rows[j] = rows[j - 1];
		rows[j] = r;
	}
	for (int i = 0; i < n; i++)
		rows[i].place = i > 0 && !better(&rows[i - 1], &rows[i]) ? rows[i - 1].place : i + 1;
}

int pts_standings(const int64_t *members, int n, const struct pts_match *played, int nplayed,
		  struct pts_row *rows, err_t err)
{
	for (int i = 0; i < n; i++)
		rows[i] = (struct pts_row){ .who = members[i] };
	for (int k = 0; k < nplayed; k++)
		if (add_match(members, n, &played[k], rows, err) < 0)
			return -1;
	sort_rows(rows, n);
	return 0;
}
