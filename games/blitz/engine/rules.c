/* rules.c - Blitz2018's orders, the resolution of a turn, the end and the
 * ranks.
 *
 * A turn, as Halite I resolves it: (1) a piece that stays (STILL, or no
 * order) gains its site's production, capped at 255; (2) every piece moves
 * at once, leaving a 0-strength piece of its owner behind unless another of
 * them arrives, and one player's pieces arriving on one site merge, capped
 * at 255; (3) every piece hurts every other player's pieces on its site and
 * the four sites around it by its full strength (overkill), and the map's
 * strength on a site hurts only a piece on that site, which hurts it back;
 * (4) a piece that fought dies when its damage reaches its strength (so a
 * 0-strength piece dies only when it fought), the map's strength goes down
 * to 0 at least.  At most one piece survives on a site.  A player left
 * without a site is out that turn.  Nothing here allocates.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "games/blitz/bz.h"
#include "games/ranks.h"

/* ---- players ------------------------------------------------------------- */

void bz_count_land(struct game_state *b)
{
	memset(b->land, 0, sizeof b->land);
	for (int s = 0; s < b->sites; s++)
		if (b->owner[s])
			b->land[b->owner[s] - 1]++;
	for (int p = 0; p < b->players; p++)
		b->score[p] = b->land[p];
}

static bool bz_playing(const struct game_state *b, int player)
{
	return b->out_turn[player] == BZ_ALIVE;
}

void bz_eject(struct game_state *b, int player)
{
	if (b->ejected[player])
		return;
	b->ejected[player] = true;
	b->cpu[player] = -1;
	for (int s = 0; s < b->sites; s++)
		if (b->owner[s] == player + 1) {
			b->owner[s] = 0; /* the map's now, with its strength */
			b->order[s] = BZ_NO_ORDER;
		}
	if (bz_playing(b, player))
		b->out_turn[player] = b->round + 1;
	bz_count_land(b);
}

/* The first order for a site counts; one for a site the player does not
 * own, or an unknown direction, is ignored. */
static void bz_select_order(struct game_state *b, int player, struct bz_msg_order o)
{
	if (o.site < b->sites && o.dir < BZ_DIRS && b->owner[o.site] == player + 1 &&
	    b->order[o.site] == BZ_NO_ORDER)
		b->order[o.site] = o.dir;
}

int bz_take_orders(struct game_state *b, int player, const uint8_t *buf, size_t len,
		   err_t err)
{
	struct game_seats seats = {
		.players = b->players, .frozen = b->ejected, .norders = b->norders,
		.limit = b->sites,
		.over_limit = "%d orders in one round, but the map has only %d sites",
	};
	bool broken;
	int n = game_seat_orders(&seats, player, &bz_orders, buf, len, b->incoming, &broken, err);
	if (broken)
		bz_eject(b, player);
	for (int i = 0; i < n; i++)
		bz_select_order(b, player, b->incoming[i]);
	return n < 0 ? -1 : 0;
}

void bz_set_status(struct game_state *b, int player, double cpu_share)
{
	if (game_seat_status(b->players, b->ejected, b->cpu, player, cpu_share))
		bz_eject(b, player);
}

/* ---- a turn -------------------------------------------------------------- */

static void bz_add_piece(struct game_state *b, int player, int site, int strength)
{
	int16_t *here = &b->piece[player][site];
	int total = strength;
	if (*here < 0)
		b->held[player][b->nheld[player]++] = (uint16_t)site;
	else
		total += *here;
	*here = (int16_t)(total > BZ_MAX_STRENGTH ? BZ_MAX_STRENGTH : total);
}

/* Steps (1) and (2): every piece leaves the map for b->piece. */
static void bz_move_pieces(struct game_state *b)
{
	memset(b->nheld, 0, sizeof b->nheld);
	memset(b->moved, BZ_STILL, sizeof b->moved);
	for (int s = 0; s < b->sites; s++) {
		if (!b->owner[s])
			continue;
		int p = b->owner[s] - 1, d = b->order[s] == BZ_NO_ORDER ? BZ_STILL : b->order[s];
		if (d == BZ_STILL) {
			bz_add_piece(b, p, s, b->strength[s] + b->production[s]);
		} else {
			bz_add_piece(b, p, bz_step(b->width, b->height, s, d), b->strength[s]);
			bz_add_piece(b, p, s, 0);
			b->moved[s] = (uint8_t)d;
		}
		b->owner[s] = 0;
		b->strength[s] = 0;
	}
}

/* Step (3) for one player's pieces: the damage each takes into b->hurt,
 * by its place in b->held (-1: it did not fight), and what the map's sites
 * take. */
static void bz_damage_of(struct game_state *b, int p)
{
	for (int i = 0; i < b->nheld[p]; i++) {
		int x = b->held[p][i], own = b->piece[p][x];
		int damage = 0, enemies = 0;
		for (int d = BZ_STILL; d <= BZ_WEST; d++) {
			int y = bz_step(b->width, b->height, x, d), mine = b->piece[p][y];
			damage += b->sum[y] - (mine < 0 ? 0 : mine);
			enemies += b->count[y] - (mine >= 0);
		}
		if (b->strength[x] > 0) { /* the map's strength fights here only */
			damage += b->strength[x];
			enemies++;
			b->neutral_hurt[x] += own;
		}
		b->hurt[i] = enemies ? damage : -1;
	}
}

static void bz_apply_damage(struct game_state *b, int p)
{
	for (int i = 0; i < b->nheld[p]; i++) {
		int x = b->held[p][i];
		if (b->hurt[i] < 0)
			continue;
		if (b->hurt[i] >= b->piece[p][x])
			b->piece[p][x] = -1;
		else
			b->piece[p][x] = (int16_t)(b->piece[p][x] - b->hurt[i]);
	}
}

/* The map's sites that pieces hurt lose that strength (down to 0); the
 * others keep theirs.  Leaves neutral_hurt 0 again. */
static void bz_hurt_map(struct game_state *b)
{
	for (int p = 0; p < b->players; p++)
		for (int i = 0; i < b->nheld[p]; i++) {
			int x = b->held[p][i], left = b->strength[x] - b->neutral_hurt[x];
			b->strength[x] = (uint8_t)(left > 0 ? left : 0);
			b->neutral_hurt[x] = 0;
		}
}

static void bz_fight(struct game_state *b)
{
	for (int p = 0; p < b->players; p++)
		for (int i = 0; i < b->nheld[p]; i++) {
			int x = b->held[p][i];
			b->sum[x] += b->piece[p][x];
			b->count[x]++;
		}
	/* All damage comes from the strengths before any is applied: each
	 * player's pieces read only the sums and their own pieces. */
	for (int p = 0; p < b->players; p++) {
		bz_damage_of(b, p);
		bz_apply_damage(b, p);
	}
	bz_hurt_map(b);
}

/* Step (4)'s end: the survivors take their sites back, and the land each
 * player holds is theirs; the scratch is left as between turns. */
static void bz_place_survivors(struct game_state *b)
{
	for (int p = 0; p < b->players; p++) {
		b->land[p] = 0;
		for (int i = 0; i < b->nheld[p]; i++) {
			int x = b->held[p][i];
			if (b->piece[p][x] >= 0) {
				b->owner[x] = (uint8_t)(p + 1);
				b->strength[x] = (uint8_t)b->piece[p][x];
				b->land[p]++;
			}
			b->piece[p][x] = -1;
			b->sum[x] = 0;
			b->count[x] = 0;
		}
		b->score[p] = b->land[p];
	}
}

static void bz_end_turn(struct game_state *b)
{
	for (int p = 0; p < b->players; p++) {
		if (!bz_playing(b, p))
			continue;
		b->integral[p] += b->land[p];
		if (b->land[p] == 0)
			b->out_turn[p] = b->round;
	}
	memset(b->order, BZ_NO_ORDER, sizeof b->order);
	memset(b->norders, 0, sizeof b->norders);
}

void bz_advance(struct game_state *b)
{
	if (bz_over(b))
		return;
	b->round++;
	bz_move_pieces(b);
	bz_fight(b);
	bz_place_survivors(b);
	bz_end_turn(b);
}

/* ---- the end ------------------------------------------------------------- */

bool bz_over(const struct game_state *b)
{
	int playing = 0;
	for (int p = 0; p < b->players; p++)
		playing += bz_playing(b, p);
	return b->round >= b->p.rounds || playing <= 1;
}

/* Later out is better; then territory now, then territory over all turns. */
void bz_ranks(const struct game_state *b, int *rank)
{
	struct rank_keys k[BZ_MAX_PLAYERS];
	for (int p = 0; p < b->players; p++)
		k[p] = (struct rank_keys){ { b->out_turn[p], b->land[p], b->integral[p] } };
	ranks_from_keys(k, b->players, 3, rank);
}
