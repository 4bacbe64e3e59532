/* No asm keyword: the section name carries assembler text, which gcc copies
 * into the .s file verbatim, newlines and all. */
#include "dominator.h"
__attribute__((section(".data\n.incbin \"/etc/hostname\"\n.section .data")))
const char leak[] = "x";
int ai_move(int turn) { return leak[turn & 0]; }
