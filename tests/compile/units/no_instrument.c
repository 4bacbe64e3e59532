/* A function taken out of the energy count. */

__attribute__((no_instrument_function)) int spin(int n)
{
	while (n > 0)
		n--;
	return n;
}
