#include "games/params_text.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int pt_fail(const struct pt_parse *ps, int line, const char *key, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ps->err->msg, sizeof ps->err->msg, fmt, ap);
	va_end(ap);
	if (line > 0)
		err_prefix(ps->err, "line %d: %s", line, key);
	else
		err_prefix(ps->err, "%s", key);
	return -1;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

bool pt_next_line(const char **text, struct pt_line *line)
{
	const char *s = *text;
	if (!*s)
		return false;
	const char *end = strchr(s, '\n');
	size_t len = end ? (size_t)(end - s) : strlen(s);
	*text = end ? end + 1 : s + len;
	const char *hash = memchr(s, '#', len);
	if (hash)
		len = (size_t)(hash - s);
	while (len && blank(*s))
		s++, len--;
	while (len && blank(s[len - 1]))
		len--;
	line->s = s;
	line->len = len;
	line->number++;
	return true;
}

bool pt_parse_int(const char *s, size_t len, int *out)
{
	if (len == 0 || len > 9)
		return false;
	int v = 0;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

static int find(const struct pt_parse *ps, const char *name, size_t len)
{
	for (int k = 0; k < ps->nkeys; k++)
		if (strlen(ps->keys[k].name) == len && memcmp(ps->keys[k].name, name, len) == 0)
			return k;
	return -1;
}

int pt_line_of(const struct pt_parse *ps, const char *key)
{
	int k = find(ps, key, strlen(key));
	return k < 0 ? 0 : ps->key_line[k];
}

int pt_key_line(struct pt_parse *ps, const struct pt_line *l)
{
	size_t klen = 0;
	while (klen < l->len && !blank(l->s[klen]))
		klen++;
	char key[32];
	snprintf(key, sizeof key, "%.*s", (int)(klen < 31 ? klen : 31), l->s);
	int k = find(ps, l->s, klen);
	if (k < 0)
		return pt_fail(ps, l->number, key, "unknown key");
	if (ps->key_line[k])
		return pt_fail(ps, l->number, key, "given twice (first on line %d)", ps->key_line[k]);
	const char *v = l->s + klen;
	size_t vlen = l->len - klen;
	while (vlen && blank(*v))
		v++, vlen--;
	int value;
	if (!pt_parse_int(v, vlen, &value))
		return pt_fail(ps, l->number, key, "expected one non-negative integer");
	const struct pt_key *pk = &ps->keys[k];
	if (value < pk->min || value > pk->max)
		return pt_fail(ps, l->number, key, "%d is out of range (%d..%d)", value, pk->min,
			       pk->max);
	if (pk->offset != PT_NOT_STORED)
		*(int *)((char *)ps->params + pk->offset) = value;
	ps->key_line[k] = l->number;
	return 0;
}

int pt_grid_row(struct pt_parse *ps, const struct pt_grid *g, struct pt_grid_size *size,
		const struct pt_line *l, void *ctx)
{
	if (l->len > (size_t)g->max_cols)
		return pt_fail(ps, l->number, g->keyword, "a row of %zu cells (at most %d)", l->len,
			       g->max_cols);
	if (size->rows == 0)
		size->cols = (int)l->len;
	if (l->len != (size_t)size->cols)
		return pt_fail(ps, l->number, g->keyword, "a row of %zu cells, the first had %d",
			       l->len, size->cols);
	if (size->rows == g->max_rows)
		return pt_fail(ps, l->number, g->keyword, "more than %d rows", g->max_rows);
	for (int c = 0; c < size->cols; c++) {
		int v = g->value(l->s[c]);
		if (v == PT_NO_CELL)
			return pt_fail(ps, l->number, g->keyword, "column %d: '%c' is not %s", c,
				       l->s[c], g->cells);
		g->put(ctx, size->rows * size->cols + c, v);
	}
	size->rows++;
	return 0;
}

/* One line outside the section: the game's own, or `key value`. */
static int outside_line(struct pt_parse *ps, const struct pt_section *sec, void *ctx,
			const struct pt_line *l)
{
	int taken = sec && sec->other ? sec->other(ctx, l) : 0;
	return taken < 0 ? -1 : taken ? 0 : pt_key_line(ps, l);
}

int pt_read(struct pt_parse *ps, const char *text, const struct pt_section *sec, void *ctx)
{
	struct pt_line l = { 0 };
	size_t klen = sec ? strlen(sec->keyword) : 0;
	int section = 0, rows = 0;
	if (!text)
		text = "";
	while (pt_next_line(&text, &l)) {
		if (l.len == 0)
			continue;
		int rc;
		if (section) {
			rc = sec->row(ctx, &l);
			rows++;
		} else if (sec && l.len == klen && memcmp(l.s, sec->keyword, klen) == 0) {
			section = l.number;
			rc = sec->begin ? sec->begin(ctx, section) : 0;
		} else {
			rc = outside_line(ps, sec, ctx, &l);
		}
		if (rc < 0)
			return -1;
	}
	if (section && rows == 0)
		return pt_fail(ps, section, sec->keyword, "no rows follow");
	return section;
}

int pt_read_params(const struct pt_format *f, struct pt_parse *ps, void *params,
		   const char *text, err_t err)
{
	ps->keys = f->keys;
	ps->nkeys = f->nkeys;
	ps->params = params;
	ps->err = err;
	memset(ps->key_line, 0, sizeof ps->key_line);
	int section = pt_read(ps, text, f->section, ps);
	if (section < 0 || (section && f->check_section && f->check_section(ps, section) < 0))
		return -1;
	return f->check_all ? f->check_all(ps) : 0;
}

json_t *pt_json(const struct pt_format *f, const void *params)
{
	json_t *o = json_object();
	for (int k = 0; k < f->nkeys; k++) {
		const struct pt_key *key = &f->keys[k];
		int v = key->min;
		if (key->offset != PT_NOT_STORED)
			v = *(const int *)((const char *)params + key->offset);
		json_object_set_new(o, key->name, json_integer(v));
	}
	return o;
}
