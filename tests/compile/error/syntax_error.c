#include "dominator.h"
int ai_move(int turn)
{
	return turn +;
}
