// SPDX-License-Identifier: GPL-2.0-only
/* Round trips set apart as stalls (see the header for why). */
#include "profile/latency-stalls.h"

#include <math.h>

void latency_set_apart_stalls(struct latency_summary *l,
			      const struct quantile_buckets *b)
{
	uint64_t cut = l->p50 * LATENCY_STALL_FACTOR, n = 0, kn = 0;
	double sum = 0, ksum = 0, ksumsq = 0, kmean, var;
	size_t i;

	l->stalls_known = 0;
	if (!l->count || !l->p50 || l->mean <= 0)
		return;
	for (i = 0; i < b->n; i++) {
		uint64_t held = b->held(b->h, i), lo, hi;
		double mid;

		if (!held)
			continue;
		b->bounds(b->h, i, &lo, &hi);
		mid = lo + (hi > lo ? (double)(hi - lo) / 2 : 0);
		if (lo < cut) {
			/* the others' spread from their own buckets: the
			 * summary's less the stalls' would be all rounding */
			kn += held;
			ksum += mid * (double)held;
			ksumsq += mid * mid * (double)held;
			continue;
		}
		/* within the slowest round trip */
		if (l->max && mid > (double)l->max)
			mid = (double)l->max;
		n += held;
		sum += mid * (double)held;
	}
	if (n >= l->count || !kn)
		return;
	l->stalls = n;
	l->stall_cut = cut;
	l->stall_ns = sum;
	l->mean_kept = (l->mean * (double)l->count - sum) / (double)(l->count - n);
	if (l->mean_kept < 0)	/* a histogram that disagrees with the mean */
		return;
	/* population variance, as the summary's own */
	kmean = ksum / (double)kn;
	var = ksumsq / (double)kn - kmean * kmean;
	l->sd_kept = var > 0 ? sqrt(var) : 0;
	l->stalls_known = 1;
}

static uint64_t profile_held(const void *h, size_t i)
{
	return ((const struct profile_hist_bucket *)h)[i].count;
}

static void profile_bounds(const void *h, size_t i, uint64_t *lo, uint64_t *hi)
{
	*lo = ((const struct profile_hist_bucket *)h)[i].lo;
	*hi = ((const struct profile_hist_bucket *)h)[i].hi;
}

void latency_set_apart_stalls_hist(struct latency_summary *l,
				   const struct profile_hist_bucket *h,
				   size_t n)
{
	struct quantile_buckets b = {
		.n = n, .held = profile_held, .bounds = profile_bounds, .h = h,
		.count = l->count, .min = l->min, .max = l->max,
	};

	latency_set_apart_stalls(l, &b);
}

double latency_basis(const struct latency_summary *l)
{
	if (!l->count)
		return 0;
	return l->stalls_known ? l->mean_kept : l->mean;
}

double latency_stall_share(const struct latency_summary *l)
{
	double all = l->mean * (double)l->count;

	return l->stalls_known && all > 0 ? l->stall_ns / all : 0;
}

double latency_basis_sd(const struct latency_summary *l)
{
	return l->stalls_known ? l->sd_kept : l->stddev;
}
