/* The trivial player the launch benchmark starts: it does nothing. */
int main(void)
{
	return 0;
}
