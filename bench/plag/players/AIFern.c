/*
 * Fern
 * ====
 * Two distance maps, rebuilt every few rounds, drive the whole army:
 *
 *   paint map  distance (4-way) from each cell to the nearest cell we
 *              could still paint; farmers roll downhill on it.
 *   hunt map   distance (8-way) to the nearest farmer or knight of the
 *              "prey" team, the enemy that looks weakest (fewest knights,
 *              then lowest total health); knights and witches roll
 *              downhill on it.
 */
#include <limits.h>
#include <stdlib.h>
#include "dominator.h"

PLAYER_NAME(Fern);

#define PAINT_EVERY 3
#define HUNT_EVERY 4
#define UNREACHED INT_MAX

typedef struct {
    int *dist;
    int last_built;     /* round it was built, -1 never */
} dist_map_t;

typedef struct {
    int *cells;         /* flat indices */
    int head, tail;
} fifo_t;

static dist_map_t paint_map = { NULL, -1 };
static dist_map_t hunt_map = { NULL, -1 };
static fifo_t fifo;
static int prey_team = 1;
static int n_cells;

static const int row_step[8] = { 1, 1, 0, -1, -1, -1, 0, 1 };
static const int col_step[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };

static int flat(int i, int j) { return i * cols() + j; }

static int alloc_all(void)
{
    if (fifo.cells)
        return 1;
    n_cells = rows() * cols();
    fifo.cells = malloc(sizeof(int) * (size_t)n_cells);
    paint_map.dist = malloc(sizeof(int) * (size_t)n_cells);
    hunt_map.dist = malloc(sizeof(int) * (size_t)n_cells);
    return fifo.cells && paint_map.dist && hunt_map.dist;
}

/* ---- building the maps --------------------------------------------------- */

static void seed_cell(dist_map_t *m, int i, int j)
{
    int k = flat(i, j);
    if (m->dist[k] != 0) {
        m->dist[k] = 0;
        fifo.cells[fifo.tail++] = k;
    }
}

static void spread(dist_map_t *m, int step)
{
    while (fifo.head < fifo.tail) {
        int k = fifo.cells[fifo.head++];
        int i = k / cols(), j = k % cols();
        for (int d = 0; d < 8; d += step) {
            int ni = i + row_step[d], nj = j + col_step[d];
            if (!pos_ok(pos(ni, nj)) || cell(pos(ni, nj)).type == Wall)
                continue;
            int nk = flat(ni, nj);
            if (m->dist[nk] != UNREACHED)
                continue;
            m->dist[nk] = m->dist[k] + 1;
            fifo.cells[fifo.tail++] = nk;
        }
    }
}

static void reset(dist_map_t *m)
{
    for (int k = 0; k < n_cells; k++)
        m->dist[k] = UNREACHED;
    fifo.head = fifo.tail = 0;
}

static void build_paint_map(void)
{
    reset(&paint_map);
    for (int i = 1; i < rows() - 1; i++)
        for (int j = 1; j < cols() - 1; j++) {
            Cell c = cell(pos(i, j));
            if (c.type == Empty && c.owner != me() && !c.haunted)
                seed_cell(&paint_map, i, j);
        }
    spread(&paint_map, 2);
    paint_map.last_built = current_round();
}

static int team_weakness(int team)
{
    Ids k = knights(team), f = farmers(team);
    int health = 0;
    for (int x = 0; x < k.n; x++)
        health += unit(k.id[x]).health;
    if (f.n + k.n == 0)
        return INT_MIN;             /* nothing to hunt there */
    return -k.n * 1000 - health / 10 + f.n * 50;
}

static void choose_prey(void)
{
    int best = INT_MIN;
    for (int t = 1; t < nb_players(); t++) {
        int w = team_weakness(t);
        if (w > best) {
            best = w;
            prey_team = t;
        }
    }
}

static void build_hunt_map(void)
{
    choose_prey();
    reset(&hunt_map);
    Ids lists[2] = { farmers(prey_team), knights(prey_team) };
    for (int l = 0; l < 2; l++)
        for (int x = 0; x < lists[l].n; x++) {
            Pos p = unit(lists[l].id[x]).pos;
            seed_cell(&hunt_map, p.i, p.j);
        }
    spread(&hunt_map, 1);
    hunt_map.last_built = current_round();
}

/* ---- using them ---------------------------------------------------------- */

static int height(const dist_map_t *m, Pos p)
{
    return m->dist[flat(p.i, p.j)];
}

static int free_and_safe(Pos p)
{
    Cell c = cell(p);
    return c.type == Empty && c.id < 0 && !c.haunted;
}

/* Downhill step on map m; step 2 = straight moves only. */
static Dir downhill(const dist_map_t *m, Pos from, int step, int for_witch)
{
    Dir best = None;
    int best_h = height(m, from);
    int offset = random_int(0, 3) * 2;
    for (int k = 0; k < 8; k += step) {
        int d = (k + offset) % 8;
        Pos q = pos_move(from, (Dir)d);
        if (for_witch ? (cell(q).type == Wall || cell(q).id >= 0) : !free_and_safe(q))
            continue;
        int h = height(m, q);
        if (h < best_h) {
            best_h = h;
            best = (Dir)d;
        }
    }
    return best;
}

static void order_farmer(Unit u)
{
    /* an unpainted neighbour right now beats the (maybe stale) map */
    int first = random_int(0, 3);
    for (int k = 0; k < 4; k++) {
        Dir d = (Dir)(2 * ((first + k) % 4));
        Pos q = pos_move(u.pos, d);
        if (free_and_safe(q) && cell(q).owner != me()) {
            command(u.id, d);
            return;
        }
    }
    Dir d = downhill(&paint_map, u.pos, 2, 0);
    if (d == None) {
        Dir r = (Dir)(2 * random_int(0, 3));
        if (free_and_safe(pos_move(u.pos, r)))
            d = r;
    }
    command(u.id, d);
}

static void order_knight(Unit u)
{
    int pick = -1, pick_key = INT_MAX;
    for (int d = 0; d < 8; d++) {
        int id = cell(pos_move(u.pos, (Dir)d)).id;
        if (id < 0)
            continue;
        Unit v = unit(id);
        if (v.player == me() || v.type == Witch)
            continue;
        int key = v.health - (v.player == prey_team ? 50 : 0);
        if (key < pick_key) {
            pick_key = key;
            pick = d;
        }
    }
    if (pick >= 0)
        command(u.id, (Dir)pick);
    else if (u.health < knights_health() / 2)
        command(u.id, None);
    else
        command(u.id, downhill(&hunt_map, u.pos, 1, 0));
}

static int witch_would_hurt(Pos p, int self)
{
    for (int a = -2; a <= 2; a++)
        for (int b = abs(a) - 2; b <= 2 - abs(a); b++) {
            Pos q = pos(p.i + a, p.j + b);
            if (!pos_ok(q) || cell(q).id < 0 || cell(q).id == self)
                continue;
            Unit v = unit(cell(q).id);
            if (v.type == Witch || v.player == me())
                return 1;
        }
    return 0;
}

static void order_witch(Unit u)
{
    Dir d = downhill(&hunt_map, u.pos, 2, 1);
    if (d != None && witch_would_hurt(pos_move(u.pos, d), u.id))
        d = None;
    command(u.id, d);
}

void play(void)
{
    if (!alloc_all())
        return;
    int r = current_round();
    if (paint_map.last_built < 0 || r - paint_map.last_built >= PAINT_EVERY)
        build_paint_map();
    if (hunt_map.last_built < 0 || r - hunt_map.last_built >= HUNT_EVERY)
        build_hunt_map();

    Ids f = farmers(me());
    for (int x = 0; x < f.n; x++)
        order_farmer(unit(f.id[x]));
    Ids k = knights(me());
    for (int x = 0; x < k.n; x++)
        order_knight(unit(k.id[x]));
    Ids w = witches(me());
    for (int x = 0; x < w.n; x++)
        order_witch(unit(w.id[x]));
}
