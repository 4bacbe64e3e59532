/* Dummy: a plain but purposeful colony, the sparring partner above Demo.
 *
 * Every round it takes a snapshot of the board and measures, by
 * breadth-first search, how many steps each cell is from the nearest enemy
 * soldier and from the nearest enemy queen: the only ants that can kill a
 * worker.  Then:
 *   - the queen kills the enemy soldiers and workers that come next to her
 *     (a queen beats both), eats the food next to her, lays a worker
 *     whenever she can afford one (three workers cost what one soldier
 *     costs and score more), and otherwise walks to the middle of the
 *     places where our quadrant's food appears, so that deliveries are
 *     short;
 *   - workers never end a round next to an enemy soldier or queen and run
 *     from one that comes within two steps; free workers and food are
 *     paired greedily by walking distance (the food the queen lacks most
 *     counts as nearer), so no two workers chase one bonus; loaded workers
 *     drop their food next to the queen; idle ones wait near our food
 *     rectangles, off the cells where food appears;
 *   - soldiers hunt enemy workers, never stepping next to an enemy queen.
 * Nobody ever steps onto a cell that holds one of our ants or that another
 * of our ants enters this round: in Ants that is a fight too.
 */
#include <stdlib.h>
#include <string.h>

#include "ants.h"

PLAYER_NAME(Dummy);

#define MAXN 99
#define FAR 1000000
#define MAXF 96      /* food cells planned for in one round */
#define MAXA 1024    /* our ants planned for in one round */
#define QUEEN_ZONE 2 /* food this close to our queen is hers to eat */
#define WANTED_BONUS 4 /* the most wanted food counts this much nearer */
#define WAIT_RADIUS 3  /* idle workers stop this close to a rectangle */

typedef int Field[MAXN][MAXN];

static const int DI[4] = { 1, 0, -1, 0 }; /* by Dir: Down, Right, Up, Left */
static const int DJ[4] = { 0, 1, 0, -1 };

/* ---- the round's snapshot ------------------------------------------------- */

static int nr, nc, my, round_now;
static int at[MAXN][MAXN];      /* ant id, or -1 */
static int food[MAXN][MAXN];    /* BonusType */
static bool wet[MAXN][MAXN];
static bool claimed[MAXN][MAXN]; /* one of our ants enters it (or is born) */
static Field sdist, qdist;       /* steps to the nearest enemy soldier, queen */
static int qid = -1;             /* our queen, or -1 */
static Pos qpos;

/* ---- what we remember ----------------------------------------------------- */

static bool had_food[MAXN][MAXN]; /* food in the previous round */
static bool spot[MAXN][MAXN];     /* food appeared here at a spawn */
/* Bounding box of the spawns seen in each of our rectangles, by bonus. */
static int box_lo_i[3], box_hi_i[3], box_lo_j[3], box_hi_j[3];
static bool box_seen[3];

/* Scratch. */
static Pos queue_buf[MAXN * MAXN];
static Field field_buf[MAXF];
static Field work_field;

static bool inside(int i, int j)
{
	return i >= 0 && j >= 0 && i < nr && j < nc;
}

static bool soil(int i, int j)
{
	return inside(i, j) && !wet[i][j];
}

static Pos step(Pos p, int d)
{
	return pos(p.i + DI[d], p.j + DJ[d]);
}

static int manhattan(Pos a, Pos b)
{
	return abs(a.i - b.i) + abs(a.j - b.j);
}

static int threat(Pos p)
{
	int s = sdist[p.i][p.j], q = qdist[p.i][p.j];
	return s < q ? s : q;
}

/* A cell one of our ants may step on now: soil, nobody there, unclaimed. */
static bool free_cell(Pos p)
{
	return soil(p.i, p.j) && at[p.i][p.j] == -1 && !claimed[p.i][p.j];
}

static bool enemy_at(Pos p, AntType t)
{
	if (!soil(p.i, p.j) || at[p.i][p.j] == -1)
		return false;
	Ant a = ant(at[p.i][p.j]);
	return a.player != my && a.type == t;
}

static bool next_to_queen(Pos p)
{
	return qid >= 0 && manhattan(p, qpos) == 1;
}

/* Steps from the sources over soil.  Ants do not block (they move); cells
 * closer than keep_off to an enemy soldier or queen are not crossed. */
static void flood(const Pos *src, int n, int keep_off, Field d)
{
	for (int i = 0; i < nr; ++i)
		for (int j = 0; j < nc; ++j)
			d[i][j] = FAR;
	int head = 0, tail = 0;
	for (int k = 0; k < n; ++k)
		if (soil(src[k].i, src[k].j) && d[src[k].i][src[k].j] == FAR) {
			d[src[k].i][src[k].j] = 0;
			queue_buf[tail++] = src[k];
		}
	while (head < tail) {
		Pos p = queue_buf[head++];
		for (int dir = 0; dir < 4; ++dir) {
			Pos q = step(p, dir);
			if (!soil(q.i, q.j) || d[q.i][q.j] != FAR ||
			    (keep_off > 0 && threat(q) < keep_off))
				continue;
			d[q.i][q.j] = d[p.i][p.j] + 1;
			queue_buf[tail++] = q;
		}
	}
}

static void flood_from(Pos p, int keep_off, Field d)
{
	flood(&p, 1, keep_off, d);
}

static void scan(void)
{
	nr = rows();
	nc = cols();
	my = me();
	round_now = current_round();
	for (int i = 0; i < nr; ++i)
		for (int j = 0; j < nc; ++j) {
			Cell c = cell(pos(i, j));
			wet[i][j] = c.type == Water;
			at[i][j] = c.id;
			food[i][j] = c.bonus;
			claimed[i][j] = false;
		}
	Ids q = queens(my);
	qid = q.n > 0 ? q.id[0] : -1;
	qpos = qid >= 0 ? ant(qid).pos : pos(-9, -9);
}

/* Distances to the enemy soldiers and to the enemy queens. */
static void measure_threats(void)
{
	static Pos src[2][MAXA];
	int n[2] = { 0, 0 };
	for (int pl = 0; pl < nb_players(); ++pl) {
		if (pl == my)
			continue;
		Ids lists[2] = { soldiers(pl), queens(pl) };
		for (int l = 0; l < 2; ++l)
			for (int k = 0; k < lists[l].n && n[l] < MAXA; ++k)
				src[l][n[l]++] = ant(lists[l].id[k]).pos;
	}
	flood(src[0], n[0], 0, sdist);
	flood(src[1], n[1], 0, qdist);
}

/* Our quadrant: the one where our colony starts. */
static bool in_my_quadrant(int i, int j)
{
	bool bottom = my == 2 || my == 3, right = my == 1 || my == 2;
	bool ok_i = bottom ? i >= nr - nr / 2 : i < nr / 2;
	bool ok_j = right ? j >= nc - nc / 2 : j < nc / 2;
	return ok_i && ok_j;
}

static void note_spawn(int i, int j)
{
	spot[i][j] = true;
	int b = food[i][j];
	if (!in_my_quadrant(i, j) || b < 0 || b > 2)
		return;
	if (!box_seen[b]) {
		box_seen[b] = true;
		box_lo_i[b] = box_hi_i[b] = i;
		box_lo_j[b] = box_hi_j[b] = j;
		return;
	}
	box_lo_i[b] = i < box_lo_i[b] ? i : box_lo_i[b];
	box_hi_i[b] = i > box_hi_i[b] ? i : box_hi_i[b];
	box_lo_j[b] = j < box_lo_j[b] ? j : box_lo_j[b];
	box_hi_j[b] = j > box_hi_j[b] ? j : box_hi_j[b];
}

/* Food that is new right after a spawn round shows where rectangles are;
 * food dropped next to a queen does not. */
static void learn_food(void)
{
	bool spawned = round_now >= 1 && (round_now - 1) % bonus_period() == 0;
	for (int i = 0; i < nr; ++i)
		for (int j = 0; j < nc; ++j) {
			bool has = food[i][j] != NoBonus;
			if (spawned && has && !had_food[i][j] && threat(pos(i, j)) > 1 &&
			    !next_to_queen(pos(i, j)))
				note_spawn(i, j);
			had_food[i][j] = has;
		}
}

static Pos box_centre(int b)
{
	return pos((box_lo_i[b] + box_hi_i[b]) / 2, (box_lo_j[b] + box_hi_j[b]) / 2);
}

/* ---- orders ---------------------------------------------------------------- */

/* Moves ant id from p in direction dir (-1: stays), claiming the cell. */
static void go(int id, Pos p, int dir)
{
	if (dir < 0)
		return;
	Pos q = step(p, dir);
	claimed[q.i][q.j] = true;
	move(id, (Dir)dir);
}

/* ---- the queen ------------------------------------------------------------- */

/* Where the queen settles: amid our food rectangles, on soil. */
static Pos queen_home(void)
{
	int si = 0, sj = 0, n = 0;
	for (int b = 0; b < 3; ++b)
		if (box_seen[b]) {
			Pos c = box_centre(b);
			si += c.i;
			sj += c.j;
			++n;
		}
	if (n == 0)
		return qpos;
	Pos want = pos(si / n, sj / n), best = qpos;
	int bd = FAR;
	for (int i = 0; i < nr; ++i)
		for (int j = 0; j < nc; ++j)
			if (!wet[i][j] && !spot[i][j] && manhattan(pos(i, j), want) < bd) {
				bd = manhattan(pos(i, j), want);
				best = pos(i, j);
			}
	return best;
}

/* The adjacent cell the queen attacks or eats now, or -1. */
static int queen_target(void)
{
	int order[4], best = -1, bv = 0;
	random_permutation(4, order);
	for (int k = 0; k < 4; ++k) {
		Pos p = step(qpos, order[k]);
		int v = 0;
		if (enemy_at(p, Soldier))
			v = 3;
		else if (enemy_at(p, Worker))
			v = 2;
		else if (free_cell(p) && food[p.i][p.j] != NoBonus)
			v = 1;
		if (v > bv) {
			bv = v;
			best = order[k];
		}
	}
	return best;
}

static bool queen_lay(void)
{
	if (!can_lay(qid, Worker))
		return false;
	int order[4], best = -1, bv = -1;
	random_permutation(4, order);
	for (int k = 0; k < 4; ++k) {
		Pos p = step(qpos, order[k]);
		if (!free_cell(p))
			continue;
		int v = (threat(p) >= 3) * 2 + (food[p.i][p.j] == NoBonus);
		if (v > bv) {
			bv = v;
			best = order[k];
		}
	}
	if (best < 0)
		return false;
	Pos p = step(qpos, best);
	claimed[p.i][p.j] = true;
	lay(qid, (Dir)best, Worker);
	return true;
}

/* A step towards food at two steps, else towards home. */
static int queen_walk(void)
{
	Pos home = queen_home();
	int best = -1, bv = manhattan(qpos, home) * 4;
	for (int d = 0; d < 4; ++d) {
		Pos p = step(qpos, d);
		if (!free_cell(p))
			continue;
		int v = 0;
		for (int e = 0; e < 4; ++e) {
			Pos f = step(p, e);
			v -= soil(f.i, f.j) && food[f.i][f.j] != NoBonus && at[f.i][f.j] == -1;
		}
		v = v * 8 + manhattan(p, home) * 4;
		if (v < bv) {
			bv = v;
			best = d;
		}
	}
	return best;
}

static void play_queen(void)
{
	if (qid < 0)
		return;
	if (queens_move_now()) {
		int d = queen_target();
		if (d >= 0) {
			go(qid, qpos, d);
			return;
		}
	}
	if (queen_lay())
		return;
	if (queens_move_now())
		go(qid, qpos, queen_walk());
}

/* ---- workers --------------------------------------------------------------- */

/* How bad it is to end the round on p: 0 safe, 1 an enemy can come next to
 * it, 2 an enemy may strike it now, 3 an enemy may meet it there. */
static int risk(Pos p, bool stay)
{
	int t = threat(p);
	if (t >= 3)
		return 0;
	if (t == 2)
		return 1;
	return stay ? 2 : 3;
}

/* The worker's safest step down field d (-1: stay). */
static int worker_dir(Pos p, Field d)
{
	int order[4], best = -1, br = risk(p, true), bd = d[p.i][p.j];
	random_permutation(4, order);
	for (int k = 0; k < 4; ++k) {
		Pos q = step(p, order[k]);
		if (!free_cell(q))
			continue;
		int r = risk(q, false), dq = d[q.i][q.j];
		if (r < br || (r == br && dq < bd)) {
			best = order[k];
			br = r;
			bd = dq;
		}
	}
	return best;
}

/* Cells where a loaded worker drops its food: next to the queen, bare. */
static void drop_field(Field d)
{
	Pos src[4];
	int n = 0;
	for (int k = 0; k < 4 && qid >= 0; ++k) {
		Pos p = step(qpos, k);
		if (soil(p.i, p.j) && food[p.i][p.j] == NoBonus)
			src[n++] = p;
	}
	flood(src, n, 2, d);
}

static void play_carrier(int id, Pos p)
{
	if (qid < 0)
		return;
	if (next_to_queen(p) && food[p.i][p.j] == NoBonus && risk(p, true) == 0) {
		leave(id);
		return;
	}
	drop_field(work_field);
	go(id, p, worker_dir(p, work_field));
}

/* Food for workers to fetch: not the queen's, not guarded, not under an
 * ant other than a worker of ours. */
static bool fetchable(Pos p)
{
	if (food[p.i][p.j] == NoBonus || threat(p) <= 2)
		return false;
	if (qid >= 0 && manhattan(p, qpos) <= QUEEN_ZONE)
		return false;
	int id = at[p.i][p.j];
	if (id == -1)
		return true;
	Ant a = ant(id);
	return a.player == my && a.type == Worker && a.bonus == NoBonus;
}

/* The bonus richest in the nutrient our queen has least of, or -1. */
static int wanted_bonus(void)
{
	if (qid < 0)
		return -1;
	Ant q = ant(qid);
	int low = 0;
	for (int k = 1; k < 3; ++k)
		if (q.reserve[k] < q.reserve[low])
			low = k;
	int best = 0;
	for (int b = 1; b < 3; ++b)
		if (nutrients((BonusType)b, (Nutrient)low) >
		    nutrients((BonusType)best, (Nutrient)low))
			best = b;
	return best;
}

struct pair {
	int d, w, f;
};

static int pair_cmp(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	return x->d != y->d ? x->d - y->d : x->w != y->w ? x->w - y->w : x->f - y->f;
}

static int nidle;
static int idle_id[MAXA];
static Pos idle_pos[MAXA];

/* Free workers and fetchable food, paired greedily by walking distance;
 * a worker on fetchable food takes it. */
static void fetch_food(const int *wid, const Pos *wp, int nw)
{
	static Pos fp[MAXF];
	static struct pair pairs[MAXA * 4];
	static bool wdone[MAXA], fdone[MAXF];
	int nf = 0, np = 0, want = wanted_bonus();
	for (int i = 0; i < nr; ++i)
		for (int j = 0; j < nc && nf < MAXF; ++j)
			if (fetchable(pos(i, j)))
				fp[nf++] = pos(i, j);
	for (int f = 0; f < nf; ++f) {
		fdone[f] = false;
		flood_from(fp[f], 2, field_buf[f]);
	}
	for (int w = 0; w < nw; ++w) {
		wdone[w] = false;
		for (int f = 0; f < nf && np < MAXA * 4; ++f) {
			int d = field_buf[f][wp[w].i][wp[w].j];
			if (d >= FAR)
				continue;
			d = d * 2 - (food[fp[f].i][fp[f].j] == want ? WANTED_BONUS * 2 : 0);
			pairs[np++] = (struct pair){ d, w, f };
		}
	}
	qsort(pairs, (size_t)np, sizeof *pairs, pair_cmp);
	for (int k = 0; k < np; ++k) {
		int w = pairs[k].w, f = pairs[k].f;
		if (wdone[w] || fdone[f])
			continue;
		wdone[w] = fdone[f] = true;
		if (pos_eq(wp[w], fp[f]) && risk(wp[w], true) == 0)
			take(wid[w]);
		else
			go(wid[w], wp[w], worker_dir(wp[w], field_buf[f]));
	}
	nidle = 0;
	for (int w = 0; w < nw; ++w)
		if (!wdone[w]) {
			idle_id[nidle] = wid[w];
			idle_pos[nidle++] = wp[w];
		}
}

/* A cell an idle worker should not stand on: it blocks the queen or a
 * spawn. */
static bool in_the_way(Pos p)
{
	return next_to_queen(p) || spot[p.i][p.j];
}

/* Idle workers wait near our rectangles, shared out in turn. */
static void play_idle(void)
{
	static Field wait_field[3];
	static Pos centre[3];
	int nb = 0;
	for (int b = 0; b < 3; ++b)
		if (box_seen[b])
			centre[nb++] = box_centre(b);
	if (nb == 0 && qid >= 0)
		centre[nb++] = qpos;
	for (int b = 0; b < nb && nidle > 0; ++b)
		flood_from(centre[b], 2, wait_field[b]);
	for (int k = 0; k < nidle; ++k) {
		Pos p = idle_pos[k];
		if (nb > 0 && manhattan(p, centre[k % nb]) > WAIT_RADIUS) {
			go(idle_id[k], p, worker_dir(p, wait_field[k % nb]));
			continue;
		}
		/* Close enough: stay, unless in danger or in the way. */
		int order[4], dir = -1, br = risk(p, true) + in_the_way(p);
		random_permutation(4, order);
		for (int e = 0; e < 4; ++e) {
			Pos q = step(p, order[e]);
			if (!free_cell(q))
				continue;
			int r = risk(q, false) + in_the_way(q);
			if (r < br) {
				br = r;
				dir = order[e];
			}
		}
		go(idle_id[k], p, dir);
	}
}

static int threat_cmp(const void *a, const void *b)
{
	Pos x = ant(*(const int *)a).pos, y = ant(*(const int *)b).pos;
	return threat(x) - threat(y);
}

static void play_workers(void)
{
	static int ids[MAXA], free_id[MAXA];
	static Pos free_pos[MAXA];
	Ids w = workers(my);
	int n = w.n < MAXA ? w.n : MAXA, nfree = 0;
	memcpy(ids, w.id, (size_t)n * sizeof *ids);
	qsort(ids, (size_t)n, sizeof *ids, threat_cmp); /* most threatened first */
	for (int k = 0; k < n; ++k) {
		Ant a = ant(ids[k]);
		if (a.bonus != NoBonus) {
			play_carrier(a.id, a.pos);
		} else {
			free_id[nfree] = a.id;
			free_pos[nfree++] = a.pos;
		}
	}
	fetch_food(free_id, free_pos, nfree);
	play_idle();
}

/* ---- soldiers -------------------------------------------------------------- */

/* Breadth-first search from a soldier to the nearest enemy worker, keeping
 * off the cells next to enemy queens; the first step is free or an attack.
 * Returns the first direction, or -1. */
static int hunt_dir(Pos from)
{
	static int first[MAXN][MAXN];
	Field *d = &work_field;
	for (int i = 0; i < nr; ++i)
		for (int j = 0; j < nc; ++j)
			(*d)[i][j] = FAR;
	int head = 0, tail = 0, order[4];
	random_permutation(4, order);
	(*d)[from.i][from.j] = 0;
	queue_buf[tail++] = from;
	while (head < tail) {
		Pos p = queue_buf[head++];
		bool at_start = pos_eq(p, from);
		for (int k = 0; k < 4; ++k) {
			Pos q = step(p, order[k]);
			if (!soil(q.i, q.j) || (*d)[q.i][q.j] != FAR || qdist[q.i][q.j] < 2)
				continue;
			bool prey = enemy_at(q, Worker);
			if (at_start && !prey && !free_cell(q))
				continue;
			(*d)[q.i][q.j] = (*d)[p.i][p.j] + 1;
			first[q.i][q.j] = at_start ? order[k] : first[p.i][p.j];
			if (prey)
				return first[q.i][q.j];
			queue_buf[tail++] = q;
		}
	}
	return -1;
}

static void play_soldiers(void)
{
	Ids s = soldiers(my);
	for (int k = 0; k < s.n; ++k) {
		Pos p = ant(s.id[k]).pos;
		go(s.id[k], p, hunt_dir(p));
	}
}

void play(void)
{
	scan();
	measure_threats();
	learn_food();
	play_queen();
	play_workers();
	play_soldiers();
}
