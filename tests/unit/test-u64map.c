// SPDX-License-Identifier: GPL-2.0-only
/* The one hash table (base/u64map.c): a key found again after the
 * table has grown, a new key's value NULL and said added, key 0 a key
 * like any other. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/u64map.h"

static void test_map(void **state)
{
	struct u64map m = { 0 };
	struct u64map_slot *s;
	size_t i, seen = 0;
	void **v;
	int added;

	(void)state;
	/* addresses 64 bytes apart, as a kernel's functions are */
	for (i = 0; i < 5000; i++) {
		v = u64map_at(&m, 0xffffffff81000000ULL + 64 * i, &added);
		assert_non_null(v);
		assert_true(added);
		assert_null(*v);
		*v = (void *)(i + 1);
	}
	assert_int_equal(m.n, 5000);
	assert_true(m.cap >= 2 * m.n);
	for (i = 0; i < 5000; i++) {
		v = u64map_at(&m, 0xffffffff81000000ULL + 64 * i, &added);
		assert_false(added);
		assert_ptr_equal(*v, (void *)(i + 1));
	}
	v = u64map_at(&m, 0, &added);
	assert_true(added);
	*v = &m;
	assert_ptr_equal(*u64map_at(&m, 0, &added), &m);
	assert_false(added);
	u64map_for_each(&m, s)
		seen++;
	assert_int_equal(seen, 5001);
	u64map_free(&m);
	assert_null(m.slot);
	assert_int_equal(m.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
