// Birch -- a breadth-first-search player.
//
// Each unit runs its own flood fill from where it stands and walks the
// first step of a shortest path:
//   * farmers   -> the closest reachable cell that is not our colour,
//   * knights   -> the closest cell next to an enemy farmer or knight,
//   * witches   -> the closest cell painted by an enemy, never stepping
//                  near our own men or another witch.

#include <stdlib.h>
#include <string.h>
#include "dominator.h"

PLAYER_NAME(Birch);

typedef struct
{
    short row;
    short col;
} Node;

static int boardSize;          // rows() * cols()
static int *parentDir = NULL;  // direction used to reach the cell, -1 unseen
static Node *queue = NULL;
static int *stamp = NULL;      // search number that last touched the cell
static int searchId = 0;

static const int stepRow[8] = { 1, 1, 0, -1, -1, -1, 0, 1 };
static const int stepCol[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };

static int indexOf(int r, int c)
{
    return r * cols() + c;
}

static bool setUp(void)
{
    if (queue != NULL)
    {
        return true;
    }
    boardSize = rows() * cols();
    parentDir = malloc(sizeof(int) * boardSize);
    stamp = calloc(boardSize, sizeof(int));
    queue = malloc(sizeof(Node) * boardSize);
    return parentDir != NULL && stamp != NULL && queue != NULL;
}

// Whose unit is on the cell? -1 if nobody.
static int occupantOwner(Cell c)
{
    if (c.id < 0)
    {
        return -1;
    }
    return unit(c.id).player;
}

static bool isEnemyFighter(Cell c)
{
    if (c.id < 0)
    {
        return false;
    }
    Unit u = unit(c.id);
    return u.player != me() && u.type != Witch;
}

static bool canEnter(int r, int c, bool careful)
{
    Cell here = cell(pos(r, c));
    if (here.type == Wall || here.id != -1)
    {
        return false;
    }
    return !(careful && here.haunted);
}

static bool nextToEnemy(int r, int c)
{
    for (int d = 0; d < 8; ++d)
    {
        Pos q = pos(r + stepRow[d], c + stepCol[d]);
        if (pos_ok(q) && isEnemyFighter(cell(q)))
        {
            return true;
        }
    }
    return false;
}

typedef bool (*GoalTest)(int r, int c);

static bool farmerGoal(int r, int c)
{
    Cell x = cell(pos(r, c));
    return x.owner != me();
}

static bool knightGoal(int r, int c)
{
    return nextToEnemy(r, c);
}

static bool witchGoal(int r, int c)
{
    Cell x = cell(pos(r, c));
    return x.owner > 0 || occupantOwner(x) > 0;
}

// Flood fill from `start'; returns the first direction of a shortest path
// to a goal cell, or None.  `diagonal' lets the search use the 4 diagonal
// steps, `limit' bounds the number of visited cells, `careful' keeps the
// path off haunted cells (witches do not care).
static Dir searchFrom(Pos start, bool diagonal, bool careful, GoalTest goal,
                      int limit)
{
    ++searchId;
    int head = 0, tail = 0;
    int stride = diagonal ? 1 : 2;
    stamp[indexOf(start.i, start.j)] = searchId;
    parentDir[indexOf(start.i, start.j)] = None;
    queue[tail++] = (Node){ (short)start.i, (short)start.j };

    while (head < tail && head < limit)
    {
        Node n = queue[head++];
        bool isStart = (n.row == start.i && n.col == start.j);
        if (!isStart && goal(n.row, n.col))
        {
            return (Dir)parentDir[indexOf(n.row, n.col)];
        }
        for (int d = 0; d < 8; d += stride)
        {
            int r = n.row + stepRow[d];
            int c = n.col + stepCol[d];
            if (r < 0 || c < 0 || r >= rows() || c >= cols())
            {
                continue;
            }
            int k = indexOf(r, c);
            if (stamp[k] == searchId || !canEnter(r, c, careful))
            {
                continue;
            }
            stamp[k] = searchId;
            parentDir[k] = isStart ? d : parentDir[indexOf(n.row, n.col)];
            queue[tail++] = (Node){ (short)r, (short)c };
        }
    }
    return None;
}

static void moveFarmer(Unit f)
{
    Dir d = searchFrom(f.pos, false, true, farmerGoal, boardSize);
    command(f.id, d);
}

static void moveKnight(Unit k)
{
    // Strike first if anyone is in reach; go for the one with least health.
    int bestDir = -1, bestHealth = 1 << 30;
    for (int d = 0; d < 8; ++d)
    {
        Cell c = cell(pos_move(k.pos, (Dir)d));
        if (isEnemyFighter(c) && unit(c.id).health < bestHealth)
        {
            bestHealth = unit(c.id).health;
            bestDir = d;
        }
    }
    if (bestDir >= 0)
    {
        command(k.id, (Dir)bestDir);
        return;
    }
    if (k.health * 2 < knights_health())
    {
        command(k.id, None);  // heal up before going out again
        return;
    }
    command(k.id, searchFrom(k.pos, true, true, knightGoal, boardSize / 2));
}

static bool crowdedForWitch(Pos p, int self)
{
    for (int pl = 0; pl < nb_players(); ++pl)
    {
        Ids w = witches(pl);
        for (int i = 0; i < w.n; ++i)
        {
            Pos o = unit(w.id[i]).pos;
            if (w.id[i] != self && abs(o.i - p.i) + abs(o.j - p.j) <= 2)
            {
                return true;
            }
        }
    }
    for (int dr = -2; dr <= 2; ++dr)
    {
        for (int dc = -2 + abs(dr); dc <= 2 - abs(dr); ++dc)
        {
            Pos q = pos(p.i + dr, p.j + dc);
            if (!pos_ok(q))
            {
                continue;
            }
            Cell c = cell(q);
            if (occupantOwner(c) == me() && unit(c.id).type != Witch)
            {
                return true;
            }
        }
    }
    return false;
}

static void moveWitch(Unit w)
{
    Dir d = searchFrom(w.pos, false, false, witchGoal, boardSize);
    if (d == None)
    {
        return;
    }
    Pos next = pos_move(w.pos, d);
    if (!canEnter(next.i, next.j, false) || crowdedForWitch(next, w.id))
    {
        d = None;
    }
    command(w.id, d);
}

void play(void)
{
    if (!setUp())
    {
        return;
    }
    Ids list = farmers(me());
    for (int i = 0; i < list.n; ++i)
    {
        moveFarmer(unit(list.id[i]));
    }
    list = knights(me());
    for (int i = 0; i < list.n; ++i)
    {
        moveKnight(unit(list.id[i]));
    }
    list = witches(me());
    for (int i = 0; i < list.n; ++i)
    {
        moveWitch(unit(list.id[i]));
    }
}
