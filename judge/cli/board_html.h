/* board_html.h - the leaderboard's HTML page, and what the read-side
 * commands (leaderboard, status, matches, replay, jobs) share to show what
 * players wrote: safe text for a terminal, and times.  Pages are the
 * service's, drawn by its scripts (web_page.h): no HTML is written in C.
 *
 * Promises.  Player and author names, compile logs and failure reasons are
 * the contestants' bytes: whatever they hold, a page shows them as text
 * (data the page's script puts in as text), a terminal gets no control
 * character from them.  The page is written whole (file_write.h).
 */
#ifndef JUDGE_BOARD_HTML_H
#define JUDGE_BOARD_HTML_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "judge/rating/board.h"
#include "judge/base/error.h"

/* Writes the leaderboard as the service's page, web/serve/leaderboard.html,
 * made self-contained with the board's data embedded (web_page.h): drawn
 * by the same script, nothing fetched; each player's recent matches (when
 * loaded) link to replay-ID.html beside it.  0, or -1 with err filled. */
int board_html_write(const char *path, struct store *s, const struct board *b,
		     err_t err);

/* Prints s for a terminal, padded with spaces to width columns (one per
 * character): control characters, line breaks and invalid UTF-8 become
 * '?' or ' ', so a name cannot move the cursor or forge a line. */
void board_cell(FILE *f, const char *s, int width);

/* Columns s takes once printed by board_cell. */
int board_cols(const char *s);

/* Prints a multi-line text (a compile log) with indent before each line,
 * made safe as board_cell does but keeping its line breaks. */
void board_lines(FILE *f, const char *s, const char *indent);

/* "2026-01-31 17:05:09 UTC" for a time in ms since the epoch. */
void board_time(int64_t ms, char buf[32]);

/* v with two decimals, as the tables show scores: never "-0.00". */
const char *board_num(double v, char buf[32]);

#endif
