#include "games/ranks.h"

/* <0 when a stands better than b, 0 when all keys tie. */
static int compare_keys(const struct rank_keys *a, const struct rank_keys *b, int nkeys)
{
	for (int i = 0; i < nkeys; i++)
		if (a->key[i] != b->key[i])
			return a->key[i] > b->key[i] ? -1 : 1;
	return 0;
}

void ranks_from_keys(const struct rank_keys *k, int n, int nkeys, int *rank)
{
	for (int i = 0; i < n; i++) {
		rank[i] = 1;
		for (int j = 0; j < n; j++)
			rank[i] += compare_keys(&k[j], &k[i], nkeys) < 0;
	}
}

void game_ranks(const struct game *gm, const struct game_state *g, int n, int *rank)
{
	if (gm->ranks) {
		gm->ranks(g, rank);
		return;
	}
	int64_t score[GAME_MAX_PLAYERS];
	struct rank_keys k[GAME_MAX_PLAYERS];
	gm->scores(g, score);
	for (int i = 0; i < n; i++)
		k[i].key[0] = score[i];
	ranks_from_keys(k, n, 1, rank);
}
