/* lazy_curl.h - libcurl's transfer functions, loaded when first required (judge/base/lazy_load.h).
 *
 * Promises.  curl_require() loads the library and finds every function the webhooks and the upload client call
 * in it: 0, or -1 with err naming what is missing and what to install.
 * Called before the first call into the library. */
#ifndef JUDGE_LAZY_CURL_H
#define JUDGE_LAZY_CURL_H

#include "judge/base/error.h"

int curl_require(err_t err);

#endif
