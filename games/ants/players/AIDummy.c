/* Dummy: a plain but purposeful colony, the sparring partner above Demo.
 *
 * Every round it takes a snapshot of the board and measures, by
 * breadth-first search, how many steps each cell is from the nearest enemy
 * soldier and from the nearest enemy queen: the only ants that can kill a
 * worker.  Then:
 *   - food is shared out: the queen and the free workers are paired with
 *     the food on the ground, cheapest pair first, by the rounds it takes
 *     to get it eaten (a queen walks at half speed but eats on the spot; a
 *     worker must also carry it back) less what it is worth to the queen
 *     given the food already on its way (the scarcest nutrient counts), so
 *     no two ants chase one bonus;
 *   - the queen, whom no soldier can beat, kills the enemy soldiers and
 *     workers that come next to her, walks to her food, lays a worker
 *     whenever she can afford one (three workers cost what one soldier
 *     costs and score more), and otherwise settles amid our quadrant's
 *     food rectangles, which the spawns reveal;
 *   - workers never end a round next to an enemy soldier or queen and run
 *     from one that comes within two steps; loaded workers drop their food
 *     near the queen; idle ones wait near our food rectangles, off the
 *     cells where food appears;
 *   - two soldiers besiege the queen of the enemy colony heading for the
 *     best score, from opposite diagonals: her workers keep off soldiers,
 *     so none can feed her, and her newborn appear within reach; the other
 *     soldiers hunt enemy workers.  Soldiers never step where an enemy
 *     soldier could step too (both would die) nor next to an enemy queen.
 * Nobody ever steps onto a cell that holds one of our ants or that another
 * of our ants enters this round: in Ants that is a fight too.
 */
#include <stdlib.h>
#include <string.h>

#include "ants.h"

PLAYER_NAME(Dummy);

#define MAXN 99
#define FAR 1000000
#define MAXF 96          /* food cells planned for in one round */
#define MAXA 1024        /* our ants planned for in one round */
#define MAX_ORDERS 1000  /* orders a round, by the rules */
#define CHEAP_SHARE 0.6  /* past this share of our CPU budget, skip searches */
#define QUEEN_ZONE 2     /* food this close to our queen is hers to eat */
#define QUEEN_REACH 40   /* the queen walks this far for food */
#define GAIN_WEIGHT 3    /* rounds a point of potential() is worth */
#define WAIT_RADIUS 3    /* idle workers stop this close to a rectangle */
#define SOLDIER_RATIO 2  /* a soldier egg while soldiers * this < workers */
#define SOLDIER_SLACK 50 /* a soldier egg while its life ends this late */
#define SIEGERS 2        /* soldiers besieging the leading enemy queen */
#define SIEGE_SWITCH 10  /* besiege another colony once it is 1/this ahead */
#define SAFE 3           /* steps from an enemy that no enemy can cross now */

typedef int Field[MAXN][MAXN];
typedef const int (*FieldRef)[MAXN]; /* a Field passed around, read only */

static const int DI[4] = { 1, 0, -1, 0 }; /* by Dir: Down, Right, Up, Left */
static const int DJ[4] = { 0, 1, 0, -1 };

/* ---- the round's snapshot ------------------------------------------------- */

static int nr, nc, my, round_now;
static int at[MAXN][MAXN];       /* ant id, or -1 */
static int food[MAXN][MAXN];     /* BonusType */
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
static int box_version; /* grows when a box does */

/* ---- the round's plan ----------------------------------------------------- */

static int nfood;
static Pos food_pos[MAXF];
/* Walking distances for workers, from whichever is fewer (the searches
 * are most of our time): each food, or each free worker (then from the
 * queen for the way back). */
static Field field_buf[MAXF];
static bool by_worker;
static Field back_field;
static int goal_of[MAXA];      /* the food of each free worker, or -1 */
static int queen_goal;         /* the queen's food, or -1 */

/* Scratch. */
static Pos queue_buf[MAXN * MAXN];
static Field work_field;

static bool inside(int i, int j)
{
	return i >= 0 && j >= 0 && i < nr && j < nc;
}

static bool soil(int i, int j)
{
	return inside(i, j) && !wet[i][j];
}

/* The neighbour of p in direction d (a local copy of pos_move: the
 * searches call it very often). */
static Pos step(Pos p, int d)
{
	return (Pos){ p.i + DI[d], p.j + DJ[d] };
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

/* How an ant that is crossing cells keeps off enemies. */
enum keep { KEEP_NONE, KEEP_ALL, KEEP_QUEENS, KEEP_QUEENS_ANTS, KEEPS };

/* Cells a search may cross, by keep: soil, and not next to the enemies it
 * keeps off (set once a round, for speed). */
static bool open_cell[KEEPS][MAXN][MAXN];

static void set_open_cells(void)
{
	for (int i = 0; i < nr; ++i)
		for (int j = 0; j < nc; ++j) {
			open_cell[KEEP_NONE][i][j] = !wet[i][j];
			open_cell[KEEP_ALL][i][j] = !wet[i][j] && threat(pos(i, j)) >= 2;
			open_cell[KEEP_QUEENS][i][j] = !wet[i][j] && qdist[i][j] >= 2;
			/* The queen walks round ants: one that stays put (a soldier
			 * with nothing to hunt) would block her for good. */
			open_cell[KEEP_QUEENS_ANTS][i][j] = open_cell[KEEP_QUEENS][i][j] && at[i][j] == -1;
		}
}

/* Steps from the sources over soil.  Ants do not block (they move); cells
 * next to the enemies named by keep are not crossed. */
static void flood(const Pos *src, int n, enum keep keep, Field d)
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
	bool(*open)[MAXN] = open_cell[keep];
	while (head < tail) {
		Pos p = queue_buf[head++];
		int next = d[p.i][p.j] + 1;
		for (int dir = 0; dir < 4; ++dir) {
			int i = p.i + DI[dir], j = p.j + DJ[dir];
			if (!inside(i, j) || !open[i][j] || d[i][j] != FAR)
				continue;
			d[i][j] = next;
			queue_buf[tail++] = (Pos){ i, j };
		}
	}
}

static void flood_from(Pos p, enum keep keep, Field d)
{
	flood(&p, 1, keep, d);
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
			open_cell[KEEP_NONE][i][j] = !wet[i][j];
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
	flood(src[0], n[0], KEEP_NONE, sdist);
	flood(src[1], n[1], KEEP_NONE, qdist);
	set_open_cells();
}

/* ---- where food appears --------------------------------------------------- */

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
	++box_version;
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
			    manhattan(pos(i, j), qpos) > QUEEN_ZONE)
				note_spawn(i, j);
			had_food[i][j] = has;
		}
}

static Pos box_centre(int b)
{
	return pos((box_lo_i[b] + box_hi_i[b]) / 2, (box_lo_j[b] + box_hi_j[b]) / 2);
}

/* ---- sharing the food out --------------------------------------------------- */

/* Food on the ground that one of ours may get: not guarded by an enemy,
 * free or under a free worker of ours. */
static bool food_to_get(Pos p)
{
	if (food[p.i][p.j] == NoBonus || qdist[p.i][p.j] <= 2)
		return false;
	int id = at[p.i][p.j];
	if (id == -1)
		return true;
	Ant a = ant(id);
	return a.player == my && a.type == Worker && a.bonus == NoBonus;
}

static bool queens_food(Pos p)
{
	return qid >= 0 && manhattan(p, qpos) <= QUEEN_ZONE;
}

/* ---- nutrients ---- */

static int stock[3]; /* what the queen will have: reserve, food on its way */

static void add_food(int *r, int bonus)
{
	for (int n = 0; n < 3; ++n)
		r[n] += nutrients((BonusType)bonus, (Nutrient)n);
}

/* How far nutrients r take the queen: four points per worker egg, one per
 * egg's worth of the second scarcest nutrient (what the next food needs to
 * pair with). */
static int potential(const int *r)
{
	int eggs[3], k = 0;
	for (int n = 0; n < 3; ++n) {
		int need = needed(Worker, (Nutrient)n);
		if (need > 0)
			eggs[k++] = r[n] / need;
	}
	if (k == 0)
		return 0;
	for (int a = 0; a < k; ++a) /* sort the (at most three) counts */
		for (int b = a + 1; b < k; ++b)
			if (eggs[b] < eggs[a]) {
				int t = eggs[a];
				eggs[a] = eggs[b];
				eggs[b] = t;
			}
	return 4 * eggs[0] + (k > 1 ? eggs[1] : 0);
}

static int food_gain(int bonus)
{
	int r[3] = { stock[0], stock[1], stock[2] };
	add_food(r, bonus);
	return potential(r) - potential(stock);
}

/* The queen's reserve plus the food our workers carry and the food in her
 * zone: what she will have without further search. */
static void count_stock(void)
{
	memset(stock, 0, sizeof stock);
	if (qid < 0)
		return;
	Ant q = ant(qid);
	for (int n = 0; n < 3; ++n)
		stock[n] = q.reserve[n];
	Ids w = workers(my);
	for (int k = 0; k < w.n; ++k) {
		Ant a = ant(w.id[k]);
		if (a.bonus != NoBonus)
			add_food(stock, a.bonus);
	}
	for (int i = qpos.i - QUEEN_ZONE; i <= qpos.i + QUEEN_ZONE; ++i)
		for (int j = qpos.j - QUEEN_ZONE; j <= qpos.j + QUEEN_ZONE; ++j)
			if (inside(i, j) && food[i][j] != NoBonus && manhattan(pos(i, j), qpos) <= QUEEN_ZONE)
				add_food(stock, food[i][j]);
}

/* ---- pairing ---- */

struct pair {
	int rounds, who, f; /* who: a free worker's index, or -1 for the queen */
};

/* Food the workers leave alone: the queen's, or guarded. */
static bool workers_skip(Pos p)
{
	return queens_food(p) || sdist[p.i][p.j] <= 2;
}

/* Rounds until worker w at p gets food f eaten, or FAR. */
static int worker_cost(int w, Pos p, int f)
{
	Pos fp = food_pos[f];
	if (workers_skip(fp))
		return FAR;
	int d = by_worker ? field_buf[w][fp.i][fp.j] : field_buf[f][p.i][p.j];
	if (d >= FAR)
		return FAR;
	int back = qid < 0 ? 0 : by_worker ? back_field[fp.i][fp.j] : field_buf[f][qpos.i][qpos.j];
	return d + (back < FAR ? back : manhattan(fp, qpos));
}

/* The field a worker walks down to food f (scratch in worker mode). */
static FieldRef food_field(int f)
{
	if (!by_worker)
		return field_buf[f];
	flood_from(food_pos[f], KEEP_ALL, work_field);
	return work_field;
}

static int list_pairs(const Pos *wp, int nw, const Field qfield, struct pair *pairs)
{
	int np = 0;
	for (int f = 0; f < nfood; ++f) {
		for (int w = 0; w < nw; ++w) {
			int c = worker_cost(w, wp[w], f);
			if (c < FAR)
				pairs[np++] = (struct pair){ c, w, f };
		}
		int dq = qid >= 0 ? qfield[food_pos[f].i][food_pos[f].j] : FAR;
		if (dq <= QUEEN_REACH && at[food_pos[f].i][food_pos[f].j] == -1)
			pairs[np++] = (struct pair){ 2 * dq, -1, f };
	}
	return np;
}

static void list_food(const Pos *wp, int nw)
{
	int wanted = 0;
	nfood = 0;
	for (int i = 0; i < nr; ++i)
		for (int j = 0; j < nc && nfood < MAXF; ++j)
			if (food_to_get(pos(i, j))) {
				wanted += !workers_skip(pos(i, j));
				food_pos[nfood++] = pos(i, j);
			}
	if (nw == 0)
		return;
	/* Worker mode floods once from each worker and the queen, then once
	 * from each food a worker is given. */
	by_worker = 2 * nw + 1 < wanted && nw <= MAXF;
	if (by_worker) {
		for (int w = 0; w < nw; ++w)
			flood_from(wp[w], KEEP_ALL, field_buf[w]);
		if (qid >= 0)
			flood_from(qpos, KEEP_ALL, back_field);
		return;
	}
	for (int f = 0; f < nfood; ++f)
		if (!workers_skip(food_pos[f]))
			flood_from(food_pos[f], KEEP_ALL, field_buf[f]);
}

/* The cheapest pair left: fewest rounds, less what the food is worth to
 * the queen given what is already on its way to her. */
static int cheapest(const struct pair *pairs, int np, const bool *fdone, bool queen_done,
		    int nw)
{
	int gain[3], best = -1, bc = FAR;
	for (int b = 0; b < 3; ++b)
		gain[b] = food_gain(b);
	for (int k = 0; k < np; ++k) {
		int w = pairs[k].who, f = pairs[k].f;
		if (fdone[f] || (w < 0 ? queen_done : goal_of[w] >= 0) || w >= nw)
			continue;
		int c = pairs[k].rounds - GAIN_WEIGHT * gain[food[food_pos[f].i][food_pos[f].j]];
		if (c < bc) {
			bc = c;
			best = k;
		}
	}
	return best;
}

/* Pairs the queen and the free workers with food one by one, each time the
 * cheapest pair left. */
static void plan_food(const Pos *wp, int nw)
{
	static struct pair pairs[(MAXA + 1) * MAXF];
	static bool fdone[MAXF];
	count_stock();
	list_food(wp, nw);
	for (int f = 0; f < nfood; ++f)
		fdone[f] = false;
	if (qid >= 0)
		flood_from(qpos, KEEP_QUEENS, work_field);
	int np = list_pairs(wp, nw, work_field, pairs);
	bool queen_done = false;
	queen_goal = -1;
	for (int w = 0; w < nw; ++w)
		goal_of[w] = -1;
	for (int k; (k = cheapest(pairs, np, fdone, queen_done, nw)) >= 0;) {
		int w = pairs[k].who, f = pairs[k].f;
		fdone[f] = true;
		add_food(stock, food[food_pos[f].i][food_pos[f].j]);
		if (w < 0) {
			queen_done = true;
			queen_goal = f;
		} else {
			goal_of[w] = f;
		}
	}
}

/* ---- orders ---------------------------------------------------------------- */

static int orders_left; /* more than MAX_ORDERS in a round would abort us */

static bool order_room(void)
{
	return orders_left-- > 0;
}

/* Moves ant id from p in direction dir (-1: stays), claiming the cell. */
static void go(int id, Pos p, int dir)
{
	if (dir < 0 || !order_room())
		return;
	Pos q = step(p, dir);
	claimed[q.i][q.j] = true;
	move(id, (Dir)dir);
}

/* ---- the queen ------------------------------------------------------------- */

/* Where the queen settles: the soil cell with the shortest walks to our
 * food rectangles, off the cells where food appears.  Kept until a
 * rectangle grows. */
static Pos queen_home(void)
{
	static Field to_box[3];
	static int version = 0;
	static Pos home;
	if (box_version == 0)
		return qpos;
	if (box_version == version)
		return home;
	version = box_version;
	for (int b = 0; b < 3; ++b)
		if (box_seen[b])
			flood_from(box_centre(b), KEEP_NONE, to_box[b]);
	int best = FAR;
	home = qpos;
	for (int i = 0; i < nr; ++i)
		for (int j = 0; j < nc; ++j) {
			int sum = 0;
			for (int b = 0; b < 3; ++b)
				sum += box_seen[b] ? to_box[b][i][j] : 0;
			if (!wet[i][j] && !spot[i][j] && sum < best) {
				best = sum;
				home = pos(i, j);
			}
		}
	return home;
}

/* The adjacent cell the queen attacks (eat: or eats) now, or -1. */
static int queen_target(bool eat)
{
	int order[4], best = -1, bv = 0;
	random_permutation(4, order);
	for (int k = 0; k < 4; ++k) {
		Pos p = step(qpos, order[k]);
		int v = 0;
		if (claimed[p.i][p.j] || qdist[p.i][p.j] < 2)
			v = 0;
		else if (enemy_at(p, Soldier))
			v = 3;
		else if (enemy_at(p, Worker))
			v = 2;
		else if (eat && free_cell(p) && food[p.i][p.j] != NoBonus)
			v = 1;
		if (v > bv) {
			bv = v;
			best = order[k];
		}
	}
	return best;
}

/* A soldier now and then: it scores twice as long as a worker, no enemy
 * soldier hunts it, and it kills enemy workers. */
static AntType egg_type(void)
{
	int ns = soldiers(my).n, nw = workers(my).n;
	bool early = round_now + soldier_life() <= nb_rounds() + SOLDIER_SLACK;
	return early && can_lay(qid, Soldier) && ns * SOLDIER_RATIO < nw ? Soldier : Worker;
}

static bool queen_lay(void)
{
	AntType t = egg_type();
	if (!can_lay(qid, t))
		return false;
	int order[4], best = -1, bv = -1;
	random_permutation(4, order);
	for (int k = 0; k < 4; ++k) {
		Pos p = step(qpos, order[k]);
		if (!free_cell(p))
			continue;
		int v = (threat(p) >= SAFE) * 2 + (food[p.i][p.j] == NoBonus);
		if (v > bv) {
			bv = v;
			best = order[k];
		}
	}
	if (best < 0 || !order_room())
		return false;
	Pos p = step(qpos, best);
	claimed[p.i][p.j] = true;
	lay(qid, (Dir)best, t);
	return true;
}

/* The queen's step down field d (to a free cell off enemy queens), or -1. */
static int queen_dir(const Field d)
{
	int order[4], best = -1, bd = d[qpos.i][qpos.j];
	random_permutation(4, order);
	for (int k = 0; k < 4; ++k) {
		Pos p = step(qpos, order[k]);
		if (free_cell(p) && qdist[p.i][p.j] >= 2 && d[p.i][p.j] < bd) {
			bd = d[p.i][p.j];
			best = order[k];
		}
	}
	return best;
}

/* Towards her food, else home; round the ants if there is a way. */
static int queen_walk(void)
{
	Pos to = queen_goal >= 0 ? food_pos[queen_goal] : queen_home();
	flood_from(to, KEEP_QUEENS_ANTS, work_field);
	int d = queen_dir(work_field);
	if (d < 0) {
		flood_from(to, KEEP_QUEENS, work_field);
		d = queen_dir(work_field);
	}
	return d;
}

/* Worker eggs the queen can afford now. */
static int eggs_in_reserve(void)
{
	Ant q = ant(qid);
	int eggs = FAR;
	for (int n = 0; n < 3; ++n) {
		int need = needed(Worker, (Nutrient)n);
		if (need > 0 && q.reserve[n] / need < eggs)
			eggs = q.reserve[n] / need;
	}
	return eggs;
}

/* Whether the queen lays before she walks in a round when she may walk: when
 * she can afford two eggs, or one when she may walk every round (else she
 * would never lay while food is in sight). */
static bool lay_first(void)
{
	int eggs = eggs_in_reserve();
	return eggs >= 2 || (eggs >= 1 && queen_period() <= 1);
}

/* Attack, lay, or walk to her food or home. */
static void play_queen(void)
{
	if (qid < 0)
		return;
	if (queens_move_now()) {
		bool lay_now = lay_first();
		int d = queen_target(!lay_now);
		if (d >= 0) {
			go(qid, qpos, d);
			return;
		}
		if (lay_now && queen_lay())
			return;
		if ((d = queen_target(true)) >= 0 || (queen_goal >= 0 && (d = queen_walk()) >= 0)) {
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
	if (t >= SAFE)
		return 0;
	if (t == SAFE - 1)
		return 1;
	return stay ? 2 : 3;
}

/* The worker's safest step down field d (-1: stay). */
static int worker_dir(Pos p, const Field d)
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

/* Where a loaded worker may drop its food: bare soil near the queen. */
static bool drop_cell(Pos p)
{
	return soil(p.i, p.j) && food[p.i][p.j] == NoBonus && queens_food(p) &&
	       !pos_eq(p, qpos);
}

/* Steps to the nearest drop cell. */
static void drop_field(Field d)
{
	static Pos src[(2 * QUEEN_ZONE + 1) * (2 * QUEEN_ZONE + 1)];
	int n = 0;
	for (int i = qpos.i - QUEEN_ZONE; i <= qpos.i + QUEEN_ZONE; ++i)
		for (int j = qpos.j - QUEEN_ZONE; j <= qpos.j + QUEEN_ZONE; ++j)
			if (drop_cell(pos(i, j)))
				src[n++] = pos(i, j);
	flood(src, n, KEEP_ALL, d);
}

static void play_carriers(const int *ids, int n)
{
	static Field drop;
	if (qid < 0 || n == 0)
		return;
	drop_field(drop);
	for (int k = 0; k < n; ++k) {
		Pos p = ant(ids[k]).pos;
		if (drop_cell(p) && risk(p, true) == 0) {
			if (order_room())
				leave(ids[k]);
		} else {
			go(ids[k], p, worker_dir(p, drop));
		}
	}
}

/* A cell an idle worker should not stand on: it blocks the queen, food or
 * a spawn. */
static bool in_the_way(Pos p)
{
	return next_to_queen(p) || spot[p.i][p.j] || food[p.i][p.j] != NoBonus;
}

/* An idle worker close enough to its waiting place stays, unless it is in
 * danger or in the way. */
static int idle_dir(Pos p)
{
	int order[4], dir = -1, br = risk(p, true) * 2 + in_the_way(p);
	random_permutation(4, order);
	for (int e = 0; e < 4; ++e) {
		Pos q = step(p, order[e]);
		if (!free_cell(q))
			continue;
		int r = risk(q, false) * 2 + in_the_way(q);
		if (r < br) {
			br = r;
			dir = order[e];
		}
	}
	return dir;
}

/* Idle workers wait near our rectangles, shared out in turn. */
static void play_idle(const int *ids, const Pos *ps, int n)
{
	static Field wait_field[3];
	static Pos centre[3];
	int nb = 0;
	for (int b = 0; b < 3; ++b)
		if (box_seen[b])
			centre[nb++] = box_centre(b);
	if (nb == 0 && qid >= 0)
		centre[nb++] = qpos;
	for (int b = 0; b < nb && n > 0; ++b)
		flood_from(centre[b], KEEP_ALL, wait_field[b]);
	for (int k = 0; k < n; ++k) {
		Pos p = ps[k];
		if (nb > 0 && manhattan(p, centre[k % nb]) > WAIT_RADIUS)
			go(ids[k], p, worker_dir(p, wait_field[k % nb]));
		else
			go(ids[k], p, idle_dir(p));
	}
}

static int threat_cmp(const void *a, const void *b)
{
	Pos x = ant(*(const int *)a).pos, y = ant(*(const int *)b).pos;
	return threat(x) - threat(y);
}

/* Our workers, most threatened first (they choose their cells first): the
 * loaded ones in carriers, the free ones in ids and ps. */
static int sort_workers(int *ids, Pos *ps, int *carriers, int *ncarriers)
{
	static int all[MAXA];
	Ids w = workers(my);
	int n = w.n < MAXA ? w.n : MAXA, nfree = 0;
	memcpy(all, w.id, (size_t)n * sizeof *all);
	qsort(all, (size_t)n, sizeof *all, threat_cmp);
	*ncarriers = 0;
	for (int k = 0; k < n; ++k) {
		Ant a = ant(all[k]);
		if (a.bonus != NoBonus) {
			carriers[(*ncarriers)++] = a.id;
		} else {
			ids[nfree] = a.id;
			ps[nfree++] = a.pos;
		}
	}
	return nfree;
}

static void play_workers(const int *ids, const Pos *ps, int n, const int *carriers,
			 int ncarriers)
{
	static int idle_id[MAXA];
	static Pos idle_pos[MAXA];
	play_carriers(carriers, ncarriers);
	int nidle = 0;
	for (int w = 0; w < n; ++w) {
		int f = goal_of[w];
		if (f < 0) {
			idle_id[nidle] = ids[w];
			idle_pos[nidle++] = ps[w];
		} else if (pos_eq(ps[w], food_pos[f]) && risk(ps[w], true) == 0) {
			if (order_room())
				take(ids[w]);
		} else {
			go(ids[w], ps[w], worker_dir(ps[w], food_field(f)));
		}
	}
	play_idle(idle_id, idle_pos, nidle);
}

/* ---- soldiers -------------------------------------------------------------- */

static bool prey(Pos p)
{
	return enemy_at(p, Worker);
}

/* A first step a soldier may take: unclaimed, where no enemy soldier can
 * step too (two soldiers that meet both die), free unless it attacks. */
static bool soldier_first(Pos q, bool hit)
{
	return !claimed[q.i][q.j] && sdist[q.i][q.j] >= 2 && (hit || free_cell(q));
}

/* Breadth-first search from a soldier to the nearest prey, keeping off
 * the cells next to enemy queens.  Returns the first direction, or -1. */
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
			bool hit = prey(q);
			if (at_start && !soldier_first(q, hit))
				continue;
			(*d)[q.i][q.j] = (*d)[p.i][p.j] + 1;
			first[q.i][q.j] = at_start ? order[k] : first[p.i][p.j];
			if (hit)
				return first[q.i][q.j];
			queue_buf[tail++] = q;
		}
	}
	return -1;
}

/* A soldier's step down field d, or -1. */
static int soldier_dir(Pos p, const Field d)
{
	int order[4], best = -1, bd = d[p.i][p.j];
	random_permutation(4, order);
	for (int k = 0; k < 4; ++k) {
		Pos q = step(p, order[k]);
		if (soil(q.i, q.j) && soldier_first(q, false) && d[q.i][q.j] < bd) {
			bd = d[q.i][q.j];
			best = order[k];
		}
	}
	return best;
}

/* A soldier with nothing to hunt steps off the cells next to our queen,
 * where it would block her and her eggs. */
static int soldier_aside(Pos p)
{
	if (!next_to_queen(p))
		return -1;
	int order[4];
	random_permutation(4, order);
	for (int k = 0; k < 4; ++k) {
		Pos q = step(p, order[k]);
		if (soil(q.i, q.j) && soldier_first(q, false) && !next_to_queen(q) &&
		    qdist[q.i][q.j] >= 2)
			return order[k];
	}
	return -1;
}

/* ---- the siege ---- */

/* The enemy colony heading for the best score (now plus what its ants
 * would add by the end); the current one is kept unless another is clearly
 * ahead, so that the besiegers do not walk to and fro. */
static int siege_colony(void)
{
	static int current = -1;
	long long best = -1, rest = nb_rounds() - round_now;
	int pick = -1;
	for (int pl = 0; pl < nb_players(); ++pl) {
		long long v = score(pl) + colony_size(pl) * rest;
		if (pl != my && queens(pl).n > 0 && v > best) {
			best = v;
			pick = pl;
		}
	}
	if (current >= 0 && current != my && queens(current).n > 0 && pick >= 0) {
		long long v = score(current) + colony_size(current) * rest;
		if (v * SIEGE_SWITCH >= best * (SIEGE_SWITCH - 1))
			pick = current;
	}
	current = pick;
	return pick;
}

/* Two soldiers on opposite diagonals of a queen are next to all four
 * cells next to her: her workers, who keep off our soldiers, cannot bring
 * her food any more, and her newborn appear within our reach.  Chooses the
 * soldiers (by index in s, -1 for none) and their diagonals (the fields
 * that lead there). */
static void plan_siege(Ids s, int sieger[SIEGERS], int diagonal[SIEGERS], Field fields[4])
{
	static const int DDI[4] = { 1, -1, 1, -1 }, DDJ[4] = { 1, -1, -1, 1 };
	for (int k = 0; k < SIEGERS; ++k)
		sieger[k] = -1;
	int pl = siege_colony();
	if (pl < 0 || s.n == 0)
		return;
	Pos q = ant(queens(pl).id[0]).pos;
	for (int c = 0; c < 4; ++c) {
		Pos cell = pos(q.i + DDI[c], q.j + DDJ[c]);
		if (soil(cell.i, cell.j))
			flood_from(cell, KEEP_QUEENS, fields[c]);
		else
			for (int i = 0; i < nr; ++i)
				for (int j = 0; j < nc; ++j)
					fields[c][i][j] = FAR;
	}
	/* The nearest soldier takes the nearest diagonal; then the opposite
	 * one, then the other two, each to the nearest soldier left. */
	int best = FAR, first = 0;
	for (int k = 0; k < s.n; ++k)
		for (int c = 0; c < 4; ++c) {
			Pos p = ant(s.id[k]).pos;
			if (fields[c][p.i][p.j] < best) {
				best = fields[c][p.i][p.j];
				first = c;
			}
		}
	int order[4] = { first, first ^ 1, first ^ 2, first ^ 3 }, n = 0;
	for (int o = 0; o < 4 && n < SIEGERS; ++o) {
		int c = order[o], pick = -1;
		best = FAR;
		for (int k = 0; k < s.n; ++k) {
			Pos p = ant(s.id[k]).pos;
			bool taken = false;
			for (int t = 0; t < n; ++t)
				taken |= sieger[t] == k;
			if (!taken && fields[c][p.i][p.j] < best) {
				best = fields[c][p.i][p.j];
				pick = k;
			}
		}
		if (pick >= 0) {
			sieger[n] = pick;
			diagonal[n++] = c;
		}
	}
}

/* A besieger attacks an enemy worker next to it, else walks to its cell
 * (field d) and stays there. */
static int siege_dir(Pos p, const Field d)
{
	int order[4];
	random_permutation(4, order);
	for (int k = 0; k < 4; ++k) {
		Pos q = step(p, order[k]);
		if (soil(q.i, q.j) && prey(q) && soldier_first(q, true))
			return order[k];
	}
	return d[p.i][p.j] == 0 ? -1 : soldier_dir(p, d);
}

static void play_soldiers(void)
{
	static Field fields[4];
	int sieger[SIEGERS], diagonal[SIEGERS];
	Ids s = soldiers(my);
	plan_siege(s, sieger, diagonal, fields);
	for (int k = 0; k < s.n; ++k) {
		Pos p = ant(s.id[k]).pos;
		int d = -2;
		for (int t = 0; t < SIEGERS; ++t)
			if (sieger[t] == k)
				d = siege_dir(p, fields[diagonal[t]]);
		if (d == -2) {
			d = hunt_dir(p);
			d = d >= 0 ? d : soldier_aside(p);
		}
		go(s.id[k], p, d);
	}
}

void play(void)
{
	static int free_id[MAXA], carrier_id[MAXA];
	static Pos free_pos[MAXA];
	int ncarriers;
	orders_left = MAX_ORDERS;
	scan();
	if (status(my) > CHEAP_SHARE) {
		/* Close to our CPU budget (a huge board, a long game): only the
		 * queen lays on, without a search, so that we are never frozen. */
		if (qid >= 0)
			queen_lay();
		return;
	}
	measure_threats();
	learn_food();
	int nfree = sort_workers(free_id, free_pos, carrier_id, &ncarriers);
	plan_food(free_pos, nfree);
	play_queen();
	play_workers(free_id, free_pos, nfree, carrier_id, ncarriers);
	play_soldiers();
}
