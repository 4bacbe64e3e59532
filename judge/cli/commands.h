/* commands.h - the `judge` program's subcommands.
 *
 * Each takes the arguments after its own name (argv[0] is the subcommand),
 * prints its own --help, and returns the process exit status: 0 success,
 * 1 the work failed (a verdict, a compile error), 2 bad usage.
 */
#ifndef JUDGE_COMMANDS_H
#define JUDGE_COMMANDS_H

int cmd_sandbox(int argc, char **argv);
int cmd_compile(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_worker(int argc, char **argv);
int cmd_submit(int argc, char **argv);
int cmd_ratings(int argc, char **argv);
int cmd_leaderboard(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_matches(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_replay_check(int argc, char **argv);
int cmd_repro(int argc, char **argv);
int cmd_jobs(int argc, char **argv);
int cmd_archive(int argc, char **argv);
int cmd_plagiarism(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_token(int argc, char **argv);
int cmd_disqualify(int argc, char **argv);
int cmd_reinstate(int argc, char **argv);
int cmd_tournament(int argc, char **argv);
int cmd_reference(int argc, char **argv);
int cmd_store(int argc, char **argv);
int cmd_challenge(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_kit(int argc, char **argv);

#endif
