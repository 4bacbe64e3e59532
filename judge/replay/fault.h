/* fault.h - a frozen seat's record as its author downloads it.
 *
 * What the store keeps of a seat that froze (store_fault: the round, the
 * verdict and reason, the CPU figures, the message it was given last) as
 * one JSON object, "format" FAULT_FORMAT, the input's bytes in base64:
 * what GET /api/matches/N/faults/SEAT answers and `judge repro --record`
 * reads back.  A record read from a file is hostile input: every field is
 * checked for its type and range, the input for its size.  A record of a
 * unit that crashed while its seat played on (AIC2018) names the unit and
 * its step ("unit", "step"); older records have neither (a frozen seat).
 */
#ifndef JUDGE_FAULT_H
#define JUDGE_FAULT_H

#include <jansson.h>
#include <stdint.h>

#include "judge/replay/replay_io.h"
#include "judge/store/store.h"

#define FAULT_FORMAT 1

struct fault {
	int64_t match;
	int seat;
	char player[64];
	char verdict[32];
	char reason[256];
	int round;                 /* -1: before the first round */
	int message;               /* the seat's messages before the last one */
	/* 0: the seat froze.  Else the seat played on, but this unit of its
	 * own died by its fault (AIC2018) at the seat's step `step` of the
	 * round (its message `message`): verdict "unit died". */
	int unit, step;
	int64_t cpu_ns, turn_cpu_ns, cpu_budget_ns, peak_memory;
	uint8_t *input;            /* malloc'd; input_len of input_size bytes */
	size_t input_len, input_size;
};

/* The stored record as a fault (its input inflated): 1; 0 when the seat
 * did not freeze or froze before this judge kept records (err says so);
 * -1 with err. */
int fault_from_store(int64_t match, int seat, const struct store_fault *sf, struct fault *out,
		     err_t err);
/* The record as JSON (new reference); NULL when out of memory. */
json_t *fault_json(const struct fault *f);
/* Back from JSON: 0, or -1 with err saying which field is wrong. */
int fault_parse(const json_t *j, struct fault *out, err_t err);
void fault_free(struct fault *f);

#endif
