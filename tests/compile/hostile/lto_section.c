/* A data array in a .gnu.lto_* section: linked with LTO on, the linker's
 * plugin hands it to lto1, which compiles what no check has seen. */
#include "dominator.h"
__attribute__((section(".gnu.lto_main.0.5f3e"), used))
const char lto[] = "\x4c\x54\x4f\x00\x0b\x00\x01\x00";
int ai_move(int turn) { return turn + lto[0] * 0; }
