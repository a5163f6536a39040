// SPDX-License-Identifier: GPL-2.0-only
/*
 * commands/record-options.c: the guest's `perpkt record` arguments
 * under --kernel, the command line less the options only the host acts
 * on, read with record's own option table: abbreviated, --opt=value,
 * -oFILE or two words alike; and each option's value where its table
 * entry says.
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
#include "profile/output.h"

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

static void parse(char **argv, struct record_options *o)
{
	int argc = 0, help = 0;

	while (argv[argc])
		argc++;
	record_defaults(o);
	assert_int_equal(record_parse_args(argc, argv, o, &help), 0);
	assert_int_equal(help, 0);
}

/* a workload of one's own, and what is sampled */
static void test_values_own(void **state)
{
	char *argv[] = {
		"record", "-p", "12,34", "--per", "udp-datagrams", "-d", "2",
		"-w", "0.5", "-e", "cycles", "-C", "0,1", "--user", "-c", "1000",
		"--no-call-graph", "--ring-pages", "64", "--force-output",
		"-o", "x.json", NULL,
	};
	struct record_options o;

	(void)state;
	parse(argv, &o);
	assert_int_equal(o.own.nattach, 2);
	assert_int_equal(o.own.attach[0], 12);
	assert_int_equal(o.own.attach[1], 34);
	assert_int_not_equal(o.own.per.kind, UNIT_RT);
	assert_true(o.window.duration == 2 && o.window.duration_set);
	assert_true(o.window.warmup == 0.5 && o.window.warmup_set);
	assert_string_equal(o.sampling.events, "cycles");
	assert_int_equal(o.cpus.n, 2);
	assert_int_equal(o.sampling.include_user, 1);
	assert_int_equal(o.sampling.period, 1000);
	assert_int_equal(o.sampling.callchain, -1);
	assert_int_equal(o.sampling.ring_pages, 64);
	assert_true(o.output_flags & PROFILE_OUTPUT_FORCE);
	assert_string_equal(o.output, "x.json");
	assert_null(o.builtin_only);
}

/* the built-in ping-pong's, the first of them named */
static void test_values_builtin(void **state)
{
	char *argv[] = {
		"record", "-s", "100,200", "--client-cpu", "1,2", "--server-cpu",
		"3", "--gap", "100us", "--gap-mode", "spin", "--flows", "2",
		"--burst", "3", "-r", "2", "-n", "500", "--between", "0.1",
		"--no-wait", NULL,
	};
	struct record_options o;

	(void)state;
	parse(argv, &o);
	assert_int_equal(o.builtin.message_size, 100);
	assert_int_equal(o.builtin.reply_size, 200);
	assert_int_equal(o.cpus.nclients, 2);
	assert_int_equal(o.cpus.client, 1);
	assert_int_equal(o.cpus.server, 3);
	assert_int_equal(o.builtin.gap_ns, 100000);
	assert_int_equal(o.builtin.gap_spin, 1);
	assert_int_equal(o.builtin.flows, 2);
	assert_int_equal(o.builtin.burst, 3);
	assert_true(o.window.repeat == 2 && o.window.repeat_set);
	assert_int_equal(o.window.count, 500);
	assert_true(o.window.between == 0.1);
	assert_int_equal(o.builtin.no_wait, 1);
	assert_string_equal(o.builtin_only, "size");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_options),
		cmocka_unit_test(test_abbreviations),
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_nic),
		cmocka_unit_test(test_values_own),
		cmocka_unit_test(test_values_builtin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
