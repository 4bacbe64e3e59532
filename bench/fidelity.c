/* fidelity.c - the course games' default games against the original
 * engines', over 400 seeds, with four copies of one player linked into
 * this process (bench/inproc.h).
 *
 * Star War, whole default matches: mean score per player, point and
 * missile bonuses taken per match, ship deaths per match, asteroids at the
 * start; played by the original's Demo (its logic in bench/originals/)
 * against the original's figures, then by the Demo shipped here (a better
 * player) for reference.  Dominator: captures in round 1 and inner walls
 * of the generated board, with the shipped Demo (the original's Demo is
 * not public).  The original's figures were measured on the original
 * engines built from their public sources (400 seeds each).  Goal: within
 * 5% of each; the program prints how far each figure is and fails only
 * when a match cannot be played.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/inproc.h"
#include "games/dominator/dom.h"
#include "games/game.h"
#include "games/starwar/sw.h"

#define SEEDS 400

INPROC_SET(orig, starwar)
INPROC_SET(inproc, starwar)
INPROC_SET(inproc, dominator)

static uint8_t buf[1 << 18], reply[1 << 14];

static void die(const char *what, const char *why)
{
	fprintf(stderr, "bench fidelity: %s: %s\n", what, why);
	exit(1);
}

/* The default match of seed, its players started. */
static struct game_state *create(const struct game *game, const struct inproc *in,
				 uint64_t seed)
{
	char err[GAME_ERRLEN];
	struct game_state *g = game->create(NULL, seed, err);
	if (!g)
		die(game->name, err);
	if (inproc_start(game, g, in, buf, sizeof buf, NULL) < 0)
		die(game->name, "a player refused its start message");
	return g;
}

static void play_round(const struct game *game, struct game_state *g, const struct inproc *in)
{
	char err[GAME_ERRLEN];
	if (inproc_round(game, g, in, buf, sizeof buf, reply, sizeof reply, NULL, err) < 0)
		die(game->name, err);
}

/* One line: ours and, when there is one, the original's and how far
 * apart; counts the figures within 5%. */
static int row(const char *what, double ours, double original)
{
	if (original <= 0) {
		printf("  %-26s %8.1f\n", what, ours);
		return 0;
	}
	double off = 100 * (ours - original) / original;
	bool close = off >= -5 && off <= 5;
	printf("  %-26s %8.1f %10.1f %+8.1f%%   %s\n", what, ours, original, off,
	       close ? "ok" : "more than 5% off");
	return close;
}

static void header(const char *title, const char *players)
{
	printf("%s, default game, four %s, %d seeds (per match):\n", title, players, SEEDS);
	printf("  %-26s %8s %10s %9s\n", "", "here", "original", "");
}

/* Whole matches; with_original: compare with the original's figures. */
static int starwar(const struct inproc *in, const char *players, bool with_original)
{
	double score = 0, points = 0, missiles = 0, deaths = 0, asteroids = 0;
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct game_state *g = create(&starwar_game, in, seed);
		const struct sw_state *d = (const struct sw_state *)g;
		for (int i = 0; i < d->p.rows * d->p.cols; i++)
			asteroids += d->kind[i] == SW_ASTEROID;
		while (starwar_game.round(g) < starwar_game.rounds(g))
			play_round(&starwar_game, g, in);
		for (int p = 0; p < SW_PLAYERS; p++)
			score += (double)d->score[p] / SW_PLAYERS;
		points += d->taken[SW_POINT_BONUS];
		missiles += d->taken[SW_MISSILE_BONUS];
		deaths += d->deaths;
		starwar_game.destroy(g);
	}
	double k = with_original ? 1 : 0;
	header("Star War", players);
	return row("score per player", score / SEEDS, k * 45.4) +
	       row("point bonuses taken", points / SEEDS, k * 15.7) +
	       row("missile bonuses taken", missiles / SEEDS, k * 7.2) +
	       row("ship deaths", deaths / SEEDS, k * 53.3) +
	       row("asteroids at the start", asteroids / SEEDS, 125);
}

static int dominator(void)
{
	double captures = 0, walls = 0;
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct game_state *g = create(&dominator_game, &inproc_dominator, seed);
		const struct dom_state *d = (const struct dom_state *)g;
		for (int r = 1; r + 1 < d->n; r++)
			for (int c = 1; c + 1 < d->n; c++)
				walls += d->wall[dom_cell(d, r, c)];
		play_round(&dominator_game, g, &inproc_dominator);
		captures += d->nreborn;
		dominator_game.destroy(g);
	}
	header("Dominator", "shipped Demos");
	return row("captures in round 1", captures / SEEDS, 2.5) +
	       row("inner walls", walls / SEEDS, 108.5);
}

int main(void)
{
	int close = starwar(&orig_starwar, "original Demos", true) + dominator();
	printf("%d of 7 figures within 5%% of the original's\n", close);
	starwar(&inproc_starwar, "shipped Demos", false);
	return 0;
}
