/* A static local: shared by every unit that calls run(). */

static int twice(int calls) { return 2 * calls; }

void run(void)
{
	static int calls = 0;
	calls = twice(calls);
}
