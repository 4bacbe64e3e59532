/* _Pragma is not in the text either; this one would read a file as a
 * precompiled header when the .i is compiled. */
#include "dominator.h"
#define CAT(a, b) a##b
CAT(_Pra, gma)("GCC pch_preprocess \"/etc/hostname\"")
int ai_move(int turn) { return turn; }
