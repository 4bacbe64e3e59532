/* `judge play starwar` end to end: real compiles of the shipped players
 * against the Star War kit, real sandboxed processes, a whole match, its
 * table and its replay. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <string.h>

#include "tests/unit/game_testlib.h"

Test(starwar_play, four_shipped_players_play_a_whole_match, .timeout = 120)
{
	json_t *r = gt_whole_match("starwar", "Demo Demo Demo Null", 3, 300);
	cr_assert(strncmp(gt_row(0) + 5, "Demo", 4) == 0, "%s", gt_out);
	cr_assert(strncmp(gt_row(3) + 5, "Null", 4) == 0, "%s", gt_out);
	json_t *result = json_object_get(r, "result");
	cr_assert_eq(json_array_size(json_object_get(result, "scores")), 4);
	cr_assert_eq(json_array_size(json_object_get(result, "frozen")), 0, "nobody froze");
	gt_expect_source(r, 3, "games/starwar/players/AINull.c");
	json_decref(r);
}

Test(starwar_play, same_seed_same_replay_bytes, .timeout = 120)
{
	gt_same_seed_same_replay("starwar", "Demo Demo Demo Demo", 11, 12);
}
