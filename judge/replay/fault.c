#include "judge/replay/fault.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/play/match.h"

int fault_from_store(int64_t match, int seat, const struct store_fault *sf, struct fault *out,
		     err_t err)
{
	*out = (struct fault){ .match = match, .seat = seat, .round = sf->frozen_round,
			       .message = sf->message, .cpu_ns = sf->cpu_ns,
			       .turn_cpu_ns = sf->turn_cpu_ns, .cpu_budget_ns = sf->cpu_budget_ns,
			       .peak_memory = sf->peak_memory, .input_size = (size_t)sf->input_size };
	snprintf(out->player, sizeof out->player, "%s", sf->name);
	snprintf(out->verdict, sizeof out->verdict, "%s", sf->verdict);
	snprintf(out->reason, sizeof out->reason, "%s", sf->reason);
	if (sf->unit > 0 && sf->input) {
		out->unit = sf->unit;
		out->step = sf->unit_step;
		out->round = sf->unit_round;
		snprintf(out->verdict, sizeof out->verdict, "unit died");
		snprintf(out->reason, sizeof out->reason, "%s", sf->unit_reason);
	} else if (!sf->verdict[0]) {
		err_set(err, "seat %d of match %lld did not freeze: it played to "
			 "the end, there is nothing to reproduce", seat, (long long)match);
		return 0;
	}
	if (!sf->input) {
		err_set(err, "seat %d of match %lld froze (%s), but the match was "
			 "played before the judge kept what a frozen player was given",
			 seat, (long long)match, sf->reason);
		return 0;
	}
	char *raw;
	size_t len;
	if (replay_text(sf->input, sf->input_len, &raw, &len, err) < 0)
		return -1;
	out->input = (uint8_t *)raw;
	out->input_len = len;
	return 1;
}

static char *base64(const uint8_t *bytes, size_t len)
{
	unsigned char *b64 = malloc(4 * ((len + 2) / 3) + 1);
	if (b64)
		EVP_EncodeBlock(b64, bytes, (int)len);
	return (char *)b64;
}

json_t *fault_json(const struct fault *f)
{
	char *input = base64(f->input ? f->input : (const uint8_t *)"", f->input_len);
	if (!input)
		return NULL;
	json_t *j = json_pack("{s:i, s:I, s:i, s:s, s:i, s:i, s:s, s:s, s:I, s:I, s:I, s:I,"
			      " s:I, s:I, s:s, s:i, s:i}",
		"format", FAULT_FORMAT, "match", (json_int_t)f->match, "seat", f->seat,
		"player", f->player, "round", f->round, "message", f->message,
		"verdict", f->verdict, "reason", f->reason,
		"cpu_ns", (json_int_t)f->cpu_ns, "turn_cpu_ns", (json_int_t)f->turn_cpu_ns,
		"cpu_budget_ns", (json_int_t)f->cpu_budget_ns,
		"peak_memory", (json_int_t)f->peak_memory,
		"input_size", (json_int_t)f->input_size, "input_kept", (json_int_t)f->input_len,
		"input_base64", input, "unit", f->unit, "step", f->step);
	free(input);
	return j;
}

static int bad(err_t err, const char *field, const char *what)
{
	err_set(err, "not a fault record of this judge: \"%s\" %s", field, what);
	return -1;
}

/* An integer field in [lo, hi]. */
static int int_field(const json_t *j, const char *field, int64_t lo, int64_t hi, int64_t *v,
		     err_t err)
{
	const json_t *x = json_object_get(j, field);
	if (!json_is_integer(x) || json_integer_value(x) < lo || json_integer_value(x) > hi)
		return bad(err, field, "is missing or out of range");
	*v = json_integer_value(x);
	return 0;
}

/* An integer field in [0, hi] that older records lack (then 0). */
static int optional_int(const json_t *j, const char *field, int64_t hi, int *v,
			err_t err)
{
	int64_t x = 0;
	if (json_object_get(j, field) && int_field(j, field, 0, hi, &x, err) < 0)
		return -1;
	*v = (int)x;
	return 0;
}

static int text_field(const json_t *j, const char *field, char *out, size_t cap,
		      err_t err)
{
	const char *s = json_string_value(json_object_get(j, field));
	if (!s || strlen(s) >= cap)
		return bad(err, field, "is missing or too long");
	snprintf(out, cap, "%s", s);
	return 0;
}

static int decode_input(const char *b64, struct fault *out, err_t err)
{
	size_t n = strlen(b64);
	if (n % 4 || n / 4 * 3 > MATCH_INPUT_KEEP + 2)
		return bad(err, "input_base64", "is not base64 of at most 256 KiB");
	out->input = malloc(n / 4 * 3 + 1);
	int len = out->input ? EVP_DecodeBlock(out->input, (const unsigned char *)b64, (int)n) : -1;
	if (len < 0)
		return bad(err, "input_base64", "is not base64");
	/* EVP_DecodeBlock counts the padding as bytes */
	len -= (n && b64[n - 1] == '=') + (n > 1 && b64[n - 2] == '=');
	if ((size_t)len != out->input_len)
		return bad(err, "input_kept", "does not match the input's length");
	return 0;
}

int fault_parse(const json_t *j, struct fault *out, err_t err)
{
	*out = (struct fault){ 0 };
	int64_t v[11];
	const char *b64 = json_string_value(json_object_get(j, "input_base64"));
	if (!json_is_object(j) || int_field(j, "format", FAULT_FORMAT, FAULT_FORMAT, &v[0], err) ||
	    int_field(j, "match", 1, INT64_MAX, &v[1], err) ||
	    int_field(j, "seat", 0, GAME_MAX_PLAYERS - 1, &v[2], err) ||
	    int_field(j, "round", -1, INT32_MAX, &v[3], err) ||
	    int_field(j, "message", 0, INT32_MAX, &v[4], err) ||
	    int_field(j, "cpu_ns", 0, INT64_MAX, &v[5], err) ||
	    int_field(j, "turn_cpu_ns", 0, INT64_MAX, &v[6], err) ||
	    int_field(j, "cpu_budget_ns", 0, INT64_MAX, &v[7], err) ||
	    int_field(j, "input_size", 0, INT32_MAX, &v[8], err) ||
	    int_field(j, "input_kept", 0, MATCH_INPUT_KEEP, &v[9], err) ||
	    int_field(j, "peak_memory", 0, INT64_MAX, &v[10], err) ||
	    text_field(j, "player", out->player, sizeof out->player, err) ||
	    text_field(j, "verdict", out->verdict, sizeof out->verdict, err) ||
	    text_field(j, "reason", out->reason, sizeof out->reason, err))
		return -1;
	*out = (struct fault){ .match = v[1], .seat = (int)v[2], .round = (int)v[3],
			       .message = (int)v[4], .cpu_ns = v[5], .turn_cpu_ns = v[6],
			       .cpu_budget_ns = v[7], .input_size = (size_t)v[8],
			       .input_len = (size_t)v[9], .peak_memory = v[10] };
	text_field(j, "player", out->player, sizeof out->player, err);
	text_field(j, "verdict", out->verdict, sizeof out->verdict, err);
	text_field(j, "reason", out->reason, sizeof out->reason, err);
	if (optional_int(j, "unit", INT32_MAX, &out->unit, err) < 0 ||
	    optional_int(j, "step", INT32_MAX, &out->step, err) < 0)
		return -1;
	if (out->input_len > out->input_size)
		return bad(err, "input_kept", "is more than \"input_size\"");
	if (!b64)
		return bad(err, "input_base64", "is missing");
	return decode_input(b64, out, err);
}

void fault_free(struct fault *f)
{
	free(f->input);
	f->input = NULL;
}
