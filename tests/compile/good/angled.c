#include <dominator.h>
%:include <stdio.h>
#\
include <stdlib.h>
#include /* a comment */ <string.h>
int ai_move(int turn) { return turn; }
