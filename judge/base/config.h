/* config.h - the judge's settings (config/judge.json in the data
 * directory, paths.h).
 *
 * Promises: every setting has a built-in default, so a missing default file
 * is not an error; a file that exists is read whole and checked: an unknown
 * key, a wrong type or an out-of-range value is an error naming the key.
 */
#ifndef JUDGE_CONFIG_H
#define JUDGE_CONFIG_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "judge/base/hook_config.h"
#include "judge/base/error.h"

#define CFG_DEFAULT_PATH "config/judge.json"
#define CFG_ENV "JUDGE_CONFIG"

struct cfg_sandbox {
	uint64_t cpu_ns;       /* a player's CPU budget for the whole game */
	uint64_t wall_ns;      /* wall-clock guard */
	/* A player's wall budget for a match (the time the judge waits for
	 * its orders, summed): wall_budget_factor x cpu_ns + wall_round_ns
	 * per round (match.h). */
	unsigned wall_budget_factor;
	uint64_t wall_round_ns;
	uint64_t memory_bytes; /* address space */
	uint64_t stderr_bytes; /* debug log kept per player */
	unsigned open_files;
	uid_t uid_base;        /* players run as uid_base .. +uid_count-1 */
	unsigned uid_count;
};

struct cfg_compile {
	uint64_t cpu_ns;
	uint64_t wall_ns;
	uint64_t memory_bytes;
	uint64_t output_bytes; /* largest file the compiler may write */
	uint64_t log_bytes;    /* compiler messages kept */
	/* The organiser's explicit choice, for kernels that refuse namespaces:
	 * gcc then sees the whole host (warned about on every compile). */
	bool unconfined;
	char cache_dir[PATH_MAX];
};

struct cfg_worker {
	uint64_t lease_ms;        /* a claimed job's lease, renewed meanwhile */
	unsigned max_attempts;    /* tries before a job is parked */
	unsigned min_games;       /* ranked games every player should reach */
	unsigned qualify_matches; /* qualifying matches per submission */
	unsigned qualify_wins;    /* of which it must win (rank 1) */
	char qualify_opponent[16];/* shipped player it meets in every seat */
	/* "": every qualifying match gets a fresh random seed.  Otherwise its
	 * seed follows from this secret, the submission and the match's number:
	 * the same for a rejudge, unknown to whoever does not know the secret. */
	char seed_secret[64];
	bool keep_logs;           /* store each seat's stderr with its match */
	/* A newly qualified version is compared with the one it replaced on
	 * this many pairs of matches (judge/event/compare.h; 10 by default);
	 * 0: not. */
	unsigned compare_pairs;
};

/* Plagiarism: fingerprints of k-grams of tokens, winnowed with window w;
 * shares are percentages.  The ranges bound the winnowing's buffers. */
#define PLAG_K_DEFAULT 14
#define PLAG_W_DEFAULT 6
#define PLAG_K_MAX 256
#define PLAG_W_MAX 1024
#define PLAG_FRAGMENT_DEFAULT 150
#define PLAG_MIN_RUN_DEFAULT 2
#define PLAG_OWN_MIN_DEFAULT 200
struct cfg_plag {
	unsigned k, w;
	unsigned floor_pct;       /* pairs at least this similar are stored */
	unsigned flag_pct;        /* at least this similar: both marked suspected */
	unsigned common_pct;      /* a fingerprint in more files of a game than this */
	unsigned common_min_docs; /* share of them, and than this many, is an idiom */
	unsigned fragment_tokens; /* a shared run this long flags a pair by itself */
	unsigned min_run;         /* matched fingerprints count in runs this long */
	unsigned own_min_tokens;  /* a file's share counts toward a flag only with this
				   * much code of its own (outside the base code) */
	unsigned dismissed_margin_pct; /* a dismissed pair of authors is flagged again
					* only this many points above the dismissed share */
};

/* judge serve: what one client may ask and hold (see judge/serve/). */
struct cfg_serve {
	bool public_pages;        /* "public_leaderboard": boards, players, matches without a token */
	bool public_marks;        /* "public_debug_marks": every replay's debug marks to everybody,
				   not only to their player's author and the organisers */
	uint64_t body_bytes;      /* largest request body */
	uint64_t header_bytes;    /* memory for one request's headers */
	unsigned connections;     /* open connections at once */
	unsigned per_ip;          /* of which from one address */
	unsigned reserved;        /* the last ones, for addresses holding few */
	unsigned per_minute;      /* requests per token (or address) per minute */
	unsigned timeout_s;       /* an idle connection is closed after */
	unsigned request_s;       /* a whole request (head and body) must arrive within */
	unsigned threads;         /* requests served at once */
};

/* The contest's state and what each contestant may ask of it. */
#define CFG_GAMES_MAX 8

struct cfg_contest {
	bool frozen;                  /* the board is frozen: challenges meet only shipped players */
	unsigned challenges_per_hour; /* challenge matches one contestant may queue an hour */
	/* "games": the games that take uploads (a course runs one); none
	 * named: every game */
	char games[CFG_GAMES_MAX][16];
	unsigned ngames;
};

/* Does this judge take uploads of game (contest.games)? */
bool cfg_takes_uploads(const struct cfg_contest *c, const char *game);
/* "dominator, ants": the games that take uploads, into out. */
void cfg_upload_games(const struct cfg_contest *c, char *out, size_t size);

struct judge_config {
	struct cfg_sandbox sandbox;
	struct cfg_compile compile;
	struct cfg_worker worker;
	struct cfg_plag plag;     /* "plagiarism" */
	struct hook_config hooks; /* "webhooks" and "webhook_delivery" */
	struct cfg_serve serve;
	struct cfg_contest contest;
	char data_dir[PATH_MAX];  /* what the judge ships: paths_data_dir() */
};

void cfg_defaults(struct judge_config *cfg);

/* The defaults, then path over them (as cfg_load): what a command wants. */
int cfg_init(struct judge_config *cfg, const char *path, err_t err);

/* Loads path over the defaults.  path NULL: $JUDGE_CONFIG if set, else
 * config/judge.json in cfg->data_dir when it exists.  Returns 0, or -1 with err filled. */
int cfg_load(struct judge_config *cfg, const char *path, err_t err);

/* The file cfg_load(cfg, path) reads, in that lookup order (one file, not
 * a merge: what it does not set keeps the built-in default): 1 with file
 * and why ("--config", "$JUDGE_CONFIG", "the data directory's default")
 * set, 0 when there is none. */
int cfg_which_file(const struct judge_config *cfg, const char *path, char file[PATH_MAX],
		   const char **why);

/* Every setting of cfg as the file writes it (its key and unit), a new
 * JSON object {"section.key": {"value": v, "from": from or "default"}}:
 * from where file sets the key.  Secrets show as "(set)". */
json_t *cfg_describe(struct judge_config *cfg, const char *file, const char *from);

#endif
