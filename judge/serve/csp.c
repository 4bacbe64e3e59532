/* csp.c - the pages' Content-Security-Policy (serve_int.h).  The service's
 * own pages load their one script from /static/ and run nothing inline.
 * The replay viewer is one self-contained page (viewer.h) whose scripts
 * are inline: its policy names each of them by its SHA-256, computed here
 * from the viewer the program carries, so nothing else inline runs. */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "judge/replay/viewer.h"
#include "judge/serve/serve_int.h"

#define CSP_COMMON "connect-src 'self'; object-src 'none'; base-uri 'none'; " \
		   "form-action 'self'; frame-ancestors 'self'"

const char csp_page[] =
	"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " CSP_COMMON;

/* Does the opening tag [tag, end) load its script from elsewhere, or carry
 * data (a type that is not JavaScript)?  Such an element runs nothing inline. */
static bool runs_nothing_inline(const char *tag, const char *end)
{
	char opening[256];
	snprintf(opening, sizeof opening, "%.*s", (int)(end - tag < 255 ? end - tag : 255), tag);
	const char *type = strcasestr(opening, " type=");
	return strcasestr(opening, " src=") != NULL ||
	       (type && strncasecmp(type + 6, "\"text/javascript\"", 17) != 0 &&
		strncasecmp(type + 6, "\"module\"", 8) != 0);
}

/* " 'sha256-BASE64'" of one script's text, appended to the stream. */
static int put_hash(FILE *out, const char *text, size_t len)
{
	unsigned char digest[EVP_MAX_MD_SIZE], b64[4 * ((EVP_MAX_MD_SIZE + 2) / 3) + 1];
	unsigned n = 0;
	if (EVP_Digest(text, len, digest, &n, EVP_sha256(), NULL) != 1)
		return -1;
	EVP_EncodeBlock(b64, digest, (int)n);
	fprintf(out, " 'sha256-%s'", b64);
	return 0;
}

/* The hashes of every inline script of page, appended to out: 0 or -1. */
static int put_inline_hashes(FILE *out, const char *page)
{
	for (const char *s = strcasestr(page, "<script"); s; s = strcasestr(s, "<script")) {
		const char *gt = strchr(s, '>'), *close = gt ? strcasestr(gt, "</script") : NULL;
		if (!close)
			return -1;
		if (!runs_nothing_inline(s, gt) && put_hash(out, gt + 1, (size_t)(close - gt - 1)) < 0)
			return -1;
		s = close;
	}
	return 0;
}

char *csp_viewer_policy(err_t err)
{
	char *page = NULL, *policy = NULL;
	err_t verr;
	size_t len, policy_len;
	json_t *empty = json_object();
	int rc = empty ? viewer_page(empty, &page, &len, verr) : -1;
	json_decref(empty);
	if (rc < 0) {
		err_set(err, "cannot build the viewer to name its scripts: %.400s",
			 empty ? verr->msg : "out of memory");
		return NULL;
	}
	FILE *out = open_memstream(&policy, &policy_len);
	if (out) {
		fputs("default-src 'self'; script-src 'self'", out);
		rc = put_inline_hashes(out, page);
		fputs("; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
		      "frame-src 'self' blob:; " CSP_COMMON, out);
	}
	if (!out || fclose(out) != 0 || rc < 0) {
		err_set(err, "cannot name the viewer's scripts (out of memory, or "
			 "the viewer's page is damaged)");
		free(out ? policy : NULL);
		policy = NULL;
	}
	free(page);
	return policy;
}
