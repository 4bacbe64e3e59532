/* __asm__ is not in the text; token pasting builds it. */
#include "dominator.h"
#define CAT(a, b) a##b
#define ASM CAT(__as, m__)
ASM(".incbin \"/etc/hostname\"");
int ai_move(int turn) { return turn; }
