/* judge-worker - the worker as a program of its own: `judge worker`. */
#include "judge/commands.h"

int main(int argc, char **argv)
{
	return cmd_worker(argc, argv);
}
