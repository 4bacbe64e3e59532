// Iris
// Every unit climbs or descends smooth "heat" fields that are rebuilt each
// round by letting values leak from cell to cell:
//   paintHeat  - glows where the cells are not ours yet
//   preyHeat   - glows around enemy farmers (and, less, knights)
//   threatHeat - glows around enemy knights and every witch
// Farmers go where paintHeat is high and threatHeat low, knights and
// witches go up the preyHeat slope.

#include <string.h>
#include "dominator.h"

PLAYER_NAME(Iris);

#define SIDE_MAX 99
#define LEAK_PASSES 14

static double paintHeat[SIDE_MAX][SIDE_MAX];
static double preyHeat[SIDE_MAX][SIDE_MAX];
static double threatHeat[SIDE_MAX][SIDE_MAX];
static double sourceBuf[SIDE_MAX][SIDE_MAX];
static double tmpBuf[SIDE_MAX][SIDE_MAX];
static bool isWall[SIDE_MAX][SIDE_MAX];
static bool isDeadly[SIDE_MAX][SIDE_MAX];
static bool isTaken[SIDE_MAX][SIDE_MAX];
static int boardSide;

static const int stepRow[8] = { 1, 1, 0, -1, -1, -1, 0, 1 };
static const int stepCol[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };

static int absInt(int x) { return x < 0 ? -x : x; }

static double jitter(void) { return random_int(0, 999) * 1e-5; }

// Spreads sourceBuf into target: each pass a cell keeps its own source and
// receives a damped average of its neighbours.
static void leak(double target[SIDE_MAX][SIDE_MAX], double damping)
{
    memcpy(target, sourceBuf, sizeof sourceBuf);
    int pass = 0;
    while (pass < LEAK_PASSES)
    {
        int r = 1;
        while (r < boardSide - 1)
        {
            int c = 1;
            while (c < boardSide - 1)
            {
                if (isWall[r][c])
                {
                    tmpBuf[r][c] = 0.0;
                }
                else
                {
                    double sum = target[r - 1][c] + target[r + 1][c] + target[r][c - 1] + target[r][c + 1];
                    tmpBuf[r][c] = sourceBuf[r][c] + damping * sum / 4.0;
                }
                c++;
            }
            r++;
        }
        r = 1;
        while (r < boardSide - 1)
        {
            memcpy(&target[r][1], &tmpBuf[r][1], sizeof(double) * (boardSide - 2));
            r++;
        }
        pass++;
    }
}

#define addSource(p, amount) (sourceBuf[(p).i][(p).j] += (amount))

static void markWitchReach(Pos w)
{
    int di = -2;
    while (di <= 2)
    {
        int dj = -2 + absInt(di);
        while (dj <= 2 - absInt(di))
        {
            int r = w.i + di, c = w.j + dj;
            if (r >= 0 && c >= 0 && r < boardSide && c < boardSide)
                isDeadly[r][c] = true;
            dj++;
        }
        di++;
    }
}

static void buildFields(void)
{
    int r = 0;
    memset(sourceBuf, 0, sizeof sourceBuf);
    while (r < boardSide)
    {
        int c = 0;
        while (c < boardSide)
        {
            Cell here = cell(pos(r, c));
            isWall[r][c] = here.type == Wall;
            isDeadly[r][c] = here.haunted;
            isTaken[r][c] = false;
            if (!isWall[r][c] && here.owner != me())
                sourceBuf[r][c] = here.owner == -1 ? 1.0 : 1.4;
            c++;
        }
        r++;
    }
    leak(paintHeat, 0.92);

    memset(sourceBuf, 0, sizeof sourceBuf);
    for (int player = 1; player < nb_players(); player++)
    {
        Ids f = farmers(player), k = knights(player);
        for (int n = 0; n < f.n; n++)
            addSource(unit(f.id[n]).pos, 3.0);
        for (int n = 0; n < k.n; n++)
            addSource(unit(k.id[n]).pos, 1.0);
    }
    leak(preyHeat, 0.96);

    memset(sourceBuf, 0, sizeof sourceBuf);
    for (int player = 0; player < nb_players(); player++)
    {
        Ids w = witches(player);
        for (int n = 0; n < w.n; n++)
        {
            Pos wp = unit(w.id[n]).pos;
            markWitchReach(wp);
            if (player != me())
                addSource(wp, 6.0);
        }
        if (player == me())
            continue;
        Ids k = knights(player);
        for (int n = 0; n < k.n; n++)
            addSource(unit(k.id[n]).pos, 4.0);
    }
    leak(threatHeat, 0.7);
}

static bool canStep(Pos q)
{
    if (isWall[q.i][q.j] || isDeadly[q.i][q.j] || isTaken[q.i][q.j])
        return false;
    return cell(q).id == -1;
}

static void issue(int unitId, Pos from, int dir)
{
    if (dir == None)
    {
        command(unitId, None);
        return;
    }
    isTaken[from.i + stepRow[dir]][from.j + stepCol[dir]] = true;
    command(unitId, (Dir)dir);
}

static void moveFarmer(Unit farmer)
{
    int bestDir = None;
    double bestValue = -1e9;
    if (farmer.health < farmers_health())
        bestValue = 0.5 * paintHeat[farmer.pos.i][farmer.pos.j] - 4.0 * threatHeat[farmer.pos.i][farmer.pos.j];
    int dir = 0;
    while (dir < 8)
    {
        Pos q = pos(farmer.pos.i + stepRow[dir], farmer.pos.j + stepCol[dir]);
        if (canStep(q))
        {
            int owner = cell(q).owner;
            double value = paintHeat[q.i][q.j] - 4.0 * threatHeat[q.i][q.j] + jitter();
            if (owner != me())
                value += owner == -1 ? 2.0 : 2.5;
            if (value > bestValue)
            {
                bestValue = value;
                bestDir = dir;
            }
        }
        dir += 2;
    }
    issue(farmer.id, farmer.pos, bestDir);
}

static void moveKnight(Unit knight)
{
    int dir = 0, attackDir = None, weakest = 1 << 30;
    for (dir = 0; dir < 8; dir++)
    {
        int other = cell(pos(knight.pos.i + stepRow[dir], knight.pos.j + stepCol[dir])).id;
        if (other == -1)
            continue;
        Unit foe = unit(other);
        if (foe.player != me() && foe.type != Witch && foe.health < weakest)
        {
            weakest = foe.health;
            attackDir = dir;
        }
    }
    if (attackDir != None)
    {
        command(knight.id, (Dir)attackDir);
        return;
    }
    if (knight.health * 100 < knights_health() * 45)
    {
        command(knight.id, None);
        return;
    }
    int bestDir = None;
    double bestValue = preyHeat[knight.pos.i][knight.pos.j];
    for (dir = 0; dir < 8; dir++)
    {
        Pos q = pos(knight.pos.i + stepRow[dir], knight.pos.j + stepCol[dir]);
        if (!canStep(q))
            continue;
        double value = preyHeat[q.i][q.j] + jitter();
        if (value > bestValue)
        {
            bestValue = value;
            bestDir = dir;
        }
    }
    issue(knight.id, knight.pos, bestDir);
}

static bool witchMayStand(Pos q, int selfId)
{
    if (isWall[q.i][q.j] || isTaken[q.i][q.j] || cell(q).id != -1)
        return false;
    for (int player = 0; player < nb_players(); player++)
    {
        Ids lists[3] = { witches(player), farmers(player), knights(player) };
        int which = 0;
        while (which < 3)
        {
            if (which > 0 && player != me())
                break;
            for (int n = 0; n < lists[which].n; n++)
            {
                Unit other = unit(lists[which].id[n]);
                if (other.id != selfId && absInt(other.pos.i - q.i) + absInt(other.pos.j - q.j) <= 2)
                    return false;
            }
            which++;
        }
    }
    return true;
}

static void moveWitch(Unit witch)
{
    int bestDir = None;
    double bestValue = preyHeat[witch.pos.i][witch.pos.j];
    int dir = 0;
    while (dir < 8)
    {
        Pos q = pos(witch.pos.i + stepRow[dir], witch.pos.j + stepCol[dir]);
        if (witchMayStand(q, witch.id))
        {
            double value = preyHeat[q.i][q.j] + jitter();
            if (value > bestValue)
            {
                bestValue = value;
                bestDir = dir;
            }
        }
        dir += 2;
    }
    if (bestDir != None)
        markWitchReach(pos(witch.pos.i + stepRow[bestDir], witch.pos.j + stepCol[bestDir]));
    issue(witch.id, witch.pos, bestDir);
}

void play(void)
{
    boardSide = rows();
    if (status(me()) > 0.85)
        return; // nearly out of time: everybody rests rather than be frozen
    buildFields();

    Ids group = witches(me());
    int n = 0;
    while (n < group.n)
        moveWitch(unit(group.id[n++]));
    group = knights(me());
    n = 0;
    while (n < group.n)
        moveKnight(unit(group.id[n++]));
    group = farmers(me());
    n = 0;
    while (n < group.n)
        moveFarmer(unit(group.id[n++]));
}
