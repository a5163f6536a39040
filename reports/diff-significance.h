/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_DIFF_SIGNIFICANCE_H
#define PERPKT_DIFF_SIGNIFICANCE_H

#include "reports/diff.h"

/*
 * Where a diff decides that B differs from A: the shift over the
 * standard error of the shift (Welch across repeats when both sides
 * have them, else the Poisson sampling error), marked "**" beyond
 * DIFF_SIGMA_2 and "*" beyond DIFF_SIGMA_1 (reports/diff.h).
 * diff_sig_basis() (diff.h) says it in words for the renderers.
 */

/* The mark of `shift` whose standard error is `sigma` > 0: 2, 1 or 0;
 * a sigma of 0 is a shift known exactly, marked 2 unless it is 0. */
int diff_mark_of(double shift, double sigma);
/* One row, B's cell against A's; `exact`: both profiles hold exact
 * counts, so one boot a side marks nothing. */
void diff_cmp_cells(struct diff_cmp *cmp, const struct diff_cell *a,
		    const struct diff_cell *b, int exact);
/* A cell's mean, spread and standard error once its rows are in (the
 * Poisson error without repeats; one sample's worth when it has none). */
void diff_cell_finish(struct diff_cell *c, const struct diff_profile *dp);
/* Both profiles of comparison i hold exact counts of the threaded
 * clock, which move from boot to boot: one boot a side marks nothing.
 * On the instruction clock (diff_deterministic) a boot repeats to the
 * instruction, so every difference is exact and marked as such. */
int diff_both_exact(const struct diff *d, size_t i);
/* One latency figure, b against a (< 0: unknown), with their standard
 * errors; rel DIFF_NO_REL when unknown. */
void diff_cmp_latency(struct diff_cmp *c, double a, double a_se, double b,
		      double b_se, int from_repeats);

#endif
