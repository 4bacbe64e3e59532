/* json.c (student kit) - jansson.h's values: a tagged node, arrays and
 * objects as growing arrays (objects are small and keep their order). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "jansson.h"

enum json_type { JSON_NULL, JSON_INTEGER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json_t {
	enum json_type type;
	size_t refs;
	json_int_t integer;
	char *string;
	json_t **items; /* array elements, or object values */
	char **keys;    /* object keys */
	size_t n, cap;
};

static json_t *json_new(enum json_type type)
{
	json_t *j = calloc(1, sizeof *j);
	if (j) {
		j->type = type;
		j->refs = 1;
	}
	return j;
}

json_t *json_object(void) { return json_new(JSON_OBJECT); }
json_t *json_array(void) { return json_new(JSON_ARRAY); }
json_t *json_null(void) { return json_new(JSON_NULL); }

json_t *json_integer(json_int_t value)
{
	json_t *j = json_new(JSON_INTEGER);
	if (j)
		j->integer = value;
	return j;
}

json_t *json_string(const char *value)
{
	json_t *j = value ? json_new(JSON_STRING) : NULL;
	if (j && !(j->string = strdup(value))) {
		free(j);
		return NULL;
	}
	return j;
}

json_t *json_incref(json_t *json)
{
	if (json)
		json->refs++;
	return json;
}

void json_decref(json_t *json)
{
	if (!json || --json->refs > 0)
		return;
	for (size_t i = 0; i < json->n; i++) {
		json_decref(json->items[i]);
		if (json->keys)
			free(json->keys[i]);
	}
	free(json->items);
	free(json->keys);
	free(json->string);
	free(json);
}

bool json_is_integer(const json_t *json) { return json && json->type == JSON_INTEGER; }
bool json_is_array(const json_t *json) { return json && json->type == JSON_ARRAY; }

json_int_t json_integer_value(const json_t *json)
{
	return json_is_integer(json) ? json->integer : 0;
}

const char *json_string_value(const json_t *json)
{
	return json && json->type == JSON_STRING ? json->string : NULL;
}

size_t json_array_size(const json_t *array)
{
	return json_is_array(array) ? array->n : 0;
}

json_t *json_array_get(const json_t *array, size_t index)
{
	return index < json_array_size(array) ? array->items[index] : NULL;
}

/* Room for one more item (and key, in an object). */
static int json_grow(json_t *j)
{
	if (j->n < j->cap)
		return 0;
	size_t cap = j->cap ? 2 * j->cap : 8;
	json_t **items = realloc(j->items, cap * sizeof *items);
	if (!items)
		return -1;
	j->items = items;
	if (j->type == JSON_OBJECT) {
		char **keys = realloc(j->keys, cap * sizeof *keys);
		if (!keys)
			return -1;
		j->keys = keys;
	}
	j->cap = cap;
	return 0;
}

int json_array_append_new(json_t *array, json_t *value)
{
	if (!value)
		return -1;
	if (!json_is_array(array) || json_grow(array) < 0) {
		json_decref(value);
		return -1;
	}
	array->items[array->n++] = value;
	return 0;
}

static long json_key_index(const json_t *object, const char *key)
{
	if (!object || object->type != JSON_OBJECT || !key)
		return -1;
	for (size_t i = 0; i < object->n; i++)
		if (strcmp(object->keys[i], key) == 0)
			return (long)i;
	return -1;
}

json_t *json_object_get(const json_t *object, const char *key)
{
	long i = json_key_index(object, key);
	return i < 0 ? NULL : object->items[i];
}

int json_object_set_new(json_t *object, const char *key, json_t *value)
{
	if (!value)
		return -1;
	long i = json_key_index(object, key);
	if (i >= 0) {
		json_decref(object->items[i]);
		object->items[i] = value;
		return 0;
	}
	char *copy = object && object->type == JSON_OBJECT && key ? strdup(key) : NULL;
	if (!copy || json_grow(object) < 0) {
		free(copy);
		json_decref(value);
		return -1;
	}
	object->keys[object->n] = copy;
	object->items[object->n++] = value;
	return 0;
}

int json_object_set(json_t *object, const char *key, json_t *value)
{
	return json_object_set_new(object, key, json_incref(value));
}

int json_object_del(json_t *object, const char *key)
{
	long i = json_key_index(object, key);
	if (i < 0)
		return -1;
	json_decref(object->items[i]);
	free(object->keys[i]);
	size_t rest = object->n - (size_t)i - 1;
	memmove(object->items + i, object->items + i + 1, rest * sizeof *object->items);
	memmove(object->keys + i, object->keys + i + 1, rest * sizeof *object->keys);
	object->n--;
	return 0;
}

/* ---- json_pack ------------------------------------------------------------ */

struct pack {
	const char *f;
	va_list *ap;
};

static void pack_skip(struct pack *p)
{
	while (*p->f == ' ' || *p->f == ',' || *p->f == ':')
		p->f++;
}

static json_t *pack_value(struct pack *p);

/* The items up to `close`, into `into` (an array, or an object whose keys
 * come from 's' before each value). */
static json_t *pack_container(struct pack *p, json_t *into, char close)
{
	bool ok = into != NULL;
	for (pack_skip(p); ok && *p->f && *p->f != close; pack_skip(p)) {
		const char *key = NULL;
		if (close == '}') {
			ok = *p->f++ == 's' && (key = va_arg(*p->ap, const char *)) != NULL;
			pack_skip(p);
		}
		json_t *v = ok ? pack_value(p) : NULL;
		ok = v && (key ? json_object_set_new(into, key, v) : json_array_append_new(into, v)) == 0;
	}
	if (!ok || *p->f++ != close) {
		json_decref(into);
		return NULL;
	}
	return into;
}

static json_t *pack_value(struct pack *p)
{
	pack_skip(p);
	switch (*p->f++) {
	case '{': return pack_container(p, json_object(), '}');
	case '[': return pack_container(p, json_array(), ']');
	case 's': return json_string(va_arg(*p->ap, const char *));
	case 'i': return json_integer(va_arg(*p->ap, int));
	case 'I': return json_integer(va_arg(*p->ap, json_int_t));
	case 'o': return va_arg(*p->ap, json_t *);
	case 'O': return json_incref(va_arg(*p->ap, json_t *));
	default: return NULL;
	}
}

json_t *json_pack(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct pack p = { fmt, &ap };
	json_t *j = pack_value(&p);
	va_end(ap);
	return j;
}

/* ---- json_dumpf ----------------------------------------------------------- */

static void dump_string(const char *s, FILE *out)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

int json_dumpf(const json_t *json, FILE *out, size_t flags)
{
	(void)flags;
	if (!json)
		return -1;
	switch (json->type) {
	case JSON_NULL: fputs("null", out); break;
	case JSON_INTEGER: fprintf(out, "%lld", json->integer); break;
	case JSON_STRING: dump_string(json->string, out); break;
	case JSON_ARRAY:
	case JSON_OBJECT:
		fputc(json->type == JSON_ARRAY ? '[' : '{', out);
		for (size_t i = 0; i < json->n; i++) {
			if (i)
				fputc(',', out);
			if (json->keys) {
				dump_string(json->keys[i], out);
				fputc(':', out);
			}
			json_dumpf(json->items[i], out, flags);
		}
		fputc(json->type == JSON_ARRAY ? ']' : '}', out);
		break;
	}
	return ferror(out) ? -1 : 0;
}
