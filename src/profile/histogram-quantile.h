/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_PROFILE_HISTOGRAM_QUANTILE_H
#define PERPKT_PROFILE_HISTOGRAM_QUANTILE_H

#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"

/*
 * The one rule for a latency percentile, kept here so the recorder's
 * histogram (src/workload/histogram.c), a merge of profiles and the
 * reader's check of a profile all give the same value: the midpoint
 * of the bucket holding the ceil(q * count)-th round trip, clamped to
 * [min, max]; min at q <= 0 (and NaN), max at q >= 1, 0 when nothing
 * was timed.
 */
struct quantile_buckets {
	size_t n;			/* buckets, lowest values first */
	/* the round trips bucket i holds, and its values lo..hi-1 (hi
	 * may wrap to 0 past the top: hi - lo is still its width) */
	uint64_t (*held)(const void *h, size_t i);
	void (*bounds)(const void *h, size_t i, uint64_t *lo, uint64_t *hi);
	const void *h;
	uint64_t count, min, max;	/* round trips timed, fastest, slowest */
};

uint64_t quantile_of_buckets(const struct quantile_buckets *b, double q);

/* The same over a profile's buckets (its non-empty ones, by lo) and
 * the count, min and max of `l`. */
uint64_t profile_histogram_quantile(const struct profile_hist_bucket *buckets,
				    size_t n, const struct latency_summary *l,
				    double q);

#endif
