/* game.c - Dominator as the judge sees it: the `struct game` table.
 *
 * Its match lifecycle (a match from the parameters and the seed: the
 * engine's own random stream, the board, the replay log of the first
 * round) and the table of its functions over its state.
 */
#include "games/engine.h"
#include "games/dominator/dom.h"

struct game_state *dom_new(const char *params, uint64_t seed, err_t err)
{
	struct game_state *d = game_state_alloc(sizeof *d, "Dominator", err);
	if (!d)
		return NULL;
	d->seed = seed;
	d->rng = game_engine_rng(seed);
	if (dom_params_parse(params, &d->p, err) < 0 || dom_board_setup(d, err) < 0) {
		free(d);
		return NULL;
	}
	dom_begin_log(d);
	return d;
}

void dom_free(struct game_state *d)
{
	free(d);
}

static int dom_rounds(const struct game_state *d)
{
	return d->p.rounds;
}

static int dom_round(const struct game_state *d)
{
	return d->round;
}

static void dom_scores(const struct game_state *d, int64_t *score)
{
	memcpy(score, d->score, sizeof d->score);
}

const struct game dominator_game = {
	.name = "dominator",
	.title = "Dominator",
	.players = DOM_PLAYERS,
	.start_max = DOM_START_LEN,
	.view_max = DOM_VIEW_MAX,
	.orders_max = DOM_ORDERS_MAX,
	.create = dom_new,
	.destroy = dom_free,
	.rounds = dom_rounds,
	.round = dom_round,
	.start = dom_start,
	.view = dom_view,
	.orders = dom_take_orders,
	.status = dom_set_status,
	.advance = dom_advance,
	.scores = dom_scores,
	.replay_header = dom_replay_header,
	.replay_round = dom_replay_round,
	.replay_orders = dom_replay_orders,
	.replay_message = dom_replay_message,
};
