/* A section name whose second line starts with a non-ASCII label: gas takes
 * any byte above 0x7f for a symbol character, the old assembly check did
 * not, took the label for the statement and never saw the .incbin. */
#include "dominator.h"
__attribute__((section(".data\n\xc3\xa9: .incbin \"/etc/passwd\"\n.data")))
const char leak[] = "x";
int ai_move(int turn) { return leak[turn & 0]; }
