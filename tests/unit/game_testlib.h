/* game_testlib.h - what the end-to-end tests of `judge play GAME` share:
 * run a match and keep its table, find a seat's row, read replays, check
 * that a seed fixes the match, write a contestant's own file.
 *
 * Every function asserts (Criterion) what it needs: a missing row or an
 * unreadable replay fails the test with the output in the message.
 */
#ifndef GAME_TESTLIB_H
#define GAME_TESTLIB_H

#include <jansson.h>
#include <stddef.h>

#define GT_OUT_MAX 16384

/* The output (stdout and stderr) of the last gt_play(). */
extern char gt_out[GT_OUT_MAX];

/* Runs `judge play GAME ARGS`; its exit status. */
int gt_play(const char *game, const char *args);

/* The table's row for a seat ("N    Name ..."), and its rank column. */
const char *gt_row(int seat);
int gt_rank(int seat);

/* A file's bytes, NUL-terminated (free them), and a replay's JSON. */
char *gt_slurp(const char *path, size_t *len);
json_t *gt_load_replay(const char *path);

/* Plays `GAME PLAYERS --seed seed` to the end with a replay and checks
 * what every match promises: it ran, nobody froze, and the replay names
 * the game and the seed and has `rounds` rounds (0: any number).  Returns
 * the replay (json_decref it). */
json_t *gt_whole_match(const char *game, const char *players, int seed, size_t rounds);

/* The replay says seat played the source at path (its SHA-256, checked
 * against sha256sum). */
void gt_expect_source(const json_t *replay, int seat, const char *path);

/* The replay at path (plain or gzip) as compact JSON text without its
 * "cpu_us", the one part that varies from run to run, after checking that
 * it holds one figure per seat per round (free it). */
char *gt_replay_but_cpu(const char *path);

/* Plays `GAME PLAYERS --seed seed` twice and checks that both replays are
 * the same but for the CPU times (gt_replay_but_cpu), then (other_seed >=
 * 0) that another seed gives another match.  Returns the replay's length
 * without them. */
size_t gt_same_seed_same_replay(const char *game, const char *players, int seed,
				int other_seed);

/* A contestant's file AIName.c holding source, in a fresh folder, and the
 * path of a replay there; gt_remove_player() deletes all three. */
struct gt_player_file {
	char dir[48], path[80], replay[96];
};
void gt_write_player(struct gt_player_file *pf, const char *name, const char *source);
void gt_remove_player(const struct gt_player_file *pf);

/* The course games of games/LIST, in its order, into names[0..cap); their
 * count.  Tests of what every course game does take them from here, so a
 * new game is tested by its line in the list. */
#define GT_GAMES_MAX 16
size_t gt_course_games(const char *names[], size_t cap);
/* 0, 1, ... GT_GAMES_MAX - 1: a parameterized test's indexes into them. */
extern int gt_game_index[GT_GAMES_MAX];

#endif
