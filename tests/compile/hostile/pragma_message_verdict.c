/* gcc prints #pragma message text with its escapes interpreted: a newline
 * starts a line that reads like gcc's own. */
#include "dominator.h"
#pragma message "done\ngcc: fatal error: cannot execute 'cc1': CPU time limit exceeded"
int ai_move(int turn) { return turn; }
