/* io_uring_setup(2): a second way into the kernel, past any filter. */
#include <linux/io_uring.h>
#include <sys/syscall.h>

#include "attack.h"

int main(void)
{
	struct io_uring_params params = { 0 };

	survived("io_uring_setup", syscall(SYS_io_uring_setup, 8, &params));
}
