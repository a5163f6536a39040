// SPDX-License-Identifier: GPL-2.0-only
#include "system/conditions.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "workload/workload.h"

static void test_kconfig(void **state)
{
	char out[256];

	conditions_kconfig_summary("# comment\nCONFIG_HZ_250=y\nCONFIG_HZ=250\n"
				   "CONFIG_NO_HZ_IDLE=y\nCONFIG_PREEMPT_VOLUNTARY=y\n"
				   "# CONFIG_PREEMPT is not set\n", out, sizeof(out));
	assert_string_equal(out, "HZ=250, NO_HZ_IDLE, PREEMPT_VOLUNTARY");
	conditions_kconfig_summary("", out, sizeof(out));
	assert_string_equal(out, "");
	conditions_kconfig_summary("CONFIG_HZ=1000\nCONFIG_NO_HZ_FULL=y\nCONFIG_PREEMPT_RT=y",
				   out, 12);
	assert_int_equal(strlen(out), 11);
}

/* arm64 only: pseudo-NMI needs the boot parameter and the config */
static void test_pseudo_nmi(void **state)
{
	char out[256];

	(void)state;
	conditions_pseudo_nmi("x86_64", "irqchip.gicv3_pseudo_nmi=1", NULL,
			      out, sizeof(out));
	assert_string_equal(out, "");
	conditions_pseudo_nmi("aarch64", "root=/dev/vda quiet", NULL, out, sizeof(out));
	assert_true(!strncmp(out, "off (", 5));
	conditions_pseudo_nmi("aarch64", "irqchip.gicv3_pseudo_nmi=10", NULL,
			      out, sizeof(out));
	assert_true(!strncmp(out, "off (", 5));
	conditions_pseudo_nmi("aarch64", "quiet irqchip.gicv3_pseudo_nmi=1", NULL,
			      out, sizeof(out));
	assert_true(!strncmp(out, "on (", 4));
	conditions_pseudo_nmi("aarch64", "irqchip.gicv3_pseudo_nmi=1",
			      "# c\nCONFIG_ARM64_PSEUDO_NMI=y\n", out, sizeof(out));
	assert_true(!strncmp(out, "on (", 4));
	conditions_pseudo_nmi("aarch64", "irqchip.gicv3_pseudo_nmi=1",
			      "# c\n# CONFIG_ARM64_PSEUDO_NMI is not set\n", out,
			      sizeof(out));
	assert_true(!strncmp(out, "off (", 5));
}

static void test_cpuinfo(void **state)
{
	char out[256];

	conditions_cpuinfo_topology("processor\t: 0\nphysical id\t: 0\ncore id\t\t: 0\n\n"
				    "processor\t: 1\nphysical id\t: 1\ncore id\t\t: 0\n\n",
				    out, sizeof(out));
	assert_string_equal(out, "2 CPUs; cpu0 pkg 0 core 0, cpu1 pkg 1 core 0");
	/* no blank line at the end, no ids (some VMs) */
	conditions_cpuinfo_topology("processor : 3\nmodel name : x", out, sizeof(out));
	assert_string_equal(out, "1 CPU; cpu3");
	/* arm64 (QEMU virt, -cpu max): no package or core id at all */
	conditions_cpuinfo_topology("processor\t: 0\nBogoMIPS\t: 2000.00\n"
				    "CPU implementer\t: 0x00\nCPU part\t: 0x051\n\n"
				    "processor\t: 1\nBogoMIPS\t: 2000.00\n\n",
				    out, sizeof(out));
	assert_string_equal(out, "2 CPUs; cpu0, cpu1");
}

static void test_text_size(void **state)
{
	char path[] = "/tmp/perpkt-kallsyms-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	fputs("ffffffff81000000 T _text\nffffffff81000000 T _stext\n"
	      "ffffffff81001000 t foo\nffffffff82000000 T _etext\n", f);
	fclose(f);
	assert_int_equal(conditions_text_size(path), 0x1000000);
	unlink(path);
	assert_int_equal(conditions_text_size("/nonexistent"), 0);
}

static void test_capture(void **state)
{
	struct workload_result res;
	struct profile p;

	memset(&p, 0, sizeof(p));
	memset(&res, 0, sizeof(res));
	res.timeouts = 3;
	res.duplicates = 2;
	conditions_capture(&p, 0, 0, 40, 0);
	workload_result_conditions(&p, &res);
	assert_non_null(profile_condition(&p, "kernel.release"));
	assert_non_null(profile_condition(&p, "kernel.config"));
	assert_non_null(profile_condition(&p, "net.netfilter"));
	assert_non_null(profile_condition(&p, "net.interfaces"));
	assert_string_equal(profile_condition(&p, "workload.message_size"), "40 bytes");
	assert_string_equal(profile_condition(&p, "placement"), "client 0, server 0: same");
	assert_string_equal(profile_condition(&p, "replies.lost"), "3");
	assert_string_equal(profile_condition(&p, "replies.duplicate"), "2");
	assert_null(profile_condition(&p, "peer.responder"));
	profile_free(&p);
}

/* cpu.steal in bands of the workload's CPUs' time, so a tick is no change */
static void test_steal(void **state)
{
	struct profile_cpu c[2] = {
		{ .cpu = 0, .user_ns = 40, .idle_ns = 50, .other_ns = 10 },
		{ .cpu = 1, .user_ns = 100 },
	};
	static const struct { uint64_t steal; const char *want; } cases[] = {
		{ 0, "under 1% of the workload's CPUs' time" },
		{ 1, "under 1% of the workload's CPUs' time" },
		{ 2, "1% to 5% of the workload's CPUs' time" },
		{ 10, "5% to 20% of the workload's CPUs' time" },
		{ 40, "20% or more of the workload's CPUs' time" },
	};
	struct profile p;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&p, 0, sizeof(p));
		/* 200 ns in all: steal taken from idle */
		c[0].other_ns = cases[i].steal;
		c[0].idle_ns = 60 - cases[i].steal;
		p.cpu_times = c;
		p.ncpu_times = 2;
		conditions_steal(&p, -1, -1);
		assert_string_equal(profile_condition(&p, "cpu.steal"), cases[i].want);
		/* the workload on cpu 1 alone: cpu 0's steal is not its own */
		p.cpu_times = NULL;
		p.ncpu_times = 0;
		profile_free(&p);
		memset(&p, 0, sizeof(p));
		p.cpu_times = c;
		p.ncpu_times = 2;
		conditions_steal(&p, 1, 1);
		assert_string_equal(profile_condition(&p, "cpu.steal"),
				    "under 1% of the workload's CPUs' time");
		p.cpu_times = NULL;
		p.ncpu_times = 0;
		profile_free(&p);
	}
	memset(&p, 0, sizeof(p));
	conditions_steal(&p, -1, -1);
	assert_non_null(strstr(profile_condition(&p, "cpu.steal"), "unknown"));
	profile_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kconfig),
		cmocka_unit_test(test_pseudo_nmi),
		cmocka_unit_test(test_cpuinfo),
		cmocka_unit_test(test_text_size),
		cmocka_unit_test(test_capture),
		cmocka_unit_test(test_steal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
