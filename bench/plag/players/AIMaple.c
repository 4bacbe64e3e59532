/*  Maple -- a dice roller.
 *
 *  No plans, no paths: every unit gives a weight to each of its possible
 *  orders and draws one at random in proportion.  The weights encode the
 *  little it knows: fresh paint is good, enemy paint better, keeping the
 *  same heading is good (so farmers sweep instead of dithering), hitting
 *  a weak enemy is very good, walking into a witch is never an option.
 */
#include <string.h>
#include "dominator.h"

PLAYER_NAME(Maple);

#define W_OWN      2
#define W_BLANK   10
#define W_FOE     14
#define W_KEEP     3   /* multiplier for the last heading */
#define W_REST    12
#define W_HIT     40
#define W_CLOSER   8
#define W_STAY     2
#define MAXW      64
#define MAXID   4096

#define ABS(x)   ((x) < 0 ? -(x) : (x))
#define MAN(a,b) (ABS((a).i - (b).i) + ABS((a).j - (b).j))
#define IS_FOE(u) ((u).id != -1 && (u).player != me() && (u).type != Witch)

static Pos wp[MAXW];        /* witches, plus where ours are going */
static int wmine[MAXW], nw;
static char claim[99][99];
static signed char heading[MAXID];

static int near_witch(Pos q) {
    int k = 0;
    if (nw == 0) return 0;
    do {
        if (MAN(q, wp[k]) <= (wmine[k] ? 2 : 3)) return 1;
    } while (++k < nw);
    return 0;
}

static int free_at(Pos q) {
    Cell c = cell(q);
    return c.type == Empty && c.id == -1 && !claim[q.i][q.j];
}

static int safe_at(Pos q) {
    return free_at(q) && !cell(q).haunted && !near_witch(q);
}

static int next_to_knight(Pos q) {
    int d = 0;
    do {
        Unit v = unit(cell(pos_move(q, (Dir)d)).id);
        if (IS_FOE(v) && v.type == Knight) return 1;
    } while (++d < 8);
    return 0;
}

/* Roulette wheel over the nine options. */
static Dir draw(const int *wt) {
    int tot = 0, d = 0, pick;
    do tot += wt[d]; while (++d < 9);
    if (tot <= 0) return None;
    pick = random_int(1, tot);
    d = 0;
    while (pick > wt[d]) pick -= wt[d++];
    return (Dir)d;
}

static Pos nearest_foe(Pos p, int farmers_only) {
    Pos best = p;
    int bd = 1 << 30, pl = 1;
    do {
        Ids l[2] = { farmers(pl), knights(pl) };
        for (int t = 0; t < (farmers_only ? 1 : 2); t++)
            for (int k = 0; k < l[t].n; k++) {
                Pos q = unit(l[t].id[k]).pos;
                if (MAN(p, q) < bd) { bd = MAN(p, q); best = q; }
            }
    } while (++pl < nb_players());
    return best;
}

static int witch_room(Pos q, int self) {
    int pl = 0;
    if (!free_at(q)) return 0;
    do {
        Ids w = witches(pl);
        for (int k = 0; k < w.n; k++)
            if (w.id[k] != self && MAN(q, unit(w.id[k]).pos) <= 2) return 0;
    } while (++pl < nb_players());
    Ids l[2] = { farmers(me()), knights(me()) };
    for (int t = 0; t < 2; t++)
        for (int k = 0; k < l[t].n; k++)
            if (MAN(q, unit(l[t].id[k]).pos) <= 2) return 0;
    return 1;
}

static int foes_around(Pos q, int r) {
    int n = 0, pl = 1;
    do {
        Ids l[2] = { farmers(pl), knights(pl) };
        for (int t = 0; t < 2; t++)
            for (int k = 0; k < l[t].n; k++)
                n += MAN(q, unit(l[t].id[k]).pos) <= r;
    } while (++pl < nb_players());
    return n;
}

static void act(Unit u) {
    int wt[9] = { 0 };
    int hurt, d;
    Pos aim;

    switch (u.type) {
    case Farmer:
        hurt = u.health * 2 < farmers_health();
        for (d = 0; d < 8; d += 2) {
            Pos q = pos_move(u.pos, (Dir)d);
            int owner;
            if (!safe_at(q)) continue;
            owner = cell(q).owner;
            wt[d] = owner == me() ? W_OWN : owner == -1 ? W_BLANK : W_FOE;
            if (u.id < MAXID && heading[u.id] == d) wt[d] *= W_KEEP;
            if (next_to_knight(q)) wt[d] /= 4;
        }
        wt[None] = hurt && !next_to_knight(u.pos) ? W_REST : 1;
        break;

    case Knight:
        for (d = 0; d < 8; d++) {
            Unit v = unit(cell(pos_move(u.pos, (Dir)d)).id);
            if (IS_FOE(v))
                wt[d] = W_HIT + (v.type == Knight ? knights_health() : farmers_health()) - v.health;
        }
        if (u.health * 2 < knights_health()) {
            wt[None] = 4 * W_HIT;
            break;
        }
        aim = nearest_foe(u.pos, 0);
        for (d = 0; d < 8; d++) {
            Pos q = pos_move(u.pos, (Dir)d);
            if (wt[d] || !safe_at(q)) continue;
            wt[d] = MAN(q, aim) < MAN(u.pos, aim) ? W_CLOSER + 1 : 1;
        }
        wt[None] = W_STAY;
        break;

    case Witch:
        aim = nearest_foe(u.pos, 1);
        for (d = 0; d < 8; d += 2) {
            Pos q = pos_move(u.pos, (Dir)d);
            if (!witch_room(q, u.id)) continue;
            wt[d] = 2 + 6 * foes_around(q, 3) + (MAN(q, aim) < MAN(u.pos, aim) ? W_CLOSER : 0);
        }
        wt[None] = W_STAY + 2 * foes_around(u.pos, 2);
        break;
    }

    d = draw(wt);
    if (d != None) {
        Pos q = pos_move(u.pos, (Dir)d);
        if (u.type != Knight || !IS_FOE(unit(cell(q).id))) claim[q.i][q.j] = 1;
        if (u.type == Witch && nw < MAXW) { wp[nw] = q; wmine[nw++] = 1; }
        if (u.type == Farmer && u.id < MAXID) heading[u.id] = (signed char)d;
    } else if (u.type == Farmer && u.id < MAXID && random_int(0, 3) == 0) {
        heading[u.id] = (signed char)(2 * random_int(0, 3));
    }
    command(u.id, (Dir)d);
}

void play(void) {
    int pl = 0;
    memset(claim, 0, sizeof claim);
    nw = 0;
    do {
        Ids w = witches(pl);
        for (int k = 0; k < w.n && nw < MAXW; k++, nw++) {
            wp[nw] = unit(w.id[k]).pos;
            wmine[nw] = pl == me();
        }
    } while (++pl < nb_players());

    Ids w = witches(me()), kn = knights(me()), f = farmers(me());
    for (int k = 0; k < w.n; k++) act(unit(w.id[k]));
    for (int k = 0; k < kn.n; k++) act(unit(kn.id[k]));
    for (int k = 0; k < f.n; k++) act(unit(f.id[k]));
}
