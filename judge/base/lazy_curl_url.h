/* lazy_curl_url.h - libcurl's URL parser, loaded when first required (judge/base/lazy_load.h).
 *
 * Promises.  curl_url_require() loads the library and finds every function the webhook settings call
 * in it: 0, or -1 with err naming what is missing and what to install.
 * Called before the first call into the library. */
#ifndef JUDGE_LAZY_CURL_URL_H
#define JUDGE_LAZY_CURL_URL_H

#include "judge/base/error.h"

int curl_url_require(err_t err);

#endif
