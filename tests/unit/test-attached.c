// SPDX-License-Identifier: GPL-2.0-only
/* Counting tc filters and actions in `tc filter show` output. */
#include "system/attached.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

/* iproute2 6.1 on Linux 6.18: two u32 filters on clsact egress, one
 * with a mirred action; u32 shares its hash tables, so ingress lists
 * the same lines again. */
static const char egress[] =
	"filter protocol ip pref 1 u32 chain 0 \n"
	"filter protocol ip pref 1 u32 chain 0 fh 803: ht divisor 1 \n"
	"filter protocol ip pref 1 u32 chain 0 fh 803::800 order 2048 key ht 803 bkt 0 *flowid 1:1 not_in_hw \n"
	"  match 0a090909/ffffffff at 16\n"
	"filter protocol ip pref 1 u32 chain 0 fh 800: ht divisor 1 \n"
	"filter protocol ip pref 1 u32 chain 0 fh 800::800 order 2048 key ht 800 bkt 0 terminal flowid not_in_hw \n"
	"  match 0a090901/ffffffff at 16\n"
	"\taction order 1: mirred (Egress Redirect to device lo) stolen\n"
	"\tindex 1 ref 1 bind 1\n"
	"\n";
/* a classifier with handles (flower), two actions on one filter */
static const char flower[] =
	"filter protocol ip pref 49152 flower chain 0 \n"
	"filter protocol ip pref 49152 flower chain 0 handle 0x1 \n"
	"  eth_type ipv4\n"
	"\taction order 1: gact action pass\n"
	"\taction order 2: mirred (Egress Mirror to device lo) pipe\n";

static void test_count(void **state)
{
	size_t filters = 0, actions = 0;
	char *seen = NULL;

	(void)state;
	attached_tc_count(egress, &seen, &filters, &actions);
	assert_int_equal(filters, 2);
	assert_int_equal(actions, 1);
	/* the same lines under ingress: not counted twice */
	attached_tc_count(egress, &seen, &filters, &actions);
	assert_int_equal(filters, 2);
	assert_int_equal(actions, 1);
	attached_tc_count(flower, &seen, &filters, &actions);
	assert_int_equal(filters, 3);
	assert_int_equal(actions, 3);
	attached_tc_count("", &seen, &filters, &actions);
	assert_int_equal(filters, 3);
	free(seen);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
