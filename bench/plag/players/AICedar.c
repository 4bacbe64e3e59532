/* Cedar: paint the board zone by zone.
   The inside of the board is cut in square tiles. Each farmer owns one
   tile and paints it until nothing is left, then takes the richest tile
   near it. Knights walk to the tile where most of our farmers work and
   hit whatever enemy comes close. Witches camp at the middle of the map. */
#include <stdlib.h>
#include "dominator.h"

PLAYER_NAME(Cedar);

#define T 6          /* tile side */
#define MAXID 4096
#define MAXZ 400

static const int di[9] = {1, 1, 0, -1, -1, -1, 0, 1, 0};
static const int dj[9] = {0, 1, 1, 1, 0, -1, -1, -1, 0};

static int nz, zw;          /* number of tiles, tiles per row */
static int zone[MAXID];     /* tile of each farmer, -1 none yet */
static int left_[MAXZ];     /* cells still to paint in each tile */
static int crew[MAXZ];      /* our farmers in each tile this round */

static int ab(int x) { return x < 0 ? -x : x; }

static int ok(int i, int j) {
  if (i < 0 || j < 0 || i >= rows() || j >= cols()) return 0;
  Cell c = cell(pos(i, j));
  return c.type == Empty && c.id < 0 && !c.haunted;
}

static int tile_of(int i, int j) {
  int a = (i - 1) / T, b = (j - 1) / T;
  return a * zw + b;
}

static int zi(int z) { return 1 + (z / zw) * T + T / 2; }   /* tile centre */
static int zj(int z) { return 1 + (z % zw) * T + T / 2; }

static int mine(int id) {
  return id >= 0 && unit(id).player == me();
}

void play(void) {
  int R = rows(), C = cols(), i, j, k, d, z;

  if (current_round() == 0) {
    zw = (C - 2 + T - 1) / T;
    nz = zw * ((R - 2 + T - 1) / T);
    if (nz > MAXZ) nz = MAXZ;
    for (k = 0; k < MAXID; k++) zone[k] = -1;
  }

  /* count what is left to paint in every tile */
  for (z = 0; z < nz; z++) left_[z] = crew[z] = 0;
  for (i = 1; i < R - 1; i++)
    for (j = 1; j < C - 1; j++) {
      Cell c = cell(pos(i, j));
      z = tile_of(i, j);
      if (z < nz && c.type == Empty && c.owner != me()) left_[z]++;
    }

  Ids f = farmers(me());
  for (k = 0; k < f.n; k++)
    if (f.id[k] < MAXID && zone[f.id[k]] >= 0) crew[zone[f.id[k]]]++;

  /* every unit, one switch */
  int all[3] = {Farmer, Knight, Witch};
  int t = 0;
  while (t < 3) {
    Ids l = all[t] == Farmer ? farmers(me())
          : all[t] == Knight ? knights(me()) : witches(me());
    int n = 0;
    while (n < l.n) {
      Unit u = unit(l.id[n]);
      int id = u.id, pi = u.pos.i, pj = u.pos.j;
      int go = None;
      switch (u.type) {
      case Farmer: {
        int *zp = id < MAXID ? &zone[id] : NULL;
        int cz = zp ? *zp : tile_of(pi, pj);
        if (cz < 0 || cz >= nz || left_[cz] == 0) {
          /* pick the tile with most to paint, weighed by distance and crew */
          int best = -1, bv = -1000000;
          for (z = 0; z < nz; z++) {
            if (left_[z] == 0) continue;
            int v = left_[z] * 4 - 3 * (ab(zi(z) - pi) + ab(zj(z) - pj))
                    - 25 * crew[z];
            if (v > bv) { bv = v; best = z; }
          }
          if (cz >= 0 && cz < nz) crew[cz]--;
          cz = best;
          if (cz >= 0) crew[cz]++;
          if (zp) *zp = cz;
        }
        if (cz < 0) break;
        /* nearest cell of the tile that is not ours */
        int ti = -1, tj = -1, bd = 1000000;
        int i0 = 1 + (cz / zw) * T, j0 = 1 + (cz % zw) * T;
        for (i = i0; i < i0 + T && i < R - 1; i++)
          for (j = j0; j < j0 + T && j < C - 1; j++) {
            if (i == pi && j == pj) continue;
            Cell c = cell(pos(i, j));
            if (c.type == Wall || c.owner == me() || c.haunted) continue;
            int dd = ab(i - pi) + ab(j - pj);
            if (dd < bd) { bd = dd; ti = i; tj = j; }
          }
        if (ti < 0) { left_[cz] = 0; break; }
        int r0 = random_int(0, 3);
        for (k = 0; k < 4; k++) {
          d = 2 * ((r0 + k) % 4);
          int ni = pi + di[d], nj = pj + dj[d];
          if (!ok(ni, nj)) continue;
          int dd = ab(ti - ni) + ab(tj - nj);
          if (dd < bd) { bd = dd; go = d; }
        }
        if (go == None) {         /* stuck behind something: wiggle */
          d = 2 * random_int(0, 3);
          if (ok(pi + di[d], pj + dj[d])) go = d;
        }
        break;
      }
      case Knight: {
        int hp = 1 << 30;
        for (d = 0; d < 8; d++) {
          Pos q = pos(pi + di[d], pj + dj[d]);
          int o = cell(q).id;
          if (o < 0 || mine(o) || unit(o).type == Witch) continue;
          if (unit(o).health < hp) { hp = unit(o).health; go = d; }
        }
        if (go != None) break;
        if (u.health < 100) break;          /* rest */
        /* walk to the busiest tile of our farmers, or to the centre */
        int best = -1, bc = 0;
        for (z = 0; z < nz; z++)
          if (crew[z] > bc) { bc = crew[z]; best = z; }
        int gi = best >= 0 ? zi(best) : R / 2, gj = best >= 0 ? zj(best) : C / 2;
        /* hunt enemies within 6 of us if any */
        int hd = 7;
        for (int p = 1; p < nb_players(); p++) {
          Ids e = farmers(p);
          for (int x = 0; x < e.n; x++) {
            Pos q = unit(e.id[x]).pos;
            int dd = ab(q.i - pi) > ab(q.j - pj) ? ab(q.i - pi) : ab(q.j - pj);
            if (dd < hd) { hd = dd; gi = q.i; gj = q.j; }
          }
        }
        int cur = ab(gi - pi) + ab(gj - pj);
        for (d = 0; d < 8; d++) {
          int ni = pi + di[d], nj = pj + dj[d];
          if (!ok(ni, nj)) continue;
          int dd = ab(gi - ni) + ab(gj - nj);
          if (dd < cur) { cur = dd; go = d; }
        }
        break;
      }
      case Witch: {
        int gi = R / 2 + (n == 0 ? -3 : 3), gj = C / 2;
        int cur = ab(gi - pi) + ab(gj - pj);
        for (d = 0; d < 8; d += 2) {
          int ni = pi + di[d], nj = pj + dj[d];
          Cell c = cell(pos(ni, nj));
          if (c.type == Wall || c.id >= 0) continue;
          int dd = ab(gi - ni) + ab(gj - nj);
          if (dd >= cur) continue;
          /* would we switch off, or eat one of our own? */
          int bad = 0;
          for (int a = -2; a <= 2 && !bad; a++)
            for (int b = -2 + ab(a); b <= 2 - ab(a) && !bad; b++) {
              int qi = ni + a, qj = nj + b;
              if (qi < 0 || qj < 0 || qi >= R || qj >= C) continue;
              int o = cell(pos(qi, qj)).id;
              if (o < 0 || o == id) continue;
              if (unit(o).type == Witch || mine(o)) bad = 1;
            }
          if (!bad) { cur = dd; go = d; }
        }
        break;
      }
      }
      command(id, (Dir)go);
      n++;
    }
    t++;
  }
}
