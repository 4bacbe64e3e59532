/* Constants are fine: tables, strings, arrays of pointers to them. */
static const int table[] = { 1, 2, 3 };
static const char *const names[] = { "worker", "barracks" };

int run(int i)
{
	int sum = 0;
	for (int k = 0; k < 3; k++)
		sum += table[k] + names[k % 2][0];
	return sum + i;
}
