// SPDX-License-Identifier: GPL-2.0-only
/* One quantile rule: the profile's buckets, as record writes them, give
 * the values the recorder's own histogram gave. */
#include "profile/histogram-quantile.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "workload/histogram.h"

static void test_profile_buckets_agree(void **state)
{
	static const double qs[] = { 0.001, 0.25, 0.5, 0.9, 0.99, 0.999, 0.9999 };
	struct histogram *h = malloc(sizeof(*h));
	struct profile_hist_bucket *b;
	struct latency_summary l;
	uint64_t v;
	size_t n, i;

	assert_non_null(h);
	histogram_init(h);
	for (v = 1; v < 200000; v = v * 17 / 16 + 3)
		histogram_add(h, v * 11);
	histogram_add(h, UINT64_MAX);	/* the top bucket, whose hi wraps */
	histogram_summary(h, &l);
	assert_int_equal(histogram_export(h, &b, &n), 0);
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		assert_int_equal(profile_histogram_quantile(b, n, &l, qs[i]),
				 histogram_quantile(h, qs[i]));
	assert_int_equal(profile_histogram_quantile(b, n, &l, 0), l.min);
	assert_int_equal(profile_histogram_quantile(b, n, &l, 1), UINT64_MAX);
	free(b);
	free(h);
}

static void test_empty(void **state)
{
	struct latency_summary l = { 0 };

	assert_int_equal(profile_histogram_quantile(NULL, 0, &l, 0.5), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile_buckets_agree),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
