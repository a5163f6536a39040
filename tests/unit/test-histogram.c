// SPDX-License-Identifier: GPL-2.0-only
#include "workload/histogram.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

static void assert_within(uint64_t got, uint64_t want, double bound)
{
	double rel = fabs((double)got - (double)want) / (double)want;

	if (rel >= bound)
		fail_msg("got %llu, want %llu (relative error %.4f >= %.4f)",
			 (unsigned long long)got, (unsigned long long)want,
			 rel, bound);
}

/* The bound histogram.h promises for a quantile's relative error. */
static void assert_close(uint64_t got, uint64_t want)
{
	assert_within(got, want, 1.0 / HIST_SUB);
}

static struct histogram *new_hist(void)
{
	struct histogram *h = malloc(sizeof(*h));

	assert_non_null(h);
	histogram_init(h);
	return h;
}

static void test_empty(void **state)
{
	struct histogram *h = new_hist();
	struct latency_summary s;

	assert_int_equal(histogram_quantile(h, 0.5), 0);
	assert_int_equal(histogram_quantile(h, 0), 0);
	assert_int_equal(histogram_quantile(h, 1), 0);
	histogram_summary(h, &s);
	assert_int_equal(s.count, 0);
	assert_int_equal(s.min, 0);
	assert_int_equal(s.max, 0);
	assert_int_equal(s.p50, 0);
	assert_int_equal(s.p999, 0);
	assert_false(isnan(s.mean));
	assert_false(isnan(s.stddev));
	assert_true(s.mean == 0 && s.stddev == 0);
	free(h);
}

static void test_constant(void **state)
{
	struct histogram *h = new_hist();
	struct latency_summary s;
	int i;

	for (i = 0; i < 100000; i++)
		histogram_add(h, 5321);
	histogram_summary(h, &s);
	assert_int_equal(s.count, 100000);
	assert_int_equal(s.min, 5321);
	assert_int_equal(s.max, 5321);
	/* clamping to [min, max] makes every quantile exact here */
	assert_int_equal(s.p50, 5321);
	assert_int_equal(s.p90, 5321);
	assert_int_equal(s.p99, 5321);
	assert_int_equal(s.p999, 5321);
	assert_true(fabs(s.mean - 5321) < 1e-9);
	assert_true(s.stddev >= 0 && s.stddev < 1e-3);
	free(h);
}

static void test_uniform(void **state)
{
	static const double qs[] = { 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999 };
	const uint64_t n = 100000;
	struct histogram *h = new_hist();
	struct latency_summary s;
	uint64_t v;
	size_t i;

	for (v = 1; v <= n; v++)
		histogram_add(h, v);
	/* a bucket's midpoint is within half its width of any value in it */
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		assert_within(histogram_quantile(h, qs[i]),
			      (uint64_t)ceil(qs[i] * n), 0.5 / HIST_SUB + 1e-4);
	assert_int_equal(histogram_quantile(h, 0), 1);
	assert_int_equal(histogram_quantile(h, 1), n);

	histogram_summary(h, &s);
	assert_int_equal(s.count, n);
	assert_int_equal(s.min, 1);
	assert_int_equal(s.max, n);
	assert_close(s.p50, 50000);
	assert_close(s.p90, 90000);
	assert_close(s.p99, 99000);
	assert_close(s.p999, 99900);
	/* exact moments: mean (n+1)/2, population stddev sqrt((n^2-1)/12) */
	assert_true(fabs(s.mean - 50000.5) < 1e-6);
	assert_true(fabs(s.stddev - sqrt(((double)n * n - 1) / 12)) < 1e-3);
	free(h);
}

static void test_two_point(void **state)
{
	struct histogram *h = new_hist();
	struct latency_summary s;
	double mean, sd;
	int i;

	for (i = 0; i < 900; i++)
		histogram_add(h, 1000);
	for (i = 0; i < 100; i++)
		histogram_add(h, 1000000);
	histogram_summary(h, &s);
	assert_int_equal(s.min, 1000);
	assert_int_equal(s.max, 1000000);
	assert_close(s.p50, 1000);
	assert_close(s.p90, 1000);	/* rank 900 is the last short one */
	assert_close(histogram_quantile(h, 0.901), 1000000);
	assert_close(s.p99, 1000000);
	assert_int_equal(s.p999, 1000000);
	mean = (900.0 * 1000 + 100.0 * 1000000) / 1000;
	sd = sqrt(0.9 * 0.1) * (1000000 - 1000);
	assert_true(fabs(s.mean - mean) < 1e-6);
	assert_true(fabs(s.stddev - sd) < 1e-3 * sd);
	free(h);
}

static void test_small_values_exact(void **state)
{
	struct histogram *h = new_hist();
	uint64_t v;

	/* below HIST_SUB every value has its own bucket */
	for (v = 0; v < HIST_SUB; v++)
		histogram_add(h, v);
	for (v = 1; v <= HIST_SUB; v++)
		assert_int_equal(histogram_quantile(h, (double)v / HIST_SUB),
				 v - 1);
	free(h);
}

static void test_full_range(void **state)
{
	struct histogram *h;
	int bit;

	/* every power of two and its neighbours, up to the top bucket */
	for (bit = HIST_SUB_BITS; bit < 64; bit++) {
		uint64_t vals[] = { (1ull << bit) - 1, 1ull << bit,
				    (1ull << bit) + (1ull << bit) / 3 };
		size_t i;

		for (i = 0; i < 3; i++) {
			h = new_hist();
			histogram_add(h, 1);
			histogram_add(h, vals[i]);
			histogram_add(h, UINT64_MAX);
			assert_close(histogram_quantile(h, 0.5), vals[i]);
			assert_int_equal(histogram_quantile(h, 1), UINT64_MAX);
			free(h);
		}
	}
}

/* The case: a 0.1% shift of a 13 us round trip must move p50
 * (with 32 sub-buckets, 256 ns wide there, it did not). */
static void test_resolves_a_tenth_percent(void **state)
{
	struct histogram *a = new_hist(), *b = new_hist();
	struct latency_summary sa, sb;
	uint64_t i;

	assert_true(HIST_SUB >= 1024);
	for (i = 0; i < 100000; i++) {
		uint64_t v = 13000 + (i * 7919) % 1000;	/* 13.0-14.0 us */

		histogram_add(a, v);
		histogram_add(b, v + v / 1000);		/* +0.1% */
	}
	histogram_summary(a, &sa);
	histogram_summary(b, &sb);
	assert_true(sb.p50 > sa.p50);
	assert_within(sb.p50, sa.p50 + sa.p50 / 1000, 0.0005);
	assert_true(sb.p9999 > sa.p9999);
	assert_true(sa.p9999 >= sa.p999 && sa.p9999 <= sa.max);
	free(a);
	free(b);
}

/* A copy caught half-way through an add is told from a whole one: its
 * sums and count with the value, its bucket not yet, or the other way. */
static void test_whole(void **state)
{
	static struct histogram h;
	uint64_t b;

	(void)state;
	histogram_init(&h);
	assert_true(histogram_whole(&h));
	histogram_add(&h, 20000);
	histogram_add(&h, 623615000);
	assert_true(histogram_whole(&h));
	h.count++;
	assert_false(histogram_whole(&h));
	h.count--;
	for (b = 0; b < HIST_BUCKETS && !h.bucket[b]; b++)
		;
	h.bucket[b]++;
	assert_false(histogram_whole(&h));
}

static int all_zero(const struct histogram *h)
{
	unsigned int i;

	for (i = 0; i < HIST_BUCKETS; i++)
		if (h->bucket[i])
			return 0;
	return 1;
}

/* Copy, merge, since and clear walk only the buckets in use (min to
 * max): what they leave must be what a walk of every bucket left, with
 * no count of an earlier content behind (a copy over a histogram that
 * held other values, a since down to nothing). */
static void test_range_walks(void **state)
{
	static struct histogram a, b, ab, live, t, snap;
	uint64_t x = 88172645463325252ULL;
	int i;

	(void)state;
	for (i = 0; i < 5000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		histogram_add(&a, 10000 + x % 10000);
		histogram_add(&ab, 10000 + x % 10000);
		histogram_add(&live, 10000 + x % 10000);
	}
	histogram_copy(&snap, &live);
	for (i = 0; i < 300; i++) {
		histogram_add(&b, 500 + (uint64_t)i);
		histogram_add(&ab, 500 + (uint64_t)i);
		histogram_add(&live, 500 + (uint64_t)i);
	}
	histogram_add(&b, 1000000);
	histogram_add(&ab, 1000000);
	histogram_add(&live, 1000000);

	histogram_copy(&t, &a);
	assert_memory_equal(&t, &a, sizeof(t));
	histogram_copy(&t, &b);		/* a's buckets gone */
	assert_memory_equal(&t, &b, sizeof(t));
	histogram_copy(&t, &a);
	histogram_merge(&t, &b);
	assert_memory_equal(t.bucket, ab.bucket, sizeof(t.bucket));
	assert_int_equal(t.count, ab.count);
	assert_int_equal(t.min, ab.min);
	assert_int_equal(t.max, ab.max);
	assert_true(histogram_whole(&t));

	/* what came since the snapshot: b's values, bounds and all */
	histogram_since(&live, &snap);
	assert_memory_equal(live.bucket, b.bucket, sizeof(b.bucket));
	assert_int_equal(live.count, b.count);
	assert_int_equal(live.min, b.min);
	assert_int_equal(live.max, b.max);
	/* nothing since: every bucket empty, not only the range's */
	histogram_copy(&snap, &live);
	histogram_since(&live, &snap);
	assert_int_equal(live.count, 0);
	assert_true(all_zero(&live));
	histogram_copy(&t, &b);
	histogram_clear(&t);
	assert_true(all_zero(&t) && t.count == 0 && t.max == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_constant),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_two_point),
		cmocka_unit_test(test_small_values_exact),
		cmocka_unit_test(test_full_range),
		cmocka_unit_test(test_resolves_a_tenth_percent),
		cmocka_unit_test(test_whole),
		cmocka_unit_test(test_range_walks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
