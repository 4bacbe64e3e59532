/*
 *  Daisy -- stay together, stay safe.
 *
 *  Our two witches are the hearts of two camps.  They creep to a post
 *  on our side of the map and sit there.  Knights of a camp stand in a
 *  ring around its witch (just outside the haunted diamond) and fight
 *  anything that comes near; farmers paint the land around the camp,
 *  looking for patches with many unpainted cells, and run from knights.
 */
#include <stdlib.h>
#include <string.h>
#include "dominator.h"

PLAYER_NAME(Daisy);

#define DZ_MAX_UNITS 2048
#define DZ_CAMP_RADIUS 11
#define DZ_RING 3

struct dz_memory
{
	int camp;      /* 0 or 1: which witch the unit belongs to */
	int slot;      /* place in the ring, for knights */
	int last_dir;  /* where it went last round */
};

struct dz_camp
{
	Pos heart;     /* where the witch is now */
	Pos post;      /* where the witch wants to be */
	int witch_id;
};

static struct dz_memory dz_mem[DZ_MAX_UNITS];
static struct dz_camp dz_camps[2];
static int dz_camp_count;
static bool dz_ready;

static const int dz_di[8] = { 1, 1, 0, -1, -1, -1, 0, 1 };
static const int dz_dj[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };

static int dz_abs(int x)
{
	return x < 0 ? -x : x;
}

static int dz_dist(Pos a, Pos b)
{
	return dz_abs(a.i - b.i) + dz_abs(a.j - b.j);
}

static bool dz_enterable(Pos p)
{
	Cell c;
	if (!pos_ok(p))
		return false;
	c = cell(p);
	return c.type == Empty && c.id == -1 && !c.haunted;
}

static bool dz_foe(int id)
{
	return id >= 0 && unit(id).player != me();
}

static void dz_init(void)
{
	int k;
	memset(dz_mem, 0, sizeof dz_mem);
	for (k = 0; k < DZ_MAX_UNITS; k++)
	{
		dz_mem[k].camp = k % 2;
		dz_mem[k].slot = (k / 2) % 8;
		dz_mem[k].last_dir = None;
	}
	dz_camps[0].post = pos(rows() / 2 - 1, cols() / 4);
	dz_camps[1].post = pos(rows() / 4, cols() / 2 - 1);
	dz_ready = true;
}

static void dz_update_camps(void)
{
	Ids w = witches(me());
	int k;
	dz_camp_count = w.n < 2 ? w.n : 2;
	for (k = 0; k < dz_camp_count; k++)
	{
		dz_camps[k].witch_id = w.id[k];
		dz_camps[k].heart = unit(w.id[k]).pos;
	}
}

static Pos dz_camp_centre(int id)
{
	int c = id < DZ_MAX_UNITS ? dz_mem[id].camp : 0;
	if (dz_camp_count == 0)
		return pos(rows() / 4, cols() / 4);
	return dz_camps[c % dz_camp_count].heart;
}

/* Enemy knights within Chebyshev distance r of p. */
static int dz_knight_threat(Pos p, int r)
{
	int pl, k, n = 0;
	for (pl = 1; pl < nb_players(); pl++)
	{
		Ids l = knights(pl);
		for (k = 0; k < l.n; k++)
		{
			Pos q = unit(l.id[k]).pos;
			if (dz_abs(q.i - p.i) <= r && dz_abs(q.j - p.j) <= r)
				n++;
		}
	}
	return n;
}

/* Unpainted cells (for us) in the 5x5 square around p. */
static int dz_richness(Pos p)
{
	int a, b, n = 0;
	for (a = -2; a <= 2; a++)
		for (b = -2; b <= 2; b++)
		{
			Pos q = pos(p.i + a, p.j + b);
			if (pos_ok(q) && cell(q).type == Empty && cell(q).owner != me())
				n++;
		}
	return n;
}

static void dz_farmer(Unit u)
{
	Pos centre = dz_camp_centre(u.id);
	int best_score = -1000000, best_dir = None, k;
	bool scared = dz_knight_threat(u.pos, 2) > 0;

	for (k = 0; k < 8; k += 2)
	{
		Pos q = pos_move(u.pos, (Dir)k);
		int score, far;
		if (!dz_enterable(q))
			continue;
		score = dz_richness(q) * 3 + random_int(0, 2);
		if (cell(q).owner != me())
			score += 20;
		if (cell(q).owner > 0)
			score += 6;
		/* the camp grows as the game goes on */
		far = dz_dist(q, centre) - DZ_CAMP_RADIUS - current_round() / 15;
		if (far > 0)
			score -= far * 8;
		if (dz_dist(q, centre) <= DZ_RING)
			score -= 50;
		score -= dz_knight_threat(q, 1) * 100;
		if (u.id < DZ_MAX_UNITS && dz_mem[u.id].last_dir == (k + 4) % 8)
			score -= 10;   /* do not turn straight back */
		if (score > best_score)
		{
			best_score = score;
			best_dir = k;
		}
	}
	/* a calm farmer with nothing good around heals instead */
	if (!scared && best_score < 0 && u.health < farmers_health())
		best_dir = None;
	if (u.id < DZ_MAX_UNITS)
		dz_mem[u.id].last_dir = best_dir;
	command(u.id, (Dir)best_dir);
}

static void dz_knight(Unit u)
{
	Pos centre = dz_camp_centre(u.id), spot;
	int k, weakest = 1 << 30, hit = -1, best = None, best_d;
	int slot = u.id < DZ_MAX_UNITS ? dz_mem[u.id].slot : 0;

	for (k = 0; k < 8; k++)
	{
		Pos q = pos_move(u.pos, (Dir)k);
		int id = cell(q).id;
		if (dz_foe(id) && unit(id).type != Witch && unit(id).health < weakest)
		{
			weakest = unit(id).health;
			hit = k;
		}
	}
	if (hit >= 0)
	{
		command(u.id, (Dir)hit);
		return;
	}
	if (u.health <= knights_health() / 2)
	{
		command(u.id, None);
		return;
	}
	/* our place in the ring: slot-th direction, a bit past the diamond */
	spot = pos(centre.i + dz_di[slot] * DZ_RING, centre.j + dz_dj[slot] * DZ_RING);
	best_d = dz_dist(u.pos, spot);
	if (best_d == 0)
	{
		command(u.id, None);
		return;
	}
	for (k = 0; k < 8; k++)
	{
		Pos q = pos_move(u.pos, (Dir)k);
		int d;
		if (!dz_enterable(q))
			continue;
		d = dz_dist(q, spot);
		if (d < best_d)
		{
			best_d = d;
			best = k;
		}
	}
	command(u.id, (Dir)best);
}

static bool dz_witch_may_stand(Pos p, int self)
{
	int a, b;
	for (a = -2; a <= 2; a++)
		for (b = -2 + dz_abs(a); b <= 2 - dz_abs(a); b++)
		{
			Pos q = pos(p.i + a, p.j + b);
			int id;
			if (!pos_ok(q))
				continue;
			id = cell(q).id;
			if (id < 0 || id == self)
				continue;
			if (unit(id).type == Witch || !dz_foe(id))
				return false;
		}
	return true;
}

static void dz_witch(Unit u, int camp)
{
	Pos goal = dz_camps[camp].post;
	int k, best = None, best_d = dz_dist(u.pos, goal);
	for (k = 0; k < 8; k += 2)
	{
		Pos q = pos_move(u.pos, (Dir)k);
		if (cell(q).type == Wall || cell(q).id != -1)
			continue;
		if (dz_dist(q, goal) < best_d && dz_witch_may_stand(q, u.id))
		{
			best_d = dz_dist(q, goal);
			best = k;
		}
	}
	command(u.id, (Dir)best);
}

void play(void)
{
	Ids l;
	int k;
	if (!dz_ready)
		dz_init();
	dz_update_camps();

	for (k = 0; k < dz_camp_count; k++)
		dz_witch(unit(dz_camps[k].witch_id), k);
	l = knights(me());
	for (k = 0; k < l.n; k++)
		dz_knight(unit(l.id[k]));
	l = farmers(me());
	for (k = 0; k < l.n; k++)
		dz_farmer(unit(l.id[k]));
}
