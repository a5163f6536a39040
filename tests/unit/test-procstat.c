// SPDX-License-Identifier: GPL-2.0-only
/* /proc/stat, /proc/interrupts and /proc/softirqs parsing and deltas. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "system/procstat.h"

static const char stat_a[] =
	"cpu  100 0 50 1000 0 1 2 0 0 0\n"
	"cpu0 60 0 30 500 0 1 1 0 0 0\n"
	"cpu1 40 0 20 500 0 0 1 0 0 0\n"
	"intr 12345\n";
static const char stat_b[] =
	"cpu  200 0 100 1100 0 1 2 0 0 0\n"
	"cpu0 110 0 60 540 0 1 1 0 0 0\n"
	"cpu1 90 0 40 560 0 0 11 3 0 0\n"
	"intr 12345\n";

static const char irq_a[] =
	"           CPU0       CPU1       \n"
	"  1:          9          0   IO-APIC   1-edge      i8042\n"
	" 24:        100        200   PCI-MSI 49152-edge      virtio0-input.0\n"
	"LOC:       1000       2000   Local timer interrupts\n"
	"ERR:          0\n";
static const char irq_b[] =
	"           CPU0       CPU1       \n"
	"  1:          9          0   IO-APIC   1-edge      i8042\n"
	" 24:        100        250   PCI-MSI 49152-edge      virtio0-input.0\n"
	"LOC:       1010       2500   Local timer interrupts\n"
	"ERR:          0\n";
static const char sirq_a[] =
	"                    CPU0       CPU1\n"
	"          HI:          0          0\n"
	"      NET_RX:         10     100000\n"
	"       TIMER:          5          7\n";
static const char sirq_b[] =
	"                    CPU0       CPU1\n"
	"          HI:          0          0\n"
	"      NET_RX:         10     300000\n"
	"       TIMER:          5         17\n";

static void snapshot(struct procstat *s, const char *st, const char *irq,
		     const char *sirq)
{
	memset(s, 0, sizeof(*s));
	assert_int_equal(procstat_parse_stat(st, s), 0);
	assert_int_equal(procstat_parse_irqs(irq, "irq", s), 0);
	assert_int_equal(procstat_parse_irqs(sirq, "softirq", s), 0);
}

static uint64_t ns(uint64_t ticks)
{
	return ticks * (1000000000ULL / (uint64_t)sysconf(_SC_CLK_TCK));
}

static const struct profile_irq *find_irq(const struct profile *p,
					  const char *name, int cpu)
{
	size_t i;

	for (i = 0; i < p->nirqs; i++)
		if (!strcmp(p->irqs[i].name, name) && p->irqs[i].cpu == cpu)
			return &p->irqs[i];
	return NULL;
}

static void test_parse_stat(void **state)
{
	struct procstat s;

	snapshot(&s, stat_a, irq_a, sirq_a);
	assert_int_equal(s.ncpus, 2);   /* the "cpu " total line is not a CPU */
	assert_int_equal(s.col_cpu[1], 1);
	assert_int_equal(s.cpu[0].user_ns, ns(60));
	assert_int_equal(s.cpu[0].idle_ns, ns(500));
	assert_int_equal(s.cpu[1].softirq_ns, ns(1));
	assert_int_equal(s.nrows, 4 + 3);
	assert_string_equal(s.rows[1].name, "24");
	assert_string_equal(s.rows[1].desc, "PCI-MSI 49152-edge      virtio0-input.0");
	assert_int_equal(s.rows[1].counts[1], 200);
	assert_string_equal(s.rows[3].name, "ERR");
	assert_int_equal(s.rows[3].counts[0], 0);
	assert_string_equal(s.rows[5].name, "NET_RX");
	assert_string_equal(s.rows[5].kind, "softirq");
	assert_int_equal(s.rows[5].counts[1], 100000);
	procstat_free(&s);
}

static void test_delta(void **state)
{
	struct procstat a, b;
	struct profile p;
	int cpus[] = { 1 };
	const struct profile_irq *q;

	snapshot(&a, stat_a, irq_a, sirq_a);
	snapshot(&b, stat_b, irq_b, sirq_b);
	memset(&p, 0, sizeof(p));
	assert_int_equal(procstat_delta(&a, &b, cpus, 1, &p), 0);
	assert_int_equal(p.ncpu_times, 1);
	assert_int_equal(p.cpu_times[0].cpu, 1);
	assert_int_equal(p.cpu_times[0].user_ns, ns(50));
	assert_int_equal(p.cpu_times[0].system_ns, ns(20));
	assert_int_equal(p.cpu_times[0].idle_ns, ns(60));
	assert_int_equal(p.cpu_times[0].softirq_ns, ns(10));
	assert_int_equal(p.cpu_times[0].other_ns, ns(3));
	/* only CPU 1, only what changed */
	q = find_irq(&p, "NET_RX", 1);
	assert_non_null(q);
	assert_int_equal(q->count, 200000);
	assert_string_equal(q->kind, "softirq");
	q = find_irq(&p, "24", 1);
	assert_non_null(q);
	assert_int_equal(q->count, 50);
	assert_non_null(strstr(q->desc, "virtio0-input.0"));
	assert_int_equal(find_irq(&p, "LOC", 1)->count, 500);
	assert_int_equal(find_irq(&p, "TIMER", 1)->count, 10);
	assert_null(find_irq(&p, "HI", 1));
	assert_null(find_irq(&p, "LOC", 0));
	assert_int_equal(p.nirqs, 4);
	procstat_free(&a);
	procstat_free(&b);
	profile_free(&p);
}

static void test_live_snapshot_of_self(void **state)
{
	struct procstat a, b;
	struct profile p;
	int cpus[] = { 0 };
	volatile uint64_t spin = 0;
	uint64_t i;

	assert_int_equal(procstat_take(&a, getpid(), -1), 0);
	for (i = 0; i < 50000000; i++)
		spin += i;
	assert_int_equal(procstat_take(&b, getpid(), -1), 0);
	memset(&p, 0, sizeof(p));
	assert_int_equal(procstat_delta(&a, &b, cpus, 1, &p), 0);
	assert_int_equal(p.ntasks, 1);
	assert_int_equal(p.tasks[0].role, ROLE_CLIENT);
	assert_int_equal(p.tasks[0].pid, getpid());
	assert_true(p.tasks[0].cpu_ns > 1000000);  /* the spin took > 1 ms */
	procstat_free(&a);
	procstat_free(&b);
	profile_free(&p);
}

static void test_bad_input(void **state)
{
	struct procstat s;

	memset(&s, 0, sizeof(s));
	assert_int_equal(procstat_parse_stat("intr 1\n", &s), -1);
	procstat_free(&s);
	memset(&s, 0, sizeof(s));
	assert_int_equal(procstat_parse_stat(stat_a, &s), 0);
	assert_int_equal(procstat_parse_irqs("no header\n 1: 2 3\n", "irq", &s), -1);
	procstat_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_stat),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_live_snapshot_of_self),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
