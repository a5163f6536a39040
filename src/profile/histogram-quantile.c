// SPDX-License-Identifier: GPL-2.0-only
#include "profile/histogram-quantile.h"

#include <math.h>

uint64_t quantile_of_buckets(const struct quantile_buckets *b, double q)
{
	uint64_t rank, seen = 0, lo, hi, mid;
	size_t i;

	if (b->count == 0)
		return 0;
	if (!(q > 0))		/* also catches NaN */
		return b->min;
	if (q >= 1)
		return b->max;

	/* the smallest value with at least q * count values at or below it */
	rank = (uint64_t)ceil(q * (double)b->count);
	if (rank == 0)
		rank = 1;
	for (i = 0; i < b->n; i++) {
		seen += b->held(b->h, i);
		if (seen >= rank)
			break;
	}
	if (i == b->n)
		return b->max;
	b->bounds(b->h, i, &lo, &hi);
	mid = lo + (hi - lo) / 2;
	if (mid < b->min)
		return b->min;
	if (mid > b->max)
		return b->max;
	return mid;
}

static uint64_t profile_held(const void *h, size_t i)
{
	return ((const struct profile_hist_bucket *)h)[i].count;
}

static void profile_bounds(const void *h, size_t i, uint64_t *lo, uint64_t *hi)
{
	const struct profile_hist_bucket *b = h;

	*lo = b[i].lo;
	*hi = b[i].hi;
}

uint64_t profile_histogram_quantile(const struct profile_hist_bucket *buckets,
				    size_t n, const struct latency_summary *l,
				    double q)
{
	struct quantile_buckets b = {
		.n = n, .held = profile_held, .bounds = profile_bounds,
		.h = buckets, .count = l->count, .min = l->min, .max = l->max,
	};

	return quantile_of_buckets(&b, q);
}
