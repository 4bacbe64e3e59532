/* Each level multiplies by ten; arguments are expanded in full, in memory,
 * before they are substituted. */
#define A(x) x x x x x x x x x x
#define B(x) A(A(A(A(A(A(A(A(A(x)))))))))
int ai_move(int turn) { return B(B(+turn)); }
