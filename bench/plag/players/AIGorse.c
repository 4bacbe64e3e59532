/* ------------------------------------------------------------------------
 * Gorse: a state machine for every unit, with Dijkstra for the farmers.
 *
 *   farmer: PAINT -> (enemy knight close) FLEE -> (hurt, calm) HEAL
 *   knight: GUARD -> (enemy near our farmers) HUNT -> (hurt) REST
 *   witch : PATROL along a fixed round of waypoints
 *
 * Farmers plan with a cheapest-path search (binary heap) where our own
 * cells cost more than fresh ones and cells next to enemy knights cost a
 * lot; each farmer reserves its goal so that two do not chase one cell.
 * ------------------------------------------------------------------------ */
#include <stdlib.h>
#include <string.h>
#include "dominator.h"

PLAYER_NAME(Gorse);

enum { MAX_UNITS = 1024, MAX_CELLS = 100 * 100, SEARCH_LIMIT = 600 };
enum { F_PAINT, F_FLEE, F_HEAL };
enum { K_GUARD, K_HUNT, K_REST };

typedef struct { int key, cell; } HeapItem;

typedef struct {
    int state;
    int target;       /* hunted unit id, for knights */
    int waypoint;     /* for witches */
    int stuck;        /* rounds without progress, for witches */
} Brain;

static Brain Brains[MAX_UNITS];
static HeapItem Heap[MAX_CELLS * 4];
static int HeapSize;
static int Cost[MAX_CELLS], FirstStep[MAX_CELLS], Reserved[MAX_CELLS];
static int Stamp[MAX_CELLS], StampNow;
static bool Danger[MAX_CELLS];      /* next to an enemy knight this round */
static int Width;

static const int DR[8] = { 1, 1, 0, -1, -1, -1, 0, 1 };
static const int DC[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };

static int Abs(int x) { return x < 0 ? -x : x; }
static int Manhattan(Pos a, Pos b) { return Abs(a.i - b.i) + Abs(a.j - b.j); }
static int Chebyshev(Pos a, Pos b) {
    int x = Abs(a.i - b.i), y = Abs(a.j - b.j);
    return x > y ? x : y;
}

static void HeapPush(int key, int c) {
    int at = HeapSize++;
    while (at > 0 && Heap[(at - 1) / 2].key > key) {
        Heap[at] = Heap[(at - 1) / 2];
        at = (at - 1) / 2;
    }
    Heap[at] = (HeapItem){ key, c };
}

static HeapItem HeapPop(void) {
    HeapItem top = Heap[0], last = Heap[--HeapSize];
    int at = 0;
    for (;;) {
        int child = 2 * at + 1;
        if (child >= HeapSize) break;
        if (child + 1 < HeapSize && Heap[child + 1].key < Heap[child].key) child++;
        if (Heap[child].key >= last.key) break;
        Heap[at] = Heap[child];
        at = child;
    }
    if (HeapSize > 0) Heap[at] = last;
    return top;
}

static bool EnemyKnightNear(Pos p, int radius) {
    for (int pl = 1; pl < nb_players(); pl++) {
        Ids ks = knights(pl);
        for (int x = 0; x < ks.n; x++)
            if (Chebyshev(unit(ks.id[x]).pos, p) <= radius) return true;
    }
    return false;
}

static bool Steppable(Pos p) {
    Cell c = cell(p);
    return c.type == Empty && c.id == -1 && !c.haunted;
}

static int EnterCost(Pos p) {
    Cell c = cell(p);
    int cost = 2;
    if (c.owner == me()) cost += 3;
    if (c.id != -1) cost += 4;              /* somebody there; may move */
    if (Danger[p.i * Width + p.j]) cost += 12;
    return cost;
}

/* Cheapest path to a cell that is not ours; returns the first step. */
static Dir PlanPaint(Pos start) {
    StampNow++;
    HeapSize = 0;
    int s = start.i * Width + start.j;
    Stamp[s] = StampNow; Cost[s] = 0; FirstStep[s] = None;
    HeapPush(0, s);
    int pops = 0;
    while (HeapSize > 0 && pops++ < SEARCH_LIMIT) {
        HeapItem it = HeapPop();
        if (it.key > Cost[it.cell]) continue;
        Pos p = pos(it.cell / Width, it.cell % Width);
        if (it.cell != s && cell(p).owner != me() && Reserved[it.cell] != current_round() + 1) {
            Reserved[it.cell] = current_round() + 1;
            return (Dir)FirstStep[it.cell];
        }
        for (int d = 0; d < 8; d += 2) {
            Pos q = pos(p.i + DR[d], p.j + DC[d]);
            if (!pos_ok(q) || cell(q).type == Wall || cell(q).haunted) continue;
            if (it.cell == s && !Steppable(q)) continue;
            int qc = q.i * Width + q.j;
            int nc = it.key + EnterCost(q);
            if (Stamp[qc] == StampNow && Cost[qc] <= nc) continue;
            Stamp[qc] = StampNow; Cost[qc] = nc;
            FirstStep[qc] = it.cell == s ? d : FirstStep[it.cell];
            HeapPush(nc, qc);
        }
    }
    return None;
}

static Dir RunAway(Pos from) {
    Dir best = None;
    int bestScore = -1;
    for (int d = 0; d < 8; d += 2) {
        Pos q = pos_move(from, (Dir)d);
        if (!Steppable(q)) continue;
        int score = EnemyKnightNear(q, 1) ? 0 : (EnemyKnightNear(q, 2) ? 1 : 2);
        score = score * 4 + random_int(0, 3);
        if (score > bestScore) { bestScore = score; best = (Dir)d; }
    }
    return best;
}

static void DriveFarmer(Unit u, Brain *b) {
    bool threat = EnemyKnightNear(u.pos, 2);
    switch (b->state) {
    case F_PAINT:
        if (threat) b->state = F_FLEE;
        else if (u.health <= farmers_health() / 2) b->state = F_HEAL;
        break;
    case F_FLEE:
        if (!threat) b->state = u.health < farmers_health() ? F_HEAL : F_PAINT;
        break;
    case F_HEAL:
        if (threat) b->state = F_FLEE;
        else if (u.health >= farmers_health()) b->state = F_PAINT;
        break;
    }
    switch (b->state) {
    case F_FLEE:  command(u.id, RunAway(u.pos)); break;
    case F_HEAL:  command(u.id, None); break;
    default:      command(u.id, PlanPaint(u.pos)); break;
    }
}

static Dir StepToward(Pos from, Pos to) {
    Dir best = None;
    int bestKey = Chebyshev(from, to) * 8 + Manhattan(from, to);
    for (int d = 0; d < 8; d++) {
        Pos q = pos_move(from, (Dir)d);
        if (!Steppable(q)) continue;
        int key = Chebyshev(q, to) * 8 + Manhattan(q, to);
        if (key < bestKey) { bestKey = key; best = (Dir)d; }
    }
    return best;
}

static int PickPrey(Pos near, int range) {
    int best = -1, bestD = range + 1;
    for (int pl = 1; pl < nb_players(); pl++) {
        Ids fs = farmers(pl), ks = knights(pl);
        for (int x = 0; x < fs.n + ks.n; x++) {
            int id = x < fs.n ? fs.id[x] : ks.id[x - fs.n];
            int d = Chebyshev(unit(id).pos, near);
            if (d < bestD) { bestD = d; best = id; }
        }
    }
    return best;
}

static void DriveKnight(Unit u, Brain *b, Pos flock) {
    int hit = -1, hitHp = 1 << 30;
    for (int d = 0; d < 8; d++) {
        int id = cell(pos_move(u.pos, (Dir)d)).id;
        if (id < 0) continue;
        Unit v = unit(id);
        if (v.player != me() && v.type != Witch && v.health < hitHp) { hitHp = v.health; hit = d; }
    }
    if (hit >= 0) { command(u.id, (Dir)hit); return; }

    if (u.health < 80) b->state = K_REST;
    switch (b->state) {
    case K_REST:
        if (u.health >= knights_health() - 30) b->state = K_GUARD;
        command(u.id, None);
        return;
    case K_HUNT: {
        Unit t = b->target >= 0 ? unit(b->target) : (Unit){ .id = -1 };
        if (t.id == -1 || t.player == me() || Chebyshev(t.pos, flock) > 12) {
            b->state = K_GUARD;
            b->target = -1;
            break;
        }
        command(u.id, StepToward(u.pos, t.pos));
        return;
    }
    default:
        break;
    }
    b->target = PickPrey(flock, 8);
    if (b->target >= 0) {
        b->state = K_HUNT;
        command(u.id, StepToward(u.pos, unit(b->target).pos));
    } else {
        command(u.id, Chebyshev(u.pos, flock) > 3 ? StepToward(u.pos, flock) : None);
    }
}

static void DriveWitch(Unit u, Brain *b) {
    int n = rows() / 2;
    Pos route[4] = { pos(n - 2, n / 3), pos(n - 2, n - 2), pos(n / 3, n - 2), pos(n + 3, n + 3) };
    Pos goal = route[b->waypoint % 4];
    if (Manhattan(u.pos, goal) <= 1 || b->stuck > 6) {
        b->waypoint++;
        b->stuck = 0;
        goal = route[b->waypoint % 4];
    }
    Dir best = None;
    int bestD = Manhattan(u.pos, goal);
    for (int d = 0; d < 8; d += 2) {
        Pos q = pos_move(u.pos, (Dir)d);
        if (cell(q).type == Wall || cell(q).id != -1 || Manhattan(q, goal) >= bestD) continue;
        bool bad = false;
        for (int a = -2; a <= 2 && !bad; a++)
            for (int c = Abs(a) - 2; c <= 2 - Abs(a) && !bad; c++) {
                Pos r = pos(q.i + a, q.j + c);
                if (!pos_ok(r) || cell(r).id < 0 || cell(r).id == u.id) continue;
                Unit v = unit(cell(r).id);
                bad = v.type == Witch || v.player == me();
            }
        if (!bad) { bestD = Manhattan(q, goal); best = (Dir)d; }
    }
    b->stuck = best == None ? b->stuck + 1 : 0;
    command(u.id, best);
}

void play(void) {
    Width = cols();
    if (rows() * cols() > MAX_CELLS) return;   /* board too big for us */

    memset(Danger, 0, sizeof Danger);
    for (int pl = 1; pl < nb_players(); pl++) {
        Ids ek = knights(pl);
        for (int x = 0; x < ek.n; x++) {
            Pos k = unit(ek.id[x]).pos;
            for (int d = 0; d < 8; d++) {
                Pos q = pos(k.i + DR[d], k.j + DC[d]);
                if (pos_ok(q)) Danger[q.i * Width + q.j] = true;
            }
        }
    }

    Ids fs = farmers(me()), ks = knights(me()), ws = witches(me());
    Pos flock = pos(rows() / 4, cols() / 4);
    if (fs.n > 0) {
        int si = 0, sj = 0;
        for (int x = 0; x < fs.n; x++) { si += unit(fs.id[x]).pos.i; sj += unit(fs.id[x]).pos.j; }
        flock = pos(si / fs.n, sj / fs.n);
    }
    for (int x = 0; x < fs.n; x++)
        if (fs.id[x] < MAX_UNITS) DriveFarmer(unit(fs.id[x]), &Brains[fs.id[x]]);
    for (int x = 0; x < ks.n; x++)
        if (ks.id[x] < MAX_UNITS) DriveKnight(unit(ks.id[x]), &Brains[ks.id[x]], flock);
    for (int x = 0; x < ws.n; x++)
        if (ws.id[x] < MAX_UNITS) DriveWitch(unit(ws.id[x]), &Brains[ws.id[x]]);
}
