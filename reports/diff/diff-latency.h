/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_DIFF_LATENCY_H
#define PERPKT_DIFF_LATENCY_H

#include "reports/diff/diff.h"

/* One side's latency and percentiles: its windows' mean and standard
 * error where it has windows, else the run's (kept: the mean without
 * stalls, every profile having set them apart). */
void diff_latency_of(struct diff_profile *dp, int kept);
/* Each later side's latency and percentiles against A's (window by
 * window for the two sides of a run by turns). */
void diff_latency_compare(struct diff *d);
/* The host's speed on each side and B's against A's (diff.h). */
void diff_host_speed(struct diff *d);

#endif
