/*
 * Larch
 *
 * Every round each unit is given a role, and the units of one role are
 * chained in a linked list.  The lists are then served one role at a time:
 *
 *   witches  SHIELD  stand between our farmers and the nearest enemy knight
 *   farmers  FLEE    an enemy knight is within two steps: run
 *            PAINT   go where the 5x5 window holds the most cells to paint
 *   knights  HUNT    an enemy is within six steps: chase and hit it
 *            GUARD   walk to the farmer of ours that is most threatened
 *   anyone   REST    badly hurt: back towards our corner, then stand still
 */
#include <stdlib.h>
#include "dominator.h"

PLAYER_NAME(Larch);

enum { SHIELD, FLEE, HUNT, GUARD, PAINT, REST, ROLES };

struct node
{
	int u;
	struct node *next;
};

static struct node pool[8192];
static struct node *head[ROLES];
static char bad[99][99];   /* 1: deadly, 2: an enemy knight can hit a farmer here */
static char taken[99][99];
static char guarded[8192];

static int D(Pos a, Pos b)
{
	return abs(a.i - b.i) + abs(a.j - b.j);
}

static int C(Pos a, Pos b)
{
	int x = abs(a.i - b.i), y = abs(a.j - b.j);
	return x > y ? x : y;
}

/* Chebyshev distance from a to the nearest enemy knight. */
static int K(Pos a)
{
	int c = 1000;
	for (int p = 1; p < nb_players(); p++)
	{
		Ids x = knights(p);
		for (int j = 0; j < x.n; j++)
			if (C(a, unit(x.id[j]).pos) < c)
				c = C(a, unit(x.id[j]).pos);
	}
	return c;
}

/* Free for us, and not worse than level l on the danger scale. */
static int ok(Pos q, int l)
{
	Cell c = cell(q);
	return c.type == Empty && c.id == -1 && !taken[q.i][q.j] && (bad[q.i][q.j] == 0 || bad[q.i][q.j] > l);
}

void play(void)
{
	int n = rows(), m = 0, i, j, k, p, d, r;
	Ids f = farmers(0), g = knights(0), w = witches(0);

	/* the danger map */
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
		{
			bad[i][j] = cell(pos(i, j)).haunted ? 1 : 0;
			taken[i][j] = 0;
		}
	for (p = 0; p < nb_players(); p++)
	{
		Ids x = witches(p);
		r = p == 0 ? 2 : 3;
		for (k = 0; k < x.n; k++)
		{
			Pos c = unit(x.id[k]).pos;
			for (i = c.i - r; i <= c.i + r; i++)
				for (j = c.j - r; j <= c.j + r; j++)
					if (i >= 0 && j >= 0 && i < n && j < n && D(c, pos(i, j)) <= r)
						bad[i][j] = 1;
		}
	}
	for (p = 1; p < nb_players(); p++)
	{
		Ids x = knights(p);
		for (k = 0; k < x.n; k++)
			for (d = 0; d < 8; d++)
			{
				Pos q = pos_move(unit(x.id[k]).pos, (Dir)d);
				if (bad[q.i][q.j] == 0)
					bad[q.i][q.j] = 2;
			}
	}

	/* roles */
	for (r = 0; r < ROLES; r++)
		head[r] = NULL;
#define PUSH(role, id) do { pool[m].u = (id); pool[m].next = head[role]; head[role] = &pool[m++]; } while (0)
	for (k = 0; k < w.n; k++)
		PUSH(SHIELD, w.id[k]);
	for (k = 0; k < f.n; k++)
	{
		Unit u = unit(f.id[k]);
		if (K(u.pos) <= 2)
			PUSH(FLEE, u.id);
		else if (u.health * 5 < farmers_health() * 3)
			PUSH(REST, u.id);
		else
			PUSH(PAINT, u.id);
	}
	for (k = 0; k < g.n; k++)
	{
		Unit u = unit(g.id[k]);
		int c = 1000;
		for (p = 1; p < nb_players(); p++)
		{
			Ids x = farmers(p), y = knights(p);
			for (j = 0; j < x.n; j++)
				if (C(u.pos, unit(x.id[j]).pos) < c)
					c = C(u.pos, unit(x.id[j]).pos);
			for (j = 0; j < y.n; j++)
				if (C(u.pos, unit(y.id[j]).pos) < c)
					c = C(u.pos, unit(y.id[j]).pos);
		}
		if (u.health * 20 < knights_health() * 9 && c > 1)
			PUSH(REST, u.id);
		else if (c <= 6)
			PUSH(HUNT, u.id);
		else
			PUSH(GUARD, u.id);
	}
	for (k = 0; k < 8192; k++)
		guarded[k] = 0;

	/* orders, role after role */
	for (r = 0; r < ROLES; r++)
		for (struct node *x = head[r]; x != NULL; x = x->next)
		{
			Unit u = unit(x->u);
			Dir b = None;
			int s, t = -1000000;
			Pos aim = u.pos;

			switch (r)
			{
			case SHIELD:
				s = 1000;
				for (p = 1; p < nb_players(); p++)
				{
					Ids y = knights(p);
					for (j = 0; j < y.n; j++)
						for (i = 0; i < f.n; i++)
							if (C(unit(y.id[j]).pos, unit(f.id[i]).pos) < s)
							{
								s = C(unit(y.id[j]).pos, unit(f.id[i]).pos);
								aim = unit(y.id[j]).pos;
							}
				}
				if (s == 1000)
					aim = pos(n / 2, n / 2);
				for (d = 0; d < 8; d += 2)
				{
					Pos q = pos_move(u.pos, (Dir)d);
					Cell c = cell(q);
					int e = c.type == Empty && c.id == -1 && D(q, aim) < D(u.pos, aim);
					for (p = 0; e && p < nb_players(); p++)
					{
						Ids y[3] = { witches(p), farmers(p), knights(p) };
						for (i = 0; i < (p == 0 ? 3 : 1); i++)
							for (j = 0; j < y[i].n; j++)
								if (y[i].id[j] != u.id && D(q, unit(y[i].id[j]).pos) <= 2)
									e = 0;
					}
					if (e && -D(q, aim) > t)
					{
						t = -D(q, aim);
						b = (Dir)d;
					}
				}
				if (b != None)
				{
					Pos c = pos_move(u.pos, b);
					for (i = c.i - 2; i <= c.i + 2; i++)
						for (j = c.j - 2; j <= c.j + 2; j++)
							if (i >= 0 && j >= 0 && i < n && j < n && D(c, pos(i, j)) <= 2)
								bad[i][j] = 1;
				}
				break;

			case FLEE:
			case PAINT:
				for (d = 0; d < 8; d += 2)
				{
					Pos q = pos_move(u.pos, (Dir)d);
					if (!ok(q, r == FLEE ? 1 : 2))
						continue;
					if (r == FLEE)
						s = bad[q.i][q.j] == 0 ? 100 - q.i - q.j : -q.i - q.j;
					else
					{
						s = cell(q).owner != 0 ? 12 : 0;
						for (i = q.i - 2; i <= q.i + 2; i++)
							for (j = q.j - 2; j <= q.j + 2; j++)
								if (i >= 0 && j >= 0 && i < n && j < n && cell(pos(i, j)).type == Empty && cell(pos(i, j)).owner != 0)
									s++;
						s = 4 * s + random_int(0, 3);
					}
					if (s > t)
					{
						t = s;
						b = (Dir)d;
					}
				}
				break;

			case HUNT:
			case GUARD:
				for (d = 0; d < 8; d++)
				{
					Unit v = unit(cell(pos_move(u.pos, (Dir)d)).id);
					if (v.id != -1 && v.player != 0 && v.type != Witch && -v.health > t)
					{
						t = -v.health;
						b = (Dir)d;
					}
				}
				if (b != None)
					break;
				s = 1000;
				for (p = (r == HUNT ? 1 : 0); p < (r == HUNT ? nb_players() : 1); p++)
				{
					Ids y = farmers(p), z = knights(p);
					for (j = 0; j < y.n + (r == HUNT ? z.n : 0); j++)
					{
						Unit v = unit(j < y.n ? y.id[j] : z.id[j - y.n]);
						int e = C(u.pos, v.pos);
						if (r == GUARD)
							e += 3 * guarded[v.id] - (v.health < farmers_health() ? 4 : 0);
						if (e < s)
						{
							s = e;
							aim = v.pos;
							i = v.id;
						}
					}
				}
				if (s == 1000 || (r == GUARD && C(u.pos, aim) <= 1))
					break;
				if (r == GUARD)
					guarded[i]++;
				for (d = 0; d < 8; d++)
				{
					Pos q = pos_move(u.pos, (Dir)d);
					if (ok(q, 1) && C(q, aim) < C(u.pos, aim) && -D(q, aim) > t)
					{
						t = -D(q, aim);
						b = (Dir)d;
					}
				}
				break;

			default: /* REST: home first if an enemy is about, then heal */
				if (K(u.pos) <= 4 && (u.pos.i > n / 2 - 2 || u.pos.j > n / 2 - 2))
				{
					int e = u.type == Knight ? 1 : 2;
					for (d = 0; d < 8; d += e)
					{
						Pos q = pos_move(u.pos, (Dir)d);
						if (ok(q, 1) && q.i + q.j < u.pos.i + u.pos.j && -(q.i + q.j) > t)
						{
							t = -(q.i + q.j);
							b = (Dir)d;
						}
					}
				}
				break;
			}
			if (b != None)
				taken[pos_move(u.pos, b).i][pos_move(u.pos, b).j] = 1;
			command(u.id, b);
		}
#undef PUSH
}
