/* kit_testlib.h - what the kit tests share: the corpus's programs as the
 * parameters of a test. */
#ifndef TEST_KIT_TESTLIB_H
#define TEST_KIT_TESTLIB_H

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "tests/kit/player/corpus.h"

/* One parameter per corpus program: its index. */
static inline struct criterion_test_params corpus_params(void)
{
	static int index[64];
	for (int i = 0; i < corpus_size; i++)
		index[i] = i;
	return cr_make_param_array(int, index, (size_t)corpus_size);
}

#endif
