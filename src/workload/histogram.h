/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_HISTOGRAM_H
#define PERPKT_HISTOGRAM_H

#include <stdint.h>

#include "profile/profile.h"

/*
 * Log-linear latency histogram (HdrHistogram-like): fixed size, no
 * allocation, so it can live in memory shared between processes and
 * long runs cost no more memory than short ones. Values in ns; each
 * power-of-two range is split into HIST_SUB linear buckets, so the
 * relative error of a percentile is below 1/HIST_SUB. 1,024 sub-buckets
 * (values below 1,024 ns kept exactly) resolve a 0.1% shift in p50: at
 * 13 us a bucket is 8 ns wide. About 440 KiB per histogram.
 */
#define HIST_SUB_BITS 10
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_BUCKETS ((64 - HIST_SUB_BITS + 1) * HIST_SUB)

struct histogram {
	uint64_t count;
	uint64_t min, max;
	double sum, sumsq;
	uint64_t bucket[HIST_BUCKETS];
};

void histogram_init(struct histogram *h);
/* Empty h again, writing only the buckets between its min and max: a
 * window's opening does not sweep 440 KiB through the caches of the
 * round trips it is about to time. */
void histogram_clear(struct histogram *h);
/* to = from, writing only the buckets either used (not 440 KiB); from
 * may be a histogram another process is adding to: histogram_whole()
 * says whether the copy caught an add half-done. */
void histogram_copy(struct histogram *to, const struct histogram *from);
void histogram_add(struct histogram *h, uint64_t ns);
/* Value at quantile q (0..1): the midpoint of its bucket, clamped to
 * [min, max]. */
uint64_t histogram_quantile(const struct histogram *h, double q);
void histogram_summary(const struct histogram *h, struct latency_summary *out);
/* Add the counts of `from` into `into` (repeated windows into one). */
void histogram_merge(struct histogram *into, const struct histogram *from);
/* What was added to h since it was `earlier` (a copy of the same
 * histogram): counts, sums and buckets subtracted, min and max those
 * of the buckets left. */
void histogram_since(struct histogram *h, const struct histogram *earlier);
/* Whether h's buckets add up to its count: a copy of a histogram that
 * another process was adding to as it was read may have caught an add
 * half-done (its sums without the value, its bucket with it). */
int histogram_whole(const struct histogram *h);
/* The non-empty buckets, lowest first, for the profile (allocated). */
int histogram_export(const struct histogram *h, struct profile_hist_bucket **out,
		     size_t *n);

#endif
