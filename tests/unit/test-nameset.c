// SPDX-License-Identifier: GPL-2.0-only
/* src/profile/nameset.c: every name put in is found, few others are,
 * and text that is not a set is said to be so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profile/nameset.h"

#define N 5000

static void test_members_and_strangers(void **state)
{
	static char buf[N][32];
	const char *names[N];
	char other[32];
	size_t i, fp = 0;
	char *set;

	(void)state;
	for (i = 0; i < N; i++) {
		snprintf(buf[i], sizeof(buf[i]), "fn_%zu_x", i);
		names[i] = buf[i];
	}
	set = nameset_build(names, N);
	assert_non_null(set);
	assert_true(!strncmp(set, "bloom1:8:", 9));
	for (i = 0; i < N; i++)
		assert_int_equal(nameset_has(set, names[i]), 1);
	for (i = 0; i < 20000; i++) {
		snprintf(other, sizeof(other), "other_%zu", i);
		fp += nameset_has(set, other) == 1;
	}
	/* about 0.3% at 12 bits a name and 8 probes */
	assert_true(fp < 200);
	free(set);
}

static void test_not_a_set(void **state)
{
	(void)state;
	assert_int_equal(nameset_has(NULL, "x"), -1);
	assert_int_equal(nameset_has("", "x"), -1);
	assert_int_equal(nameset_has("bloom1:8:24:AAA", "x"), -1);
	assert_int_equal(nameset_has("bloom1:8:24:AA!A", "x"), -1);
	assert_int_equal(nameset_has("bloom9:8:24:AAAA", "x"), -1);
	/* an empty set of the right shape holds nothing */
	assert_int_equal(nameset_has("bloom1:8:24:AAAA", "x"), 0);
	assert_null(nameset_build(NULL, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_members_and_strangers),
		cmocka_unit_test(test_not_a_set),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
