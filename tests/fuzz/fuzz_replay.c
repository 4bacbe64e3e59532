/* fuzz_replay.c - libFuzzer target: `judge replay check` on hostile
 * replays.  The input is the replay's JSON text (the seeds are real
 * 4-round replays of each game, tests/fuzz/corpus/replay/); the check must
 * answer 0 or 1 without crashing, leaking or reading out of bounds,
 * whatever the text says (parameters, orders, live seats, rounds), name a
 * place and a reason when it says 1, and count every round when it says
 * 0.  Orders and parameters reach the engines' replay_message and create:
 * they are fuzzed through here too. */
#include <jansson.h>
#include <stdint.h>
#include <string.h>

#include "judge/replay/replay_check.h"

#define FUZZ_NAME "fuzz_replay"
#include "tests/fuzz/fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *replay = json_loadb((const char *)data, size, 0, NULL);
	if (!replay)
		return 0;
	struct replay_verdict v;
	memset(&v, 0x5a, sizeof v);
	int rc = replay_check(replay, &v);
	check(rc == 0 || rc == 1, "replay_check returned %d", rc);
	check(memchr(v.where, '\0', sizeof v.where) && memchr(v.what, '\0', sizeof v.what),
	      "the verdict is not terminated");
	if (rc)
		check(v.where[0] && v.what[0], "a failed check names no place or reason");
	else
		check((size_t)v.rounds == json_array_size(json_object_get(replay, "rounds")),
		      "OK after %d of %zu rounds", v.rounds,
		      json_array_size(json_object_get(replay, "rounds")));
	json_decref(replay);
	return 0;
}
