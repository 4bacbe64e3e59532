/* runtime.c - the tiny game's runtime: plays three turns. */
#include "dominator.h"

int dom_score(int square)
{
	return square * square;
}

int main(void)
{
	for (int turn = 0; turn < 3; turn++)
		printf("turn %d: %d\n", turn, ai_move(turn));
	return 0;
}
