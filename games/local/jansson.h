/* jansson.h (student kit) - the part of the JSON API the game engines use,
 * so that the local runner builds with nothing but gcc and make (the judge
 * itself links the real library).  Same names and meanings: values with a
 * reference count, objects that keep their keys in insertion order, arrays,
 * integers, strings and null; json_pack() for the formats the engines use
 * ('{' '}' '[' ']' s i I o O); json_dumpf() writes compact JSON.
 */
#ifndef KIT_LOCAL_JANSSON_H
#define KIT_LOCAL_JANSSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef long long json_int_t;
typedef struct json_t json_t;

#define JSON_COMPACT 0

json_t *json_object(void);
json_t *json_array(void);
json_t *json_integer(json_int_t value);
json_t *json_string(const char *value);
json_t *json_null(void);

json_t *json_incref(json_t *json);
void json_decref(json_t *json);

bool json_is_integer(const json_t *json);
bool json_is_array(const json_t *json);
json_int_t json_integer_value(const json_t *json);
const char *json_string_value(const json_t *json);

size_t json_array_size(const json_t *array);
json_t *json_array_get(const json_t *array, size_t index);
int json_array_append_new(json_t *array, json_t *value);

json_t *json_object_get(const json_t *object, const char *key);
int json_object_set_new(json_t *object, const char *key, json_t *value);
int json_object_set(json_t *object, const char *key, json_t *value);
int json_object_del(json_t *object, const char *key);

json_t *json_pack(const char *fmt, ...);
int json_dumpf(const json_t *json, FILE *out, size_t flags);

#define json_array_foreach(array, index, value)                                    \
	for ((index) = 0; (index) < json_array_size(array) &&                    \
			  ((value) = json_array_get(array, index));              \
	     (index)++)

#endif
