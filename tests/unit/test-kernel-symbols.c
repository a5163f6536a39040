// SPDX-License-Identifier: GPL-2.0-only
/*
 * Module section addresses at record time, from a sysfs-like tree
 * (tests/fixtures/sysmodule/NAME/sections/) or else /proc/modules
 * (tests/fixtures/proc-modules.txt), for the modules the samples fall in.
 */
#include "system/kernel-symbols.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static uint64_t section(const struct profile_module *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nsections; i++)
		if (!strcmp(m->sections[i].name, name))
			return m->sections[i].addr;
	return 0;
}

static void test_modules(void **state)
{
	struct profile_ksym k[] = {
		{ 0xffffffff81000000ULL, 16, 'T', "_text", NULL },
		{ 0xffffffffc0a5e000ULL, 16, 'T', "pktmod_xmit", "pktmod" },
		{ 0xffffffffc0a5e010ULL, 16, 't', "pktmod_rx", "pktmod" },
		{ 0xffffffffc0b00010ULL, 16, 't', "veth_xmit", "veth" },
	};
	struct profile p;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.ksyms = k;
	p.nksyms = 4;
	kernel_modules_attach(&p, FIXTURES_DIR "/sysmodule",
			      FIXTURES_DIR "/proc-modules.txt");
	assert_int_equal(p.nmodules, 2);
	/* Text sections only, from sysfs. */
	assert_string_equal(p.modules[0].name, "pktmod");
	assert_int_equal(p.modules[0].nsections, 2);
	assert_int_equal(section(&p.modules[0], ".text"), 0xffffffffc0a5e000ULL);
	assert_int_equal(section(&p.modules[0], ".init.text"), 0xffffffffc0a70000ULL);
	assert_int_equal(section(&p.modules[0], ".data"), 0);
	/* No sysfs entry: the base in /proc/modules, as .text. */
	assert_string_equal(p.modules[1].name, "veth");
	assert_int_equal(p.modules[1].nsections, 1);
	assert_int_equal(section(&p.modules[1], ".text"), 0xffffffffc0b00000ULL);
	p.ksyms = NULL;
	p.nksyms = 0;
	profile_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
