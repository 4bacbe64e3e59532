/* store.h - the judge's store: submissions, jobs, matches, ratings.
 *
 * Promises.  One database is the whole truth: a SQLite file on one
 * machine, or a PostgreSQL database that workers on many machines share
 * (one schema for both, db/schema.sql), chosen by store_open's argument
 * (a path, or a postgresql:// URL); the same tables and meaning on both.  The schema
 * is created on first open and migrated forward on open.  SQLite runs in
 * WAL mode with a busy timeout, foreign keys on, so several workers may
 * share the file; every write that must be whole (a submission and its
 * compile job; a match result, its players, their logs, its replay and
 * the rating updates) is one transaction.  A job is claimed inside a transaction with
 * a lease (on PostgreSQL its row locked FOR UPDATE, rows other workers hold
 * skipped); an expired lease makes it claimable again; completing a job,
 * or recording a match, checks the worker still holds it, and a match
 * result is recorded at most once per job (matches.job_id is unique).  A
 * database that is not a judge's is refused, never written.  Errors come
 * back as -1 with a message a person can act on.
 */
#ifndef JUDGE_STORE_H
#define JUDGE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "judge/store/sched.h"
#include "judge/base/error.h"

#define STORE_DEFAULT_PATH "db/jobs.sqlite"

struct store;

enum store_sync { STORE_SYNC_NORMAL, STORE_SYNC_FULL };

/* Opens path (a file, or postgresql://... / postgres://...); creates the
 * file (SQLite) and the schema only when create is true (a PostgreSQL
 * database itself must exist).  NULL with err filled for a missing,
 * unreadable, read-only or foreign database, or a server out of reach. */
struct store *store_open(const char *path, bool create, err_t err);
void store_close(struct store *s);
/* FULL: a commit returns once it is on disk.  NORMAL (SQLite's default):
 * a crash of the machine (SQLite) or of the server (PostgreSQL,
 * synchronous_commit off) may lose the last commits, never half of one.
 * A PostgreSQL store keeps the server's setting until told. */
int store_set_sync(struct store *s, enum store_sync mode, err_t err);

/* ---- a server that goes away ------------------------------------------------- */

/* The store's last failure was its server out of reach (PostgreSQL down
 * or restarting): nothing of the transaction was recorded, and the same
 * work may succeed once the server is back.  Never on SQLite. */
bool store_unreachable(struct store *s);
/* store_open, tried again while the server is out of reach, for up to
 * wait_ms: the first failure is said once through say(ctx, message), then
 * the waits grow from 250 ms to 10 s.  NULL with err as store_open's. */
struct store *store_open_patient(const char *path, bool create, int64_t wait_ms,
				 void (*say)(void *ctx, const char *message), void *ctx,
				 err_t err);
/* The next wait of a backoff: 250 ms, doubling up to 10 s. */
int64_t store_backoff_ms(int64_t last_ms);

int64_t store_now_ms(void);

/* ---- submissions -------------------------------------------------------- */

struct store_new_submission {
	const char *game, *author, *name;
	const char *source;
	size_t source_len;
	const char *source_sha256;
};

/* Stores the submission and its compile job in one transaction: 0 and *id.
 * Refuses, storing nothing, a name another author already uses in this
 * game.  1 and the existing *id, storing nothing, when the name's newest
 * submission has the same source (source_sha256) and has not failed
 * (compile_failed, not_qualified): sending a file twice changes nothing. */
int store_submit(struct store *s, const struct store_new_submission *sub, int64_t *id,
		 err_t err);

/* The author who owns name in game: 1 and owner filled, 0 nobody yet, -1. */
int store_name_owner(struct store *s, const char *game, const char *name, char owner[64],
		     err_t err);

struct store_submission {
	int64_t id;
	char game[32];
	char author[64];
	char name[16];
	char state[16];
	char source_sha256[65];
	char binary_path[4096];
	char binary_sha256[65];  /* "" until compiled; its bytes: store_get_binary */
	int64_t created_at, updated_at;
};

/* 1 found, 0 no such submission, -1 error. */
int store_get_submission(struct store *s, int64_t id, struct store_submission *out,
			 err_t err);

/* The source, malloc'd (the caller frees it). */
int store_get_source(struct store *s, int64_t id, char **src, size_t *len,
		     err_t err);

int store_set_state(struct store *s, int64_t id, const char *state, const char *binary_path,
		    const char *binary_sha256, const char *compile_log, err_t err);

/* Inside a transaction: a submission's qualification is over.  Passed, it
 * enters the ranked pool rated (mu, sigma), and the older submissions of
 * its player leave it. */
int store_conclude_qualification(struct store *s, const struct store_submission *sub,
				 bool passed, double mu, double sigma, err_t err);
/* Which qualification step refused the submission and why, or how it
 * passed ("won 4 of 4"), for the contestant. */
int store_set_qualify_note(struct store *s, int64_t id, const char *note, err_t err);

/* ---- jobs --------------------------------------------------------------- */

struct store_job {
	int64_t id;
	char kind[16];
	char *payload; /* JSON text, malloc'd; store_job_clear() frees it */
	int attempts;  /* including this one */
};
void store_job_clear(struct store_job *j);

/* Queues a job of class cls (sched.h): its priority, and when it is
 * overdue, come from the class.  Claimable from not_before (0: now). */
int store_enqueue(struct store *s, const char *kind, const char *payload, enum sched_class cls,
		  int64_t not_before, int64_t *id, err_t err);

/* Writes sched_classes[] into the store (job_classes), keeping when each
 * class was last served: every worker does at start, so the claims of
 * every machine follow this judge's policy. */
int store_publish_classes(struct store *s, err_t err);

/* Claims the job sched.h's rule says comes next (the most urgent
 * claimable one, or the oldest overdue job of a starved class) for worker
 * with a lease of lease_ms, and marks its class served.  A job past max_attempts is parked on the way, not handed out.
 * 1 claimed, 0 nothing to do, -1 error. */
int store_claim(struct store *s, const char *worker, int64_t lease_ms, int max_attempts,
		struct store_job *job, err_t err);

/* store_complete(done), then store_claim: on PostgreSQL one round trip
 * and one commit, on SQLite one transaction.  For a worker that ends its
 * jobs outside a transaction of its own.  -1, nothing claimed, when done
 * was no longer held. */
int store_complete_claim(struct store *s, int64_t done, const char *worker, int64_t lease_ms,
			 int max_attempts, struct store_job *job, err_t err);

/* 0, or -1 when the worker no longer holds the job (its lease expired and
 * somebody else claimed it): the worker must then drop its work. */
int store_renew(struct store *s, int64_t job, const char *worker, int64_t lease_ms,
		err_t err);
int store_complete(struct store *s, int64_t job, const char *worker, err_t err);

/* The job failed: back to the queue, claimable from retry_at, or parked
 * with the error once it has used max_attempts. */
int store_fail(struct store *s, int64_t job, const char *worker, const char *error,
	       int64_t retry_at, int max_attempts, err_t err);

/* Gives the job back untouched (a worker shutting down). */
int store_release(struct store *s, int64_t job, const char *worker, err_t err);

/* The workers holding running jobs, as a JSON array of texts (the
 * caller's), or NULL with err. */
struct json_t *store_holders(struct store *s, err_t err);
/* Ends the leases of every job worker holds, so the next claim takes them
 * as it takes an expired lease (the worker is known to be dead); *jobs
 * says how many.  0, or -1 with err. */
int store_expire_holder(struct store *s, const char *worker, int64_t *jobs,
			err_t err);

/* How many jobs are still to do: compile and match jobs queued or running,
 * and notify jobs claimable now (a webhook's later retries do not count:
 * a dead endpoint must not keep the judge busy). */
int store_pending(struct store *s, int64_t *count, err_t err);

/* Whether workers are taking the compile and match jobs: how many may be
 * claimed now, how many a worker holds under a live lease, and how long
 * the oldest claimable one has waited (0 when none): a job waiting long
 * with nothing running means no worker is at work. */
struct store_activity {
	int64_t waiting, running, oldest_wait_ms;
};
int store_activity(struct store *s, struct store_activity *out, err_t err);
#define STORE_STALL_MS (30 * 1000)
static inline bool store_stalled(const struct store_activity *a)
{
	return a->waiting > 0 && a->running == 0 && a->oldest_wait_ms >= STORE_STALL_MS;
}

/* ---- compiled binaries (store_binaries.c) ---------------------------------- */

/* A binary is stored once, under the SHA-256 of its bytes (64 hex digits):
 * every machine plays the bytes the compile job built.  Putting one already
 * there changes nothing.  Get: 1 (*bytes malloc'd), 0 none, -1. */
int store_put_binary(struct store *s, const char *sha256, const void *bytes, size_t len,
		     err_t err);
int store_get_binary(struct store *s, const char *sha256, uint8_t **bytes, size_t *len,
		     err_t err);

/* ---- plagiarism documents (store_plag.c) --------------------------------- */

/* What judge/plag/ keeps: documents (a submission's, or an archived file's,
 * fingerprints as plag encodes them), the index from a fingerprint's key to
 * the documents holding it, and the pairs found similar.  The store keeps
 * and finds them; judge/plag/ decides what is similar. */
struct store_plag_doc {
	int64_t id, submission;  /* submission 0: archived */
	char game[32], author[64], name[64], label[64]; /* label "": this tournament */
	int k, w, hash_version;
	int64_t ntokens, nfps;
	bool has_error;          /* no fingerprints could be taken: error says why */
	err_t error;
	uint8_t *fps;            /* malloc'd (read); the caller's (written) */
	size_t fps_len;
	char *source;            /* archived files, or when asked for; NUL-ended */
	size_t source_len;
	int64_t own_tokens;      /* tokens outside the game's base code; -1 not known */
};
void store_plag_doc_clear(struct store_plag_doc *d);

/* Statements prepared once for the many reads of one comparison. */
struct store_plag_reader;
struct store_plag_reader *store_plag_reader(struct store *s, err_t err);
void store_plag_reader_end(struct store_plag_reader *r);
/* Up to max documents indexed under key, into docs (max of them). */
int store_plag_lookup(struct store_plag_reader *r, int64_t key, size_t max, int64_t *docs,
		      size_t *n, err_t err);
/* 1 when document doc is of game, by another author than author, was
 * fingerprinted with k at hash_version and has fingerprints (*nfps: how
 * many); 0 when it is not; -1. */
int store_plag_candidate(struct store_plag_reader *r, int64_t doc, const char *game,
			 const char *author, int k, int hash_version, int64_t *nfps,
			 err_t err);
/* The count the stop-list of idioms keeps for key, read from one row
 * whatever the number: never more than the documents holding it, 0 when
 * the key is not listed. */
int store_plag_idiom_count(struct store_plag_reader *r, int64_t key, int64_t *docs,
			   err_t err);
/* Document doc without its source: 1, 0 no such document, -1. */
int store_plag_load(struct store_plag_reader *r, int64_t doc, struct store_plag_doc *out,
		    err_t err);

/* Document doc, or (doc 0) the submission's, with its source (a
 * submission's from the submission): 1, 0 none, -1. */
int store_plag_get(struct store *s, int64_t doc, int64_t submission, struct store_plag_doc *out,
		   err_t err);
/* How many documents of game have fingerprints. */
int store_plag_count(struct store *s, const char *game, int64_t *n, err_t err);
/* Is the submission fingerprinted: 1 (and *suspected), 0 not yet, -1. */
int store_plag_fingerprinted(struct store *s, int64_t submission, bool *suspected,
			     err_t err);

/* Inside a transaction: the document (id ignored), with its source when it
 * is archived.  1 stored (*id), 0 already there (an archived file imported
 * again, a submission fingerprinted already), -1. */
int store_plag_insert(struct store *s, const struct store_plag_doc *d, int64_t *id,
		      err_t err);
/* Inside a transaction: d->id's fingerprints and settings replaced. */
int store_plag_rewrite(struct store *s, const struct store_plag_doc *d, err_t err);
/* Inside a transaction: index rows (keys[i], doc[i]) added, or doc's rows
 * under keys removed (and the stop-list's counts of those keys with them).
 * Adding writes nothing but the rows: a listed key's count stays a lower
 * bound until store_plag_idioms_bump() or store_plag_idioms_list(). */
int store_plag_index(struct store *s, const int64_t *keys, const int64_t *docs, size_t n,
		     err_t err);
int store_plag_unindex(struct store *s, int64_t doc, const int64_t *keys, size_t n,
		       err_t err);
/* Inside a transaction: the stop-list's count of each listed key among
 * keys[0..n) one more (a document holding it was just indexed); keys not
 * listed are left out. */
int store_plag_idioms_bump(struct store *s, const int64_t *keys, size_t n, err_t err);
/* Inside a transaction: keys[0..n) listed as idioms with their count of
 * documents as the index holds them now. */
int store_plag_idioms_list(struct store *s, const int64_t *keys, size_t n, err_t err);

struct store_plag_pair {
	int64_t doc_a, doc_b;    /* doc_a the later */
	const char *game;
	double similarity, a_in_b, b_in_a;
	int64_t longest, a_first_line, a_last_line, b_first_line, b_last_line;
	bool flagged;            /* a flag is then numbered (store_plag_review.h) and
				  * the later document marked suspected */
};
/* Inside a transaction: the pair, replacing an earlier measure of it. */
int store_plag_put_pair(struct store *s, const struct store_plag_pair *p,
			err_t err);
/* Every stored pair of game: each() gets both sides (id, submission,
 * author, name, label); it returns 0, or -1 to stop with its own message. */
int store_plag_pairs(struct store *s, const char *game,
		     int (*each)(void *ctx, const struct store_plag_doc *a,
				 const struct store_plag_doc *b),
		     void *ctx, err_t err);
/* Documents of game (NULL: every game) fingerprinted at another
 * hash_version than this one: how many, or each of them with its source,
 * by game then id. */
int store_plag_stale(struct store *s, const char *game, int hash_version, int64_t *n,
		     err_t err);
int store_plag_each_stale(struct store *s, const char *game, int hash_version,
			  int (*each)(void *ctx, const struct store_plag_doc *d), void *ctx,
			  err_t err);

/* ---- copying a whole store (store_copy.c) ------------------------------------- */

/* Every table of from (submissions, binaries, jobs, matches, replays, logs,
 * ratings, events, plagiarism) into to, with the same ids, in one
 * transaction on to; *rows counts the rows.  A target that holds any of a
 * tournament already is refused and left as it was.  from is read in one
 * snapshot, so workers may go on writing to it: the copy holds what was
 * recorded when it began.  A table or column of from that this judge does
 * not know of is refused before anything is written. */
int store_copy(struct store *from, struct store *to, int64_t *rows, err_t err);

/* Every column of the store's schema as a sorted JSON array of texts
 * "table.column" (the caller's), or NULL with err: the two backends'
 * fresh schemas must give the same list. */
struct json_t *store_schema_columns(struct store *s, err_t err);

/* A SQLite store written whole, as one snapshot, into the new file dest
 * (which must not exist), while workers go on; the file's mode is the
 * caller's umask.  A PostgreSQL store is refused with how to back it up. */
int store_backup(struct store *s, const char *dest, err_t err);

/* ---- reports for people (store_reports.c) ------------------------------------ */

/* What `judge status`, `matches` and `jobs` show, as JSON objects (jansson's
 * json_t, the caller's to free).  Every stored text becomes JSON through
 * text (NULL for SQL NULL), so the caller chooses how bytes that are not
 * UTF-8 are shown (judge/base/safe_text.h's safe_json_text). */
struct json_t;
typedef struct json_t *store_json_text(const char *text);
/* A submission: its row, "qualifying" {played, won, matches: seats with
 * match and created_at}, "rating" {mu, sigma, games, wins} (null before
 * it is ranked) and "plagiarism" ("suspected", "clear", null).  1, 0 no
 * such submission, -1. */
int store_report_submission(struct store *s, store_json_text *text, int64_t id,
			    struct json_t **out, err_t err);
/* The latest limit (<= 0: all) matches, newest first, of game and of the
 * player named (NULL: any), each with its seats. */
int store_report_matches(struct store *s, store_json_text *text, const char *game,
			 const char *player, int64_t limit, struct json_t **out,
			 err_t err);
/* 1 when a submission or a match knows the player (in game, NULL: any). */
int store_player_known(struct store *s, const char *player, const char *game,
		       err_t err);
/* {"jobs": [...], "counts": {state: n}}: running, queued in claim order,
 * parked, and done with all. */
int store_report_jobs(struct store *s, store_json_text *text, bool all, struct json_t **out,
		      err_t err);

/* ---- transactions for the modules built on the store ------------------- */

/* SQLite: BEGIN IMMEDIATE (waits for the write lock up to the busy
 * timeout).  PostgreSQL: BEGIN. */
int store_begin(struct store *s, err_t err);
int store_commit(struct store *s, err_t err);
void store_rollback(struct store *s);

/* The SQLite connection, for tests that read the file directly: every
 * module of the judge speaks only this interface.  NULL for a PostgreSQL
 * store, which has none. */
struct sqlite3 *store_db(struct store *s);

/* Inside a transaction: does worker still hold job? */
int store_holds(struct store *s, int64_t job, const char *worker, err_t err);

/* Inside a transaction: marks job done. */
int store_mark_done(struct store *s, int64_t job, err_t err);

/* ---- ratings and the ranked pool ----------------------------------------- */

struct store_rated {
	int64_t id; /* the submission */
	double mu, sigma;
	int games, wins;
	char name[16], author[64]; /* filled by store_ranked_pool */
};

/* A game's qualified players with their ratings, by id (malloc'd). */
int store_ranked_pool(struct store *s, const char *game, struct store_rated **out, size_t *n,
		      err_t err);
/* How many ranked matches of each of the n games wait to be claimed, in
 * counts[i] for games[i]; one query.  0 or -1. */
int store_ranked_queued(struct store *s, const char *const *games, size_t n, int *counts,
			err_t err);
/* Inside a transaction: adds to the games of pool (n players, as
 * store_ranked_pool gave them) each player's seats in the game's ranked
 * matches queued or running, and sets *queued to how many are queued: the
 * pool as the next match must see it, so nobody is over-scheduled.  On
 * PostgreSQL it first takes the lock results are recorded under, so no
 * result lands between the two reads and two workers plan one at a time.
 * How many are queued or running, or -1. */
int store_ranked_planned(struct store *s, const char *game, struct store_rated *pool, size_t n,
			 int *queued, err_t err);
/* Every rated submission of the game, by id (malloc'd). */
int store_rated_players(struct store *s, const char *game, int64_t **ids, size_t *n,
			err_t err);
/* Every seat of the game's rated ranked matches in the order they were
 * recorded (match, then seat), then one call with match -1 to close the
 * last one.  each() returns 0, or -1 to stop with its own message. */
int store_rated_results(struct store *s, const char *game,
			int (*each)(void *ctx, int64_t match, int64_t submission, int rank),
			void *ctx, err_t err);
/* A ranked player's leaderboard row as store_board_rows reads it. */
struct store_board_row {
	int64_t id; /* the submission */
	double mu, sigma;
	int games, wins;
	const char *name, *author; /* valid during the call */
	bool suspected;            /* its file a suspected copy (when asked) */
	int players, games_of_size; /* its rated matches of that many players */
};
/* A game's ranked pool (as store_ranked_pool) for its leaderboard, in one
 * query: each() once per player by id, or with sizes once per player and
 * size (players 0 for one without rated matches), from the counters kept
 * with each result (a rejudge of the game starts them over); with marks,
 * each player's suspected mark (else false).  each() returns 0, or -1 to
 * stop with its own message.  0 or -1. */
int store_board_rows(struct store *s, const char *game, bool sizes, bool marks,
		     int (*each)(void *ctx, const struct store_board_row *row), void *ctx,
		     err_t err);
/* 1 found, 0 no rating, -1 error. */
int store_get_rating(struct store *s, int64_t submission, struct store_rated *out,
		     err_t err);
int store_put_rating(struct store *s, const struct store_rated *r, err_t err);

/* ---- events ---------------------------------------------------------------- */

/* Inside the transaction of what happened: the event, its JSON payload. */
int store_add_event(struct store *s, const char *kind, int64_t submission, const char *payload,
		    err_t err);

/* ---- a stored match --------------------------------------------------------- */

/* Match id's stored replay bytes (malloc'd, as stored: gzip or plain):
 * 1; 0 when there are none (*exists: the match itself exists); -1. */
int store_match_replay(struct store *s, int64_t id, uint8_t **bytes, size_t *len, bool *exists,
		       err_t err);
/* A seat's stderr log of a match, as stored (gzip), and who owns the seat. */
struct store_seat_log {
	char author[64];         /* the seat's submission's author; "": a shipped player */
	uint8_t *bytes;          /* malloc'd; NULL when no log was kept (or it was empty) */
	size_t len;
};
/* 1 with *out (free out->bytes); 0 when the match has no such seat; -1. */
int store_match_log(struct store *s, int64_t match, int seat, struct store_seat_log *out,
		    err_t err);
/* A frozen seat's record (db/migrations/011): who owns the seat, the
 * round, verdict, reason and CPU time of match_players, and what the seat
 * was given last (judge/play/match.h: struct match_fault), as stored. */
struct store_fault {
	char author[64];          /* "": a shipped player */
	char name[64];
	char verdict[32];
	char reason[256];
	int frozen_round;
	int64_t cpu_ns, peak_memory;
	int message;              /* -1: the seat did not freeze, or no record */
	int64_t turn_cpu_ns, cpu_budget_ns, input_size;
	uint8_t *input;           /* gzip-compressed, malloc'd; NULL without a record */
	size_t input_len;
	/* A record of a unit that died by its own fault, the seat playing on
	 * (db/migrations/015): its id (0: none), round, step and reason. */
	int unit, unit_round, unit_step;
	char unit_reason[256];
};
/* 1 with *out (free out->input); 0 when the match has no such seat; -1. */
int store_match_fault(struct store *s, int64_t match, int seat, struct store_fault *out,
		      err_t err);
/* Up to max of the submission's latest matches that have a replay, newest
 * first: their ids in ids, their count in *n. */
int store_recent_matches(struct store *s, int64_t submission, int max, int64_t *ids, int *n,
			 err_t err);
/* Every seat of the match that froze, with the judge's reason. */
int store_match_reasons(struct store *s, int64_t match,
			void (*each)(void *ctx, int seat, const char *reason), void *ctx,
			err_t err);

/* ---- recording a match -------------------------------------------------------- */

struct store_new_match {
	int64_t job;             /* the match job: one result per job */
	const char *game, *kind; /* qualifying, ranked, tournament, challenge, comparison */
	int64_t seed;
	const void *replay;      /* as stored (gzip) */
	size_t replay_len;
	int64_t wall_ms;         /* how long it took to play; 0: not measured */
	int players;             /* the seats that follow: a ranked match is counted by them */
};

struct store_match_player {
	int seat;
	int64_t submission;      /* 0: a shipped player */
	const char *name;
	int64_t score;
	int rank;
	const char *verdict;     /* NULL unless it froze */
	int frozen_round;
	const char *reason;
	int64_t cpu_ns, peak_memory;
};

/* Inside the job's transaction: the match, then each of its players.  On
 * PostgreSQL the match waits for any other result being recorded, so that
 * results and their rating updates are recorded one after another, in
 * match id order (as SQLite's one writer does). */
int store_add_match(struct store *s, const struct store_new_match *m, int64_t *id,
		    err_t err);
int store_add_match_player(struct store *s, int64_t match, const struct store_match_player *p,
			   err_t err);
/* Inside the job's transaction, after the seat's player: the seat's
 * stderr log, gzip-compressed (len > 0). */
int store_add_match_log(struct store *s, int64_t match, int seat, const void *log, size_t len,
			err_t err);
/* Inside the job's transaction, after the seat's player: the frozen
 * seat's last input (f->input gzip-compressed, f->input_len bytes). */
int store_add_match_fault(struct store *s, int64_t match, int seat, const struct store_fault *f,
			  err_t err);
/* A player's rating while it is in the ranked pool: 1; 0 when it is not
 * (superseded meanwhile); -1. */
int store_ranked_rating(struct store *s, int64_t submission, struct store_rated *out,
			err_t err);
/* The leaderboard place a score (mu - 3 sigma) has in game: 1 + the ranked
 * players (qualified, with a rating) whose score is higher; -1 on error.
 * Read from a tree of counts the schema keeps: O(log players). */
int store_board_place(struct store *s, const char *game, double score, err_t err);
/* One more rated game for a player, of a match of that many players, at
 * its new rating. */
int store_rate(struct store *s, int64_t submission, double mu, double sigma, bool won,
	       int players, err_t err);
int store_mark_rated(struct store *s, int64_t match, err_t err);
/* The qualifying matches a submission played against opponents and won
 * (rank 1); a match of copies of itself (it holds every seat) is not one. */
int store_qualifying_record(struct store *s, int64_t submission, int *played, int *wins,
			    err_t err);

#endif
