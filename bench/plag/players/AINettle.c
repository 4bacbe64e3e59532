/* AINettle.c
 *
 * Farmers are ray casters: each keeps a heading while the cell ahead is
 * safe and still to paint; otherwise it looks down its four straight rays
 * and turns to the one with the most paintable cells close by.  When every
 * ray shows only our colour it follows a breadth-first field toward the
 * nearest cell that is not ours.  Knights follow another such field, grown
 * from the enemy farmers.  Witches escort: each minds a group of farmers
 * and stands a few steps off the group, on the side of the closest enemy
 * knight.  Board facts are kept in bitsets, one bit per cell.
 */
#include <stdint.h>
#include <string.h>
#include "dominator.h"

PLAYER_NAME(Nettle);

#define SIDE_MAX	99
#define CELLS_MAX	(SIDE_MAX * SIDE_MAX)
#define WORDS		((CELLS_MAX + 63) / 64)
#define RAY		6
#define ESCORT_GAP	4
#define FAR		0x7fff
#define ID_MAX		4096

typedef uint64_t bits_t[WORDS];

#define BIT_ON(b, c)	((b)[(c) >> 6] |= (uint64_t)1 << ((c) & 63))
#define BIT_GET(b, c)	(((b)[(c) >> 6] >> ((c) & 63)) & 1)

static bits_t WALLS, DEADLY, MINE, BOOKED;
static int N;
static short FIELD_PAINT[CELLS_MAX], FIELD_PREY[CELLS_MAX];
static int QUEUE[CELLS_MAX];
static signed char HEADING[ID_MAX];
static const int DI[8] = { 1, 1, 0, -1, -1, -1, 0, 1 };
static const int DJ[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };

static int nt_abs(int x) { return x < 0 ? -x : x; }
static int nt_idx(Pos p) { return p.i * N + p.j; }

static void nt_diamond(bits_t b, Pos c, int r)
{
	int di = -r;
	while (di <= r) {
		int dj = -(r - nt_abs(di));
		while (dj <= r - nt_abs(di)) {
			Pos q = pos(c.i + di, c.j + dj);
			if (pos_ok(q))
				BIT_ON(b, nt_idx(q));
			dj++;
		}
		di++;
	}
}

static int nt_blocked(int c)
{
	return BIT_GET(WALLS, c) || BIT_GET(DEADLY, c);
}

/* Grows a breadth-first distance field from the cells already queued. */
static void nt_grow(short *field, int head, int tail, int steps)
{
	while (head < tail) {
		int c = QUEUE[head++];
		int d = 0;
		while (d < 8) {
			int n = c + DI[d] * N + DJ[d];
			if (!nt_blocked(n) && field[n] == FAR) {
				field[n] = field[c] + 1;
				QUEUE[tail++] = n;
			}
			d += steps;
		}
	}
}

static void nt_survey(void)
{
	int c, tail = 0;

	N = rows();
	memset(WALLS, 0, sizeof WALLS);
	memset(DEADLY, 0, sizeof DEADLY);
	memset(MINE, 0, sizeof MINE);
	memset(BOOKED, 0, sizeof BOOKED);
	for (c = 0; c < N * N; c++) {
		Cell x = cell(pos(c / N, c % N));
		if (x.type == Wall)
			BIT_ON(WALLS, c);
		if (x.haunted)
			BIT_ON(DEADLY, c);
		if (x.owner == me())
			BIT_ON(MINE, c);
	}
	for (int pl = 0; pl < nb_players(); pl++) {
		Ids w = witches(pl);
		for (int k = 0; k < w.n; k++)
			nt_diamond(DEADLY, unit(w.id[k]).pos, pl == me() ? 2 : 3);
	}
	for (c = 0; c < N * N; c++) {
		FIELD_PAINT[c] = FIELD_PREY[c] = FAR;
		if (!nt_blocked(c) && !BIT_GET(MINE, c)) {
			FIELD_PAINT[c] = 0;
			QUEUE[tail++] = c;
		}
	}
	nt_grow(FIELD_PAINT, 0, tail, 2);
	tail = 0;
	for (int pl = 1; pl < nb_players(); pl++) {
		Ids f = farmers(pl);
		for (int k = 0; k < f.n; k++) {
			c = nt_idx(unit(f.id[k]).pos);
			if (FIELD_PREY[c] == FAR) {
				FIELD_PREY[c] = 0;
				QUEUE[tail++] = c;
			}
		}
	}
	nt_grow(FIELD_PREY, 0, tail, 1);
}

static int nt_open(int c)
{
	return !nt_blocked(c) && !BIT_GET(BOOKED, c) && cell(pos(c / N, c % N)).id == -1;
}

static void nt_order(Unit u, int d)
{
	if (d != None)
		BIT_ON(BOOKED, nt_idx(u.pos) + DI[d] * N + DJ[d]);
	command(u.id, (Dir)d);
}

static int nt_ray(int c, int d)
{
	int score = 0, step = 1;
	while (step <= RAY) {
		c += DI[d] * N + DJ[d];
		if (BIT_GET(WALLS, c))
			break;
		if (!BIT_GET(MINE, c))
			score += RAY + 1 - step;
		step++;
	}
	return score;
}

static void nt_farmer(Unit u)
{
	int here = nt_idx(u.pos), h = u.id < ID_MAX ? HEADING[u.id] : 0;
	int ahead = here + DI[h] * N + DJ[h];
	int best = None, top = 0;

	if (nt_open(ahead) && !BIT_GET(MINE, ahead)) {
		nt_order(u, h);
		return;
	}
	for (int k = 0, d = 2 * random_int(0, 3); k < 4; k++, d = (d + 2) % 8) {
		int n = here + DI[d] * N + DJ[d];
		int s = nt_open(n) ? nt_ray(here, d) : 0;
		if (s > top) {
			top = s;
			best = d;
		}
	}
	if (best == None) {
		int low = FIELD_PAINT[here];
		for (int d = 0; d < 8; d += 2) {
			int n = here + DI[d] * N + DJ[d];
			if (nt_open(n) && FIELD_PAINT[n] < low) {
				low = FIELD_PAINT[n];
				best = d;
			}
		}
	}
	if (best != None && u.id < ID_MAX)
		HEADING[u.id] = (signed char)best;
	nt_order(u, best);
}

static void nt_knight(Unit u)
{
	int here = nt_idx(u.pos), best = None, low = 1 << 30;

	for (int d = 0; d < 8; d++) {
		Unit v = unit(cell(pos_move(u.pos, (Dir)d)).id);
		if (v.id != -1 && v.player != me() && v.type != Witch && v.health < low) {
			low = v.health;
			best = d;
		}
	}
	if (best == None && u.health * 5 >= knights_health() * 2) {
		low = FIELD_PREY[here];
		for (int d = 0; d < 8; d++) {
			int n = here + DI[d] * N + DJ[d];
			if (nt_open(n) && FIELD_PREY[n] < low) {
				low = FIELD_PREY[n];
				best = d;
			}
		}
	}
	nt_order(u, best);
}

static int nt_witch_fits(Pos q, int self)
{
	if (!pos_ok(q) || BIT_GET(WALLS, nt_idx(q)) || BIT_GET(BOOKED, nt_idx(q)) || cell(q).id != -1)
		return 0;
	for (int pl = 0; pl < nb_players(); pl++) {
		Ids l[3] = { witches(pl), farmers(pl), knights(pl) };
		for (int t = 0; t < (pl == me() ? 3 : 1); t++)
			for (int k = 0; k < l[t].n; k++) {
				Pos o = unit(l[t].id[k]).pos;
				if (l[t].id[k] != self && nt_abs(o.i - q.i) + nt_abs(o.j - q.j) <= 2)
					return 0;
			}
	}
	return 1;
}

static void nt_witch(Unit u, int which, int count)
{
	Ids f = farmers(me());
	int si = 0, sj = 0, n = 0, far = 1 << 30;
	Pos threat = pos(N / 2, N / 2), spot;

	for (int k = which; k < f.n; k += count, n++) {
		si += unit(f.id[k]).pos.i;
		sj += unit(f.id[k]).pos.j;
	}
	Pos centre = n ? pos(si / n, sj / n) : pos(N / 2, N / 2);
	for (int pl = 1; pl < nb_players(); pl++) {
		Ids kn = knights(pl);
		for (int k = 0; k < kn.n; k++) {
			Pos o = unit(kn.id[k]).pos;
			int d = nt_abs(o.i - centre.i) + nt_abs(o.j - centre.j);
			if (d < far) {
				far = d;
				threat = o;
			}
		}
	}
	int gi = threat.i - centre.i, gj = threat.j - centre.j, len = nt_abs(gi) + nt_abs(gj);
	spot = len ? pos(centre.i + gi * ESCORT_GAP / len, centre.j + gj * ESCORT_GAP / len) : centre;
	if (len > 0 && len < ESCORT_GAP + 3)
		spot = threat;	/* close already: go for the knight itself */

	int best = None, gap = nt_abs(u.pos.i - spot.i) + nt_abs(u.pos.j - spot.j);
	for (int d = 0; d < 8; d += 2) {
		Pos q = pos_move(u.pos, (Dir)d);
		int g = nt_abs(q.i - spot.i) + nt_abs(q.j - spot.j);
		if (g < gap && nt_witch_fits(q, u.id)) {
			gap = g;
			best = d;
		}
	}
	if (best != None)
		nt_diamond(DEADLY, pos_move(u.pos, (Dir)best), 2);
	nt_order(u, best);
}

void play(void)
{
	nt_survey();
	Ids w = witches(me()), kn = knights(me()), f = farmers(me());
	for (int k = 0; k < w.n; k++)
		nt_witch(unit(w.id[k]), k, w.n);
	for (int k = 0; k < kn.n; k++)
		nt_knight(unit(kn.id[k]));
	for (int k = 0; k < f.n; k++)
		nt_farmer(unit(f.id[k]));
}
