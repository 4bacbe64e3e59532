/* lazy_curl_url.c - libcurl's URL parser, loaded on the first call
 * (judge/base/lazy_load.h): the webhook settings (hook_config.h) check a
 * URL with the parser that will send to it.  The transfer functions are
 * judge/notify/lazy_curl.c's. */
#include "judge/base/lazy_curl_url.h"

#include "judge/base/lazy_load.h"

#include <curl/curl.h>

static struct lazy_lib curl_urls = { JUDGE_SONAME_CURL, "libcurl", NULL };

int curl_url_require(err_t err)
{
	return lazy_require(&curl_urls, err);
}

LAZY(curl_urls, CURLU *, curl_url, (void), ())
LAZY_VOID(curl_urls, curl_url_cleanup, (CURLU *h), (h))
LAZY(curl_urls, CURLUcode, curl_url_set,
     (CURLU *h, CURLUPart what, const char *part, unsigned flags), (h, what, part, flags))
LAZY(curl_urls, const char *, curl_url_strerror, (CURLUcode code), (code))
