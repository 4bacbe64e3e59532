/* judge-worker - the worker as a program of its own: `judge worker`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/base/version.h"

#include "judge/cli/commands.h"
#include "judge/notify/webhook.h"

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		printf("judge-worker %s\n", judge_version);
		return 0;
	}
	err_t err;
	if (hook_global_init(err) < 0) {
		fprintf(stderr, "judge-worker: %s\n", err->msg);
		return 1;
	}
	atexit(hook_global_cleanup);
	return cmd_worker(argc, argv);
}
