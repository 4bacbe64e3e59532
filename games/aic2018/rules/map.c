/* map.c - AIC2018's geometry: directions, the symmetry's mirror, the oak
 * segment rule, cells a unit may enter, and the teams' vision counts. */
#include "games/aic2018/rules/internal.h"

const int8_t aic_dx[AIC_DIRS] = { 0, 1, 1, 1, 0, -1, -1, -1, 0 };
const int8_t aic_dy[AIC_DIRS] = { -1, -1, 0, 1, 1, 1, 0, -1, 0 };

int aic_direction_to(struct aic_loc a, struct aic_loc b)
{
	int dx = b.x - a.x, dy = b.y - a.y;
	int ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
	if (!ax && !ay)
		return AIC_ZERO;
	/* tan(22.5 degrees) = 0.41421: beyond it on both axes is a diagonal */
	int sx = dx > 0 ? 1 : dx < 0 ? -1 : 0, sy = dy > 0 ? 1 : dy < 0 ? -1 : 0;
	if ((int64_t)ay * 100000 < (int64_t)ax * 41421)
		sy = 0;
	else if ((int64_t)ax * 100000 < (int64_t)ay * 41421)
		sx = 0;
	for (int d = 0; d < AIC_ZERO; d++)
		if (aic_dx[d] == sx && aic_dy[d] == sy)
			return d;
	return AIC_ZERO;
}

struct aic_loc aic_mirror(const struct aic_world *w, struct aic_loc l)
{
	switch (w->symmetry) {
	case AIC_SYM_HORIZONTAL:
		return (struct aic_loc){ l.x, w->height - 1 - l.y };
	case AIC_SYM_VERTICAL:
		return (struct aic_loc){ w->width - 1 - l.x, l.y };
	case AIC_SYM_ROTATIONAL:
		return (struct aic_loc){ w->width - 1 - l.x, w->height - 1 - l.y };
	default:
		return l;
	}
}

bool aic_obstacle(const struct aic_world *w, struct aic_loc l)
{
	const struct aic_cell *c = aic_cell_c(w, l);
	return c->water || c->tree == AIC_TREE_OAK;
}

bool aic_accessible(const struct aic_world *w, struct aic_loc l)
{
	return aic_in_map(w, l) && !aic_obstacle(w, l) && aic_cell_c(w, l)->unit == AIC_NO_UNIT;
}

/* A fraction n / d with d > 0. */
struct frac {
	int n, d;
};

static bool frac_less(struct frac a, struct frac b)
{
	return a.n * b.d < b.n * a.d;
}

/* The open interval of t in which a0 + t * dir lies strictly within
 * (c - 1, c + 1) (coordinates doubled: cells are 2 wide); false when
 * never. */
static bool axis_window(int a0, int dir, int c, struct frac *lo, struct frac *hi)
{
	if (dir == 0) {
		if (a0 <= c - 1 || a0 >= c + 1)
			return false;
		*lo = (struct frac){ -1, 1 };
		*hi = (struct frac){ 2, 1 };
		return true;
	}
	int s = dir > 0 ? 1 : -1, d = dir * s;
	int n1 = (c - 1 - a0) * s, n2 = (c + 1 - a0) * s;
	*lo = (struct frac){ n1 < n2 ? n1 : n2, d };
	*hi = (struct frac){ n1 < n2 ? n2 : n1, d };
	return true;
}

/* The segment a-b enters the interior of cell c. */
static bool crosses(struct aic_loc a, struct aic_loc b, struct aic_loc c)
{
	struct frac lx, hx, ly, hy;
	if (!axis_window(2 * a.x, 2 * (b.x - a.x), 2 * c.x, &lx, &hx) ||
	    !axis_window(2 * a.y, 2 * (b.y - a.y), 2 * c.y, &ly, &hy))
		return false;
	struct frac lo = { 0, 1 }, hi = { 1, 1 };
	if (frac_less(lo, lx))
		lo = lx;
	if (frac_less(lo, ly))
		lo = ly;
	if (frac_less(hx, hi))
		hi = hx;
	if (frac_less(hy, hi))
		hi = hy;
	return frac_less(lo, hi);
}

bool aic_obstructed(const struct aic_world *w, struct aic_loc a, struct aic_loc b)
{
	if (aic_dist(a, b) <= AIC_ADJACENT || !aic_in_map(w, a) || !aic_in_map(w, b))
		return false;
	int x0 = a.x < b.x ? a.x : b.x, x1 = a.x < b.x ? b.x : a.x;
	int y0 = a.y < b.y ? a.y : b.y, y1 = a.y < b.y ? b.y : a.y;
	for (int y = y0; y <= y1; y++)
		for (int x = x0; x <= x1; x++) {
			struct aic_loc c = { x, y };
			if (w->cell[aic_index(c)].tree != AIC_TREE_OAK)
				continue;
			if ((x == a.x && y == a.y) || (x == b.x && y == b.y))
				continue;
			if (crosses(a, b, c))
				return true;
		}
	return false;
}

void aic_disc(const struct aic_world *w, struct aic_loc c, int r, struct aic_disc *d)
{
	d->rows = 0;
	if (r < 0)
		return;
	/* half[dy]: the half-width of the disc's row dy away from its centre;
	 * it only shrinks going outwards, so one pass finds them all */
	int half[AIC_MAX_SIDE], k = 0;
	while ((k + 1) * (k + 1) <= r && k + 1 < AIC_MAX_SIDE)
		k++;
	for (int dy = 0, span = k; dy <= k; dy++) {
		while (span * span + dy * dy > r)
			span--;
		half[dy] = span;
	}
	int y0 = c.y - k < 0 ? 0 : c.y - k, y1 = c.y + k >= w->height ? w->height - 1 : c.y + k;
	for (int y = y0; y <= y1; y++) {
		int span = half[y < c.y ? c.y - y : y - c.y];
		int x0 = c.x - span < 0 ? 0 : c.x - span;
		int x1 = c.x + span >= w->width ? w->width - 1 : c.x + span;
		if (x0 > x1)
			continue;
		d->row[d->rows].y = (int16_t)y;
		d->row[d->rows].x0 = (int16_t)x0;
		d->row[d->rows].x1 = (int16_t)x1;
		d->rows++;
	}
}
