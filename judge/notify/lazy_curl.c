/* lazy_curl.c - libcurl's transfer functions, loaded on the first call
 * (judge/base/lazy_load.h); the prototypes are curl/curl.h's.  Its URL
 * parser is judge/base/lazy_curl_url.c's, for the webhook settings. */
#include "judge/notify/lazy_curl.h"

#include "judge/base/lazy_load.h"

/* the plain prototype of curl_easy_setopt, not its type-checking macro */
#define CURL_DISABLE_TYPECHECK 1

#include <curl/curl.h>
#include <stdarg.h>

static struct lazy_lib curl = { JUDGE_SONAME_CURL, "libcurl", NULL };

int curl_require(err_t err)
{
	return lazy_require(&curl, err);
}

LAZY_VOID(curl, curl_easy_cleanup, (CURL *h), (h))
LAZY(curl, CURL *, curl_easy_init, (void), ())
LAZY(curl, CURLcode, curl_easy_perform, (CURL *h), (h))
LAZY(curl, const char *, curl_easy_strerror, (CURLcode code), (code))
LAZY_VOID(curl, curl_global_cleanup, (void), ())
LAZY(curl, CURLcode, curl_global_init, (long flags), (flags))
LAZY(curl, struct curl_slist *, curl_slist_append, (struct curl_slist *list, const char *data),
     (list, data))
LAZY_VOID(curl, curl_slist_free_all, (struct curl_slist *list), (list))

typedef CURLcode (*curl_setopt_fn)(CURL *, CURLoption, ...);
typedef CURLcode (*curl_getinfo_fn)(CURL *, CURLINFO, ...);
static curl_setopt_fn lazy_curl_easy_setopt;
static curl_getinfo_fn lazy_curl_easy_getinfo;
LAZY_ENTRY(curl, curl_easy_setopt)
LAZY_ENTRY(curl, curl_easy_getinfo)

/* The one argument after the option has the type the option's number
 * says (curl.h: CURLOPTTYPE_*), and goes on as that type. */
CURLcode curl_easy_setopt(CURL *h, CURLoption option, ...)
{
	LAZY_FN(curl, curl_easy_setopt, fn)
	va_list ap;
	va_start(ap, option);
	CURLcode rc;
	if (option < CURLOPTTYPE_OBJECTPOINT)
		rc = fn(h, option, va_arg(ap, long));
	else if (option < CURLOPTTYPE_FUNCTIONPOINT)
		rc = fn(h, option, va_arg(ap, void *));
	else if (option < CURLOPTTYPE_OFF_T)
		rc = fn(h, option, va_arg(ap, void (*)(void)));
	else if (option < CURLOPTTYPE_BLOB)
		rc = fn(h, option, va_arg(ap, curl_off_t));
	else
		rc = fn(h, option, va_arg(ap, void *));
	va_end(ap);
	return rc;
}

/* Every CURLINFO is read through one pointer. */
CURLcode curl_easy_getinfo(CURL *h, CURLINFO info, ...)
{
	LAZY_FN(curl, curl_easy_getinfo, fn)
	va_list ap;
	va_start(ap, info);
	CURLcode rc = fn(h, info, va_arg(ap, void *));
	va_end(ap);
	return rc;
}

