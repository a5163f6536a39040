// SPDX-License-Identifier: GPL-2.0-only
/* The one growable array (base/array.h): room for what is asked, kept
 * when it is there, doubled so pushes stay linear, and a size that
 * overflows refused with the array as it was. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "base/array.h"

static void test_grow(void **state)
{
	uint64_t *v = NULL, *was;
	size_t n = 0, cap = 0, i, grows = 0, last = 0;

	(void)state;
	for (i = 0; i < 100000; i++) {
		assert_int_equal(ARRAY_GROW(v, n + 1, cap), 0);
		assert_true(cap >= n + 1);
		if (cap != last)
			grows++;
		last = cap;
		v[n++] = i;
	}
	for (i = 0; i < n; i++)
		assert_int_equal(v[i], i);
	assert_true(grows <= 14);   /* 16 doubled up to 131072 */
	/* room already there: nothing moves */
	was = v;
	assert_int_equal(ARRAY_GROW(v, 10, cap), 0);
	assert_ptr_equal(v, was);
	assert_int_equal(cap, last);
	/* a count whose bytes overflow: refused, the array kept */
	assert_int_equal(ARRAY_GROW(v, SIZE_MAX / 4, cap), -1);
	assert_ptr_equal(v, was);
	assert_int_equal(cap, last);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
