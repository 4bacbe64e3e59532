#include "judge/base/lazy_load.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* Every LAZY() forwarder linked into the program (the linker names the
 * section's bounds). */
extern const struct lazy_fn __start_judge_lazy[] __attribute__((weak));
extern const struct lazy_fn __stop_judge_lazy[] __attribute__((weak));

static int missing(const struct lazy_lib *lib, const char *why, err_t err)
{
	return err_fail(err, "cannot load %s (%s): %s; install it (scripts/deps.sh does)",
			lib->what, lib->soname, why);
}

/* Two threads may both load the library: dlopen() counts, and both get
 * one handle. */
static void *load(struct lazy_lib *lib)
{
	void *h = __atomic_load_n(&lib->handle, __ATOMIC_ACQUIRE);
	if (!h && (h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL)) != NULL)
		__atomic_store_n(&lib->handle, h, __ATOMIC_RELEASE);
	return h;
}

int lazy_require(struct lazy_lib *lib, err_t err)
{
	void *h = load(lib);
	if (!h)
		return missing(lib, dlerror(), err);
	for (const struct lazy_fn *f = __start_judge_lazy; f && f < __stop_judge_lazy; f++) {
		if (f->lib != lib || __atomic_load_n(f->slot, __ATOMIC_ACQUIRE))
			continue;
		void *fn = dlsym(h, f->name);
		if (!fn)
			return missing(lib, dlerror(), err);
		__atomic_store_n(f->slot, fn, __ATOMIC_RELEASE);
	}
	return 0;
}

void *lazy_symbol(struct lazy_lib *lib, const char *name)
{
	err_t err;
	void *h = load(lib), *fn = h ? dlsym(h, name) : NULL;
	if (fn)
		return fn;
	missing(lib, dlerror(), err);
	fprintf(stderr, "judge: %s (%s called before its part required the library)\n", err->msg,
		name);
	abort();
}
