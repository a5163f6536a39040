/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_DIFF_SIGNIFICANCE_H
#define PERPKT_DIFF_SIGNIFICANCE_H

#include "reports/diff/diff.h"

/*
 * Where a diff decides that B differs from A (the rule and why:
 * diff-significance.c). Each row's comparison is tested when it is
 * built; diff_mark_all() then marks them together, once every row is
 * in. diff_sig_basis() and diff_sig_rule() (diff.h) say it in words.
 */

/* One figure of a side over its windows: the mean (value, < 0 unknown),
 * their sd and the standard error; n < 2: no spread. */
struct diff_figure {
	double value, sd, se;
	int n;
};

/* One row, B's cell against A's: the delta, and Welch's p where both
 * sides have windows; `deterministic`: exact on the instruction clock,
 * any difference is exact. */
void diff_cmp_cells(struct diff_cmp *cmp, const struct diff_cell *a,
		    const struct diff_cell *b, int deterministic);
/* A cell's mean, spread and standard error over its windows once its
 * rows are in (n < 2: no spread). */
void diff_cell_finish(struct diff_cell *c, const struct diff_profile *dp);
/* Both profiles of comparison i hold exact counts of the threaded
 * clock, which move from boot to boot: tested across boots. */
int diff_both_exact(const struct diff *d, size_t i);
/* One latency figure, b against a, tested as the rows are. */
void diff_cmp_latency(struct diff_cmp *c, const struct diff_figure *a,
		      const struct diff_figure *b);
/* The paired test of one row or figure window by window (a side's
 * values a[k], b[k], NaN for a window that tells nothing). */
void diff_cmp_paired(struct diff_cmp *c, const double *a, const double *b,
		     size_t n);
/* 1 when the diff's two profiles are the sides of one run by turns. */
int diff_by_turns(const struct diff *d);
/* Mark every comparison's rows together (Benjamini-Hochberg over the
 * rows it tested, the floor); -1 after printing (out of memory). */
int diff_mark_all(struct diff *d);
/* Set d->untested when a side has one window (or one boot). */
void diff_find_untested(struct diff *d);

#endif
