#include "dominator.h"
int ai_move(int turn)
{
	int unused_but_set;
	unused_but_set = turn;
#warning the contestant wants this warning seen
	return turn * 2;
}
