/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_PROFILE_LATENCY_STALLS_H
#define PERPKT_PROFILE_LATENCY_STALLS_H

#include <stddef.h>

#include "profile/histogram-quantile.h"
#include "profile/profile.h"

/*
 * Stalls: round trips longer than LATENCY_STALL_FACTOR x p50. On a VM
 * a few of them (hundreds of ms: the hypervisor, another guest) own
 * the mean; measured here, 10 x p50 sets apart 3 to 8 of 140000 round
 * trips in 2 s (p99.99 is 6 to 9 x p50), while a 932 ms one would have
 * been half the window. So the figure a report, stat and diff stand
 * on is the mean of the other round trips (latency_basis), and what
 * was set apart is counted and shown beside it; the mean itself still
 * holds every round trip.
 */
#define LATENCY_STALL_FACTOR 10

/* Fills l's stall fields from the buckets of its round trips (the
 * count, mean and p50 of l must be set); with no p50 they stay
 * unknown. */
void latency_set_apart_stalls(struct latency_summary *l,
			      const struct quantile_buckets *b);
/* The same from a profile's histogram (non-empty buckets, by lo). */
void latency_set_apart_stalls_hist(struct latency_summary *l,
				   const struct profile_hist_bucket *h,
				   size_t n);
/* The mean without stalls when known, else the mean; 0 when nothing
 * was timed. */
double latency_basis(const struct latency_summary *l);
/* The standard deviation that goes with latency_basis. */
double latency_basis_sd(const struct latency_summary *l);
/* The stalls' share of the time of all round trips, 0..1; 0 unknown. */
double latency_stall_share(const struct latency_summary *l);

#endif
