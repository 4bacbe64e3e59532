/* Waits for a signal that never comes. */
#include "attack.h"

int main(void)
{
	survived("pause", pause());
}
