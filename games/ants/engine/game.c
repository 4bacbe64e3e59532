/* game.c - Ants as the judge sees it: the `struct game` table.
 *
 * Its match lifecycle (a match from the parameters and the seed: the
 * engine's own random stream, the board, the replay log of the first
 * round) and the table of its functions over its state.
 */
#include "games/engine.h"
#include "games/ants/ants.h"

struct game_state *ant_new(const char *params, uint64_t seed, err_t err)
{
	struct game_state *g = game_state_alloc(sizeof *g, "Ants", err);
	if (!g)
		return NULL;
	g->seed = seed;
	g->rng = game_engine_rng(seed);
	if (ant_params_parse(params, &g->p, err) < 0 || ant_board_setup(g, err) < 0) {
		free(g);
		return NULL;
	}
	ant_begin_log(g);
	return g;
}

void ant_free(struct game_state *g)
{
	free(g);
}

static int ant_rounds(const struct game_state *g)
{
	return g->p.rounds;
}

static int ant_round(const struct game_state *g)
{
	return g->round;
}

static void ant_scores(const struct game_state *g, int64_t *score)
{
	memcpy(score, g->score, sizeof g->score);
}

const struct game ants_game = {
	.name = "ants",
	.title = "Ants",
	.players = ANT_PLAYERS,
	.start_max = ANT_START_LEN,
	.view_max = ANT_VIEW_MAX,
	.orders_max = ANT_ORDERS_MAX,
	.create = ant_new,
	.destroy = ant_free,
	.rounds = ant_rounds,
	.round = ant_round,
	.start = ant_start,
	.view = ant_view,
	.orders = ant_take_orders,
	.status = ant_set_status,
	.advance = ant_advance,
	.scores = ant_scores,
	.replay_header = ant_replay_header,
	.replay_round = ant_replay_round,
	.replay_orders = ant_replay_orders,
	.replay_message = ant_replay_message,
};
