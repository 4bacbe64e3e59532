/* A unit's state in a global: every unit would share it. */

int counter;

void run(void)
{
	counter++;
}
