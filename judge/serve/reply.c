/* reply.c - replies and requests (serve_int.h): JSON replies made safe
 * whatever bytes the store held, errors as one line, the body as JSON. */
#include <ctype.h>
#include <microhttpd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/game.h"
#include "judge/base/safe_text.h"
#include "judge/serve/serve_int.h"

static bool utf8_valid(const json_t *s)
{
	const unsigned char *p = (const unsigned char *)json_string_value(s);
	size_t n = json_string_length(s);
	uint32_t cp;
	for (size_t k; n; p += k, n -= k)
		if (!(k = text_utf8(p, n, &cp)))
			return false;
	return true;
}


/* What replaces item in its container: the safe_text form of a string that
 * is not valid UTF-8, else NULL (item kept, its insides made safe). */
static json_t *safe_replacement(json_t *item)
{
	if (json_is_string(item) && !utf8_valid(item))
		return safe_json_text(json_string_value(item));
	reply_safe_strings(item);
	return NULL;
}

/* Every string of v made valid UTF-8 (a contestant's bytes, as the store
 * gives them, may not be): an invalid one is replaced by its safe_text
 * form.  Keys are the judge's own. */
void reply_safe_strings(json_t *v)
{
	const char *key;
	json_t *item, *safe;
	size_t i;
	if (json_is_object(v)) {
		json_object_foreach(v, key, item)
			if ((safe = safe_replacement(item)))
				json_object_set_new(v, key, safe);
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, item)
			if ((safe = safe_replacement(item)))
				json_array_set_new(v, i, safe);
	}
}

void reply_json(struct reply *rp, unsigned status, json_t *value)
{
	rp->status = status;
	rp->type = "application/json; charset=utf-8";
	reply_safe_strings(value);
	rp->body = value ? json_dumps(value, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
	json_decref(value);
	if (!rp->body) {
		rp->status = 500;
		rp->static_body = "{\"error\": \"out of memory\"}";
		rp->len = strlen(rp->static_body);
		return;
	}
	rp->len = strlen(rp->body);
}

void reply_bytes(struct reply *rp, unsigned status, const char *type, char *body, size_t len)
{
	rp->status = status;
	rp->type = type;
	rp->body = body;
	rp->len = len;
}

void reply_error(struct reply *rp, unsigned status, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	free(rp->body);
	rp->body = NULL;
	reply_json(rp, status, json_pack("{s:o}", "error", safe_json_text(msg)));
}

void reply_store_error(struct reply *rp, const char *err)
{
	reply_error(rp, 503, "the judge's store did not answer (%s): try again in a moment", err);
}

void reply_stored(struct reply *rp, int rc, json_t *j, const char *err)
{
	if (rc < 0)
		reply_store_error(rp, err);
	else
		reply_json(rp, 200, j);
}

void reply_store_list(struct request *rq, struct reply *rp,
		      int (*read)(struct store *s, json_t **list, err_t err))
{
	err_t err;
	json_t *list = NULL;
	int rc = read(rq->store, &list, err);
	reply_stored(rp, rc, list, err->msg);
}

const char *request_arg(const struct request *rq, const char *key)
{
	return MHD_lookup_connection_value(rq->conn, MHD_GET_ARGUMENT_KIND, key);
}

int request_number(const struct request *rq, const char *key, bool fraction, double min,
		   double max, double *out)
{
	const char *v = request_arg(rq, key);
	if (!v)
		return 0;
	size_t whole = strspn(v, "0123456789"), n = whole;
	if (fraction && whole && v[n] == '.' && isdigit((unsigned char)v[n + 1]))
		n += 1 + strspn(v + n + 1, "0123456789");
	if (!whole || v[n] || n > 32)
		return -1;
	*out = strtod(v, NULL);
	return *out >= min && *out <= max ? 1 : -1;
}

const struct judge_config *request_settings(const struct request *rq,
					    struct judge_config *defaults)
{
	if (rq->opt->settings)
		return rq->opt->settings;
	cfg_defaults(defaults);
	return defaults;
}

const struct game *request_game(const char *name, struct reply *rp)
{
	const struct game *g = game_find(name);
	if (!g) {
		char list[256] = "";
		for (const struct game *const *x = game_list(); *x; x++)
			snprintf(list + strlen(list), sizeof list - strlen(list), " %s", (*x)->name);
		reply_error(rp, 404, "there is no game %s; the judge has:%s", name, list);
	}
	return g;
}

int request_json(const struct request *rq, struct reply *rp, json_t **out)
{
	json_error_t jerr;
	*out = json_loadb(rq->body, rq->body_len, JSON_REJECT_DUPLICATES, &jerr);
	if (!*out || !json_is_object(*out)) {
		reply_error(rp, 400, "the body must be a JSON object (%s)",
			    *out ? "it is another JSON value" : jerr.text);
		json_decref(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

