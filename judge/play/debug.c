#include "judge/play/debug.h"

#include <stdbool.h>
#include <stdio.h>

#include "games/kit/draw.h"

void debug_init(struct debug_record *d, int nseats)
{
	*d = (struct debug_record){ .n = nseats };
	for (int i = 0; i < nseats; i++) {
		d->marks[i] = json_array();
		d->cpu_us[i] = json_array();
		d->last_round[i] = d->bytes_round[i] = -2;
	}
}

static json_t *mark_json(const struct draw_mark *m)
{
	char colour[8];
	snprintf(colour, sizeof colour, "#%06x", (unsigned)m->rgb);
	if (m->kind == DRAW_LINE)
		return json_pack("[s, s, i, i, i, i]", "line", colour, m->row, m->col, m->row2,
				 m->col2);
	if (m->kind == DRAW_TEXT)
		return json_pack("[s, s, i, i, s]", "text", colour, m->row, m->col, m->text);
	return json_pack("[s, s, i, i]", "dot", colour, m->row, m->col);
}

/* The seat's entry for round, started when this is its first block. */
static json_t *round_entry(struct debug_record *d, int seat, int round)
{
	if (d->last_round[seat] != round) {
		d->last_round[seat] = round;
		json_array_append_new(d->marks[seat], json_pack("[i]", round));
	}
	return json_array_get(d->marks[seat], json_array_size(d->marks[seat]) - 1);
}

static bool room_for(struct debug_record *d, int seat, size_t bytes)
{
	return d->round_bytes[seat] + bytes <= DRAW_TURN_BYTES &&
	       d->match_bytes[seat] + bytes <= DEBUG_MATCH_BYTES;
}

int debug_take_marks(struct debug_record *d, int seat, int round, const uint8_t *block,
		     size_t len)
{
	if (len < 2)
		return -1;
	struct draw_mark m;
	bool bad;
	size_t at = 2;
	json_t *entry = NULL;
	d->dropped[seat] += draw_dropped(block, len);
	if (d->bytes_round[seat] != round) {
		d->bytes_round[seat] = round;
		d->round_bytes[seat] = 0;
	}
	while (draw_next(block, len, &at, &m, &bad)) {
		size_t bytes = draw_mark_bytes(&m);
		if (!room_for(d, seat, bytes)) {
			d->dropped[seat]++;
			continue;
		}
		entry = entry ? entry : round_entry(d, seat, round);
		json_array_append_new(entry, mark_json(&m));
		d->round_bytes[seat] += bytes;
		d->match_bytes[seat] += bytes;
	}
	return bad ? -1 : 0;
}

void debug_start_cpu(struct debug_record *d, int seat, uint64_t cpu_ns)
{
	d->cpu_seen[seat] = cpu_ns;
}

void debug_end_round(struct debug_record *d, int seat, uint64_t cpu_ns)
{
	uint64_t used = cpu_ns > d->cpu_seen[seat] ? cpu_ns - d->cpu_seen[seat] : 0;
	d->cpu_seen[seat] = cpu_ns > d->cpu_seen[seat] ? cpu_ns : d->cpu_seen[seat];
	json_array_append_new(d->cpu_us[seat], json_integer((json_int_t)(used / 1000)));
}

static bool drew(const struct debug_record *d)
{
	for (int i = 0; i < d->n; i++)
		if (json_array_size(d->marks[i]) || d->dropped[i])
			return true;
	return false;
}

void debug_finish(struct debug_record *d, json_t *replay)
{
	json_t *cpu = json_array(), *marks = json_array(), *dropped = json_array();
	for (int i = 0; i < d->n; i++) {
		json_array_append(cpu, d->cpu_us[i]);
		json_array_append(marks, d->marks[i]);
		json_array_append_new(dropped, json_integer((json_int_t)d->dropped[i]));
	}
	json_object_set_new(replay, "cpu_us", cpu);
	if (drew(d))
		json_object_set_new(replay, "debug",
				    json_pack("{s:o, s:o}", "marks", marks, "dropped", dropped));
	else
		json_decref(marks), json_decref(dropped);
	debug_free(d);
}

void debug_free(struct debug_record *d)
{
	for (int i = 0; i < d->n; i++) {
		json_decref(d->marks[i]);
		json_decref(d->cpu_us[i]);
		d->marks[i] = d->cpu_us[i] = NULL;
	}
	d->n = 0;
}
