/* drawing.h - the kits' one implementation of debug drawing: this turn's
 * marks (draw.h) and kit_draw(), which every game's drawing calls end in.
 * It defines them: include it once per kit (runtime.h does; a kit that
 * does not use runtime.h includes it in its runtime.c).  Each game's
 * draw_dot(), draw_line() and draw_text() are ordinary functions calling
 * kit_draw() with its cell's row and column (course_runtime.h for Pos).  Marks cost the
 * player's CPU time as any of its code: they are made in its process. */
#ifndef KIT_DRAWING_H
#define KIT_DRAWING_H

#include "games/kit/io.h"

struct draw_block kit_marks;

/* A text is cut at DRAW_TEXT_MAX bytes and what is not printable ASCII
 * becomes '?', so that the judge takes every mark a kit sends. */
void kit_draw(enum draw_kind kind, int rgb, int row, int col, int row2, int col2,
	      const char *text)
{
	struct draw_mark m = { .kind = kind, .rgb = (uint32_t)rgb & 0xffffff, .row = row,
			       .col = col, .row2 = row2, .col2 = col2 };
	for (size_t i = 0; kind == DRAW_TEXT && text && text[i] && i < DRAW_TEXT_MAX; i++)
		m.text[i] = text[i] >= 0x20 && text[i] <= 0x7e ? text[i] : '?';
	draw_put(&kit_marks, &m);
}

#endif
