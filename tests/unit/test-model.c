// SPDX-License-Identifier: GPL-2.0-only
/*
 * reports/model/model.c: grouping, values per round trip, sorting, shares,
 * totals and the busy total, on a profile built by hand.
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
#include "report-fixture.h"

#define assert_near(a, b) assert_near_((a), (b), #a, __FILE__, __LINE__)

static void assert_near_(double a, double b, const char *expr,
			 const char *file, int line)
{
	if (!(fabs(a - b) <= 1e-9 * (1 + fabs(b)))) {
		print_error("%s = %.12g, expected %.12g\n", expr, a, b);
		_fail(file, line);
	}
}

struct fixture {
	struct profile p;
	struct symbolizer *s;
	struct model m;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	size_t i;

	assert_non_null(fx);
	fx->p.kernel_release = strdup("6.18.0-test");
	fx->p.mode = strdup("software-clock");
	fx->p.fallback_reason = strdup("cycles: ENOENT");
	fx->p.round_trips = 100;
	fx->p.window_ns = 2000000000ull;
	fx->p.events = calloc(MODEL_MAX_EVENTS + 1, sizeof(*fx->p.events));
	add_event(&fx->p, "cpu-clock", "ns", 1000);
	fx->p.nsamples = sizeof(samples) / sizeof(samples[0]);
	fx->p.samples = calloc(20000, sizeof(*fx->p.samples));
	memcpy(fx->p.samples, samples, sizeof(samples));
	fx->p.nksyms = sizeof(ksyms) / sizeof(ksyms[0]);
	fx->p.ksyms = calloc(fx->p.nksyms, sizeof(*fx->p.ksyms));
	for (i = 0; i < fx->p.nksyms; i++) {
		fx->p.ksyms[i].addr = ksyms[i].addr;
		fx->p.ksyms[i].size = ksyms[i].size;
		fx->p.ksyms[i].type = ksyms[i].type;
		fx->p.ksyms[i].name = strdup(ksyms[i].name);
	}
	assert_int_equal(symbolizer_open_entries(&fx->s, ksyms, fx->p.nksyms, NULL), 0);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	size_t i;

	model_free(&fx->m);
	symbolizer_close(fx->s);
	for (i = 0; i < fx->p.nevents; i++) {
		free(fx->p.events[i].name);
		free(fx->p.events[i].unit);
	}
	for (i = 0; i < fx->p.nksyms; i++)
		free(fx->p.ksyms[i].name);
	free(fx->p.events);
	free(fx->p.samples);
	free(fx->p.ksyms);
	free(fx->p.kernel_release);
	free(fx->p.mode);
	free(fx->p.fallback_reason);
	free(fx);
	return 0;
}

static const struct model_row *find_fn(const struct model *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nfunctions; i++)
		if (!strcmp(m->functions[i].name, name))
			return &m->functions[i];
	return NULL;
}

static void test_rows_sorted_with_exact_values(void **state)
{
	struct fixture *fx = *state;
	static const char *order[] = {
		"default_idle", "udp_sendmsg", "udp_recvmsg",
		"_raw_spin_unlock", MODEL_UNKNOWN_NAME,
		"a_very_long_function_name_that_will_never_fit_in_a_mail_column",
	};
	static const double per_rt[] = { 500, 500, 250, 150, 40, 10 };
	static const uint64_t nsamples[] = { 50, 50, 25, 15, 4, 1 };
	size_t i;

	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_int_equal(fx->m.nevents, 1);
	assert_int_equal(fx->m.no_round_trips, 0);
	/* two symbols of udp_recvmsg fold into one row: 7 symbols, 6 rows */
	assert_int_equal(fx->m.nfunctions, 6);
	for (i = 0; i < 6; i++) {
		const struct model_row *r = &fx->m.functions[i];

		assert_string_equal(r->name, order[i]);
		assert_near(r->per_rt[0], per_rt[i]);
		assert_near(r->weight[0], per_rt[i] * 100);
		assert_int_equal(r->samples[0], nsamples[i]);
	}
	/* 8 distinct ips, one of them in no symbol */
	assert_int_equal(fx->m.naddrs, 8);
	assert_int_equal(fx->m.nunknown, 1);
}

static void test_unknown_and_idle_buckets(void **state)
{
	struct fixture *fx = *state;
	const struct model_row *r;

	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	r = find_fn(&fx->m, MODEL_UNKNOWN_NAME);
	assert_non_null(r);
	assert_string_equal(r->bucket, MODEL_UNKNOWN_BUCKET);
	r = find_fn(&fx->m, "default_idle");
	assert_non_null(r);
	assert_string_equal(r->bucket, MODEL_IDLE_BUCKET);
	r = model_bucket(&fx->m, MODEL_IDLE_BUCKET);
	assert_non_null(r);
	assert_near(r->per_rt[0], 500);
	assert_null(model_bucket(&fx->m, "no-such-bucket"));
}

static void test_shares_and_cum(void **state)
{
	struct fixture *fx = *state;
	double cum = 0;
	size_t i;

	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	for (i = 0; i < fx->m.nfunctions; i++) {
		const struct model_row *r = &fx->m.functions[i];

		assert_near(r->share, r->weight[0] / 145000.0);
		cum += r->share;
		assert_near(r->cum, cum);
	}
	assert_near(fx->m.functions[0].share, 50.0 / 145);
	assert_near(fx->m.functions[fx->m.nfunctions - 1].cum, 1);
	assert_near(fx->m.total.share, 1);
}

static void test_totals_and_busy(void **state)
{
	struct fixture *fx = *state;
	const struct model *m = &fx->m;
	double fsum = 0, bsum = 0;
	uint64_t ssum = 0;
	size_t i, j;

	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	for (i = 0; i < m->nfunctions; i++) {
		fsum += m->functions[i].per_rt[0];
		ssum += m->functions[i].samples[0];
	}
	assert_near(m->total.per_rt[0], 1450);
	assert_near(m->total.per_rt[0], fsum);
	assert_int_equal(m->total.samples[0], 145);
	assert_int_equal(m->total.samples[0], ssum);
	/* busy leaves the idle bucket out */
	assert_near(m->busy.per_rt[0], 950);
	assert_int_equal(m->busy.samples[0], 95);
	assert_near(m->busy.share, 950.0 / 1450);

	/* each bucket is the sum of its functions, sorted like functions */
	for (j = 0; j < m->nbuckets; j++) {
		const struct model_row *b = &m->buckets[j];
		double sum = 0;

		for (i = 0; i < m->nfunctions; i++)
			if (!strcmp(m->functions[i].bucket, b->name))
				sum += m->functions[i].per_rt[0];
		assert_true(sum > 0);
		assert_near(b->per_rt[0], sum);
		bsum += b->per_rt[0];
		if (j)
			assert_true(m->buckets[j - 1].weight[0] >= b->weight[0]);
	}
	assert_near(bsum, m->total.per_rt[0]);
	assert_near(m->buckets[m->nbuckets - 1].cum, 1);
}

static void test_zero_round_trips(void **state)
{
	struct fixture *fx = *state;
	size_t i;

	fx->p.round_trips = 0;
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_int_equal(fx->m.no_round_trips, 1);
	assert_int_equal(fx->m.nfunctions, 6);
	for (i = 0; i < fx->m.nfunctions; i++) {
		assert_true(fx->m.functions[i].per_rt[0] == 0);
		assert_true(isfinite(fx->m.functions[i].share));
	}
	assert_true(fx->m.total.per_rt[0] == 0);
	assert_true(fx->m.busy.per_rt[0] == 0);
	/* shares do not need round trips and stay meaningful */
	assert_near(fx->m.functions[0].share, 50.0 / 145);
}

static void test_no_samples(void **state)
{
	struct fixture *fx = *state;

	fx->p.nsamples = 0;
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_int_equal(fx->m.nfunctions, 0);
	assert_int_equal(fx->m.nbuckets, 0);
	assert_int_equal(fx->m.total.samples[0], 0);
	assert_true(fx->m.total.share == 0);
	assert_true(fx->m.busy.per_rt[0] == 0);
}

static void test_two_events(void **state)
{
	struct fixture *fx = *state;
	struct profile_sample *s;
	const struct model_row *r;

	add_event(&fx->p, "instructions", "instructions", 2000);
	/* instructions retire elsewhere: all in udp_recvmsg and unlock */
	s = &fx->p.samples[fx->p.nsamples++];
	*s = (struct profile_sample){ 1, 0, 0x1111, ROLE_CLIENT, 3, 6000, 0, 0, 0, 0 };
	s = &fx->p.samples[fx->p.nsamples++];
	*s = (struct profile_sample){ 1, 0, 0x3010, ROLE_CLIENT, 1, 2000, 0, 0, 0, 0 };

	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_int_equal(fx->m.nevents, 2);
	/* sorting still follows event 0 */
	assert_string_equal(fx->m.functions[0].name, "default_idle");
	r = find_fn(&fx->m, "udp_recvmsg");
	assert_non_null(r);
	assert_near(r->per_rt[1], 60);
	assert_int_equal(r->samples[1], 3);
	assert_near(r->per_rt[0], 250);
	r = find_fn(&fx->m, "_raw_spin_unlock");
	assert_non_null(r);
	assert_near(r->per_rt[1], 20);
	assert_near(fx->m.total.per_rt[1], 80);
	assert_int_equal(fx->m.total.samples[1], 4);
	assert_true(find_fn(&fx->m, "default_idle")->per_rt[1] == 0);
	/* the distinct-address count covers both events */
	assert_int_equal(fx->m.naddrs, 9);
}

static void test_bad_event_index(void **state)
{
	struct fixture *fx = *state;

	fx->p.samples[3].event = 5;
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), -1);
	assert_int_equal(fx->m.nfunctions, 0);
	assert_null(fx->m.functions);
}

static void test_too_many_events(void **state)
{
	struct fixture *fx = *state;

	while (fx->p.nevents <= MODEL_MAX_EVENTS)
		add_event(&fx->p, "cpu-clock", "ns", 1000);
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), -1);
}

/* 20000 samples on 5000 ips: every ip resolved once, sums exact. */
static void test_many_samples(void **state)
{
	struct fixture *fx = *state;
	const struct model_row *r;
	size_t i, u = 0;

	fx->p.nsamples = 20000;
	for (i = 0; i < fx->p.nsamples; i++) {
		struct profile_sample *s = &fx->p.samples[i];

		/* a quarter on each of two 0x100-byte symbols, half unknown */
		s->event = 0;
		s->cpu = i % 2;
		s->role = ROLE_CLIENT;
		s->count = 1;
		s->weight = 1000;
		if (i % 4 == 0)
			s->ip = 0x1000 + (i / 4) % 0x100;
		else if (i % 4 == 1)
			s->ip = 0x2000 + (i / 4) % 0x100;
		else
			s->ip = 0x100000 + (u++ % 2500);
	}
	fx->p.round_trips = 1000;
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_int_equal(fx->m.naddrs, 0x100 + 0x100 + 2500);
	assert_int_equal(fx->m.nunknown, 2500);
	assert_int_equal(fx->m.nfunctions, 3);
	r = &fx->m.functions[0];
	assert_string_equal(r->name, MODEL_UNKNOWN_NAME);
	assert_int_equal(r->samples[0], 10000);
	assert_near(r->per_rt[0], 10000);
	assert_near(find_fn(&fx->m, "udp_sendmsg")->per_rt[0], 5000);
	assert_near(fx->m.total.per_rt[0], 20000);
	assert_near(fx->m.busy.per_rt[0], 15000);
}

static const struct model_row *find_row(const struct model *m,
					enum model_by by, const char *name)
{
	size_t i;

	for (i = 0; i < m->views[by].n; i++)
		if (!strcmp(m->views[by].rows[i].name, name))
			return &m->views[by].rows[i];
	return NULL;
}

/* Roles, with idle-task samples outside the idle loop apart; CPUs. */
static void test_roles_and_cpus(void **state)
{
	struct fixture *fx = *state;
	const struct model *m = &fx->m;
	struct profile_sample *s = &fx->p.samples[fx->p.nsamples++];

	/* softirq (udp_recvmsg) run in the idle task's context */
	*s = (struct profile_sample){ 0, 1, 0x1110, ROLE_IDLE, 5, 5000, 0, 0, 0, 0 };
	fx->p.cpus = calloc(3, sizeof(int));
	fx->p.cpus[0] = 0;
	fx->p.cpus[1] = 1;
	fx->p.cpus[2] = 2;
	fx->p.ncpus_sampled = 3;
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_int_equal(m->views[MODEL_BY_ROLE].n, MODEL_ROLE_WORKLOAD);
	assert_near(find_row(m, MODEL_BY_ROLE, "client")->per_rt[0], 410);
	assert_near(find_row(m, MODEL_BY_ROLE, "responder")->per_rt[0], 500);
	assert_near(find_row(m, MODEL_BY_ROLE, "idle")->per_rt[0], 500);
	assert_near(find_row(m, MODEL_BY_ROLE, "idle-ctx irq/softirq")->per_rt[0], 50);
	assert_near(find_row(m, MODEL_BY_ROLE, "other")->per_rt[0], 40);
	assert_near(find_row(m, MODEL_BY_ROLE, "perpkt")->per_rt[0], 0);
	/* CPU 2 was sampled and had nothing: still a row */
	assert_int_equal(m->views[MODEL_BY_CPU].n, 3);
	assert_near(find_row(m, MODEL_BY_CPU, "cpu 0")->per_rt[0], 950);
	assert_near(find_row(m, MODEL_BY_CPU, "cpu 1")->per_rt[0], 550);
	assert_near(find_row(m, MODEL_BY_CPU, "cpu 2")->per_rt[0], 0);
	/* kallsyms knows no files: one row */
	assert_int_equal(m->views[MODEL_BY_FILE].n, 1);
	assert_string_equal(m->views[MODEL_BY_FILE].rows[0].name, MODEL_NO_FILE);
	free(fx->p.cpus);
	fx->p.cpus = NULL;
}

static void test_error_bars_and_ipc(void **state)
{
	struct fixture *fx = *state;
	const struct model_row *r;

	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	r = find_fn(&fx->m, "udp_sendmsg");
	/* 50 samples, 500 ns/RT: Poisson error 500/sqrt(50) */
	assert_near(r->err[0], 500 / sqrt(50));
	assert_true(r->ipc < 0);
	assert_int_equal(fx->m.nrepeats, 1);
	model_free(&fx->m);

	free(fx->p.events[0].unit);
	fx->p.events[0].unit = strdup("cycles");
	add_event(&fx->p, "instructions", "instructions", 1000);
	fx->p.samples[fx->p.nsamples++] = (struct profile_sample){
		1, 0, 0x1010, ROLE_CLIENT, 100, 100000, 0, 0, 0, 0 };
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_near(find_fn(&fx->m, "udp_sendmsg")->ipc, 2.0);
	assert_true(fx->m.decomp.valid == 0);
}

static void test_decomposition(void **state)
{
	struct fixture *fx = *state;
	const struct model_decomp *d = &fx->m.decomp;
	struct profile_task tasks[2] = {
		{ ROLE_CLIENT, 10, 0, 300000, 10000, 50000, 250000, 200, 0 },
		{ ROLE_RESPONDER, 11, 1, 200000, 0, 0, 200000, 200, 0 },
	};
	struct profile_cpu cpus[2] = {
		{ 0, 100000, 400000, 0, 50000, 1000000, 0, 0, 0 },
		{ 1, 0, 200000, 0, 0, 1500000, 0, 2, 0 },
	};

	fx->p.latency.count = 100;
	fx->p.latency.mean = 10000;
	/* without tasks: kernel-only, from samples by role */
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_int_equal(d->valid, 1);
	assert_int_equal(d->from_tasks, 0);
	assert_near(d->rtt, 10000);
	assert_near(d->client, 410);
	assert_near(d->responder, 500);
	assert_near(d->rest, 10000 - 910);
	assert_near(d->service_demand, 950);  /* busy, kernel only */
	model_free(&fx->m);

	fx->p.tasks = tasks;
	fx->p.ntasks = 2;
	fx->p.cpu_times = cpus;
	fx->p.ncpu_times = 2;
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_int_equal(d->from_tasks, 1);
	assert_near(d->client, 3000);
	assert_near(d->responder, 2000);
	assert_near(d->rest, 5000);
	assert_near(d->client + d->responder + d->rest, d->rtt);
	assert_near(d->wait, 100);
	assert_near(d->switches, 4);
	assert_near(d->service_demand, 7500);
	/* 7.5 us x 50 RT/s = 0.000375 CPUs */
	assert_near(fx->m.recon.busy_cpus, 7500 * 50 / 1e9);
	/* cpu 0: 95 ms sampled, of which 50 idle loop, vs 0.45 ms kernel */
	assert_int_equal(fx->m.recon.ncpus, 2);
	assert_int_equal(fx->m.recon.cpus[0].cpu, 0);
	assert_near(fx->m.recon.cpus[0].sampled_busy, 45000);
	assert_near(fx->m.recon.cpus[0].kernel, 450000);
	/* a 10x gap, but of 0.4 ms: below /proc/stat's 10 ms ticks */
	assert_int_equal(fx->m.recon.cpus[0].flagged, 0);
	assert_int_equal(fx->m.recon.cpus[1].lost, 2);
	model_free(&fx->m);
	/* the same gap at 1000 times the scale is a finding */
	cpus[0].system_ns *= 1000;
	cpus[0].softirq_ns *= 1000;
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_near(fx->m.recon.cpus[0].kernel, 450000000);
	assert_int_equal(fx->m.recon.cpus[0].flagged, 1);
	assert_int_equal(fx->m.recon.flagged, 1);
	assert_near(d->span_scale, 0);
	model_free(&fx->m);
	/* read 2.5 s apart around a 2 s window: CPU times scaled by 0.8 */
	tasks[0].span_ns = tasks[1].span_ns = 2500000000ull;
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_near(d->span_scale, 0.8);
	assert_near(d->client, 2400);
	assert_near(d->responder, 1600);
	assert_near(d->rest, 6000);
	assert_near(d->client + d->responder + d->rest, d->rtt);
	model_free(&fx->m);
	tasks[0].span_ns = tasks[1].span_ns = 0;
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	fx->p.tasks = NULL;
	fx->p.ntasks = 0;
	fx->p.cpu_times = NULL;
	fx->p.ncpu_times = 0;
}

static void test_sort_keys(void **state)
{
	struct fixture *fx = *state;
	size_t i;

	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_int_equal(model_sort(&fx->m, "name"), 0);
	for (i = 1; i < fx->m.nfunctions; i++)
		assert_true(strcmp(fx->m.functions[i - 1].name,
				   fx->m.functions[i].name) < 0);
	assert_near(fx->m.functions[fx->m.nfunctions - 1].cum, 1);
	assert_int_equal(model_sort(&fx->m, "samples"), 0);
	assert_int_equal(model_sort(&fx->m, "cpu-clock"), 0);
	assert_string_equal(fx->m.functions[0].name, "default_idle");
	assert_int_equal(model_sort(&fx->m, "no-such-key"), -1);
	assert_int_equal(model_by_parse("cpu"), MODEL_BY_CPU);
	assert_int_equal(model_by_parse("nope"), -1);
}

static void test_callers(void **state)
{
	struct fixture *fx = *state;
	uint64_t a[3] = { 0x1110, 0x1010, 0x4010 };  /* recv <- send <- long */
	uint64_t b[2] = { 0x1110, 0x3010 };          /* recv <- unlock */
	struct profile_stack st[2] = {
		{ 0, ROLE_CLIENT, 3, 3000, 3, a, 0 },
		{ 0, ROLE_CLIENT, 1, 1000, 2, b, 0 },
	};

	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_int_equal(model_callers(&fx->m, "udp_recvmsg"), -1);
	model_free(&fx->m);

	fx->p.stacks = st;
	fx->p.nstacks = 2;
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_int_equal(fx->m.nstacks, 2);
	assert_int_equal(model_callers(&fx->m, "udp_recvmsg"), 0);
	assert_int_equal(fx->m.callers.n, 2);
	assert_string_equal(fx->m.callers.rows[0].name, "udp_sendmsg");
	assert_near(fx->m.callers.rows[0].share, 0.75);
	assert_near(fx->m.callee.per_rt[0], 40);
	assert_int_equal(model_callers(&fx->m, "absent_fn"), -1);
	fx->p.stacks = NULL;
	fx->p.nstacks = 0;
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_rows_sorted_with_exact_values),
		T(test_unknown_and_idle_buckets),
		T(test_shares_and_cum),
		T(test_totals_and_busy),
		T(test_zero_round_trips),
		T(test_no_samples),
		T(test_two_events),
		T(test_bad_event_index),
		T(test_too_many_events),
		T(test_many_samples),
		T(test_roles_and_cpus),
		T(test_error_bars_and_ipc),
		T(test_decomposition),
		T(test_sort_keys),
		T(test_callers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
