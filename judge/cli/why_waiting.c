/* why_waiting.c - see why_waiting.h. */
#include "judge/cli/why_waiting.h"

#include <stdio.h>
#include <string.h>

#include "judge/worker/worker.h"

static const char *const moving_states[] = { "queued", "compiling", "qualifying", NULL };

static int no_worker(struct store *s, const char *queue, char *out, size_t size)
{
	struct store_activity act;
	err_t err;
	if (store_activity(s, &act, err) < 0)
		return -1;
	if (!store_stalled(&act))
		return 0;
	snprintf(out, size, "no worker has taken a job for %lld s: is a worker running? start one "
		 "with `judge-worker --queue %s`", (long long)(act.oldest_wait_ms / 1000), queue);
	return 1;
}

int why_waiting(struct store *s, const char *queue, const char *state, const char *game,
		int min_games, char *out, size_t size)
{
	*out = '\0';
	for (const char *const *m = moving_states; *m; m++)
		if (strcmp(state, *m) == 0)
			return no_worker(s, queue, out, size);
	if (strcmp(state, "qualified") != 0)
		return 0;
	int rc = no_worker(s, queue, out, size);
	if (rc != 0)
		return rc;
	char why[512];
	if (worker_idle_reason(s, game, min_games, why, sizeof why) < 0)
		return -1;
	if (!*why)
		return 0;
	snprintf(out, size, "no ranked match can be scheduled: %s", why);
	return 1;
}
