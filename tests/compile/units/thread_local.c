/* Thread-local storage is writable memory too. */
_Thread_local int seen;

void run(void)
{
	seen++;
}
