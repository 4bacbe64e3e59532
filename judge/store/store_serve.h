/* store_serve.h - what `judge serve` asks of the store: tokens, the pages'
 * read views as JSON, and the organisers' decisions.
 *
 * Promises.  The same answers on SQLite and PostgreSQL.  A token is known
 * by its SHA-256 only: the store never sees the token itself.  Every text
 * a contestant wrote (names, authors, compile logs, reasons) comes back as
 * a valid JSON string (safe_text.h); the caller escapes it for a page.  A
 * disqualification is added, never deleted: the history stays.  Views
 * return 1 with *out (a new JSON reference), 0 when the thing does not
 * exist, -1 with err on a store error.
 */
#ifndef JUDGE_STORE_SERVE_H
#define JUDGE_STORE_SERVE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "judge/store/store.h"

/* ---- tokens ------------------------------------------------------------- */

struct store_token {
	int64_t id;
	char author[64];
	bool organiser;
};

struct store_new_token {
	const char *sha256, *author;
	bool organiser;
	const char *label, *group; /* from a roster; NULL: none */
};

/* 0 with *id; *others (when not NULL) counts the author's other working
 * tokens, for a warning. */
int store_token_add(struct store *s, const struct store_new_token *t, int64_t *id,
		    int64_t *others, err_t err);
/* A token that works (not revoked): 1 and *out; 0 unknown or revoked. */
int store_token_find(struct store *s, const char *sha256, struct store_token *out,
		     err_t err);
/* 1 revoked, 0 no such working token. */
int store_token_revoke(struct store *s, int64_t id, err_t err);
/* [{id, author, organiser, label, group, created_at, revoked_at}], newest
 * first. */
int store_token_list(struct store *s, json_t **out, err_t err);

/* ---- read views ---------------------------------------------------------- */

/* Seeds are 64-bit: they come as decimal strings, which JavaScript reads
 * exactly.
 * {id, game, kind, seed, created_at, has_replay, players: [{seat,
 * submission, name, author, score, rank, verdict, frozen_round, reason,
 * cpu_ns, peak_memory}]} */
int store_match_view(struct store *s, int64_t id, json_t **out, err_t err);
/* {id, game, author, name, state, compile_log, created_at, updated_at,
 * matches: [{match, kind, seed, created_at, seat, rank, score, verdict,
 * reason, players, has_log, has_fault, submission, won, opponents: [{seat,
 * name, submission, rank, score}]}], comparisons: [{id, a, b, created_at}]}
 * (has_log: the seat's stderr was kept; has_fault: its record for `judge
 * repro`; won: ranked first; opponents: the match's other seats;
 * comparisons: those it is in) */
int store_submission_view(struct store *s, int64_t id, json_t **out, err_t err);
/* An author's submissions, newest first: [{id, game, name, state,
 * created_at, updated_at, disqualified}] (1, an empty array too). */
int store_submissions_of(struct store *s, const char *author, json_t **out,
			 err_t err);
/* The game of the newest submission named name: 1 with game filled. */
int store_player_game(struct store *s, const char *name, char game[32], err_t err);
/* {game, name, author, submissions: [...], history: [{submission, mu,
 * sigma, at}], matches: [...]} (matches as store_submission_view's, with
 * the submission that played each)
 * (the latest 200 matches viewer may see: store_challenge.h; viewer NULL:
 * an organiser, who sees all) */
int store_player_view(struct store *s, const char *game, const char *name, const char *viewer,
		      json_t **out, err_t err);
/* Players per match of the game's ranked matches, as counted when each was
 * recorded: [{players, matches}]. */
int store_match_sizes(struct store *s, const char *game, json_t **out, err_t err);

/* ---- organisers ----------------------------------------------------------- */

/* 1 disqualified (the player leaves the ranked pool and matchmaking), 0 no
 * such player in the game. */
int store_disqualify(struct store *s, const char *game, const char *name, const char *reason,
		     const char *decided_by, err_t err);
/* The game's disqualifications in force (not lifted), newest first:
 * [{game, name, reason, decided_by, created_at}]. */
int store_disqualifications(struct store *s, const char *game, json_t **out,
			    err_t err);
/* Every disqualification of the game, lifted ones too, newest first: as
 * above with reinstated_at and reinstated_by (null while in force). */
int store_disqualification_history(struct store *s, const char *game, json_t **out,
				   err_t err);
/* Every player of the game (a name some submission took), by name, for
 * the organisers to pick from: [{name, author, disqualified}]. */
int store_game_players(struct store *s, const char *game, json_t **out, err_t err);
/* Lifts the player's disqualifications in force (kept as history): 1,
 * or 0 when none was in force. */
int store_reinstate(struct store *s, const char *game, const char *name, const char *decided_by,
		    err_t err);
/* Compiles and qualifies the submission again (a new compile job): 1, 0
 * when there is no such submission. */
int store_rejudge_submission(struct store *s, int64_t id, err_t err);
/* After a rule fix: the game's ratings start over, its ranked matches so
 * far stop counting, and every current submission of the game (queued to
 * qualified, not superseded) is compiled and qualified again; *n of them. */
int store_rejudge_game(struct store *s, const char *game, const char *decided_by, int64_t *n,
		       err_t err);
/* One pair side by side: {similarity, a: {doc, name, author, label,
 * first_line, last_line, source}, b: {...}}. */
int store_plag_pair(struct store *s, int64_t a, int64_t b, json_t **out, err_t err);

#endif
