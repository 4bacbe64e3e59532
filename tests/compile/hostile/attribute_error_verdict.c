/* So does an error attribute's message when the function is called. */
#include "dominator.h"
#define MSG "\ncc1: CPU time limit exceeded\n"
__attribute__((__error__(MSG))) void never(void);
int ai_move(int turn) { if (turn > 99) never(); return turn; }
