// SPDX-License-Identifier: GPL-2.0-only
/* --placement on a fake sysfs tree: 2 sockets x 2 cores x 2 threads,
 * L1/L2 per core, L3 per socket. */
#include "system/placement.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[256], cmd[300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* cpu c: socket c/4, core (c/2)%2, threads {c, c^1} */
static int setup(void **state)
{
	char rel[128], val[64];
	int c, sock, core, first;

	strcpy(root, "/tmp/perpkt-topo-XXXXXX");
	assert_non_null(mkdtemp(root));
	for (c = 0; c < 8; c++) {
		sock = c / 4;
		core = (c / 2) % 2;
		first = c & ~1;
		snprintf(rel, sizeof(rel), "cpu%d/topology/physical_package_id", c);
		snprintf(val, sizeof(val), "%d\n", sock);
		put(rel, val);
		snprintf(rel, sizeof(rel), "cpu%d/topology/core_id", c);
		snprintf(val, sizeof(val), "%d\n", core);
		put(rel, val);
		snprintf(rel, sizeof(rel), "cpu%d/topology/thread_siblings_list", c);
		snprintf(val, sizeof(val), "%d-%d\n", first, first + 1);
		put(rel, val);
		snprintf(rel, sizeof(rel), "cpu%d/cache/index0/level", c);
		put(rel, "1\n");
		snprintf(rel, sizeof(rel), "cpu%d/cache/index0/type", c);
		put(rel, "Data\n");
		snprintf(rel, sizeof(rel), "cpu%d/cache/index0/shared_cpu_list", c);
		snprintf(val, sizeof(val), "%d-%d\n", first, first + 1);
		put(rel, val);
		snprintf(rel, sizeof(rel), "cpu%d/cache/index2/level", c);
		put(rel, "3\n");
		snprintf(rel, sizeof(rel), "cpu%d/cache/index2/type", c);
		put(rel, "Unified\n");
		snprintf(rel, sizeof(rel), "cpu%d/cache/index2/shared_cpu_list", c);
		snprintf(val, sizeof(val), "%d-%d\n", sock * 4, sock * 4 + 3);
		put(rel, val);
		snprintf(rel, sizeof(rel), "cpu%d/cache/index1/level", c);
		put(rel, "2\n");
		snprintf(rel, sizeof(rel), "cpu%d/cache/index1/type", c);
		put(rel, "Unified\n");
		snprintf(rel, sizeof(rel), "cpu%d/cache/index1/shared_cpu_list", c);
		snprintf(val, sizeof(val), "%d,%d\n", first, first + 1);
		put(rel, val);
	}
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static void test_relation(void **state)
{
	assert_int_equal(placement_relation(root, 3, 3), REL_SAME);
	assert_int_equal(placement_relation(root, 0, 1), REL_SMT);
	assert_int_equal(placement_relation(root, 0, 2), REL_SHARED_CACHE);
	assert_int_equal(placement_relation(root, 0, 4), REL_CROSS_SOCKET);
}

static void test_resolve(void **state)
{
	int online[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	int c = -1, s = -1;
	enum cpu_relation r;

	assert_int_equal(placement_resolve(root, REL_SMT, online, 8, &c, &s), 0);
	assert_int_equal(c, 7);
	assert_int_equal(s, 6);
	c = s = -1;
	assert_int_equal(placement_resolve(root, REL_CROSS_SOCKET, online, 8, &c, &s), 0);
	assert_int_equal(placement_relation(root, c, s), REL_CROSS_SOCKET);
	c = 2;
	s = -1;
	assert_int_equal(placement_resolve(root, REL_SHARED_CACHE, online, 8, &c, &s), 0);
	assert_int_equal(c, 2);
	assert_int_equal(placement_relation(root, c, s), REL_SHARED_CACHE);
	/* nothing shares no cache within a socket here */
	c = s = -1;
	assert_int_equal(placement_resolve(root, REL_CROSS_CACHE, online, 8, &c, &s), -1);
	c = s = -1;
	assert_int_equal(placement_resolve(root, REL_SAME, online, 8, &c, &s), 0);
	assert_int_equal(c, 7);
	assert_int_equal(s, 7);
	assert_int_equal(placement_parse("cross-socket", &r), 0);
	assert_int_equal(r, REL_CROSS_SOCKET);
	assert_int_equal(placement_parse("sideways", &r), -1);
}

static void test_describe(void **state)
{
	char buf[256];

	placement_describe(root, 0, 2, buf, sizeof(buf));
	assert_string_equal(buf, "client 0, server 2: shared-cache; share L3 (index2), not L1d/L2");
	placement_describe(root, 0, 1, buf, sizeof(buf));
	assert_string_equal(buf, "client 0, server 1: smt; share every cache: L1d (index0), L2 (index1), L3 (index2)");
	placement_describe(root, 0, 4, buf, sizeof(buf));
	assert_string_equal(buf, "client 0, server 4: cross-socket; share no cache (each has its own L1d/L2/L3)");
	placement_describe(root, 5, 5, buf, sizeof(buf));
	assert_string_equal(buf, "client 5, server 5: same");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_relation),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_describe),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
