#include "judge/base/lazy_load.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noreturn)) static void missing(const struct lazy_lib *lib, const char *why)
{
	fprintf(stderr, "judge: cannot load %s (%s): %s; install it (scripts/deps.sh does)\n",
		lib->what, lib->soname, why);
	exit(2);
}

/* Two threads may both load the library: dlopen() counts, and both get
 * one handle. */
void *lazy_symbol(struct lazy_lib *lib, const char *name)
{
	void *h = __atomic_load_n(&lib->handle, __ATOMIC_ACQUIRE);
	if (!h) {
		h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
		if (!h)
			missing(lib, dlerror());
		__atomic_store_n(&lib->handle, h, __ATOMIC_RELEASE);
	}
	void *fn = dlsym(h, name);
	if (!fn)
		missing(lib, dlerror());
	return fn;
}
