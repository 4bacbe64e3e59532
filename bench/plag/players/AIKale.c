/* AIKale.c  --  a player that keeps books on regions of the board.

   The board is cut into square regions.  Each round Kale counts, for every
   region, the cells that are ours, someone else's or nobody's, and the
   units standing there.  Then each of our units goes to the handler for
   its kind, found in a table of function pointers:
     farmer  -> the region with the most cells left to paint per farmer
                already sent there, not too far away;
     knight  -> the region with the most enemy farmers per knight sent;
     witch   -> the busiest enemy region where none of ours stands.  */

#include <stdlib.h>
#include <string.h>
#include "dominator.h"

PLAYER_NAME (Kale);

#define MAX_SIDE 99
#define MAX_REG 32
#define MAX_ID 4096

struct region
{
  int ours, theirs, blank;
  int foes, foe_farmers, foe_knights, friends;
  int farmers_sent, knights_sent;
  int ci, cj;                   /* centre cell */
};

typedef void (*handler_fn) (Unit *u);
typedef Ids (*list_fn) (int player);

static struct region regions[MAX_REG][MAX_REG];
static int side, reg_size, nreg;
static unsigned char hot[MAX_SIDE][MAX_SIDE];    /* deadly or about to be */
static unsigned char booked[MAX_SIDE][MAX_SIDE]; /* one of ours goes there */
static int last_region[MAX_ID];

static int
dist (int ai, int aj, int bi, int bj)
{
  return abs (ai - bi) + abs (aj - bj);
}

static struct region *
region_at (Pos p)
{
  return &regions[p.i / reg_size][p.j / reg_size];
}

static void
heat_diamond (Pos c, int r)
{
  for (int i = c.i - r; i <= c.i + r; i++)
    for (int j = c.j - r; j <= c.j + r; j++)
      if (i >= 0 && j >= 0 && i < side && j < side && dist (i, j, c.i, c.j) <= r)
        hot[i][j] = 1;
}

static void
count_regions (void)
{
  memset (regions, 0, sizeof regions);
  memset (booked, 0, sizeof booked);
  for (int i = 0; i < side; i++)
    for (int j = 0; j < side; j++)
      {
        Cell c = cell (pos (i, j));
        struct region *r = &regions[i / reg_size][j / reg_size];
        hot[i][j] = c.haunted;
        r->ci = i - i % reg_size + reg_size / 2;
        r->cj = j - j % reg_size + reg_size / 2;
        if (c.type == Wall)
          continue;
        if (c.owner == me ())
          r->ours++;
        else if (c.owner == -1)
          r->blank++;
        else
          r->theirs++;
      }
  for (int pl = 0; pl < nb_players (); pl++)
    {
      Ids w = witches (pl), army[2] = { farmers (pl), knights (pl) };
      for (int n = 0; n < w.n; n++)
        heat_diamond (unit (w.id[n]).pos, pl == me () ? 2 : 3);
      for (int t = 0; t < 2; t++)
        for (int n = 0; n < army[t].n; n++)
          {
            struct region *r = region_at (unit (army[t].id[n]).pos);
            if (pl == me ())
              r->friends++;
            else
              r->foes++, *(t == 0 ? &r->foe_farmers : &r->foe_knights) += 1;
          }
    }
}

static bool
enterable (Pos q)
{
  Cell c = cell (q);
  return c.type == Empty && c.id == -1 && !hot[q.i][q.j] && !booked[q.i][q.j];
}

/* Step of a straight (or, for a knight, any) move that gets closest to g. */
static Dir
step_towards (Pos from, Pos g, bool diagonals, bool prefer_paint)
{
  Dir best = None;
  int best_key = 4 * dist (from.i, from.j, g.i, g.j) + 3;
  for (int d = 0; d < 8; d += diagonals ? 1 : 2)
    {
      Pos q = pos_move (from, (Dir) d);
      if (!enterable (q))
        continue;
      int key = 4 * dist (q.i, q.j, g.i, g.j) + random_int (0, 1);
      if (prefer_paint && cell (q).owner != me ())
        key -= 3;
      if (key < best_key)
        best_key = key, best = (Dir) d;
    }
  return best;
}

static void
send (Unit *u, Dir d)
{
  if (d != None)
    {
      Pos q = pos_move (u->pos, d);
      booked[q.i][q.j] = 1;
    }
  command (u->id, d);
}

static void
do_farmer (Unit *u)
{
  struct region *best = NULL;
  double best_value = -1e18;
  for (int a = 0; a < nreg; a++)
    for (int b = 0; b < nreg; b++)
      {
        struct region *r = &regions[a][b];
        double todo = r->blank + 1.3 * r->theirs;
        if (todo < 1)
          continue;
        double value = todo / (1 + 3 * r->farmers_sent)
                       - 0.6 * dist (u->pos.i, u->pos.j, r->ci, r->cj)
                       - 5.0 * r->foe_knights;
        if (u->id < MAX_ID && last_region[u->id] == a * MAX_REG + b)
          value += 4;
        if (value > best_value)
          best_value = value, best = r;
      }
  if (best == NULL)
    {
      send (u, step_towards (u->pos, pos (side / 2, side / 2), false, true));
      return;
    }
  best->farmers_sent++;
  int a = (int) (best - &regions[0][0]) / MAX_REG, b = (int) (best - &regions[0][0]) % MAX_REG;
  if (u->id < MAX_ID)
    last_region[u->id] = a * MAX_REG + b;

  /* nearest cell of that region still to paint */
  Pos goal = pos (best->ci, best->cj);
  int goal_d = 1 << 30;
  for (int i = a * reg_size; i < (a + 1) * reg_size && i < side; i++)
    for (int j = b * reg_size; j < (b + 1) * reg_size && j < side; j++)
      {
        Cell c = cell (pos (i, j));
        if (c.type == Wall || c.owner == me () || hot[i][j])
          continue;
        if (dist (i, j, u->pos.i, u->pos.j) < goal_d)
          goal_d = dist (i, j, u->pos.i, u->pos.j), goal = pos (i, j);
      }
  Dir d = step_towards (u->pos, goal, false, true);
  if (d == None)
    d = (Dir) (2 * random_int (0, 3));
  send (u, enterable (pos_move (u->pos, d)) ? d : None);
}

static void
do_knight (Unit *u)
{
  for (int d = 0; d < 8; d++)
    {
      Unit v = unit (cell (pos_move (u->pos, (Dir) d)).id);
      if (v.id != -1 && v.player != me () && v.type != Witch)
        {
          command (u->id, (Dir) d);
          return;
        }
    }
  if (u->health * 5 < knights_health () * 2)
    {
      command (u->id, None);
      return;
    }
  struct region *best = NULL;
  double best_value = 0;
  for (int a = 0; a < nreg; a++)
    for (int b = 0; b < nreg; b++)
      {
        struct region *r = &regions[a][b];
        double value = (2.0 * r->foe_farmers + r->foe_knights) / (1 + r->knights_sent)
                       - 0.25 * dist (u->pos.i, u->pos.j, r->ci, r->cj);
        if (r->foes > 0 && value > best_value)
          best_value = value, best = r;
      }
  if (best == NULL)
    {
      send (u, None);
      return;
    }
  best->knights_sent++;
  Pos goal = pos (best->ci, best->cj);
  int goal_d = 1 << 30;
  for (int pl = 1; pl < nb_players (); pl++)
    {
      Ids f = farmers (pl);
      for (int n = 0; n < f.n; n++)
        {
          Pos p = unit (f.id[n]).pos;
          if (region_at (p) == best && dist (p.i, p.j, u->pos.i, u->pos.j) < goal_d)
            goal_d = dist (p.i, p.j, u->pos.i, u->pos.j), goal = p;
        }
    }
  send (u, step_towards (u->pos, goal, true, false));
}

static bool
witch_may_go (Pos q, int self)
{
  Cell c = cell (q);
  if (c.type == Wall || c.id != -1 || booked[q.i][q.j])
    return false;
  for (int pl = 0; pl < nb_players (); pl++)
    {
      Ids lists[3] = { witches (pl), farmers (pl), knights (pl) };
      for (int t = 0; t < (pl == me () ? 3 : 1); t++)
        for (int n = 0; n < lists[t].n; n++)
          {
            Unit v = unit (lists[t].id[n]);
            if (v.id != self && dist (v.pos.i, v.pos.j, q.i, q.j) <= 2)
              return false;
          }
    }
  return true;
}

static void
do_witch (Unit *u)
{
  struct region *best = NULL;
  double best_value = -1e18;
  for (int a = 0; a < nreg; a++)
    for (int b = 0; b < nreg; b++)
      {
        struct region *r = &regions[a][b];
        double value = 3.0 * r->foes - 0.4 * dist (u->pos.i, u->pos.j, r->ci, r->cj);
        if (r->friends == 0 && value > best_value)
          best_value = value, best = r;
      }
  Dir choice = None;
  int here_d = best ? dist (u->pos.i, u->pos.j, best->ci, best->cj) : 0;
  for (int d = 0; best != NULL && d < 8; d += 2)
    {
      Pos q = pos_move (u->pos, (Dir) d);
      if (witch_may_go (q, u->id) && dist (q.i, q.j, best->ci, best->cj) < here_d)
        here_d = dist (q.i, q.j, best->ci, best->cj), choice = (Dir) d;
    }
  if (choice != None)
    heat_diamond (pos_move (u->pos, choice), 2);
  send (u, choice);
}

static const handler_fn handlers[3] = { do_farmer, do_knight, do_witch };
static const list_fn lists_of[3] = { farmers, knights, witches };

void
play (void)
{
  side = rows ();
  reg_size = side / 6 < 4 ? 4 : side / 6;
  nreg = (side + reg_size - 1) / reg_size;     /* at most 25 <= MAX_REG */
  count_regions ();
  /* witches first: the others must know where the witches will be */
  for (int kind = Witch; kind >= Farmer; kind--)
    {
      Ids l = lists_of[kind] (me ());
      for (int n = 0; n < l.n; n++)
        {
          Unit u = unit (l.id[n]);
          handlers[u.type] (&u);
        }
    }
}
