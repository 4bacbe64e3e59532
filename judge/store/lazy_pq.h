/* lazy_pq.h - libpq (the PostgreSQL client library), loaded when first required (judge/base/lazy_load.h).
 *
 * Promises.  pq_require() loads the library and finds every function the store calls
 * in it: 0, or -1 with err naming what is missing and what to install.
 * Called before the first call into the library. */
#ifndef JUDGE_LAZY_PQ_H
#define JUDGE_LAZY_PQ_H

#include "judge/base/error.h"

int pq_require(err_t err);

#endif
