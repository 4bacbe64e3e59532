/* The contestant's own block counter, counting nothing. */
void __sanitizer_cov_trace_pc(void)
{
}

int run(int n)
{
	return n + 1;
}
