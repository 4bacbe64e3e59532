/* lazy_mhd.h - GNU libmicrohttpd, loaded when first required (judge/base/lazy_load.h).
 *
 * Promises.  mhd_require() loads the library and finds every function the service calls
 * in it: 0, or -1 with err naming what is missing and what to install.
 * Called before the first call into the library. */
#ifndef JUDGE_LAZY_MHD_H
#define JUDGE_LAZY_MHD_H

#include "judge/base/error.h"

int mhd_require(err_t err);

#endif
