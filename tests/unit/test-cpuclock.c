// SPDX-License-Identifier: GPL-2.0-only
/*
 * src/counters/cpuclock.c: where the clock that turns a sample rate
 * into a cycle period comes from. arm64's /proc/cpuinfo has no "cpu MHz"
 * and once made perpkt assume 3 GHz; now it says so instead.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "counters/cpuclock.h"

static const char arm64_cpuinfo[] =
	"processor\t: 0\nBogoMIPS\t: 2000.00\nFeatures\t: fp asimd\n"
	"CPU implementer\t: 0x41\nCPU architecture: 8\nCPU part\t: 0xd07\n\n";
static const char x86_cpuinfo[] =
	"processor\t: 0\nmodel name\t: Test CPU @ 2.00GHz\ncpu MHz\t\t: 2095.076\n\n";

static char *write_tmp(const char *text)
{
	char *path = strdup("/tmp/perpkt-cpuclock-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (int)strlen(text));
	close(fd);
	return path;
}

static void test_cpufreq_first(void **state)
{
	char *freq = write_tmp("2600000\n"), *info = write_tmp(x86_cpuinfo);
	struct cpu_clock c;

	(void)state;
	assert_int_equal(cpu_clock_from_files(freq, info, &c), 0);
	assert_true(c.mhz == 2600);
	assert_string_equal(c.source, "cpufreq cpuinfo_max_freq");
	unlink(freq);
	unlink(info);
	free(freq);
	free(info);
}

static void test_cpuinfo_mhz(void **state)
{
	char *info = write_tmp(x86_cpuinfo);
	struct cpu_clock c;

	(void)state;
	assert_int_equal(cpu_clock_from_files("/nonexistent/cpuinfo_max_freq",
					      info, &c), 0);
	assert_true(c.mhz > 2095.07 && c.mhz < 2095.08);
	assert_string_equal(c.source, "/proc/cpuinfo cpu MHz");
	unlink(info);
	free(info);
}

/* arm64 under QEMU: no cpufreq, no "cpu MHz": unknown, not 3000 */
static void test_arm64_unknown(void **state)
{
	char *info = write_tmp(arm64_cpuinfo), *zero = write_tmp("0\n");
	struct cpu_clock c;

	(void)state;
	assert_int_equal(cpu_clock_from_files("/nonexistent/cpuinfo_max_freq",
					      info, &c), -1);
	assert_true(c.mhz == 0);
	assert_int_equal(cpu_clock_from_files(zero, info, &c), -1);
	unlink(info);
	unlink(zero);
	free(info);
	free(zero);
}

/* Without a PMU (this VM) the calibration fails rather than guessing;
 * with one it gives a plausible clock and says it was calibrated. */
static void test_calibrate(void **state)
{
	struct event_spec cycles;
	struct cpu_clock c;

	(void)state;
	memset(&cycles, 0, sizeof(cycles));
	cycles.attr.size = sizeof(cycles.attr);
	cycles.attr.type = PERF_TYPE_HARDWARE;
	cycles.attr.config = PERF_COUNT_HW_CPU_CYCLES;
	snprintf(cycles.name, sizeof(cycles.name), "cycles");
	if (cpu_clock_calibrate(&cycles, &c)) {
		assert_true(c.mhz == 0);
		return;
	}
	assert_true(c.mhz > 10 && c.mhz < 10000);
	assert_non_null(strstr(c.source, "calibrated"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpufreq_first),
		cmocka_unit_test(test_cpuinfo_mhz),
		cmocka_unit_test(test_arm64_unknown),
		cmocka_unit_test(test_calibrate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
