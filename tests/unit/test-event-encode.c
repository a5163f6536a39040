// SPDX-License-Identifier: GPL-2.0-only
/*
 * Event names -> perf_event_attr. There is no hardware PMU on the
 * machines perpkt is tested on, so model-specific names are checked with
 * libpfm4's forced PMUs (LIBPFM_FORCE_PMU, LIBPFM_ENCODE_INACTIVE), each
 * in a child process because libpfm4 reads them once per process.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "counters/event-encode.h"

struct encoded {
	int ret;
	struct event_spec ev;
};

/* Encode in a child with the given libpfm4 environment. */
static struct encoded encode_with(const char *env, const char *value,
				  const char *name, int include_user)
{
	struct encoded out;
	int fds[2];
	pid_t pid;

	memset(&out, 0, sizeof(out));
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		if (env)
			setenv(env, value, 1);
		out.ret = event_encode(name, include_user, 0, &out.ev);
		if (write(fds[1], &out, sizeof(out)) != (ssize_t)sizeof(out))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	assert_int_equal(read(fds[0], &out, sizeof(out)), (ssize_t)sizeof(out));
	close(fds[0]);
	waitpid(pid, NULL, 0);
	return out;
}

static void test_generic_names(void **state)
{
	struct encoded c = encode_with(NULL, NULL, "cycles", 0);
	struct encoded i = encode_with(NULL, NULL, "instructions", 0);
	struct encoded k = encode_with(NULL, NULL, "cpu-clock", 0);

	assert_int_equal(c.ret, 0);
	assert_int_equal(c.ev.attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(c.ev.attr.config, PERF_COUNT_HW_CPU_CYCLES);
	assert_string_equal(c.ev.unit, "cycles");
	assert_string_equal(c.ev.pmu, "perf");
	assert_int_equal(c.ev.attr.exclude_user, 1);
	assert_int_equal(c.ev.attr.exclude_kernel, 0);
	assert_int_equal(c.ev.software_clock, 0);
	assert_int_equal(c.ev.period, DEFAULT_HW_PERIOD);
	assert_int_equal(i.ret, 0);
	assert_int_equal(i.ev.attr.config, PERF_COUNT_HW_INSTRUCTIONS);
	assert_string_equal(i.ev.unit, "instructions");
	assert_int_equal(k.ret, 0);
	assert_int_equal(k.ev.attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(k.ev.attr.config, PERF_COUNT_SW_CPU_CLOCK);
	assert_int_equal(k.ev.software_clock, 1);
	assert_string_equal(k.ev.unit, "ns");
	assert_int_equal(k.ev.period, DEFAULT_CLOCK_PERIOD_NS);
}

static void test_include_user(void **state)
{
	struct encoded c = encode_with(NULL, NULL, "cycles", 1);

	assert_int_equal(c.ret, 0);
	assert_int_equal(c.ev.attr.exclude_user, 0);
	assert_int_equal(c.ev.attr.exclude_kernel, 0);
}

/* Skylake names become the RAW encodings the SDM gives: INST_RETIRED.ANY_P
 * is event 0xc0, CPU_CLK_UNHALTED.THREAD_P is 0x3c. */
static void test_forced_skylake(void **state)
{
	struct encoded inst = encode_with("LIBPFM_FORCE_PMU", "skl",
					  "INST_RETIRED:ANY_P", 0);
	struct encoded clk = encode_with("LIBPFM_FORCE_PMU", "skl",
					 "CPU_CLK_UNHALTED", 0);

	assert_int_equal(inst.ret, 0);
	assert_int_equal(inst.ev.attr.type, PERF_TYPE_RAW);
	assert_int_equal(inst.ev.attr.config, 0xc0);
	assert_string_equal(inst.ev.pmu, "skl");
	assert_string_equal(inst.ev.unit, "instructions");
	assert_int_equal(inst.ev.attr.exclude_user, 1);
	assert_int_equal(inst.ev.attr.exclude_kernel, 0);
	assert_non_null(strstr(inst.ev.fstr, "skl::INST_RETIRED:ANY_P"));
	assert_int_equal(clk.ret, 0);
	assert_int_equal(clk.ev.attr.type, PERF_TYPE_RAW);
	assert_int_equal(clk.ev.attr.config, 0x3c);
	assert_string_equal(clk.ev.unit, "cycles");
	assert_non_null(strstr(clk.ev.fstr, "CPU_CLK_THREAD_UNHALTED"));
}

/* With inactive PMUs encodable, pmu:: prefixes and modifiers work and
 * generic names still resolve to the perf PMU. */
static void test_prefix_and_modifiers(void **state)
{
	struct encoded gen = encode_with("LIBPFM_ENCODE_INACTIVE", "1", "cycles", 0);
	struct encoded pre = encode_with("LIBPFM_ENCODE_INACTIVE", "1",
					 "skl::INST_RETIRED:ANY_P", 0);
	struct encoded usr = encode_with("LIBPFM_ENCODE_INACTIVE", "1",
					 "skl::INST_RETIRED:ANY_P:u=1", 0);

	assert_int_equal(gen.ret, 0);
	assert_string_equal(gen.ev.pmu, "perf");
	assert_int_equal(pre.ret, 0);
	assert_int_equal(pre.ev.attr.config, 0xc0);
	assert_string_equal(pre.ev.pmu, "skl");
	/* an explicit :u=1 wins over the kernel-only default */
	assert_int_equal(usr.ret, 0);
	assert_int_equal(usr.ev.attr.exclude_user, 0);
	assert_int_equal(usr.ev.attr.exclude_kernel, 1);
}

static void test_unknown_names_fail(void **state)
{
	assert_int_equal(encode_with(NULL, NULL, "NO_SUCH_EVENT", 0).ret, -1);
	/* model-specific names do not exist without that PMU */
	assert_int_equal(encode_with(NULL, NULL, "INST_RETIRED:ANY_P", 0).ret, -1);
	assert_int_equal(encode_with("LIBPFM_FORCE_PMU", "skl",
				     "INST_RETIRED:NO_SUCH_UMASK", 0).ret, -1);
}

static void test_cpu_clock_stand_in(void **state)
{
	struct event_spec ev;

	event_cpu_clock(&ev, "cycles", 0, 0);
	assert_string_equal(ev.name, "cpu-clock");
	assert_string_equal(ev.requested, "cycles");
	assert_int_equal(ev.attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(ev.attr.config, PERF_COUNT_SW_CPU_CLOCK);
	assert_int_equal(ev.attr.exclude_user, 1);
	assert_int_equal(ev.period, DEFAULT_CLOCK_PERIOD_NS);
	assert_int_equal(ev.attr.size, sizeof(ev.attr));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generic_names),
		cmocka_unit_test(test_include_user),
		cmocka_unit_test(test_forced_skylake),
		cmocka_unit_test(test_prefix_and_modifiers),
		cmocka_unit_test(test_unknown_names_fail),
		cmocka_unit_test(test_cpu_clock_stand_in),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
