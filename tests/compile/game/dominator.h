/* dominator.h - a tiny game header for the compile tests: the runtime calls
 * ai_move() once per turn and prints what it returns. */
#ifndef DOMINATOR_H
#define DOMINATOR_H

#include <stdio.h>

#define DOM_BOARD 8

int ai_move(int turn);     /* written by the contestant */
int dom_score(int square); /* provided by the runtime */

#endif
