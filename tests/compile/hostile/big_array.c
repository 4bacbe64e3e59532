/* 256 MiB of initialised data: tiny source, tiny assembly (.zero), but the
 * assembler must write all of it into the object file. */
#include "dominator.h"
static char big[256 << 20] = { 1 };
int ai_move(int turn) { return big[turn]; }
