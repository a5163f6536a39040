// SPDX-License-Identifier: GPL-2.0-only
/* net.routing of this process's namespace, by rtnetlink dumps. */
#include "system/routing.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

/* Every family says its rules and nexthops, in that order, each entry
 * led by the prefix; the same twice over, with no descriptor left. */
static void test_shape(void **state)
{
	char a[2048], b[2048];
	int fds = open_fds(), i;
	unsigned long n;

	(void)state;
	routing_describe("client ", a, sizeof(a));
	if (strstr(a, "unknown (cannot open"))
		skip();
	assert_int_equal(strncmp(a, "client ipv4 ", 12), 0);
	assert_true(sscanf(a, "client ipv4 rules=%lu,", &n) == 1 ||
		    strstr(a, "client ipv4 unknown"));
	assert_non_null(strstr(a, ", client ipv6 "));
	assert_non_null(strstr(a, "client ipv4 nexthops"));
	for (i = 0; i < 50; i++) {
		routing_describe("client ", b, sizeof(b));
		assert_string_equal(a, b);
	}
	assert_int_equal(open_fds(), fds);
}

/* A value cut at the buffer's end stays a string. */
static void test_short(void **state)
{
	char buf[24];

	(void)state;
	memset(buf, 'x', sizeof(buf));
	routing_describe("", buf, sizeof(buf));
	assert_true(strlen(buf) < sizeof(buf));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shape),
		cmocka_unit_test(test_short),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
