/* The same through a standard header included after the macro. */
#include "dominator.h"
#define fclose __attribute__((weakref("unlink"))) fclose
#include <stdlib.h>
int ai_move(int turn) { return turn; }
