// SPDX-License-Identifier: GPL-2.0-only
/*
 * commands/record-options.c: the guest's `perpkt record` arguments
 * under --kernel, the command line less the options only the host acts
 * on, read with record's own option table: abbreviated, --opt=value,
 * -oFILE or two words alike.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "commands/record-options.h"

/* The guest's arguments for record's argv, joined by spaces into buf. */
static const char *guest(char **argv, char *buf, size_t len)
{
	struct record_options o;
	int argc = 0, help = 0;
	size_t i;

	while (argv[argc])
		argc++;
	record_defaults(&o);
	assert_int_equal(record_parse_args(argc, argv, &o, &help), 0);
	assert_non_null(o.kernel.kernel);
	assert_int_equal(record_guest_argv(&o, argc, argv), 0);
	assert_null(o.kernel.guest_args[o.kernel.nguest_args]);
	buf[0] = '\0';
	for (i = 0; i < o.kernel.nguest_args; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 i ? " " : "", o.kernel.guest_args[i]);
	record_guest_args_free(&o);
	return buf;
}

/* every option of --kernel's, and -o, however given */
static void test_host_options(void **state)
{
	char *argv[] = {
		"record", "--kernel", "bzImage", "-d", "2", "--vmlinux=vml",
		"--qemu-arg", "-m", "--qemu-arg=2048", "-o", "out.json",
		"--placement", "same", "-oother.json", "--guest-perpkt", "pp",
		"--qemu-timeout", "9", "-r", "3", "--append", "mitigations=off",
		"--modules=/lib/modules/x", "--config", "cfg", "--accel=tcg",
		"--guest-cpus", "2", "--output=o.json", NULL,
	};
	char buf[256];

	assert_string_equal(guest(argv, buf, sizeof(buf)),
			    "-d 2 --placement same -r 3");
}

/* getopt's abbreviations: --kern=IMG, --qemu-t 30 and the like were
 * passed to the guest before, its record then refusing them */
static void test_abbreviations(void **state)
{
	char *argv[] = {
		"record", "--kern=bzImage", "--dur", "2", "--qemu-t", "30",
		"--acc=tcg", "--out", "x.json", "--appe", "quiet", "--vm", "v",
		"--guest-c=3", "--plac=same", "--si", "64", NULL,
	};
	char buf[256];

	/* the guest's in full: an abbreviation unique in stat's table
	 * could be another option's in record's */
	assert_string_equal(guest(argv, buf, sizeof(buf)),
			    "--duration 2 --placement same --size 64 -r 1");
}

/* exact mode: the host boots once per window, -r is its own */
static void test_exact(void **state)
{
	char *argv[] = {
		"record", "--kernel", "bzImage", "--exact", "-d", "2", "-r", "3",
		"-r5", "--repeat=2", "--rep", "4", "-o", "x.json", NULL,
	};
	char buf[256];

	/* one window a boot: the guest is told so, not left to its
	 * default windows */
	assert_string_equal(guest(argv, buf, sizeof(buf)), "-d 2 -r 1");
}

/* --net nic: the NIC is the host's, --rps-cpus and --irq-cpu the
 * responder guest's (applied by its /init); --net veth is the guest's */
static void test_nic(void **state)
{
	char *nic[] = {
		"record", "--kernel", "bzImage", "--net", "nic", "-d", "1",
		"--rps-cpus", "2", "--irq-cpu=0", "--net=nic:vmxnet3",
		"--remote-cpus", "all", "--rps=1", "--irq", "1", NULL,
	};
	char *veth[] = {
		"record", "--kernel", "bzImage", "--net=veth", "--rps-cpus", "2",
		NULL,
	};
	char buf[256];

	assert_string_equal(guest(nic, buf, sizeof(buf)),
			    "-d 1 --remote-cpus all -r 1");
	assert_string_equal(guest(veth, buf, sizeof(buf)),
			    "--net veth --rps-cpus 2 -r 1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_options),
		cmocka_unit_test(test_abbreviations),
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_nic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
