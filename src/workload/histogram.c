// SPDX-License-Identifier: GPL-2.0-only
#include "workload/histogram.h"

#include <stdlib.h>

#include <math.h>
#include <string.h>

#include "profile/histogram-quantile.h"
#include "profile/latency-stalls.h"

/*
 * Bucket layout: values below HIST_SUB get a bucket each (width 1).
 * Above, a value whose top bit is bit b (b >= HIST_SUB_BITS) lies in
 * range r = b - HIST_SUB_BITS + 1 and is split into HIST_SUB buckets of
 * width 2^(r - 1), so a bucket is never wider than 1/HIST_SUB of its
 * lower bound.
 */
static unsigned int bucket_index(uint64_t v)
{
	unsigned int shift;

	if (v < HIST_SUB)
		return (unsigned int)v;
	shift = 63 - __builtin_clzll(v) - HIST_SUB_BITS;
	return (shift + 1) * HIST_SUB + (unsigned int)(v >> shift) - HIST_SUB;
}

static uint64_t bucket_lower(unsigned int i, uint64_t *width)
{
	unsigned int range = i / HIST_SUB, sub = i % HIST_SUB;

	if (range == 0) {
		*width = 1;
		return sub;
	}
	*width = 1ull << (range - 1);
	return (uint64_t)(HIST_SUB + sub) << (range - 1);
}

void histogram_init(struct histogram *h)
{
	memset(h, 0, sizeof(*h));
}

/* The buckets that may hold counts, [*lo, *hi], from min and max; 0 when
 * none may. Every function here keeps h's counts in that range, so what
 * copies, merges or clears a histogram walks only that: a window's
 * latencies fill a few thousand buckets of 56,000, and each page
 * written costs a fault once a fork has shared it (a restart forks the
 * workload before every window). A histogram another process is adding
 * to may be read with its bounds and buckets out of step: an empty
 * range then, and histogram_whole() says so. */
static int used_range(const struct histogram *h, unsigned int *lo, unsigned int *hi)
{
	if (!h->count)
		return 0;
	*lo = bucket_index(h->min);
	*hi = bucket_index(h->max);
	return *lo <= *hi;
}

static void header_clear(struct histogram *h)
{
	h->count = h->min = h->max = 0;
	h->sum = h->sumsq = 0;
}

void histogram_clear(struct histogram *h)
{
	unsigned int lo, hi;

	if (used_range(h, &lo, &hi))
		memset(&h->bucket[lo], 0, (hi - lo + 1) * sizeof(h->bucket[0]));
	header_clear(h);
}

void histogram_copy(struct histogram *to, const struct histogram *from)
{
	unsigned int lo, hi;

	histogram_clear(to);
	/* the bounds read once: the buckets copied are those they name */
	to->count = from->count;
	to->min = from->min;
	to->max = from->max;
	to->sum = from->sum;
	to->sumsq = from->sumsq;
	if (used_range(to, &lo, &hi))
		memcpy(&to->bucket[lo], &from->bucket[lo], (hi - lo + 1) * sizeof(to->bucket[0]));
}

void histogram_add(struct histogram *h, uint64_t ns)
{
	double d = (double)ns;

	/* min starts at 0 in an empty histogram, so test count first */
	if (h->count == 0 || ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->count++;
	h->sum += d;
	h->sumsq += d * d;
	h->bucket[bucket_index(ns)]++;
}

static uint64_t bucket_held(const void *h, size_t i)
{
	return ((const struct histogram *)h)->bucket[i];
}

static void bucket_bounds(const void *h, size_t i, uint64_t *lo, uint64_t *hi)
{
	uint64_t width;

	*lo = bucket_lower((unsigned int)i, &width);
	*hi = *lo + width;	/* wraps to 0 past the top bucket */
}

uint64_t histogram_quantile(const struct histogram *h, double q)
{
	struct quantile_buckets b = {
		.n = HIST_BUCKETS, .held = bucket_held, .bounds = bucket_bounds,
		.h = h, .count = h->count, .min = h->min, .max = h->max,
	};

	return quantile_of_buckets(&b, q);
}

void histogram_summary(const struct histogram *h, struct latency_summary *out)
{
	double mean, var;

	memset(out, 0, sizeof(*out));
	if (h->count == 0)
		return;
	mean = h->sum / (double)h->count;
	/* population variance; rounding can make it a hair below zero */
	var = h->sumsq / (double)h->count - mean * mean;
	out->count = h->count;
	out->min = h->min;
	out->max = h->max;
	out->mean = mean;
	out->stddev = var > 0 ? sqrt(var) : 0;
	out->p50 = histogram_quantile(h, 0.50);
	out->p90 = histogram_quantile(h, 0.90);
	out->p99 = histogram_quantile(h, 0.99);
	out->p999 = histogram_quantile(h, 0.999);
	out->p9999 = histogram_quantile(h, 0.9999);
	{
		struct quantile_buckets b = {
			.n = HIST_BUCKETS, .held = bucket_held,
			.bounds = bucket_bounds, .h = h, .count = h->count,
			.min = h->min, .max = h->max,
		};

		latency_set_apart_stalls(out, &b);
	}
}

void histogram_merge(struct histogram *into, const struct histogram *from)
{
	unsigned int i, lo, hi;

	if (!from->count)
		return;
	if (!into->count || from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
	into->count += from->count;
	into->sum += from->sum;
	into->sumsq += from->sumsq;
	if (used_range(from, &lo, &hi))
		for (i = lo; i <= hi; i++)
			into->bucket[i] += from->bucket[i];
}

int histogram_whole(const struct histogram *h)
{
	uint64_t n = 0;
	unsigned int i, lo, hi;

	if (used_range(h, &lo, &hi))
		for (i = lo; i <= hi; i++)
			n += h->bucket[i];
	return n == h->count;
}

void histogram_since(struct histogram *h, const struct histogram *earlier)
{
	uint64_t width, lo, hi = 0;
	unsigned int i, from, to, elo, ehi;
	int first = 1;

	if (!earlier->count)
		return;
	/* earlier is h at an earlier time: its buckets lie in h's range */
	if (!used_range(h, &from, &to))
		from = 1, to = 0;
	if (used_range(earlier, &elo, &ehi))
		for (i = elo; i <= ehi; i++)
			h->bucket[i] -= earlier->bucket[i];
	h->count -= earlier->count;
	h->sum -= earlier->sum;
	h->sumsq -= earlier->sumsq;
	if (!h->count) {
		if (from <= to)
			memset(&h->bucket[from], 0, (to - from + 1) * sizeof(h->bucket[0]));
		header_clear(h);
		return;
	}
	for (i = from; i <= to; i++) {
		if (!h->bucket[i])
			continue;
		lo = bucket_lower(i, &width);
		if (first && lo > h->min)
			h->min = lo;
		first = 0;
		hi = lo + width - 1;
	}
	if (hi < h->max)
		h->max = hi;
}

int histogram_export(const struct histogram *h, struct profile_hist_bucket **out,
		     size_t *n)
{
	unsigned int i;
	size_t k = 0;

	*out = NULL;
	*n = 0;
	for (i = 0; i < HIST_BUCKETS; i++)
		k += h->bucket[i] != 0;
	if (!k)
		return 0;
	*out = calloc(k, sizeof(**out));
	if (!*out)
		return -1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		uint64_t width, lo;

		if (!h->bucket[i])
			continue;
		lo = bucket_lower(i, &width);
		(*out)[*n].lo = lo;
		(*out)[*n].hi = lo + width;
		(*out)[*n].count = h->bucket[i];
		(*n)++;
	}
	return 0;
}
