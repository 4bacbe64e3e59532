/* The same with a lone high byte and a comment between the label and the
 * directive. */
#include "dominator.h"
__attribute__((__section__(".data\n\x80x:/**/.incbin \"/etc/passwd\"\n.data")))
const char leak[] = "x";
int ai_move(int turn) { return leak[turn & 0]; }
