/* memfd_create(2): a file to write and perhaps execute. */
#include <sys/mman.h>

#include "attack.h"

int main(void)
{
	survived("memfd_create", memfd_create("payload", 0));
}
