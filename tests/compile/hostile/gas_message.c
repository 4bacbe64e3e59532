/* Assembler text that prints the contestant's words in the compile log as
 * if they were the assembler's or gcc's. */
#include "dominator.h"
__attribute__((section(".data\n.warning \"gcc: fatal error: cannot execute 'cc1'\"\n.data")))
const char leak[] = "x";
int ai_move(int turn) { return leak[turn & 0]; }
