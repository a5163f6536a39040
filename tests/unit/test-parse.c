// SPDX-License-Identifier: GPL-2.0-only
/* The shared value parsers: CPU lists (ranges, repeats folded, bad
 * input refused) and the membership test the CPU choosers use. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "parse.h"

static void test_cpu_list(void **state)
{
	int cpus[8];

	(void)state;
	assert_int_equal(parse_cpu_list("0,2-3", cpus, 8), 3);
	assert_int_equal(cpus[0], 0);
	assert_int_equal(cpus[1], 2);
	assert_int_equal(cpus[2], 3);
	/* a CPU named twice is counted once */
	assert_int_equal(parse_cpu_list("1,0-2,1", cpus, 8), 3);
	assert_int_equal(cpus[0], 1);
	assert_int_equal(cpus[1], 0);
	assert_int_equal(cpus[2], 2);
	assert_int_equal(parse_cpu_list("3-1", cpus, 8), -1);
	assert_int_equal(parse_cpu_list("8", cpus, 8), -1);
	assert_int_equal(parse_cpu_list("a", cpus, 8), -1);
}

static void test_cpu_list_has(void **state)
{
	const int cpus[] = { 4, 0, 7 };

	(void)state;
	assert_true(cpu_list_has(cpus, 3, 4));
	assert_true(cpu_list_has(cpus, 3, 7));
	assert_false(cpu_list_has(cpus, 3, 1));
	assert_false(cpu_list_has(cpus, 2, 7));  /* only the first n */
	assert_false(cpu_list_has(cpus, 0, 4));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_cpu_list_has),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
