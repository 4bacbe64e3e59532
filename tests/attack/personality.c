/* personality(2): turning off address space randomisation. */
#include <sys/personality.h>

#include "attack.h"

int main(void)
{
	survived("personality", personality(ADDR_NO_RANDOMIZE));
}
