/* `judge play ants` end to end: real compiles of the shipped Ants players
 * against the kit, real sandboxed players, a whole match and its replay. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <string.h>

#include "tests/unit/game_testlib.h"

Test(ants_play, four_shipped_players_play_a_whole_match, .timeout = 120)
{
	json_t *r = gt_whole_match("ants", "Demo Demo Demo Null", 3, 250);
	cr_assert(strncmp(gt_row(3) + 5, "Null", 4) == 0, "%s", gt_out);
	cr_assert(strncmp(gt_row(0) + 5, "Demo", 4) == 0, "%s", gt_out);
	json_t *scores = json_object_get(json_object_get(r, "result"), "scores");
	cr_assert_eq(json_array_size(scores), 4);
	for (int seat = 0; seat < 4; seat++)
		cr_assert_gt(json_integer_value(json_array_get(scores, seat)), 0,
			     "every colony scores its ants");
	json_decref(r);
}

Test(ants_play, same_seed_same_replay_bytes, .timeout = 120)
{
	gt_same_seed_same_replay("ants", "Demo Demo Demo Demo", 11, 12);
}
