/* Dummy: a plain but purposeful player, the sparring partner above Demo.
 *
 * Every round it takes a snapshot of the board, marks the cells that are
 * dangerous (haunted, close to a witch, next to an enemy knight), then plans
 * its units in an order that lets later ones avoid what earlier ones do:
 *   - witches hunt: each walks towards a crowd of enemy farmers and knights,
 *     keeping more than 2 cells from every other witch so that it stays
 *     active, and never bringing one of our own units into its reach;
 *   - knights attack the weakest adjacent enemy, rest when hurt, and
 *     otherwise walk down a distance field towards the nearest enemy;
 *   - farmers walk by breadth-first search to the nearest cell that is not
 *     ours yet and that no other farmer has claimed, through safe cells.
 * Cells are plain indices (row * side + column) so the searches stay cheap.
 */
#include <stdlib.h>
#include <string.h>

#include "dominator.h"

PLAYER_NAME(Dummy);

#define MAX_SIDE 99
#define MAX_CELLS (MAX_SIDE * MAX_SIDE)
#define MAX_UNITS 4096
#define MAX_WITCH_SPOTS 256
#define FAR 1000000
#define HAUNT_REACH 2
#define CROWD_REACH 3      /* enemies this close to a prey make it juicier */
#define WITCH_SIGHT 24     /* how far a witch looks for a prey */
#define CHEAP_SHARE 0.6    /* past this share of our CPU budget, skip searches */
#define PREY_SPACING 8     /* our witches hunt this far apart */
#define SEARCH_SLACK 4     /* a farmer looks this much past its nearest target */
#define SEARCH_NEAR 10     /* farther from any target, it just walks downhill */

/* What this round's planning knows about a cell; several may hold. */
enum {
	WALL = 1,        /* never enterable */
	DEADLY = 2,      /* haunted now, or soon by a witch we know of */
	WITCH_NEAR = 4,  /* an enemy witch can haunt it with one step */
	KNIGHT_NEAR = 8, /* an enemy knight can hit a farmer standing here */
	TAKEN = 16,      /* one of our units moves here this round */
	CLAIMED = 32,    /* a farmer's target this round */
};

#define FARMER_AVOID (WALL | DEADLY | WITCH_NEAR | KNIGHT_NEAR)
#define KNIGHT_AVOID (WALL | DEADLY | WITCH_NEAR)

/* ---- the round's snapshot ------------------------------------------------- */

static int myself; /* me(), asked once a round: the searches ask often */
static int side, ncells;
static int step[9];                   /* index offset of each direction */
static unsigned char flag[MAX_CELLS]; /* the enum above */
static int occupant[MAX_CELLS];       /* unit id, or -1 */
static int owner[MAX_CELLS];          /* colour, or -1 */
static int enemy_cell[MAX_UNITS];     /* cells of enemy farmers and knights */
static int nenemies;

/* Scratch of the searches. */
static int dist[MAX_CELLS];
static int queue[MAX_CELLS];
static Dir first_dir[MAX_CELLS]; /* first step of the path found to a cell */
static int knight_field[MAX_CELLS]; /* steps to the nearest enemy */
static int target_field[MAX_CELLS]; /* steps to the nearest cell not ours */
static int witch_field[MAX_CELLS];  /* 4-way steps to the nearest enemy */
static bool cheap_mode;             /* short of CPU: no per-unit searches */

static int cell_of(Pos p)
{
	return p.i * side + p.j;
}

static Pos pos_of(int c)
{
	return pos(c / side, c % side);
}

static int manhattan(int a, int b)
{
	return abs(a / side - b / side) + abs(a % side - b % side);
}

/* The neighbour of c in direction d.  The border is all wall and c is
 * never on it (units and searches stay off walls), so it is on the board. */
static int neighbour(int c, Dir d)
{
	return c + step[d];
}

static bool on_border(int c)
{
	int i = c / side, j = c % side;
	return i == 0 || j == 0 || i == side - 1 || j == side - 1;
}

static bool is_enemy_fighter(int id)
{
	if (id == -1)
		return false;
	Unit u = unit(id);
	return u.player != myself && u.type != Witch;
}

static bool is_own_fighter(int id)
{
	if (id == -1)
		return false;
	Unit u = unit(id);
	return u.player == myself && u.type != Witch;
}

/* A cell a unit can step on this round: no wall, nobody there, and none of
 * our other units heading for it. */
static bool free_now(int c)
{
	return !(flag[c] & (WALL | TAKEN)) && occupant[c] == -1;
}

/* Sets f on every cell within Manhattan distance reach of center. */
static void mark_around(int center, int reach, unsigned char f)
{
	Pos p = pos_of(center);
	for (int di = -reach; di <= reach; ++di)
		for (int dj = -reach; dj <= reach; ++dj) {
			Pos q = pos(p.i + di, p.j + dj);
			if (abs(di) + abs(dj) <= reach && pos_ok(q))
				flag[cell_of(q)] |= f;
		}
}

static void take_snapshot(void)
{
	for (int d = 0; d < 9; ++d) {
		Pos q = pos_move(pos(0, 0), (Dir)d);
		step[d] = q.i * side + q.j;
	}
	for (int c = 0; c < ncells; ++c) {
		Cell x = cell(pos_of(c));
		/* The rules wall the border; insisting keeps neighbour() safe. */
		bool wall = x.type == Wall || on_border(c);
		flag[c] = (wall ? WALL : 0) | (x.haunted ? DEADLY : 0);
		occupant[c] = x.id;
		owner[c] = x.owner;
	}
	nenemies = 0;
	for (int p = 0; p < nb_players(); ++p) {
		if (p == myself)
			continue;
		Ids f = farmers(p), k = knights(p);
		for (int x = 0; x < f.n && nenemies < MAX_UNITS; ++x)
			enemy_cell[nenemies++] = cell_of(unit(f.id[x]).pos);
		for (int x = 0; x < k.n && nenemies < MAX_UNITS; ++x)
			enemy_cell[nenemies++] = cell_of(unit(k.id[x]).pos);
	}
}

/* ---- the danger map ------------------------------------------------------- */

static void mark_witches(void)
{
	for (int p = 0; p < nb_players(); ++p) {
		Ids w = witches(p);
		for (int k = 0; k < w.n; ++k) {
			int c = cell_of(unit(w.id[k]).pos);
			/* Even a quiet witch haunts this once her neighbour leaves. */
			mark_around(c, HAUNT_REACH, DEADLY);
			if (p != myself)
				mark_around(c, HAUNT_REACH + 1, WITCH_NEAR);
		}
	}
}

/* A knight hits what stands in its 8 neighbours. */
static void mark_knights(void)
{
	for (int p = 0; p < nb_players(); ++p) {
		if (p == myself)
			continue;
		Ids k = knights(p);
		for (int x = 0; x < k.n; ++x) {
			int c = cell_of(unit(k.id[x]).pos);
			for (int d = 0; d < 9; ++d)
				flag[neighbour(c, (Dir)d)] |= KNIGHT_NEAR;
		}
	}
}

/* ---- breadth-first search ------------------------------------------------- */

/* Multi-source search through cells without any of the blocking flags (the
 * sources count even if flagged); fills dist, FAR where unreached.  Blocked
 * cells include the wall border, so expanding never leaves the board. */
static void spread_distances(const int *src, int nsrc, bool diagonal, unsigned char blocking)
{
	int head = 0, tail = 0;
	for (int c = 0; c < ncells; ++c)
		dist[c] = FAR;
	for (int k = 0; k < nsrc; ++k)
		if (dist[src[k]] == FAR) {
			dist[src[k]] = 0;
			queue[tail++] = src[k];
		}
	while (head < tail) {
		int c = queue[head++];
		for (int d = 0; d < 8; d += diagonal ? 1 : 2) {
			int e = neighbour(c, (Dir)d);
			if (dist[e] != FAR || (flag[e] & blocking))
				continue;
			dist[e] = dist[c] + 1;
			queue[tail++] = e;
		}
	}
}

/* ---- witches -------------------------------------------------------------- */

static int witch_spot[MAX_WITCH_SPOTS]; /* every witch; ours as planned */
static int nwitch_spots;

static void collect_witch_spots(void)
{
	nwitch_spots = 0;
	for (int p = 0; p < nb_players(); ++p) {
		Ids w = witches(p);
		for (int k = 0; k < w.n && nwitch_spots < MAX_WITCH_SPOTS; ++k)
			witch_spot[nwitch_spots++] = cell_of(unit(w.id[k]).pos);
	}
}

/* The cells around every other witch, where this witch would go quiet:
 * marked with a fresh serial for each witch, so nothing needs clearing. */
static int block_mark[MAX_CELLS];
static int block_serial;

static void block_other_witches(int self)
{
	++block_serial;
	for (int k = 0; k < nwitch_spots; ++k) {
		if (witch_spot[k] == self)
			continue;
		Pos w = pos_of(witch_spot[k]);
		for (int di = -HAUNT_REACH; di <= HAUNT_REACH; ++di)
			for (int dj = -HAUNT_REACH; dj <= HAUNT_REACH; ++dj) {
				Pos q = pos(w.i + di, w.j + dj);
				if (abs(di) + abs(dj) <= HAUNT_REACH && pos_ok(q))
					block_mark[cell_of(q)] = block_serial;
			}
	}
}

static bool witch_blocked(int c)
{
	return (flag[c] & WALL) || block_mark[c] == block_serial;
}

/* Prefix sums of enemy fighters per cell, so a crowd costs four lookups. */
static int crowd_sum[(MAX_SIDE + 1) * (MAX_SIDE + 1)];

static void build_crowd_sums(void)
{
	static int count[MAX_CELLS];
	int w = side + 1;
	memset(count, 0, sizeof(int) * (size_t)ncells);
	for (int k = 0; k < nenemies; ++k)
		count[enemy_cell[k]]++;
	memset(crowd_sum, 0, sizeof(int) * (size_t)(w * w));
	for (int i = 0; i < side; ++i)
		for (int j = 0; j < side; ++j)
			crowd_sum[(i + 1) * w + j + 1] = count[i * side + j] + crowd_sum[i * w + j + 1] +
							 crowd_sum[(i + 1) * w + j] - crowd_sum[i * w + j];
}

/* Enemy fighters in the square of half-width CROWD_REACH around c: how
 * much a witch there could eat. */
static int crowd_at(int c)
{
	int w = side + 1;
	int i0 = c / side - CROWD_REACH, i1 = c / side + CROWD_REACH + 1;
	int j0 = c % side - CROWD_REACH, j1 = c % side + CROWD_REACH + 1;
	i0 = i0 < 0 ? 0 : i0, j0 = j0 < 0 ? 0 : j0;
	i1 = i1 > side ? side : i1, j1 = j1 > side ? side : j1;
	return crowd_sum[i1 * w + j1] - crowd_sum[i0 * w + j1] - crowd_sum[i1 * w + j0] +
	       crowd_sum[i0 * w + j0];
}

/* Preys our witches already walk to: the next one hunts elsewhere. */
static int prey_taken[MAX_WITCH_SPOTS];
static int nprey_taken;

static double prey_value(int c, int steps)
{
	double value = crowd_at(c) / (steps + 4.0);
	for (int k = 0; k < nprey_taken; ++k)
		if (manhattan(c, prey_taken[k]) <= PREY_SPACING)
			return value / 4;
	return value;
}

/* Searches up to WITCH_SIGHT steps from the witch, outside other witches'
 * reach, for the best enemy to walk to (a crowd, not too far, not another
 * witch's prey); returns the first step there, or None. */
static Dir hunt_direction(int self)
{
	static int seen[MAX_CELLS]; /* == search: visited by this search */
	static int search;
	int head = 0, tail = 0, prey = -1;
	double best_value = 0;
	++search;
	seen[self] = search;
	dist[self] = 0;
	queue[tail++] = self;
	while (head < tail) {
		int c = queue[head++];
		double value = is_enemy_fighter(occupant[c]) ? prey_value(c, dist[c]) : 0;
		if (value > best_value) {
			best_value = value;
			prey = c;
		}
		if (dist[c] >= WITCH_SIGHT)
			continue;
		for (int d = 0; d < 8; d += 2) {
			int e = neighbour(c, (Dir)d);
			if (seen[e] == search || witch_blocked(e) || (c == self && !free_now(e)))
				continue;
			seen[e] = search;
			dist[e] = dist[c] + 1;
			first_dir[e] = c == self ? (Dir)d : first_dir[c];
			queue[tail++] = e;
		}
	}
	if (prey < 0)
		return None;
	if (nprey_taken < MAX_WITCH_SPOTS)
		prey_taken[nprey_taken++] = prey;
	return first_dir[prey];
}

/* Counts enemy and own fighters a witch standing on c would haunt. */
static void count_in_reach(int c, int *enemies, int *friends)
{
	Pos p = pos_of(c);
	*enemies = *friends = 0;
	for (int di = -HAUNT_REACH; di <= HAUNT_REACH; ++di)
		for (int dj = -HAUNT_REACH; dj <= HAUNT_REACH; ++dj) {
			Pos q = pos(p.i + di, p.j + dj);
			if (abs(di) + abs(dj) > HAUNT_REACH || !pos_ok(q))
				continue;
			int id = occupant[cell_of(q)];
			*enemies += is_enemy_fighter(id);
			*friends += is_own_fighter(id);
		}
}

/* A witch's option: enemies caught count a lot, our own units caught or
 * going quiet next to another witch cost more, then the way to the prey,
 * then closeness to any enemy at all. */
static long witch_option_value(int c, bool towards_prey)
{
	int enemies, friends;
	count_in_reach(c, &enemies, &friends);
	long value = 100L * enemies - 1000L * friends;
	if (block_mark[c] == block_serial)
		value -= 500;
	value -= witch_field[c] == FAR ? 200 : witch_field[c];
	return value + (towards_prey ? 5 : 0);
}

/* Orders one witch; returns the cell she will stand on. */
static int plan_witch(int id)
{
	int self = cell_of(unit(id).pos);
	block_other_witches(self);
	Dir hunt = cheap_mode ? None : hunt_direction(self);
	Dir best = None;
	long best_value = witch_option_value(self, false);
	for (int d = 0; d < 8; d += 2) {
		int c = neighbour(self, (Dir)d);
		if (!free_now(c))
			continue;
		long v = witch_option_value(c, d == (int)hunt) + random_int(0, 1); /* ties */
		if (v > best_value) {
			best_value = v;
			best = (Dir)d;
		}
	}
	command(id, best);
	return self + step[best];
}

static void plan_witches(void)
{
	collect_witch_spots();
	build_crowd_sums();
	spread_distances(enemy_cell, nenemies, false, WALL);
	memcpy(witch_field, dist, sizeof(int) * (size_t)ncells);
	nprey_taken = 0;
	Ids w = witches(myself);
	for (int k = 0; k < w.n; ++k) {
		int from = cell_of(unit(w.id[k]).pos);
		int to = plan_witch(w.id[k]);
		/* Later witches keep clear of where this one will be, and our
		 * other units out of her new reach. */
		for (int s = 0; s < nwitch_spots; ++s)
			if (witch_spot[s] == from)
				witch_spot[s] = to;
		flag[to] |= TAKEN;
		mark_around(to, HAUNT_REACH, DEADLY);
	}
}

/* ---- knights -------------------------------------------------------------- */

/* The adjacent enemy fighter with the least health, farmers on ties. */
static Dir weakest_neighbour(int c)
{
	Dir best = None;
	int best_rank = FAR;
	for (int d = 0; d < 8; ++d) {
		int e = neighbour(c, (Dir)d);
		if (!is_enemy_fighter(occupant[e]))
			continue;
		Unit u = unit(occupant[e]);
		int rank = 2 * u.health + (u.type == Knight);
		if (rank < best_rank) {
			best_rank = rank;
			best = (Dir)d;
		}
	}
	return best;
}

/* The free, safe neighbour closest to an enemy; None if none is closer. */
static Dir knight_step(int c)
{
	Dir best = None;
	int best_dist = knight_field[c];
	int offset = random_int(0, 7); /* do not always prefer the same way */
	for (int k = 0; k < 8; ++k) {
		Dir d = (Dir)((k + offset) % 8);
		int e = neighbour(c, d);
		if (!free_now(e) || (flag[e] & KNIGHT_AVOID))
			continue;
		if (knight_field[e] < best_dist) {
			best_dist = knight_field[e];
			best = d;
		}
	}
	return best;
}

static void plan_knight(int id)
{
	Unit u = unit(id);
	int here = cell_of(u.pos);
	Dir d = weakest_neighbour(here);
	bool attack = d != None;
	if (!attack && u.health >= knights_health() / 2)
		d = knight_step(here);
	/* else: rest, since standing still heals */
	if (d != None && !attack)
		flag[here + step[d]] |= TAKEN;
	command(id, d);
}

static void plan_knights(void)
{
	spread_distances(enemy_cell, nenemies, true, KNIGHT_AVOID);
	memcpy(knight_field, dist, sizeof(int) * (size_t)ncells);
	Ids k = knights(myself);
	for (int x = 0; x < k.n; ++x)
		plan_knight(k.id[x]);
}

/* ---- farmers -------------------------------------------------------------- */

static bool farmer_target(int c)
{
	return owner[c] != myself && !(flag[c] & CLAIMED);
}

/* Every safe cell not ours, as the sources of target_field. */
static void build_target_field(void)
{
	static int src[MAX_CELLS];
	int n = 0;
	for (int c = 0; c < ncells; ++c)
		if (owner[c] != myself && !(flag[c] & FARMER_AVOID))
			src[n++] = c;
	spread_distances(src, n, false, FARMER_AVOID);
	memcpy(target_field, dist, sizeof(int) * (size_t)ncells);
}

/* Nearest unclaimed cell not ours, by safe 4-way steps from start, looking
 * no further than limit; the first step must be onto a free cell.  Returns
 * the cell or -1, with first_dir telling how to set off. */
static int nearest_target(int start, int limit)
{
	static int seen[MAX_CELLS]; /* == search: visited by this search */
	static int search;
	int head = 0, tail = 0;
	++search;
	seen[start] = search;
	dist[start] = 0;
	queue[tail++] = start;
	while (head < tail) {
		int c = queue[head++];
		if (c != start && farmer_target(c))
			return c;
		if (dist[c] >= limit)
			continue;
		for (int d = 0; d < 8; d += 2) {
			int e = neighbour(c, (Dir)d);
			if (seen[e] == search || (flag[e] & FARMER_AVOID) ||
			    (c == start && !free_now(e)))
				continue;
			seen[e] = search;
			dist[e] = dist[c] + 1;
			first_dir[e] = c == start ? (Dir)d : first_dir[c];
			queue[tail++] = e;
		}
	}
	return -1;
}

/* The free neighbour with the lowest score; None when staying is best.
 * Risky cells cost a lot, then target_field decides. */
static Dir best_farmer_step(int here)
{
	Dir best = None;
	long best_score = (flag[here] & FARMER_AVOID ? 1000000L : 0) + target_field[here];
	for (int d = 0; d < 8; d += 2) {
		int e = neighbour(here, (Dir)d);
		if (!free_now(e) || (flag[e] & DEADLY))
			continue;
		long score = (flag[e] & FARMER_AVOID ? 1000000L : 0) + target_field[e];
		if (score < best_score) {
			best_score = score;
			best = (Dir)d;
		}
	}
	return best;
}

static void plan_farmer(int id)
{
	Unit u = unit(id);
	int here = cell_of(u.pos);
	bool threatened = flag[here] & FARMER_AVOID;
	Dir d = None;
	if (!threatened && u.health < farmers_health() / 2) {
		d = None; /* rest: standing still heals */
	} else if (!cheap_mode && target_field[here] <= SEARCH_NEAR) {
		int target = nearest_target(here, target_field[here] + SEARCH_SLACK);
		if (target >= 0) {
			flag[target] |= CLAIMED;
			d = first_dir[target];
		} else {
			d = best_farmer_step(here);
		}
	} else {
		/* Far from everything: claims would not spread farmers much. */
		d = best_farmer_step(here);
	}
	if (d != None)
		flag[here + step[d]] |= TAKEN;
	command(id, d);
}

static void plan_farmers(void)
{
	static int order[MAX_UNITS];
	build_target_field();
	Ids f = farmers(myself);
	int n = f.n < MAX_UNITS ? f.n : MAX_UNITS;
	random_permutation(n, order); /* no farmer always picks first */
	for (int k = 0; k < n; ++k)
		plan_farmer(f.id[order[k]]);
}

/* ---- the round ------------------------------------------------------------ */

void play(void)
{
	side = rows();
	if (side > MAX_SIDE || cols() != side)
		return; /* not a board this player knows how to read */
	ncells = side * side;
	myself = me();
	cheap_mode = status(myself) > CHEAP_SHARE;
	take_snapshot();
	mark_witches();
	mark_knights();
	plan_witches();
	plan_knights();
	plan_farmers();
}
