// SPDX-License-Identifier: GPL-2.0-only
/*
 * reports/model/glance.c: the headline and the warnings at the top of every
 * report. Each warning is provoked by the profile field that should
 * trigger it, and a clean profile gets none.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "reports/model/model.h"
#include "reports/model/summary.h"
#include "report-fixture.h"

struct fixture {
	struct profile p;
	struct symbolizer *s;
	struct model m;
	struct summary sum;
	int cpus[2];
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct profile *p;

	assert_non_null(fx);
	p = &fx->p;
	p->transport = "udp";
	p->network = "loopback";
	p->client_cpu = 0;
	p->server_cpu = 1;
	p->mode = "software-clock";
	p->round_trips = 100;
	p->window_ns = 2000000000ull;
	p->latency = (struct latency_summary){
		.count = 100, .min = 4100, .p50 = 5300, .p90 = 7000,
		.p99 = 9800, .p999 = 20000, .max = 120400, .mean = 5600,
	};
	fx->cpus[0] = 0;
	fx->cpus[1] = 1;
	p->cpus = fx->cpus;
	p->ncpus_sampled = 2;
	p->events = calloc(1, sizeof(*p->events));
	add_event(p, "cpu-clock", "ns", 1000)->samples = 145;
	p->nsamples = sizeof(samples) / sizeof(samples[0]);
	p->samples = (struct profile_sample *)samples;
	assert_int_equal(symbolizer_open_entries(&fx->s, ksyms,
			 sizeof(ksyms) / sizeof(ksyms[0]), NULL), 0);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	summary_free(&fx->sum);
	model_free(&fx->m);
	symbolizer_close(fx->s);
	free(fx->p.events[0].name);
	free(fx->p.events[0].unit);
	free(fx->p.events);
	free(fx);
	return 0;
}

/* The glance of the fixture as it is now; its warnings joined by '|'. */
static const char *glance(struct fixture *fx)
{
	static char all[4096];
	size_t i;

	summary_free(&fx->sum);
	model_free(&fx->m);
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	memset(&fx->sum, 0, sizeof(fx->sum));
	summary_glance(&fx->sum, &fx->m);
	assert_false(fx->sum.oom);
	all[0] = 0;
	for (i = 0; i < fx->sum.nwarnings; i++) {
		strncat(all, fx->sum.warnings[i], sizeof(all) - strlen(all) - 2);
		strcat(all, "|");
	}
	return all;
}

static void test_headline_and_clean_run(void **state)
{
	struct fixture *fx = *state;

	assert_string_equal(glance(fx), "");
	/* busy = 1450 - 500 idle ns per RT, of which 40 (the unknown
	 * address) is another task's: the workload's 910, udp 750 of it
	 * the top bucket, the other tasks' 40 a figure apart */
	assert_non_null(fx->sum.headline);
	assert_non_null(strstr(fx->sum.headline,
		"udp over loopback: p50 5.30 us, p99 9.80 us; busy kernel 0.91 +- "));
	assert_non_null(strstr(fx->sum.headline,
		"us/RT; top bucket udp (82% of busy); other tasks 0.04 us/RT"));
}

static void test_interrupted_and_overran(void **state)
{
	struct fixture *fx = *state;

	fx->p.asked_window_ns = 5000000000ull;	/* ran 2 of 5 s */
	assert_non_null(strstr(glance(fx),
		"interrupted: the window ran 2.00 s of the 5.00 s asked (40%)"));
	fx->p.asked_window_ns = 1000000000ull;	/* ran 2 of 1 s */
	assert_non_null(strstr(glance(fx), "window overran: 2.00 s for the 1.00 s asked (+100%)"));
	fx->p.asked_window_ns = 2000000000ull;
	assert_string_equal(glance(fx), "");
	fx->p.asked_ns = 3000000000ull;		/* -d 20 that took 26 s */
	fx->p.wall_ns = 26000000000ull;
	assert_non_null(strstr(glance(fx), "run overran: it took 26.0 s for 3.0 s"));
	fx->p.wall_ns = 3500000000ull;		/* a little slow is fine */
	assert_string_equal(glance(fx), "");
}

static void test_losses_and_throttling(void **state)
{
	struct fixture *fx = *state;

	fx->p.events[0].lost = 1;		/* 1 of 146: 0.7% */
	assert_string_equal(glance(fx), "");
	fx->p.events[0].lost = 495;		/* 495 of 640 */
	assert_non_null(strstr(glance(fx), "77.3% of samples lost (495)"));
	fx->p.events[0].lost = 0;
	fx->p.events[0].throttled = 10;		/* no cpu_times: not idle-only */
	assert_non_null(strstr(glance(fx), "throttled 10 times (6.9% of samples)"));
}

static void test_unsampled_workload_cpu(void **state)
{
	struct fixture *fx = *state;

	fx->p.ncpus_sampled = 1;		/* record -C 0, responder on 1 */
	assert_non_null(strstr(glance(fx), "the responder's CPU 1 was not sampled"));
	fx->p.client_cpu = 1;
	assert_non_null(strstr(glance(fx), "the client's CPU 1 was not sampled"));
	fx->p.network = "peer";			/* the responder is elsewhere */
	fx->p.client_cpu = 0;
	assert_string_equal(glance(fx), "");
}

static void test_observer_effect(void **state)
{
	struct fixture *fx = *state;

	fx->p.latency_unsampled = (struct latency_summary){ .count = 50, .mean = 5400 };
	assert_string_equal(glance(fx), "");	/* +3.7% */
	fx->p.latency_unsampled.mean = 5000;	/* +12% */
	assert_non_null(strstr(glance(fx), "observer effect: the round trip is 12.0% longer"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_headline_and_clean_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_interrupted_and_overran, setup, teardown),
		cmocka_unit_test_setup_teardown(test_losses_and_throttling, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unsampled_workload_cpu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_observer_effect, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
