// Elm: a random walker that remembers.
// Farmers wander, but every cell keeps a count of how often we stood on it,
// and the walkers prefer fresh ground (and cells that are not our colour).
// Knights follow a "scent" map: enemy farmers leave scent that fades each
// round.  Witches wander the scent too, keeping away from friends.
#include <stdlib.h>
#include "dominator.h"

PLAYER_NAME(Elm);

#define SIDE 128
#define IDS 2048

static unsigned short visits[SIDE][SIDE];
static int scent[SIDE][SIDE];
static signed char heading[IDS];
static int started = 0;

static int dRow(int d) { return d == 0 || d == 1 || d == 7 ? 1 : (d >= 3 && d <= 5 ? -1 : 0); }
static int dCol(int d) { return d >= 1 && d <= 3 ? 1 : (d >= 5 && d <= 7 ? -1 : 0); }

static int inside(int r, int c) { return r >= 0 && c >= 0 && r < rows() && c < cols() && r < SIDE && c < SIDE; }

static int walkable(int r, int c) {
  if (!inside(r, c)) return 0;
  Cell x = cell(pos(r, c));
  return x.type == Empty && x.id < 0 && !x.haunted;
}

static int isFoe(int id) { return id >= 0 && unit(id).player != me(); }

static int foeKnightsAround(int r, int c) {
  int n = 0;
  for (int dr = -1; dr <= 1; dr++)
    for (int dc = -1; dc <= 1; dc++) {
      if (!inside(r + dr, c + dc)) continue;
      int id = cell(pos(r + dr, c + dc)).id;
      if (isFoe(id) && unit(id).type == Knight) n++;
    }
  return n;
}

static void refreshMemory(void) {
  for (int r = 0; r < rows() && r < SIDE; r++)
    for (int c = 0; c < cols() && c < SIDE; c++)
      scent[r][c] = scent[r][c] * 3 / 4;
  for (int p = 1; p < nb_players(); p++) {
    Ids e = farmers(p);
    for (int k = 0; k < e.n; k++) {
      Pos q = unit(e.id[k]).pos;
      if (!inside(q.i, q.j)) continue;
      // spread a little so the gradient reaches further
      for (int dr = -2; dr <= 2; dr++)
        for (int dc = -2; dc <= 2; dc++)
          if (inside(q.i + dr, q.j + dc)) scent[q.i + dr][q.j + dc] += 40 - 8 * (abs(dr) + abs(dc));
    }
  }
  Ids mine = farmers(me());
  for (int k = 0; k < mine.n; k++) {
    Pos q = unit(mine.id[k]).pos;
    if (inside(q.i, q.j) && visits[q.i][q.j] < 60000) visits[q.i][q.j]++;
  }
}

static void walkFarmer(Unit u) {
  int r = u.pos.i, c = u.pos.j;
  int best = None, bestCost = 1 << 30;
  int prev = u.id < IDS ? heading[u.id] : -1;
  for (int d = 0; d < 8; d += 2) {
    int nr = r + dRow(d), nc = c + dCol(d);
    if (!walkable(nr, nc)) continue;
    Cell x = cell(pos(nr, nc));
    int cost = visits[nr][nc] * 3 + random_int(0, 4);
    if (x.owner == me()) cost += 8;
    else if (x.owner < 0) cost -= 2;
    if (d == prev) cost -= 3;
    cost += 60 * foeKnightsAround(nr, nc);
    if (cost < bestCost) { bestCost = cost; best = d; }
  }
  if (best != None && u.id < IDS) heading[u.id] = (signed char)best;
  if (best == None && u.id < IDS) heading[u.id] = -1;
  command(u.id, (Dir)best);
}

static void walkKnight(Unit u) {
  int r = u.pos.i, c = u.pos.j;
  int victim = -1, low = 1 << 30;
  for (int d = 0; d < 8; d++) {
    int id = cell(pos(r + dRow(d), c + dCol(d))).id;
    if (!isFoe(id)) continue;
    Unit v = unit(id);
    if (v.type == Witch) continue;
    if (v.health < low) { low = v.health; victim = d; }
  }
  if (victim >= 0) { command(u.id, (Dir)victim); return; }
  if (u.health < knights_health() * 2 / 5) { command(u.id, None); return; }
  int best = None, bestVal = -(1 << 30);
  int start = random_int(0, 7);
  for (int k = 0; k < 8; k++) {
    int d = (start + k) % 8;
    int nr = r + dRow(d), nc = c + dCol(d);
    if (!walkable(nr, nc)) continue;
    int val = scent[nr][nc] + random_int(0, 6);
    if (u.id < IDS && d == heading[u.id]) val += 4;
    if (val > bestVal) { bestVal = val; best = d; }
  }
  if (u.id < IDS) heading[u.id] = (signed char)(best == None ? -1 : best);
  command(u.id, (Dir)best);
}

static int witchSpotOk(int r, int c, int self) {
  for (int dr = -2; dr <= 2; dr++)
    for (int dc = -2; dc <= 2; dc++) {
      if (abs(dr) + abs(dc) > 2 || !inside(r + dr, c + dc)) continue;
      int id = cell(pos(r + dr, c + dc)).id;
      if (id < 0 || id == self) continue;
      Unit v = unit(id);
      if (v.type == Witch) return 0;
      if (v.player == me()) return 0;
    }
  return 1;
}

static void walkWitch(Unit u) {
  int r = u.pos.i, c = u.pos.j;
  int best = None, bestVal = scent[r][c];
  for (int d = 0; d < 8; d += 2) {
    int nr = r + dRow(d), nc = c + dCol(d);
    if (!inside(nr, nc)) continue;
    Cell x = cell(pos(nr, nc));
    if (x.type == Wall || x.id >= 0) continue;
    if (!witchSpotOk(nr, nc, u.id)) continue;
    int val = scent[nr][nc] + random_int(0, 10);
    if (val > bestVal) { bestVal = val; best = d; }
  }
  command(u.id, (Dir)best);
}

void play(void) {
  if (!started) {
    for (int k = 0; k < IDS; k++) heading[k] = -1;
    started = 1;
  }
  refreshMemory();
  Ids f = farmers(me()), k = knights(me()), w = witches(me());
  int order[512];
  int n = f.n < 512 ? f.n : 512;
  random_permutation(n, order);
  for (int i = 0; i < n; i++) walkFarmer(unit(f.id[order[i]]));
  for (int i = 0; i < k.n; i++) walkKnight(unit(k.id[i]));
  for (int i = 0; i < w.n; i++) walkWitch(unit(w.id[i]));
}
