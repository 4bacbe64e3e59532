/* The same, with ';' separating the statements and the directive in
 * capitals: gas accepts both. */
#include "dominator.h"
__attribute__((section(".data;  .INCBIN \"/etc/hostname\" ;#")))
const char leak[] = "x";
int ai_move(int turn) { return leak[turn & 0]; }
