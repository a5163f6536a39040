// SPDX-License-Identifier: GPL-2.0-only
/* Stalls set apart: from the recorder's histogram and a profile's. */
#include "profile/latency-stalls.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "workload/histogram.h"

static struct histogram *new_hist(void)
{
	struct histogram *h = malloc(sizeof(*h));

	assert_non_null(h);
	histogram_init(h);
	return h;
}

/* 100000 round trips of about 15 us and 3 stalls: one of 932 ms (seen
 * here) owns the mean; the mean without them is the others'. */
static void test_recorder_sets_stalls_apart(void **state)
{
	struct histogram *h = new_hist();
	struct latency_summary l;
	int i;

	(void)state;
	for (i = 0; i < 100000; i++)
		histogram_add(h, 14000 + (uint64_t)(i % 2001));
	histogram_add(h, 932000000);
	histogram_add(h, 300000);
	histogram_add(h, 149000);	/* a tail, under 10 x p50 */
	histogram_summary(h, &l);
	assert_true(l.mean > 24000);	/* 15 us and 9.3 us of stall per round trip */
	assert_true(l.stalls_known);
	assert_int_equal(l.stalls, 2);
	assert_true(l.stall_cut >= 140000 && l.stall_cut <= 160000);
	/* the others' mean: 15000 and the one tail round trip */
	assert_true(fabs(latency_basis(&l) - (15000.0 * 100000 + 149000) / 100001) < 20);
	/* 932.3 ms of the 2.43 s the round trips took */
	assert_true(latency_stall_share(&l) > 0.38 && latency_stall_share(&l) < 0.39);
	assert_true(latency_basis_sd(&l) < 1000);
	free(h);
}

/* Nothing over the cut: the basis is the mean itself. */
static void test_no_stalls(void **state)
{
	struct histogram *h = new_hist();
	struct latency_summary l;
	int i;

	(void)state;
	for (i = 0; i < 1000; i++)
		histogram_add(h, 10000 + (uint64_t)i);
	histogram_summary(h, &l);
	assert_true(l.stalls_known);
	assert_int_equal(l.stalls, 0);
	assert_true(fabs(latency_basis(&l) - l.mean) < 1e-6);
	assert_true(latency_stall_share(&l) == 0);
	free(h);
}

/* A profile's histogram (a fixture's, hand-made): the same rule; no p50
 * or nothing timed leaves it unknown and the basis the mean. */
static void test_profile_histogram(void **state)
{
	struct profile_hist_bucket b[] = {
		{ 95000, 95100, 998 }, { 2000000, 2000001, 1 },
		{ 400000000, 400000001, 1 },
	};
	struct latency_summary l = {
		.count = 1000, .min = 95000, .p50 = 95050, .max = 400000000,
		.stddev = 1e7,
	};

	(void)state;
	l.mean = (95050.0 * 998 + 2000000.5 + 400000000.5) / 1000;
	latency_set_apart_stalls_hist(&l, b, 3);
	assert_true(l.stalls_known);
	assert_int_equal(l.stalls, 2);
	assert_true(fabs(latency_basis(&l) - 95050) < 1);
	l.p50 = 0;
	latency_set_apart_stalls_hist(&l, b, 3);
	assert_false(l.stalls_known);
	assert_true(latency_basis(&l) == l.mean);
	l.count = 0;
	assert_true(latency_basis(&l) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorder_sets_stalls_apart),
		cmocka_unit_test(test_no_stalls),
		cmocka_unit_test(test_profile_histogram),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
