/*
 * AIJuniper.c -- path-finding painter, knights hunt in pairs.
 *
 * Farmers keep a target cell from round to round (a sampled nearby cell
 * that is not our colour) and reach it by A* over the board, stored as one
 * flat array of cells.  Knights go in pairs: the first of a pair leads the
 * hunt, the second keeps next to it and joins the attack.  Witches stand
 * guard on a post and pounce on enemies that come close.
 */
#include <stdlib.h>
#include "dominator.h"

PLAYER_NAME(Juniper);

#define MAX_CELLS (99 * 99)
#define MAX_UNITS 8192
#define CELL_BITS 14
#define EXPAND_CAP 900

enum { F_WALL = 1, F_DEAD = 2, F_BUSY = 4, F_WITCH = 8 };

static int g_nSide, g_nStamp;
static int g_aiStep[8];
static unsigned char g_abFlag[MAX_CELLS];
static int g_aiCost[MAX_CELLS], g_aiSeen[MAX_CELLS], g_aiShut[MAX_CELLS], g_aiFirst[MAX_CELLS];
static int g_aiHeap[4 * MAX_CELLS], g_nHeap;
static int g_aiGoal[MAX_UNITS]; /* unit ids stay small: 4 x (farmers + knights + witches) */

static int cellOf(Pos p) { return p.i * g_nSide + p.j; }
static int distOf(int a, int b) { return abs(a / g_nSide - b / g_nSide) + abs(a % g_nSide - b % g_nSide); }

static void heapPush(int nKey)
{
	int i = g_nHeap++;
	while (i > 0 && g_aiHeap[(i - 1) / 2] > nKey) {
		g_aiHeap[i] = g_aiHeap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	g_aiHeap[i] = nKey;
}

static int heapPop(void)
{
	int nTop = g_aiHeap[0], nLast = g_aiHeap[--g_nHeap], i = 0;
	for (int c = 1; c < g_nHeap; c = 2 * i + 1) {
		if (c + 1 < g_nHeap && g_aiHeap[c + 1] < g_aiHeap[c])
			c++;
		if (g_aiHeap[c] >= nLast)
			break;
		g_aiHeap[i] = g_aiHeap[c];
		i = c;
	}
	g_aiHeap[i] = nLast; /* harmless when the heap just became empty */
	return nTop;
}

static void markReach(int iCentre, int nRadius, int fFlag)
{
	int ci = iCentre / g_nSide, cj = iCentre % g_nSide;
	for (int i = ci - nRadius; i <= ci + nRadius; i++)
		for (int j = cj - nRadius; j <= cj + nRadius; j++)
			if (i >= 0 && j >= 0 && i < g_nSide && j < g_nSide && abs(i - ci) + abs(j - cj) <= nRadius)
				g_abFlag[i * g_nSide + j] |= fFlag;
}

static void snapshot(void)
{
	g_nSide = rows();
	for (int d = 0; d < 8; d++)
		g_aiStep[d] = cellOf(pos_move(pos(0, 0), (Dir)d));
	for (int c = 0; c < g_nSide * g_nSide; c++) {
		Cell x = cell(pos(c / g_nSide, c % g_nSide));
		g_abFlag[c] = (x.type == Wall ? F_WALL : 0) | (x.haunted ? F_DEAD : 0) | (x.id != -1 ? F_BUSY : 0);
	}
	for (int p = 0; p < nb_players(); p++) {
		Ids w = witches(p);
		for (int k = 0; k < w.n; k++)
			markReach(cellOf(unit(w.id[k]).pos), p == me() ? 2 : 3, p == me() ? F_WITCH : F_DEAD);
	}
}

static bool isOpen(int c) { return !(g_abFlag[c] & (F_WALL | F_DEAD | F_BUSY | F_WITCH)); }

/* First straight step of an A* path from iFrom to iTo, or None. */
static Dir aStarStep(int iFrom, int iTo)
{
	int nExpanded = 0;
	g_nHeap = 0;
	++g_nStamp;
	g_aiSeen[iFrom] = g_nStamp;
	g_aiCost[iFrom] = 0;
	g_aiFirst[iFrom] = None;
	heapPush(distOf(iFrom, iTo) << CELL_BITS | iFrom);
	while (g_nHeap > 0 && nExpanded < EXPAND_CAP) {
		int c = heapPop() & ((1 << CELL_BITS) - 1);
		if (g_aiShut[c] == g_nStamp)
			continue;
		g_aiShut[c] = g_nStamp;
		nExpanded++;
		if (c == iTo)
			return (Dir)g_aiFirst[c];
		for (int d = 0; d < 8; d += 2) {
			int n = c + g_aiStep[d];
			if (g_abFlag[n] & (F_WALL | F_DEAD | F_WITCH))
				continue;
			int nCost = g_aiCost[c] + 1 + ((g_abFlag[n] & F_BUSY) ? 3 : 0);
			if (g_aiSeen[n] == g_nStamp && g_aiCost[n] <= nCost)
				continue;
			g_aiSeen[n] = g_nStamp;
			g_aiCost[n] = nCost;
			g_aiFirst[n] = c == iFrom ? d : g_aiFirst[c];
			heapPush((nCost + distOf(n, iTo)) << CELL_BITS | n);
		}
	}
	return None;
}

static bool goalStale(int iGoal, int iHere)
{
	return iGoal <= 0 || iGoal == iHere || (g_abFlag[iGoal] & (F_WALL | F_DEAD | F_WITCH)) ||
	       cell(pos(iGoal / g_nSide, iGoal % g_nSide)).owner == me();
}

static int chooseGoal(Pos pHere)
{
	int iBest = -1, nBestScore = -1000000;
	for (int t = 0; t < 24; t++) {
		Pos q = pos(pHere.i + random_int(-9, 9), pHere.j + random_int(-9, 9));
		if (!pos_ok(q))
			continue;
		int c = cellOf(q);
		Cell x = cell(q);
		if (x.type == Wall || x.owner == me() || (g_abFlag[c] & (F_DEAD | F_WITCH)))
			continue;
		int nScore = (x.owner == -1 ? 20 : 30) - 3 * distOf(c, cellOf(pHere));
		if (nScore > nBestScore) {
			nBestScore = nScore;
			iBest = c;
		}
	}
	if (iBest < 0)
		iBest = cellOf(pos(random_int(1, g_nSide - 2), random_int(1, g_nSide - 2)));
	return iBest;
}

static void takeStep(int nId, int iHere, Dir d)
{
	if (d != None)
		g_abFlag[iHere + g_aiStep[d]] |= F_BUSY;
	command(nId, d);
}

static void playFarmer(Unit u)
{
	int iHere = cellOf(u.pos);
	if (goalStale(g_aiGoal[u.id], iHere))
		g_aiGoal[u.id] = chooseGoal(u.pos);
	Dir d = status(me()) < 0.6 ? aStarStep(iHere, g_aiGoal[u.id]) : None;
	if (d == None || !isOpen(iHere + g_aiStep[d])) {
		int nBest = 1 << 30;
		d = None;
		for (int k = 0; k < 8; k += 2) {
			int n = iHere + g_aiStep[k];
			int nKey = distOf(n, g_aiGoal[u.id]) * 4 + random_int(0, 5);
			if (isOpen(n) && nKey < nBest) {
				nBest = nKey;
				d = (Dir)k;
			}
		}
		if (d == None)
			g_aiGoal[u.id] = 0;
	}
	takeStep(u.id, iHere, d);
}

/* Weakest enemy farmer or knight on the 8 cells around iHere: its direction. */
static Dir weakestNeighbour(int iHere)
{
	Dir dBest = None;
	int nLow = 1 << 30;
	for (int d = 0; d < 8; d++) {
		int n = iHere + g_aiStep[d];
		Unit v = unit(cell(pos(n / g_nSide, n % g_nSide)).id);
		if (v.id != -1 && v.player != me() && v.type != Witch && v.health < nLow) {
			nLow = v.health;
			dBest = (Dir)d;
		}
	}
	return dBest;
}

static int nearestPrey(int iHere)
{
	int iBest = -1, nBest = 1 << 30;
	for (int p = 1; p < nb_players(); p++) {
		Ids l = farmers(p);
		for (int k = 0; k < l.n; k++) {
			int c = cellOf(unit(l.id[k]).pos);
			if (distOf(c, iHere) < nBest && !(g_abFlag[c] & F_DEAD)) {
				nBest = distOf(c, iHere);
				iBest = c;
			}
		}
	}
	return iBest;
}

/* King-move gap, with the straight distance to break ties. */
static int kingGap(int a, int b)
{
	int di = abs(a / g_nSide - b / g_nSide), dj = abs(a % g_nSide - b % g_nSide);
	return 2 * (di > dj ? di : dj) + di + dj;
}

static Dir greedyKnight(int iHere, int iGoal)
{
	Dir dBest = None;
	int nBest = kingGap(iHere, iGoal);
	for (int d = 0; d < 8; d++) {
		int n = iHere + g_aiStep[d];
		if (isOpen(n) && kingGap(n, iGoal) < nBest) {
			nBest = kingGap(n, iGoal);
			dBest = (Dir)d;
		}
	}
	return dBest;
}

static void playPair(Unit uLead, Unit uWing, bool bHasWing)
{
	int iLead = cellOf(uLead.pos);
	Dir d = weakestNeighbour(iLead);
	if (d == None && uLead.health >= knights_health() / 2) {
		int iPrey = nearestPrey(iLead);
		bool bWait = bHasWing && distOf(iLead, cellOf(uWing.pos)) > 3;
		if (iPrey >= 0 && !bWait)
			d = greedyKnight(iLead, iPrey);
	}
	takeStep(uLead.id, iLead, d);
	if (!bHasWing)
		return;
	int iWing = cellOf(uWing.pos);
	d = weakestNeighbour(iWing);
	if (d == None && uWing.health >= knights_health() / 3 &&
	    (abs(iWing / g_nSide - iLead / g_nSide) > 1 || abs(iWing % g_nSide - iLead % g_nSide) > 1))
		d = greedyKnight(iWing, iLead);
	takeStep(uWing.id, iWing, d);
}

static bool witchFits(int c, int nSelf)
{
	if (g_abFlag[c] & (F_WALL | F_BUSY))
		return false;
	for (int p = 0; p < nb_players(); p++) {
		Ids w = witches(p);
		for (int k = 0; k < w.n; k++)
			if (w.id[k] != nSelf && distOf(c, cellOf(unit(w.id[k]).pos)) <= 2)
				return false;
	}
	Ids aMine[2] = { farmers(me()), knights(me()) };
	for (int t = 0; t < 2; t++)
		for (int k = 0; k < aMine[t].n; k++)
			if (distOf(c, cellOf(unit(aMine[t].id[k]).pos)) <= 2)
				return false;
	return true;
}

static void playWitch(Unit u, int nIndex)
{
	int iHere = cellOf(u.pos);
	int iPost = cellOf(pos(g_nSide * (2 + nIndex % 3) / 7, g_nSide * (4 - nIndex % 3) / 7));
	int iPrey = nearestPrey(iHere);
	int iGoal = (iPrey >= 0 && distOf(iPrey, iHere) <= 6) ? iPrey : iPost;
	Dir dBest = None;
	int nBest = distOf(iHere, iGoal);
	for (int d = 0; d < 8; d += 2)
		if (witchFits(iHere + g_aiStep[d], u.id) && distOf(iHere + g_aiStep[d], iGoal) < nBest) {
			nBest = distOf(iHere + g_aiStep[d], iGoal);
			dBest = (Dir)d;
		}
	if (dBest != None)
		markReach(iHere + g_aiStep[dBest], 2, F_WITCH);
	takeStep(u.id, iHere, dBest);
}

void play(void)
{
	snapshot();
	Ids w = witches(me());
	for (int k = 0; k < w.n; k++)
		playWitch(unit(w.id[k]), k);
	Ids kn = knights(me());
	for (int k = 0; k < kn.n; k += 2)
		playPair(unit(kn.id[k]), unit(kn.id[k + 1 < kn.n ? k + 1 : k]), k + 1 < kn.n);
	Ids f = farmers(me());
	for (int k = 0; k < f.n; k++)
		playFarmer(unit(f.id[k]));
}
