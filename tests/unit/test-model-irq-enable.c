// SPDX-License-Identifier: GPL-2.0-only
/*
 * reports/model/model-irq-enable.c and model-workload.c on a profile built by
 * hand: a sample at an irq-enable point charged to its caller through
 * the callchain, the idle task's samples idle unless interrupt work is
 * on their stack, the workload's busy time apart from other tasks', and
 * a helper's samples (siphash) in the bucket of the caller; the reason
 * a sample is charged (cpu-clock, arm64 PMU without pseudo-NMI) and none
 * for an NMI (x86, arm64 with pseudo-NMI); user-space skid set apart.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "reports/model/model.h"
#include "symbolize/symbolize.h"

static const struct sym_entry ksyms[] = {
	{ 0x1000, 0x100, 't', "udp_sendmsg", NULL },
	{ 0x2000, 0x100, 't', "pvm_irq_enable", NULL },
	{ 0x2100, 0x100, 't', "__raw_callee_save_pvm_irq_enable", NULL },
	{ 0x3000, 0x100, 't', "pvm_safe_halt_hc", NULL },
	{ 0x4000, 0x100, 't', "default_idle_call", NULL },
	{ 0x5000, 0x100, 't', "asm_sysvec_apic_timer_interrupt", NULL },
	{ 0x6000, 0x100, 't', "mystery_fn", NULL },
	{ 0x7000, 0x100, 't', "__siphash_unaligned", NULL },
	{ 0x7100, 0x100, 't', "hash_conntrack_raw", NULL },
	{ 0x7200, 0x100, 't', "get_rps_cpu", NULL },
};

/* cpu-clock at 1000 ns, 100 round trips, client and server on CPU 0 */
static const struct profile_sample samples[] = {
	/* at the irq-enable point: 100 ns/RT, all the caller's */
	{ 0, 0, 0x2010, ROLE_CLIENT, 10, 10000, 0, 0, 0, 0 },
	/* the halt no rule names: idle by context, 200 */
	{ 0, 0, 0x3010, ROLE_IDLE, 20, 20000, 0, 0, 0, 0 },
	/* a vague function of the idle task: half under an interrupt */
	{ 0, 0, 0x6010, ROLE_IDLE, 8, 8000, 0, 0, 0, 0 },
	/* no symbol, no stack, idle task: idle */
	{ 0, 0, 0x9000, ROLE_IDLE, 2, 2000, 0, 0, 0, 0 },
	/* another task on CPU 1 */
	{ 0, 1, 0x6010, ROLE_OTHER, 5, 5000, 0, 0, 0, 0 },
};

static uint64_t st_a[] = { 0x2010, 0x2110, 0x1010 };
static uint64_t st_b[] = { 0x2010, 0x1020 };
static uint64_t st_c[] = { 0x3010, 0x4010 };
static uint64_t st_d[] = { 0x6010, 0x5010, 0x3010, 0x4010 };
static uint64_t st_e[] = { 0x6010, 0x4010 };
static struct profile_stack stacks[] = {
	{ 0, ROLE_CLIENT, 3, 3000, 3, st_a, 0 },
	{ 0, ROLE_CLIENT, 1, 1000, 2, st_b, 0 },
	{ 0, ROLE_IDLE, 5, 5000, 2, st_c, 0 },
	{ 0, ROLE_IDLE, 1, 1000, 4, st_d, 0 },
	{ 0, ROLE_IDLE, 1, 1000, 2, st_e, 0 },
};

struct fixture {
	struct profile p;
	struct profile_event ev;
	struct profile_sample smp[8];
	struct symbolizer *s;
	struct model m;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	fx->p.mode = "software-clock";
	fx->p.round_trips = 100;
	fx->p.window_ns = 1000000000ull;
	fx->p.client_cpu = fx->p.server_cpu = 0;
	fx->ev.name = "cpu-clock";
	fx->ev.unit = "ns";
	fx->ev.period = 1000;
	fx->p.events = &fx->ev;
	fx->p.nevents = 1;
	memcpy(fx->smp, samples, sizeof(samples));
	fx->p.samples = fx->smp;
	fx->p.nsamples = sizeof(samples) / sizeof(samples[0]);
	fx->p.stacks = stacks;
	fx->p.nstacks = sizeof(stacks) / sizeof(stacks[0]);
	assert_int_equal(symbolizer_open_entries(&fx->s, ksyms,
		sizeof(ksyms) / sizeof(ksyms[0]), NULL), 0);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	model_free(&fx->m);
	symbolizer_close(fx->s);
	free(fx);
	return 0;
}

/* The per-RT value of function `name` in bucket `bucket`, 0 if no row. */
static double fn(const struct model *m, const char *name, const char *bucket)
{
	size_t i;

	for (i = 0; i < m->nfunctions; i++)
		if (!strcmp(m->functions[i].name, name) &&
		    !strcmp(m->functions[i].bucket, bucket))
			return m->functions[i].per_rt[0];
	return 0;
}

static void test_charged_to_caller(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_true(fabs(fn(&fx->m, "udp_sendmsg", "udp") - 100) < 1e-9);
	assert_true(fn(&fx->m, "pvm_irq_enable", "irq-enable") == 0);
	assert_true(fn(&fx->m, "__raw_callee_save_pvm_irq_enable",
		       "irq-enable") == 0);
	assert_int_equal(fx->m.pass_samples, 10);
	assert_int_equal(fx->m.pass_charged, 10);
	/* splitting keeps every total exact */
	assert_true(fabs(fx->m.total.per_rt[0] - 450) < 1e-9);
	assert_int_equal(fx->m.total.samples[0], 45);
}

static void test_idle_by_context(void **state)
{
	struct fixture *fx = *state;
	size_t i;

	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_true(fabs(fn(&fx->m, "pvm_safe_halt_hc", "idle") - 200) < 1e-9);
	for (i = 0; i < fx->m.nfunctions; i++)
		if (!strcmp(fx->m.functions[i].name, "pvm_safe_halt_hc"))
			assert_string_equal(fx->m.functions[i].rule,
					    MODEL_IDLE_CONTEXT_RULE);
	/* half of mystery_fn's idle-task time was under an interrupt */
	assert_true(fabs(fn(&fx->m, "mystery_fn", "idle") - 40) < 1e-9);
	assert_true(fabs(fn(&fx->m, "mystery_fn", "other") - 90) < 1e-9);
	assert_true(fabs(fn(&fx->m, MODEL_UNKNOWN_NAME, "idle") - 20) < 1e-9);
	/* busy: 450 - 200 - 40 - 20 */
	assert_true(fabs(fx->m.busy.per_rt[0] - 190) < 1e-9);
}

static void test_workload_apart(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_non_null(fx->m.workload);
	/* udp 100 and the interrupt work in idle context 40; the other
	 * task's 50 on CPU 1 apart */
	assert_true(fabs(fx->m.workload->busy.per_rt[0] - 140) < 1e-9);
	assert_true(fabs(model_other_tasks(&fx->m) - 50) < 1e-9);
	assert_non_null(model_bucket(fx->m.workload, "other"));
	assert_true(fabs(model_bucket(fx->m.workload, "other")->per_rt[0] - 40) <
		    1e-9);
}

static void test_hardware_not_charged(void **state)
{
	struct fixture *fx = *state;

	/* a PMU's sample lands where the time went: nothing is moved */
	fx->p.mode = "hardware";
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_true(fabs(fn(&fx->m, "pvm_irq_enable", "irq-enable") - 100) < 1e-9);
	assert_int_equal(fx->m.pass_charged, 0);
	/* the idle task is still read by its context */
	assert_true(fabs(fn(&fx->m, "pvm_safe_halt_hc", "idle") - 200) < 1e-9);
}

/* The reason a sample at an irq-enable point is charged, per case. */
static void test_cpu_clock_reason(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_non_null(fx->m.pass_reason);
	assert_string_equal(fx->m.pass_reason, "cpu-clock");
}

static void hw(struct fixture *fx, const char *machine)
{
	fx->p.mode = "hardware";
	fx->p.machine = (char *)machine;
	fx->ev.name = "cycles";
	fx->ev.unit = "cycles";
	fx->ev.type = 0;
}

/* arm64 without pseudo-NMI: the PMU's interrupt is masked with the
 * others, so the sample is its caller's, as with cpu-clock */
static void test_arm64_no_pseudo_nmi(void **state)
{
	static struct profile_condition cond[] = {
		{ "kernel.cmdline", "console=ttyAMA0 quiet" },
		{ PROFILE_COND_PSEUDO_NMI, "off (no irqchip.gicv3_pseudo_nmi=1 on the kernel command line)" },
	};
	struct fixture *fx = *state;

	hw(fx, "aarch64");
	fx->p.conditions = cond;
	fx->p.nconditions = 2;
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_non_null(fx->m.pass_reason);
	assert_string_equal(fx->m.pass_reason, "arm64 PMU without pseudo-NMI");
	assert_int_equal(fx->m.pass_charged, 10);
	assert_true(fabs(fn(&fx->m, "udp_sendmsg", "udp") - 100) < 1e-9);
	assert_true(fn(&fx->m, "pvm_irq_enable", "irq-enable") == 0);
	/* an older profile with no such condition: no cmdline flag, masked */
	model_free(&fx->m);
	fx->p.nconditions = 1;
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_int_equal(fx->m.pass_charged, 10);
}

/* arm64 with pseudo-NMI on: an NMI, nothing moves; an older profile
 * tells it by its boot command line */
static void test_arm64_pseudo_nmi(void **state)
{
	static struct profile_condition cond[] = {
		{ PROFILE_COND_PSEUDO_NMI, "on (irqchip.gicv3_pseudo_nmi=1, CONFIG_ARM64_PSEUDO_NMI=y)" },
	};
	static struct profile_condition old[] = {
		{ "kernel.cmdline", "root=/dev/vda irqchip.gicv3_pseudo_nmi=1" },
	};
	struct fixture *fx = *state;

	hw(fx, "aarch64");
	fx->p.conditions = cond;
	fx->p.nconditions = 1;
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_null(fx->m.pass_reason);
	assert_int_equal(fx->m.pass_charged, 0);
	assert_true(fabs(fn(&fx->m, "pvm_irq_enable", "irq-enable") - 100) < 1e-9);
	model_free(&fx->m);
	fx->p.conditions = old;
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_null(fx->m.pass_reason);
	assert_int_equal(fx->m.pass_charged, 0);
}

/* x86's PMU interrupt is an NMI: nothing moves */
static void test_x86_pmu(void **state)
{
	struct fixture *fx = *state;

	hw(fx, "x86_64");
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_null(fx->m.pass_reason);
	assert_int_equal(fx->m.pass_charged, 0);
	assert_true(fabs(fn(&fx->m, "pvm_irq_enable", "irq-enable") - 100) < 1e-9);
}

/* User-space samples of kernel-only sampling are skid: apart, in no
 * row; with user space sampled (--user) they are the user bucket. */
static void test_user_skid_apart(void **state)
{
	static const struct profile_sample us[] = {
		{ 0, 0, 0x1010, ROLE_CLIENT, 10, 10000, 0, 0, 0, 0 },
		{ 0, 0, PROFILE_USER_IP, ROLE_CLIENT, 30, 30000, 0, 0, 0, 0 },
	};
	struct fixture *fx = *state;

	hw(fx, "aarch64");
	memcpy(fx->smp, us, sizeof(us));
	fx->p.nsamples = 2;
	fx->p.nstacks = 0;
	fx->ev.user = 0;
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_int_equal(fx->m.skid_samples[0], 30);
	assert_int_equal(fx->m.skid_weight[0], 30000);
	assert_null(model_bucket(&fx->m, "user"));
	assert_null(model_bucket(fx->m.workload, "user"));
	assert_true(fabs(fx->m.busy.per_rt[0] - 100) < 1e-9);
	assert_true(fabs(fx->m.workload->busy.per_rt[0] - 100) < 1e-9);
	assert_int_equal(fx->m.total.samples[0], 10);
	model_free(&fx->m);
	/* an older profile (user unknown) recorded with --user */
	fx->ev.user = -1;
	fx->p.command = "perpkt record --user -o x.json";
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_int_equal(fx->m.skid_samples[0], 0);
	assert_non_null(model_bucket(&fx->m, "user"));
	assert_true(fabs(model_bucket(&fx->m, "user")->per_rt[0] - 300) < 1e-9);
	model_free(&fx->m);
	/* ... and without */
	fx->p.command = "perpkt record -o x.json";
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_int_equal(fx->m.skid_samples[0], 30);
}

static void test_no_callchains(void **state)
{
	struct fixture *fx = *state;

	fx->p.nstacks = 0;
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	/* at the point, uncharged; the idle task's vague samples idle */
	assert_true(fabs(fn(&fx->m, "pvm_irq_enable", "irq-enable") - 100) < 1e-9);
	assert_int_equal(fx->m.pass_samples, 10);
	assert_int_equal(fx->m.pass_charged, 0);
	assert_true(fabs(fn(&fx->m, "mystery_fn", "idle") - 80) < 1e-9);
}

/* siphash called by conntrack (3 of 4 stacks) and by RPS's flow hash:
 * each share in its caller's bucket, in any mode; without a callchain
 * in the helper's own bucket. */
static void test_helper_takes_caller_bucket(void **state)
{
	static const struct profile_sample hs[] = {
		{ 0, 0, 0x7010, ROLE_CLIENT, 10, 10000, 0, 0, 0, 0 },
	};
	static uint64_t st_ct[] = { 0x7010, 0x7110 };
	static uint64_t st_rps[] = { 0x7010, 0x7210 };
	static struct profile_stack hst[] = {
		{ 0, ROLE_CLIENT, 3, 3000, 2, st_ct, 0 },
		{ 0, ROLE_CLIENT, 1, 1000, 2, st_rps, 0 },
	};
	struct fixture *fx = *state;
	size_t i;
	int seen = 0;

	memcpy(fx->smp, hs, sizeof(hs));
	fx->p.nsamples = 1;
	fx->p.stacks = hst;
	fx->p.nstacks = 2;
	fx->p.mode = "hardware";
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_true(fabs(fn(&fx->m, "__siphash_unaligned", "netfilter") - 75) < 1e-9);
	assert_true(fabs(fn(&fx->m, "__siphash_unaligned", "net-core") - 25) < 1e-9);
	assert_true(fn(&fx->m, "__siphash_unaligned", "hash") == 0);
	for (i = 0; i < fx->m.nfunctions; i++)
		if (!strcmp(fx->m.functions[i].bucket, "netfilter")) {
			assert_non_null(strstr(fx->m.functions[i].rule,
				"(the bucket of its caller hash_conntrack_raw)"));
			seen = 1;
		}
	assert_true(seen);
	model_free(&fx->m);
	memset(&fx->m, 0, sizeof(fx->m));
	memcpy(fx->smp, hs, sizeof(hs));
	fx->p.nstacks = 0;
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_true(fabs(fn(&fx->m, "__siphash_unaligned", "hash") - 100) < 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_charged_to_caller, setup, teardown),
		cmocka_unit_test_setup_teardown(test_idle_by_context, setup, teardown),
		cmocka_unit_test_setup_teardown(test_workload_apart, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hardware_not_charged, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_callchains, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpu_clock_reason, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arm64_no_pseudo_nmi, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arm64_pseudo_nmi, setup, teardown),
		cmocka_unit_test_setup_teardown(test_x86_pmu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_user_skid_apart, setup, teardown),
		cmocka_unit_test_setup_teardown(test_helper_takes_caller_bucket, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
