/* runtime.c - the Blitz2018 kit's side of the game: it talks to the judge
 * and answers the functions of blitz.h from the last view received.
 * Linked into every player binary; one player per process, so its state
 * lives in this file's statics. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "games/blitz/kit/blitz.h"
#include "games/blitz/proto.h"
#include "games/kit/runtime.h"

/* A player need not define init(). */
__attribute__((weak)) void init(void);

static struct bz_msg_start start;
static struct bz_msg_view view;
static bool seen[BZ_MAX_SITES];
static uint8_t move[BZ_MAX_SITES]; /* BZ_DIRS: none */
/* The sites given a move this turn lie in [moved_lo, moved_hi]: a turn
 * with few moves looks at few sites to send them and to clear them. */
static int moved_lo = BZ_MAX_SITES, moved_hi = -1;
static struct bz_msg_order orders[BZ_MAX_ORDERS];

int my_tag(void) { return start.tag; }
int nb_players(void) { return start.players; }
int map_width(void) { return start.width; }
int map_height(void) { return start.height; }
int max_turns(void) { return start.turns; }
int current_turn(void) { return view.turn; }
int fog_radius(void) { return start.fog; }

static int wrap(int v, int n)
{
	return ((v % n) + n) % n;
}

/* blitz.h's drawing calls: a Location's y is its row, x its column. */
void draw_dot(Location l, int colour) { kit_draw(DRAW_DOT, colour, l.y, l.x, 0, 0, NULL); }
void draw_line(Location a, Location b, int colour) { kit_draw(DRAW_LINE, colour, a.y, a.x, b.y, b.x, NULL); }
void draw_text(Location l, int colour, const char *text) { kit_draw(DRAW_TEXT, colour, l.y, l.x, 0, 0, text); }

Location location(int x, int y)
{
	return (Location){ wrap(x, start.width), wrap(y, start.height) };
}

static int site_of(Location l)
{
	Location w = location(l.x, l.y);
	return w.y * start.width + w.x;
}

Location get_location(Location l, Direction d)
{
	int s = bz_step(start.width, start.height, site_of(l), (int)d);
	return (Location){ s % start.width, s / start.width };
}

Site get_site(Location l)
{
	const struct bz_site *s = &view.site[site_of(l)];
	return (Site){ s->owner, s->strength, s->production };
}

Site get_site_at(Location l, Direction d)
{
	return get_site(get_location(l, d));
}

bool in_sight(Location l)
{
	return seen[site_of(l)];
}

bool same_location(Location a, Location b)
{
	return site_of(a) == site_of(b);
}

int get_distance(Location a, Location b)
{
	Location p = location(a.x, a.y), q = location(b.x, b.y);
	return bz_ring_gap(p.x, q.x, start.width) + bz_ring_gap(p.y, q.y, start.height);
}

/* The shorter signed way from a to b on a ring of n. */
static int ring_delta(int a, int b, int n)
{
	int d = wrap(b - a, n);
	return d > n / 2 ? d - n : d;
}

double get_angle(Location a, Location b)
{
	return atan2(ring_delta(a.y, b.y, start.height), ring_delta(a.x, b.x, start.width));
}

void set_move(Location l, Direction d)
{
	if ((unsigned)d > WEST)
		return;
	int s = site_of(l);
	move[s] = (uint8_t)d;
	moved_lo = s < moved_lo ? s : moved_lo;
	moved_hi = s > moved_hi ? s : moved_hi;
}

/* What is outside the fog: own sites and the discs around them (every
 * site without fog).  The judge sends fogged sites as plain map sites, so
 * the kit works it out the same way the engine does. */
static void compute_sight(void)
{
	int sites = start.width * start.height;
	bool all = bz_fog_off(start.width, start.height, start.fog);
	memset(seen, all, (size_t)sites);
	if (all)
		return;
	/* memchr over the sites' bytes skips fog and others' land many at a
	 * time; a strength or production equal to the tag is no owner. */
	const uint8_t *bytes = &view.site[0].owner, *end = bytes + (size_t)sites * BZ_SITE_LEN;
	for (const uint8_t *b = bytes; (b = memchr(b, start.tag, (size_t)(end - b))); b++) {
		size_t at = (size_t)(b - bytes);
		if (at % BZ_SITE_LEN == 0)
			bz_mark_disc(start.width, start.height, (int)(at / BZ_SITE_LEN), start.fog,
				     seen);
	}
}

/* The moves set this turn as orders, by site; move[] is left clear. */
static size_t take_moves(void)
{
	size_t n = 0;
	for (int s = moved_lo; s <= moved_hi; s++) {
		if (move[s] != BZ_DIRS && move[s] != BZ_STILL)
			orders[n++] = (struct bz_msg_order){ (uint16_t)s, move[s] };
		move[s] = BZ_DIRS;
	}
	moved_lo = BZ_MAX_SITES;
	moved_hi = -1;
	return n;
}

/* The in-process build hides every symbol but the entry points. */
KIT_ENTRY int bzkit_start(const uint8_t *msg, size_t len);

int bzkit_start(const uint8_t *msg, size_t len)
{
	return kit_started(bz_start_decode(msg, len, &start), &start.seed);
}

KIT_ENTRY long bzkit_turn(const uint8_t *msg, size_t len, uint8_t *out, size_t cap);

long bzkit_turn(const uint8_t *msg, size_t len, uint8_t *out, size_t cap)
{
	if (!bz_view_decode(msg, len, start.players, &view) || view.width != start.width ||
	    view.height != start.height)
		return -1;
	compute_sight();
	if (view.turn == 0) {
		memset(move, BZ_DIRS, sizeof move);
		if (init)
			init();
	}
	play();
	return (long)orders_encode(&bz_orders, orders, take_moves(), out, cap);
}

#ifndef KIT_NO_MAIN
int main(void)
{
	return kit_run("blitz", bzkit_start, bzkit_turn, BZ_VIEW_MAX, BZ_ORDERS_MAX);
}
#endif
