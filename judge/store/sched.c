#include "judge/store/sched.h"

const struct sched_class_info sched_classes[SCHED_CLASSES] = {
	[SCHED_NOTIFY] = { "notify", 90, 0 },
	[SCHED_QUALIFYING] = { "qualifying", 80, 0 },
	[SCHED_COMPILE] = { "compile", 70, 0 },
	[SCHED_TOURNAMENT] = { "tournament", 60, 10000 },
	[SCHED_RANKED] = { "ranked", 40, 5000 },
	[SCHED_COMPARISON] = { "comparison", 30, 60000 },
	[SCHED_CHALLENGE] = { "challenge", 20, 30000 },
};

int64_t sched_due_at(enum sched_class cls, int64_t now, int64_t not_before)
{
	int64_t pause = sched_classes[cls].max_pause_ms;
	if (pause <= 0)
		return 0;
	return (not_before > now ? not_before : now) + pause;
}

int sched_ranked_ahead(int slots)
{
	return 2 * (slots > 0 ? slots : 1);
}
