/* Dummy: the reference player to qualify against.
 *
 * Strategy, every round:
 *  - Model the other ships as the Demo plays (it is what the seats usually
 *    hold): a ship shoots when an enemy is straight ahead, else it picks
 *    uniformly among its best-valued safe moves.  This gives, for each enemy
 *    ship, a distribution over its ten actions.
 *  - Predict the missiles (those flying and those the model says will be
 *    shot) over a horizon of rounds, against the fixed asteroids and bonuses.
 *  - For each of our ships and each of its ten actions, flood the reachable
 *    cells over the horizon with row bitsets (window-relative columns), which
 *    gives the earliest round every bonus can be touched and whether the
 *    ship can stay alive that long.
 *  - Score an action by the discounted bonuses it reaches (shared between
 *    our ships: each bonus counts for the ship that gets it first), minus the
 *    risk of meeting an enemy ship or missile this round (from the model),
 *    plus the expected kills for a shot; choose our ships' actions jointly.
 */
#include "starwar.h"

#include <stdint.h>
#include <string.h>
#include <time.h>

PLAYER_NAME(Dummy);

enum {
	HOR = 24,       /* planning horizon, in rounds */
	MAXR = 100,     /* rows */
	MAXC = 250,     /* universe columns */
	MAXSH = 256,    /* ships, all players */
	MAXOWN = 64,    /* our ships */
	MAXB = 128,     /* bonuses considered */
	NACT = 10,      /* nine moves and the shot */
	SHOT = 9,
	NEVER = 255
};

#define GAMMA 0.85
#define DEATH 45.0   /* what losing a ship for a while costs */
#define KILLV 36.0   /* a kill: its points and the enemy's lost rounds */
#define SHOTCOST 7.5 /* a missile spent, times missile_worth() */

/* ---- the round's snapshot ---------------------------------------------- */

static int R, C, W, BW, rnd, K, NS, hor;
static int rlo, rhi; /* rows the ship being planned may reach */
static unsigned char kind[MAXR][MAXC];
static short who[MAXR][MAXC]; /* ship id on a Starship cell */
static Ship sh[MAXSH];
static double eprob[MAXSH][NACT]; /* the enemy model */
static bool eshoot[MAXSH];
static int order_of[MAXSH]; /* our ships: place in the order we act */

static int md(int a, int m)
{
	int r = a % m;
	return r < 0 ? r + m : r;
}

static int ty(int i, int j)
{
	if (i < 0 || i >= R)
		return Asteroid;
	return kind[i][md(j, C)];
}

static bool solid(int t) /* stops a missile without being a ship */
{
	return t == Asteroid || t == PointBonus || t == MissileBonus || t == Missile;
}

/* The cells a move (di, dj) from (i, j) passes, destination last. */
static int passes(int i, int j, int di, int dj, int pi[5], int pj[5])
{
	int n = 0;
	if (di != 0 && dj >= 1) {
		pi[n] = i, pj[n++] = j + 1;
		pi[n] = i + di, pj[n++] = j;
		pi[n] = i + di, pj[n++] = j + 1;
		if (dj == 2) {
			pi[n] = i, pj[n++] = j + 2;
			pi[n] = i + di, pj[n++] = j + 2;
		}
	} else if (di == 0 && dj == 2) {
		pi[n] = i, pj[n++] = j + 1;
		pi[n] = i, pj[n++] = j + 2;
	} else {
		pi[n] = i + di, pj[n++] = j + dj;
	}
	return n;
}

static bool next_window(int j)
{
	return md(j - (rnd + 1), C) < W;
}

/* ---- the enemy model (the Demo's way of choosing) ---------------------- */

static bool near_missile(int i, int j)
{
	for (int b = 0; b <= 4; ++b)
		if (ty(i, j - b) == Missile)
			return true;
	return false;
}

static int demo_value(int sid, int d)
{
	int i = sh[sid].pos.i, j = sh[sid].pos.j;
	int di = d / 3 - 1, dj = d % 3, qi = i + di, qj = j + dj;
	if (qi < 0 || qi >= R || !next_window(qj))
		return -1;
	int pi[5], pj[5], n = passes(i, j, di, dj, pi, pj), v = 0;
	for (int k = 0; k < n; ++k) {
		int t = ty(pi[k], pj[k]);
		if (t == Asteroid || t == Missile || near_missile(pi[k], pj[k]))
			return -1;
		if (t == Starship && who[pi[k]][md(pj[k], C)] != sid)
			return -1;
		v += t == PointBonus ? 100 : t == MissileBonus ? 60 : 0;
	}
	for (int k = 1; k <= 4; ++k) {
		int t = ty(qi, qj + k);
		if (t == Asteroid || t == Starship || t == Missile)
			break;
		v += 5;
	}
	return v;
}

static bool demo_target(int sid)
{
	int i = sh[sid].pos.i, j = sh[sid].pos.j;
	for (int k = 1; k <= 6; ++k) {
		int t = ty(i, j + k);
		if (t == Starship)
			return sh[who[i][md(j + k, C)]].player != sh[sid].player;
		if (t != Empty)
			return false;
	}
	return false;
}

static void model_enemy(int sid)
{
	double *p = eprob[sid];
	for (int a = 0; a < NACT; ++a)
		p[a] = 0;
	if (status(sh[sid].player) < 0) {
		p[Default] = 1;
		return;
	}
	if (sh[sid].missiles > 0 && demo_target(sid)) {
		p[SHOT] = 1;
		return;
	}
	int val[9], best = -1, n = 0;
	for (int d = 0; d < 9; ++d) {
		val[d] = demo_value(sid, d);
		if (val[d] > best)
			best = val[d];
	}
	if (best < 0) {
		int i = sh[sid].pos.i, j = sh[sid].pos.j;
		p[sh[sid].missiles > 0 && ty(i, j + 1) == Asteroid ? SHOT : Default] = 1;
		return;
	}
	for (int d = 0; d < 9; ++d)
		n += val[d] == best;
	for (int d = 0; d < 9; ++d)
		if (val[d] == best)
			p[d] = 1.0 / n;
}

/* Cells where an enemy's action a passes and ends; for a shot, its missile's
 * reach too (mreach: the first cell ahead holding something that stops it,
 * 4 when none of the cells 1..4 does; 0 for a move). */
typedef struct {
	int n, pi[5], pj[5]; /* the ship's passes, end last */
	int mreach;
} Act;

static int missile_reach(int i, int j)
{
	for (int k = 1; k <= 4; ++k)
		if (solid(ty(i, j + k)))
			return k; /* it dies on the first thing that stays */
	return 4;
}

static void enemy_act(int sid, int a, Act *x)
{
	int i = sh[sid].pos.i, j = sh[sid].pos.j;
	x->mreach = 0;
	if (a == SHOT) {
		x->mreach = missile_reach(i, j);
		a = Default;
	}
	x->n = passes(i, j, a / 3 - 1, a % 3, x->pi, x->pj);
}

/* ---- missiles over the horizon ----------------------------------------- */

/* mfl[t][i][j]: 1 a missile stands there while ships act in step t; 2 a
 * missile passes there when missiles fly at the start of step t. */
static unsigned char mfl[HOR + 2][MAXR][MAXC];
static unsigned char bgone[MAXR][MAXC]; /* step a missile destroys the bonus */

static void fly(int i, int j, int t0)
{
	for (int t = t0; t <= hor; ++t) {
		for (int k = 0; k < 2; ++k) {
			j = md(j + 1, C);
			mfl[t][i][j] |= 2;
			int ty0 = kind[i][j];
			if (ty0 == Asteroid)
				return;
			if ((ty0 == PointBonus || ty0 == MissileBonus) && bgone[i][j] > t) {
				bgone[i][j] = (unsigned char)t;
				return;
			}
		}
		mfl[t][i][j] |= 1;
	}
}

static void predict_missiles(void)
{
	for (int t = 0; t <= hor + 1; ++t)
		for (int i = 0; i < R; ++i)
			memset(mfl[t][i], 0, (size_t)C);
	for (int i = 0; i < R; ++i)
		memset(bgone[i], NEVER, (size_t)C);
	for (int i = 0; i < R; ++i)
		for (int j = 0; j < C; ++j)
			if (kind[i][j] == Missile)
				fly(i, j, 0);
	/* The shots the model is sure of: the missile stands two cells ahead
	 * after this round, if nothing stops it before. */
	for (int s = 0; s < NS; ++s)
		if (eshoot[s]) {
			int i = sh[s].pos.i, j = sh[s].pos.j;
			if (!solid(ty(i, j + 1)) && !solid(ty(i, j + 2)))
				fly(i, md(j + 2, C), 1);
		}
}

/* ---- bonuses ------------------------------------------------------------ */

static int nb, bi_[MAXB], bj_[MAXB], btype[MAXB];
static double bp0[MAXB];  /* probability an enemy takes it this round */
static int bdist[MAXB];   /* rounds the nearest enemy needs, roughly */

static void find_bonuses(void)
{
	nb = 0;
	/* Nearest first: from the window's start forwards. */
	for (int dc = 0; dc < C && nb < MAXB; ++dc)
		for (int i = 0; i < R && nb < MAXB; ++i) {
			int j = md(rnd + dc, C);
			if (kind[i][j] == PointBonus || kind[i][j] == MissileBonus) {
				bi_[nb] = i, bj_[nb] = j, btype[nb] = kind[i][j];
				bp0[nb] = 0, bdist[nb] = 1000;
				++nb;
			}
		}
	for (int s = 0; s < NS; ++s) {
		if (sh[s].player == me() || !sh[s].alive)
			continue;
		for (int b = 0; b < nb; ++b) {
			double p = 0;
			int ri = bi_[b] - sh[s].pos.i, cj = md(bj_[b] - sh[s].pos.j, C);
			for (int a = 0; a < NACT && ri >= -1 && ri <= 1 && cj <= 2; ++a) {
				if (eprob[s][a] <= 0)
					continue;
				Act x;
				enemy_act(s, a, &x);
				for (int k = 0; k < x.n; ++k)
					if (x.pi[k] == bi_[b] && md(x.pj[k] - bj_[b], C) == 0) {
						p += eprob[s][a];
						break;
					}
			}
			bp0[b] = 1 - (1 - bp0[b]) * (1 - p);
			int di = bi_[b] - sh[s].pos.i, dj = md(bj_[b] - sh[s].pos.j, C);
			int d = (dj + 1) / 2;
			if (di < 0)
				di = -di;
			if (di > d)
				d = di;
			if (d < bdist[b])
				bdist[b] = d;
		}
	}
}

/* ---- flooding the reachable cells -------------------------------------- */

/* Per ship: masks over band columns y (0 .. BW + 1) from column
 * rnd + t + lo.  P: a ship may not pass there in step t; E: nor end there. */
static uint64_t Pm[HOR + 1][MAXR], Em[HOR + 1][MAXR];
static int lo;

static void build_masks(int self)
{
	for (int t = 0; t < hor; ++t) {
		int base = rnd + t + lo;
		for (int i = rlo; i <= rhi; ++i) {
			uint64_t p = 0, e = 0;
			for (int y = 0; y <= BW + 1; ++y) {
				int j = md(base + y, C);
				int f = mfl[t][i][j], g = mfl[t + 1][i][j];
				if (kind[i][j] == Asteroid || (f & 1))
					p |= 1ULL << y;
				if (g & 2)
					e |= 1ULL << y;
				if (t == 0 && kind[i][j] == Starship) {
					int s = who[i][j];
					/* Enemies may stay; our later ships have not moved. */
					if (s != self && (sh[s].player != me() ||
							  order_of[s] > order_of[self]))
						p |= 1ULL << y;
				}
			}
			Pm[t][i] = p;
			Em[t][i] = p | e;
		}
	}
}

static bool bit(uint64_t m, int y)
{
	return y >= 0 && y < 64 && (m >> y & 1);
}

/* One step of the flood: S (positions at the start of step t) to N, and T
 * the cells touched on the way (band columns of step t). */
static void flood(int t, const uint64_t *S, uint64_t *N, uint64_t *T)
{
	const uint64_t *P = Pm[t], *E = Em[t];
	uint64_t band = BW >= 64 ? ~0ULL : (1ULL << BW) - 1;
	for (int i = rlo; i <= rhi; ++i)
		N[i] = T[i] = 0;
	for (int i = rlo; i <= rhi; ++i) {
		uint64_t s = S[i], ok;
		if (!s)
			continue;
		uint64_t pa1 = ~(P[i] >> 1), pa2 = ~(P[i] >> 2);
		ok = s & ~E[i];
		N[i] |= ok >> 1, T[i] |= ok;
		ok = s & ~(E[i] >> 1);
		N[i] |= ok, T[i] |= ok << 1;
		ok = s & pa1 & ~(E[i] >> 2);
		N[i] |= ok << 1, T[i] |= ok << 1 | ok << 2;
		for (int di = -1; di <= 1; di += 2) {
			int k = i + di;
			if (k < rlo || k > rhi)
				continue;
			ok = s & ~E[k];
			N[k] |= ok >> 1, T[k] |= ok;
			uint64_t side = s & pa1 & ~P[k];
			ok = side & ~(E[k] >> 1);
			N[k] |= ok, T[i] |= ok << 1, T[k] |= ok | ok << 1;
			ok = side & ~(P[k] >> 1) & pa2 & ~(E[k] >> 2);
			N[k] |= ok << 1, T[i] |= ok << 1 | ok << 2, T[k] |= ok | ok << 1 | ok << 2;
		}
	}
	for (int i = rlo; i <= rhi; ++i)
		N[i] &= band;
}

/* ---- our options -------------------------------------------------------- */

typedef struct {
	bool ok;            /* a valid order that does not run into a known thing */
	int n, pi[5], pj[5];/* cells passed this round, end last */
	int si, sj;         /* where it stood */
	double base;        /* risk, kills, safety, position */
	unsigned char arr[MAXB];
} Opt;

static int own[MAXOWN], nown;
static Opt opt[MAXOWN][NACT];
static double wb[MAXOWN][MAXB];

/* Chance that an enemy ship or its shot meets our ship doing o this round
 * (an enemy acts before or after us with even chances), or shoots it next
 * round. */
static double meet_risk(const Opt *o)
{
	int ei = o->pi[o->n - 1], ej = md(o->pj[o->n - 1], C);
	double risk = 0;
	for (int s = 0; s < NS; ++s) {
		if (sh[s].player == me() || !sh[s].alive)
			continue;
		int si = sh[s].pos.i, sj = sh[s].pos.j;
		if (si - o->si > 3 || o->si - si > 3)
			continue;
		if (md(o->sj - sj, C) > 8 && md(sj - o->sj, C) > 3)
			continue;
		for (int a = 0; a < NACT; ++a) {
			if (eprob[s][a] <= 0)
				continue;
			Act x;
			enemy_act(s, a, &x);
			bool before = false, after = false, always = false;
			int xi = x.pi[x.n - 1], xj = md(x.pj[x.n - 1], C);
			for (int k = 0; k < o->n; ++k)
				if (o->pi[k] == xi && md(o->pj[k], C) == xj)
					before = true;
			for (int k = 0; k < x.n; ++k)
				if (x.pi[k] == ei && md(x.pj[k], C) == ej)
					after = true;
			if (x.mreach > 0 && ei == si) {
				int d = md(ej - sj, C);
				if (d >= 1 && d <= 2 && d <= x.mreach)
					after = true;
				else if (d >= 3 && d <= x.mreach)
					always = true;
				/* It stands two cells ahead when nothing stopped it. */
				for (int k = 0; k < o->n; ++k)
					if (o->pi[k] == si && md(o->pj[k] - sj, C) == 2 && x.mreach >= 3)
						before = true;
			}
			double r = always ? 1 : 0.5 * before + 0.5 * after;
			/* Ending just ahead of an armed enemy: it shoots next round. */
			if (!always && sh[s].missiles > (a == SHOT) && ei == xi) {
				int d = md(ej - xj, C);
				bool clear = true;
				for (int k = 1; k < d && clear; ++k)
					clear = ty(ei, xj + k) == Empty;
				if (clear && d >= 1 && d <= 2)
					r += 0.5;
				else if (clear && d >= 3 && d <= 6)
					r += 0.08;
			}
			risk += eprob[s][a] * (r > 1 ? 1 : r);
		}
	}
	return risk > 1 ? 1 : risk;
}

/* Chance that a shot from (i, c) now kills enemy ship s. */
static double kill_chance(int i, int c, int s)
{
	int si = sh[s].pos.i, sj = sh[s].pos.j;
	if (si - i > 1 || i - si > 1)
		return 0;
	int d0 = md(sj - c, C);
	if (d0 > 6)
		return 0;
	bool a1 = !solid(ty(i, c + 1)), a2 = a1 && !solid(ty(i, c + 2));
	bool a3 = !solid(ty(i, c + 3));
	double pk = 0;
	for (int a = 0; a < NACT; ++a) {
		if (eprob[s][a] <= 0)
			continue;
		Act x;
		enemy_act(s, a, &x);
		int xi = x.pi[x.n - 1], d = md(x.pj[x.n - 1] - c, C);
		/* It acts before us: where it ends. */
		bool before = xi == i && (d == 1 || (d == 2 && a1) || (d == 3 && a2) ||
					  (d == 4 && a2 && a3));
		/* It acts after us: where it stands, passes or ends. */
		bool after = si == i && (d0 == 1 || (d0 == 2 && a1));
		if (!after && a2)
			for (int k = 0; k < x.n; ++k)
				if (x.pi[k] == i && md(x.pj[k] - c, C) == 2)
					after = true;
		if (!after && xi == i && a2 && (d == 3 || (d == 4 && a3)))
			after = true;
		pk += eprob[s][a] * (0.5 * before + 0.5 * after);
	}
	return pk;
}

static double missile_worth(int stock)
{
	return stock == 0 ? 2.0 : stock < 4 ? 1.2 : stock < 8 ? 0.7 : 0.4;
}

static void plan_ship(int q)
{
	int sid = own[q];
	Ship s = sh[sid];
	int x = md(s.pos.j - rnd, C);
	lo = 0;
	if (W > BW) {
		lo = x - BW / 2;
		if (lo < 0)
			lo = 0;
		if (lo > W - BW)
			lo = W - BW;
	}
	rlo = s.pos.i - hor - 1, rhi = s.pos.i + hor + 1;
	if (rlo < 0)
		rlo = 0;
	if (rhi > R - 1)
		rhi = R - 1;
	build_masks(sid);
	int xb = x - lo;
	for (int b = 0; b < nb; ++b)
		wb[q][b] = btype[b] == PointBonus ? bonus_points()
						  : bonus_missiles() * missile_worth(s.missiles);
	for (int a = 0; a < NACT; ++a) {
		Opt *o = &opt[q][a];
		o->ok = false;
		o->si = s.pos.i, o->sj = s.pos.j;
		memset(o->arr, NEVER, sizeof o->arr);
		int d = a == SHOT ? Default : a, di = d / 3 - 1, dj = d % 3;
		if (a == SHOT && s.missiles <= 0)
			continue;
		int ni = s.pos.i + di, nx = xb + dj - 1;
		if (ni < 0 || ni >= R || nx < 0 || nx >= BW)
			continue;
		o->n = passes(s.pos.i, s.pos.j, di, dj, o->pi, o->pj);
		bool safe = true;
		for (int k = 0; k < o->n && safe; ++k) {
			int y = xb + md(o->pj[k] - s.pos.j, C);
			uint64_t m = k == o->n - 1 ? Em[0][o->pi[k]] : Pm[0][o->pi[k]];
			if (a == SHOT) /* our missile clears the cell ahead */
				m = Em[0][o->pi[k]] & ~Pm[0][o->pi[k]];
			if (bit(m, y))
				safe = false;
		}
		if (a == SHOT) {
			/* Never through our own ships. */
			for (int k = 1; k <= 2; ++k) {
				int t = ty(s.pos.i, s.pos.j + k);
				if (t == Starship && sh[who[s.pos.i][md(s.pos.j + k, C)]].player == me())
					safe = false;
			}
		}
		o->ok = true;
		double v = 0;
		if (!safe)
			v -= 2 * DEATH;
		v -= DEATH * meet_risk(o);
		if (a == SHOT) {
			for (int e = 0; e < NS; ++e)
				if (sh[e].alive && sh[e].player != me())
					v += KILLV * kill_chance(s.pos.i, s.pos.j, e);
			v -= bonus_missiles() > 0 ? SHOTCOST * missile_worth(s.missiles - 1)
						  : 2 * SHOTCOST;
		}
		/* Bonuses touched now. */
		for (int k = 0; k < o->n; ++k) {
			int t = ty(o->pi[k], o->pj[k]);
			if (t != PointBonus && t != MissileBonus)
				continue;
			if (a == SHOT && k == 0)
				continue; /* our missile takes it first */
			for (int b = 0; b < nb; ++b)
				if (bi_[b] == o->pi[k] && bj_[b] == md(o->pj[k], C))
					o->arr[b] = 0;
		}
		/* Flood from where the move ends. */
		uint64_t S[MAXR], N[MAXR], T[MAXR];
		for (int i = rlo; i <= rhi; ++i)
			S[i] = 0;
		S[ni] = 1ULL << nx;
		int alive_until = hor;
		for (int t = 1; t < hor; ++t) {
			flood(t, S, N, T);
			int base = rnd + t + lo;
			for (int b = 0; b < nb; ++b) {
				if (o->arr[b] != NEVER || bi_[b] < rlo || bi_[b] > rhi)
					continue;
				int y = md(bj_[b] - base, C);
				for (; y <= BW + 1; y += C)
					if (T[bi_[b]] >> y & 1)
						o->arr[b] = (unsigned char)t;
			}
			bool any = false;
			for (int i = rlo; i <= rhi; ++i) {
				S[i] = N[i];
				any |= N[i] != 0;
			}
			if (!any) {
				alive_until = t;
				break;
			}
		}
		if (alive_until < hor) {
			double f = 1;
			for (int t = 1; t < alive_until; ++t)
				f *= 0.88;
			v -= DEATH * f;
		}
		for (int b = 0; b < nb; ++b)
			if (o->arr[b] != NEVER && o->arr[b] >= bgone[bi_[b]][bj_[b]])
				o->arr[b] = NEVER;
		/* A little room to come: the front part of the window. */
		int pref = W * 2 / 3, off = nx + lo - pref;
		v -= 0.04 * (off < 0 ? -off : off);
		o->base = v;
	}
}

/* ---- joint choice ------------------------------------------------------- */

static double gpow[NEVER + 1];
static int choice[MAXOWN];

/* Value of a bonus reached at t (competition included). */
static double bonus_at(int b, int t)
{
	double f = gpow[t];
	if (t == 0)
		return f * (1 - 0.5 * bp0[b]);
	f *= 1 - bp0[b];
	if (t >= 2 && bdist[b] < t)
		f *= 0.8;
	return f;
}

/* Ship q1 acts before ship q2: their orders must not hurt each other. */
static bool clash(int q1, int a1, int q2, int a2)
{
	const Opt *o1 = &opt[q1][a1], *o2 = &opt[q2][a2];
	int ei = o1->pi[o1->n - 1], ej = md(o1->pj[o1->n - 1], C);
	for (int k = 0; k < o2->n; ++k)
		if (o2->pi[k] == ei && md(o2->pj[k], C) == ej)
			return true;
	int fi = o2->pi[o2->n - 1], fj = md(o2->pj[o2->n - 1], C);
	if (a1 == SHOT) {
		int d = md(fj - o1->sj, C);
		if (fi == o1->si && d >= 2 && d <= 4)
			return true;
		for (int k = 0; k < o2->n; ++k)
			if (o2->pi[k] == o1->si && md(o2->pj[k] - o1->sj, C) == 2)
				return true;
	}
	if (a2 == SHOT) {
		int d = md(ej - o2->sj, C);
		if (ei == o2->si && d >= 1 && d <= 4)
			return true;
	}
	return false;
}

static double joint_value(void)
{
	double v = 0;
	for (int q = 0; q < nown; ++q) {
		v += opt[q][choice[q]].base;
		for (int r2 = q + 1; r2 < nown; ++r2)
			if (clash(q, choice[q], r2, choice[r2]))
				v -= 3 * DEATH;
	}
	for (int b = 0; b < nb; ++b) {
		double best = 0;
		for (int q = 0; q < nown; ++q) {
			int t = opt[q][choice[q]].arr[b];
			if (t == NEVER)
				continue;
			double x = wb[q][b] * bonus_at(b, t);
			if (x > best)
				best = x;
		}
		v += best;
	}
	return v;
}

/* Many ships: one after the other, each adding what the earlier ones miss. */
static void choose_greedy(void)
{
	static double cover[MAXB];
	for (int b = 0; b < nb; ++b)
		cover[b] = 0;
	for (int q = 0; q < nown; ++q) {
		double best = -1e18;
		choice[q] = Default;
		for (int a = 0; a < NACT; ++a) {
			const Opt *o = &opt[q][a];
			if (!o->ok)
				continue;
			double v = o->base;
			for (int b = 0; b < nb; ++b)
				if (o->arr[b] != NEVER) {
					double x = wb[q][b] * bonus_at(b, o->arr[b]) - cover[b];
					v += x > 0 ? x : 0;
				}
			for (int q1 = 0; q1 < q; ++q1) {
				const Opt *o1 = &opt[q1][choice[q1]];
				int di = o1->si - o->si, dj = md(o1->sj - o->sj + 8, C);
				if (di >= -4 && di <= 4 && dj <= 16 && clash(q1, choice[q1], q, a))
					v -= 3 * DEATH;
			}
			if (v > best)
				best = v, choice[q] = a;
		}
		const Opt *o = &opt[q][choice[q]];
		for (int b = 0; b < nb; ++b)
			if (o->arr[b] != NEVER) {
				double x = wb[q][b] * bonus_at(b, o->arr[b]);
				if (x > cover[b])
					cover[b] = x;
			}
	}
}

static void choose(void)
{
	if (nown > 3) {
		choose_greedy();
		return;
	}
	for (int q = 0; q < nown; ++q) {
		double best = -1e18;
		choice[q] = Default;
		for (int a = 0; a < NACT; ++a) {
			if (!opt[q][a].ok)
				continue;
			double v = opt[q][a].base;
			for (int b = 0; b < nb; ++b)
				if (opt[q][a].arr[b] != NEVER)
					v += wb[q][b] * bonus_at(b, opt[q][a].arr[b]);
			if (v > best)
				best = v, choice[q] = a;
		}
	}
	if (nown < 2)
		return;
	double cur = joint_value();
	for (int sweep = 0; sweep < 3; ++sweep) {
		bool changed = false;
		for (int q = 0; q < nown; ++q) {
			int keep = choice[q], bestA = keep;
			for (int a = 0; a < NACT; ++a) {
				if (!opt[q][a].ok || a == keep)
					continue;
				choice[q] = a;
				double v = joint_value();
				if (v > cur + 1e-9)
					cur = v, bestA = a, changed = true;
			}
			choice[q] = bestA;
		}
		if (!changed)
			break;
	}
}

/* ---- the round ---------------------------------------------------------- */

static void snapshot(void)
{
	R = rows(), C = universe_cols(), W = window_cols(), rnd = current_round();
	K = nb_starships_per_player(), NS = nb_starships();
	if (R > MAXR)
		R = MAXR;
	if (C > MAXC)
		C = MAXC;
	if (NS > MAXSH)
		NS = MAXSH;
	BW = W < 61 ? W : 61;
	for (int i = 0; i < R; ++i)
		for (int j = 0; j < C; ++j) {
			Cell c = cell(pos(i, j));
			kind[i][j] = (unsigned char)c.type;
			who[i][j] = (short)c.sid;
		}
	for (int s = 0; s < NS; ++s)
		sh[s] = starship(s);
}

/* ---- keeping to the CPU budget ------------------------------------------ */

static double fixed_cost; /* seconds a round takes before planning */

static double now(void)
{
	return (double)clock() / CLOCKS_PER_SEC;
}

/* What this round may spend: a share of what is left, spread over the
 * rounds to come (the budget read from status(), 1 s when unknown),
 * keeping a quarter of the budget for the runtime's own work. */
static double allowance(void)
{
	double spent = now(), st = status(me());
	double budget = st > 0.002 ? spent / st : 1.0;
	int left_rounds = nb_rounds() - current_round();
	if (left_rounds < 1)
		left_rounds = 1;
	double left = 0.75 * budget - spent; /* the rest: the runtime's share */
	return left > 0 ? 0.5 * left / left_rounds : 0;
}

void play(void)
{
	static int hcur = HOR, rot;
	double t0 = now(), allow = allowance();
	if (fixed_cost > 2 * allow)
		return; /* no time left to look: fly on by default */
	snapshot();
	hor = HOR;
	if (gpow[0] == 0) {
		gpow[0] = 1;
		for (int t = 1; t <= NEVER; ++t)
			gpow[t] = gpow[t - 1] * GAMMA;
		gpow[NEVER] = 0;
	}
	for (int s = 0; s < NS; ++s) {
		eshoot[s] = false;
		order_of[s] = MAXOWN;
		if (sh[s].player != me() && sh[s].alive) {
			model_enemy(s);
			eshoot[s] = eprob[s][SHOT] >= 0.5;
		}
	}
	predict_missiles();
	find_bonuses();
	double t1 = now();
	fixed_cost = fixed_cost == 0 ? t1 - t0 : 0.8 * fixed_cost + 0.2 * (t1 - t0);

	/* Plan our ships one by one while the round's time lasts (the ones
	 * left fly on by default; next round starts with them). */
	int all[MAXOWN], na = 0;
	Ids mine = starships(me());
	for (int k = 0; k < mine.n && na < MAXOWN; ++k)
		if (mine.id[k] >= 0 && mine.id[k] < NS && sh[mine.id[k]].alive)
			all[na++] = mine.id[k];
	hor = hcur;
	nown = 0;
	for (int k = 0; k < na; ++k) {
		if (k > 0 && now() - t0 > allow)
			break;
		own[nown] = all[(k + rot) % na];
		order_of[own[nown]] = nown;
		plan_ship(nown++);
	}
	double spent = now() - t0;
	if (nown < na) {
		rot += nown;
		hcur = hcur * 2 / 3 > 1 ? hcur * 2 / 3 : 1;
	} else if (spent > allow) {
		hcur = hcur * 2 / 3 > 1 ? hcur * 2 / 3 : 1;
	} else if (spent < 0.4 * allow && hcur < HOR) {
		++hcur;
	}
	choose();
	for (int q = 0; q < nown; ++q) {
		if (choice[q] == SHOT)
			shoot(own[q]);
		else
			move(own[q], (Dir)choice[q]);
	}
}
