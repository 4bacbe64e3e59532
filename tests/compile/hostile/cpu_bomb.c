/* A hundred thousand statements from a few lines: optimising them takes
 * the compiler far longer than any test's CPU limit. */
#define A(x) x x x x x x x x x x
#define S(x) A(A(A(A(A(x)))))
int ai_move(int turn)
{
	unsigned s = (unsigned)turn;
	S(s = s * 31u + (s >> 3) + (unsigned)turn; if (s & 1u) turn ^= (int)s;)
	return (int)s + turn;
}
