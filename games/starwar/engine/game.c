/* game.c - Star War as the judge sees it: the `struct game` table.
 *
 * Its match lifecycle (a match from the parameters and the seed: the
 * engine's own random stream, the board, the replay log of the first
 * round) and the table of its functions over its state.
 */
#include "games/engine.h"
#include "games/starwar/sw.h"

struct game_state *sw_new(const char *params, uint64_t seed, err_t err)
{
	struct game_state *d = game_state_alloc(sizeof *d, "Star War", err);
	if (!d)
		return NULL;
	d->seed = seed;
	d->rng = game_engine_rng(seed);
	if (sw_params_parse(params, &d->p, err) < 0 || sw_setup(d, err) < 0) {
		free(d);
		return NULL;
	}
	sw_begin_log(d);
	return d;
}

void sw_free(struct game_state *d)
{
	free(d);
}

static int sw_rounds(const struct game_state *d)
{
	return d->p.rounds;
}

static int sw_round(const struct game_state *d)
{
	return d->round;
}

static void sw_scores(const struct game_state *d, int64_t *score)
{
	memcpy(score, d->score, sizeof d->score);
}

const struct game starwar_game = {
	.name = "starwar",
	.title = "Star War",
	.players = SW_PLAYERS,
	.start_max = SW_START_LEN,
	.view_max = SW_VIEW_MAX,
	.orders_max = SW_ORDERS_MAX,
	.create = sw_new,
	.destroy = sw_free,
	.rounds = sw_rounds,
	.round = sw_round,
	.start = sw_start,
	.view = sw_view,
	.orders = sw_take_orders,
	.status = sw_set_status,
	.advance = sw_advance,
	.scores = sw_scores,
	.replay_header = sw_replay_header,
	.replay_round = sw_replay_round,
	.replay_orders = sw_replay_orders,
	.replay_message = sw_replay_message,
};
